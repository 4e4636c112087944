"""Test helpers: real plugins installed through real entry points, and the CLI run as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def make_plugin_dist(root: Path, dist: str, module: str, source: str, version: str = "0.1") -> Path:
    """A minimal installed distribution (dist-info + module) registering `module` under `rlhub`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{module}.py").write_text(textwrap.dedent(source))
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[rlhub]\n{module} = {module}\n")
    return root


def run_rlhub(*args: str, cwd: Path | None = None, pythonpath: Path | None = None, stdin: str | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "hub.cli", *args], cwd=cwd or REPO, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout)
