"""Test helpers: real plugins installed through real entry points, and the CLI run as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hub.testing.plugins import make_plugin_dist  # noqa: F401  (the tests' name for it)

REPO = Path(__file__).resolve().parent.parent


def run_rlhub(*args: str, cwd: Path | None = None, pythonpath: Path | None = None, stdin: str | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "hub.cli", *args], cwd=cwd or REPO, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


NOTES = ("rlhub: registry: ", "rlhub: warning: ")


def one_line_error(stderr: str) -> str:
    """The error line of a failed command (after at most the registry and warning notes); fails
    the test on a traceback, a second error or any other output. A file with several problems
    (a registry, a run file) gets one `file:line: field: ...` line per problem after the first."""
    import re

    lines = [line for line in stderr.splitlines() if line.strip()]
    assert lines and "Traceback" not in stderr, stderr
    at = next((i for i, line in enumerate(lines) if line.startswith("rlhub: error: ")), None)
    assert at is not None, stderr
    assert all(line.startswith(NOTES) for line in lines[:at]), stderr
    assert all(re.match(r"^\S+:\d+: ", line) for line in lines[at + 1:]), stderr
    return lines[at]
