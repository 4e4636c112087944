"""Throw-away plugin distributions, installed for real: a dist-info with an `rlhub` entry point
on sys.path, so discovery goes through importlib.metadata exactly as for `pip install`."""

from __future__ import annotations

import contextlib
import importlib
import sys
import textwrap
from pathlib import Path
from typing import Iterator


def make_plugin_dist(root: Path, dist: str, module: str, source: str, version: str = "0.1",
                     fragment: str | None = None) -> Path:
    """A minimal installed distribution (dist-info + module) registering `module` under `rlhub`.
    With `fragment` (registry YAML), `module` is a package shipping it as `registry.yaml`."""
    root.mkdir(parents=True, exist_ok=True)
    if fragment is None:
        (root / f"{module}.py").write_text(textwrap.dedent(source))
    else:
        (root / module).mkdir(exist_ok=True)
        (root / module / "__init__.py").write_text(textwrap.dedent(source))
        (root / module / "registry.yaml").write_text(textwrap.dedent(fragment))
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[rlhub]\n{module} = {module}\n")
    return root


@contextlib.contextmanager
def plugin_installed(root: Path, dist: str, module: str, source: str) -> Iterator[Path]:
    """`make_plugin_dist`, put on sys.path for this process while the block runs (the plugin
    manager's once-per-process discovery is redone on entry and on exit)."""
    from ..plugins.manager import installed

    make_plugin_dist(root, dist, module, source)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    installed.cache_clear()
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        sys.modules.pop(module, None)
        importlib.invalidate_caches()
        installed.cache_clear()
