"""What a user's Python looks like, for the processes that run the model's code: a virtual
environment `.venv` in the work dir and a user's environment variables.

The solution's process (stand_in.py) starts as `.venv/bin/python` with `site` loaded and no
interpreter flags, so its `sys.flags`, builtins (`exit`, `credits`, `help`...), `sys.prefix`,
`sys.executable` and `sys.path` are those of a user's `python` in a venv; a fix that asks the
process whether it is graded gets the answer a user's process gives. The venv's site-packages
holds what the host's Python has installed (links, made per run: a few ms), except rlhub itself:
its packages, its editable-install finders and every `.pth` file (each runs code at start-up),
so nothing of rlhub's is importable or listed among the installed distributions there.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys

VENV = ".venv"
# Installed names that are rlhub's own (its dist-infos, its editable installs' finders), or start-up
# hooks of the host's environment (`.pth` files are left out whatever their name).
_NOT_LINKED = ("rlhub", "__editable__", "_sandboxing", "_distutils_hack", "distutils-precedence")


def _site_dirs() -> list[str]:
    """The host's site-packages directories, in sys.path order."""
    out = []
    for entry in sys.path:
        if entry and os.path.basename(entry.rstrip("/")) in ("site-packages", "dist-packages") and os.path.isdir(entry):
            path = os.path.realpath(entry)
            if path not in out:
                out.append(path)
    return out


def _linked(name: str) -> bool:
    low = name.lower()
    if low.endswith(".pth") or low in ("__pycache__", "readme.txt", "hub"):
        return False
    return not low.startswith(_NOT_LINKED)


@functools.lru_cache(maxsize=1)
def installed() -> tuple[tuple[str, str], ...]:
    """(name, path) of every installed package, module and dist-info the venv links (first wins)."""
    seen: dict[str, str] = {}
    for site in _site_dirs():
        try:
            names = sorted(os.listdir(site))
        except OSError:
            continue
        for name in names:
            if name not in seen and _linked(name):
                seen[name] = os.path.join(site, name)
    return tuple(seen.items())


def make_venv(root: str, python: str = sys.executable) -> str:
    """`root/.venv` made afresh (whatever the tree had there is replaced); its python's path."""
    venv = os.path.join(root, VENV)
    if os.path.lexists(venv):
        if os.path.isdir(venv) and not os.path.islink(venv):
            shutil.rmtree(venv, ignore_errors=True)
        else:
            os.unlink(venv)
    real = os.path.realpath(python)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = os.path.join(venv, "lib", version, "site-packages")
    os.makedirs(site)
    os.makedirs(os.path.join(venv, "bin"))
    exe = os.path.join(venv, "bin", "python")
    for name in ("python", "python3", version):
        os.symlink(real, os.path.join(venv, "bin", name))
    with open(os.path.join(venv, "pyvenv.cfg"), "w") as f:
        f.write(f"home = {os.path.dirname(real)}\ninclude-system-site-packages = false\n"
                f"version = {'.'.join(map(str, sys.version_info[:3]))}\nexecutable = {real}\n")
    for name, path in installed():
        os.symlink(path, os.path.join(site, name))
    return exe


def environment(workdir: str, home: str | None = None) -> dict[str, str]:
    """A user's environment in a shell where `.venv` is activated (nothing of rlhub's, no PYTHON*)."""
    venv = os.path.join(workdir, VENV)
    return {"PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", "HOME": home or os.environ.get("HOME", workdir),
            "LANG": "C.UTF-8", "TERM": "xterm", "USER": "user", "LOGNAME": "user", "SHELL": "/bin/bash",
            "PWD": workdir, "VIRTUAL_ENV": venv}
