"""A project's test dependencies, installed once at build time where the sandbox can read them.

They are found where projects declare them: the `test`/`tests`/`testing` extras of pyproject.toml
or setup.cfg, `requirements*test*.txt`/`test*requirements*.txt` (at the root, in requirements/ or
tests/), and tox.ini's `[testenv] deps`. pip installs them (with its index and proxy settings) with
`--target` into a folder keyed by the project, its version and the requirements' hash, under
$RLHUB_SWE_DEPS or ~/.cache/rlhub/swe-deps/. The sandbox mounts that folder read-only at
MOUNT_POINT and the harness puts it on sys.path: no network while the tests run. pytest itself and
coverage tools are the sandbox's own and never installed again."""

from __future__ import annotations

import configparser
import hashlib
import os
import re
import shutil
import subprocess
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

from hub.core.errors import UserError

MOUNT_POINT = "/opt/rlhub-swe-deps"
EXTRAS = ("test", "tests", "testing")
ALREADY_THERE = {"pytest", "pytest-cov", "coverage", "pytest-xdist", "pytest-randomly", "tox", "nox", "pre-commit",
                 "flake8", "mypy", "black", "ruff", "isort", "pylint", "sphinx"}
REQ_FILE = re.compile(r"^(?:requirements/|tests?/)?(?:requirements[-_.]?)?(?:test|tests|testing)[-_.]?(?:requirements)?\.(?:txt|in)$")


class DepsError(UserError):
    """The test dependencies could not be installed (named in the build's error, exit 2)."""


def _name(req: str) -> str:
    return re.split(r"[\s<>=!~;\[(@]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def declared(tree: dict[str, str], project: str) -> list[str]:
    """The test requirements the project declares (pip requirement strings, first seen first)."""
    found: list[str] = []
    if "pyproject.toml" in tree:
        try:
            data = tomllib.loads(tree["pyproject.toml"])
        except tomllib.TOMLDecodeError:
            data = {}
        extras = (data.get("project") or {}).get("optional-dependencies") or {}
        for key in EXTRAS:
            found += [str(r) for r in extras.get(key) or []]
    if "setup.cfg" in tree:
        cfg = configparser.ConfigParser(interpolation=None)
        try:
            cfg.read_string(tree["setup.cfg"])
            for key in EXTRAS:
                if cfg.has_option("options.extras_require", key):
                    found += cfg.get("options.extras_require", key).splitlines()
        except configparser.Error:
            pass
    for path in sorted(tree):
        if REQ_FILE.match(path):
            found += tree[path].splitlines()
    if "tox.ini" in tree:
        cfg = configparser.ConfigParser(interpolation=None)
        try:
            cfg.read_string(tree["tox.ini"])
            if cfg.has_option("testenv", "deps"):
                found += cfg.get("testenv", "deps").splitlines()
        except configparser.Error:
            pass
    out, seen = [], set()
    for line in found:
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith(("-", "{", ".")) or "{" in line:
            continue  # options, tox substitutions, local paths: not requirements pip can take here
        name = _name(line)
        if name and name not in seen and name not in ALREADY_THERE and name != project.lower().replace("_", "-"):
            seen.add(name)
            out.append(line)
    return out


def cache_root() -> str:
    return os.environ.get("RLHUB_SWE_DEPS") or os.path.join(os.path.expanduser("~"), ".cache", "rlhub", "swe-deps")


def install(project: str, version: str, requirements: list[str]) -> str | None:
    """The folder holding `requirements` (installed now unless an earlier build did); None if there are none."""
    if not requirements:
        return None
    key = hashlib.sha256("\n".join(sorted(requirements)).encode()).hexdigest()[:16]
    target = os.path.join(cache_root(), f"{re.sub(r'[^A-Za-z0-9.]+', '-', project)}-{version}-{key}")
    if os.path.isfile(os.path.join(target, ".rlhub-complete")):
        return target
    tmp = target + ".part"
    shutil.rmtree(tmp, ignore_errors=True)
    run = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-compile",
                          "--target", tmp, *requirements], capture_output=True, text=True, timeout=1800, check=False)
    if run.returncode:
        shutil.rmtree(tmp, ignore_errors=True)
        last = (run.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise DepsError(f"cannot install {project}'s test dependencies ({', '.join(requirements)}): {last}")
    with open(os.path.join(tmp, ".rlhub-complete"), "w", encoding="utf-8") as f:
        f.write("\n".join(requirements) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp, target)
    return target
