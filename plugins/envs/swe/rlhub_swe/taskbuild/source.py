"""Where a project comes from: a local directory (a git repository or a plain tree), a source
tarball, or a release on the package index (`pypi:NAME==VERSION`, its sdist). Each becomes an
in-memory tree `{relative path: text}`; the package index is reached through pip only, at build
time (the sandbox never has a network)."""

from __future__ import annotations

import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass

from hub.core.errors import UserError

from .. import trees

PYPI = re.compile(r"^pypi:([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9][A-Za-z0-9.+!_-]*)$")
SKIP_DIRS = {".git", ".hg", ".tox", ".nox", ".venv", "venv", "__pycache__", "build", "dist", ".eggs", "node_modules",
             ".mypy_cache", ".pytest_cache", "docs", "doc"}
MAX_FILES = 20_000             # a larger tree is refused, named in the report
NATIVE = (".c", ".cc", ".cpp", ".pyx", ".pxd", ".rs", ".f90")


class SourceError(UserError):
    """The project cannot be had or used (named in the build report, exit 2)."""


@dataclass
class Project:
    name: str                       # the distribution name, or the directory's
    version: str
    tree: dict[str, str]            # text files only
    origin: str                     # what SOURCE said
    sha256: str = ""                # of the sdist or tarball ("" for a directory)


def load(source: str, cache_dir: str | None = None) -> Project:
    m = PYPI.match(source)
    if m:
        name, version = m.groups()
        path = download_sdist(name, version, cache_dir)
        return Project(name, version, read_tarball(path), source, sha256_of(path))
    if os.path.isdir(source):
        name = os.path.basename(os.path.abspath(source).rstrip("/"))
        return Project(name, _git_version(source), read_dir(source), source)
    if os.path.isfile(source) and tarfile.is_tarfile(source):
        base = re.sub(r"\.(tar\.gz|tgz|tar\.bz2|tar\.xz|tar)$", "", os.path.basename(source))
        name, _, version = base.rpartition("-") if re.search(r"-\d", base) else (base, "", "0")
        return Project(name or base, version or "0", read_tarball(source), source, sha256_of(source))
    raise SourceError(f"SOURCE {source!r}: expected a directory, a source tarball (.tar.gz), or pypi:NAME==VERSION")


def sha256_of(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download_sdist(name: str, version: str, cache_dir: str | None = None) -> str:
    """The sdist of NAME==VERSION through pip (its index and proxy settings, PIP_INDEX_URL and
    PIP_FIND_LINKS included), kept in `cache_dir`. pip prepares the sdist's metadata, which needs its
    build backend: tried with the backends already installed first (no download), then isolated."""
    cache_dir = cache_dir or os.path.join(os.path.expanduser("~"), ".cache", "rlhub", "sdists", "by-name")
    os.makedirs(cache_dir, exist_ok=True)
    for f in os.listdir(cache_dir):
        if _is_sdist_of(f, name, version):
            return os.path.join(cache_dir, f)
    base = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
            "--no-binary", ":all:", "-d", cache_dir, f"{name}=={version}"]
    errors = []
    for extra in (["--no-build-isolation"], []):
        run = subprocess.run([*base, *extra], capture_output=True, text=True, timeout=600)
        if run.returncode == 0:
            break
        errors.append(run.stderr.strip().splitlines()[-1:] or ["(no message)"])
    else:
        raise SourceError(f"cannot download the sdist of {name}=={version}: {errors[-1][0]}")
    for f in os.listdir(cache_dir):
        if _is_sdist_of(f, name, version):
            return os.path.join(cache_dir, f)
    raise SourceError(f"pip downloaded no sdist for {name}=={version} (the release may have only wheels)")


def _is_sdist_of(filename: str, name: str, version: str) -> bool:
    """'toolz-1.0.0.tar.gz' is toolz==1.0.0's (names compared as the package index normalises them)."""
    m = re.fullmatch(r"(.+)-([^-]+)\.(?:tar\.gz|zip)", filename)
    norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()  # noqa: E731
    return bool(m) and norm(m.group(1)) == norm(name) and m.group(2) == version


def read_tarball(path: str) -> dict[str, str]:
    try:
        with open(path, "rb") as f:
            files = trees._from_tar(io.BytesIO(f.read()), path)
    except trees.TreeError as exc:
        raise SourceError(str(exc)) from None
    return _checked({p: t for p, t in files if not _skipped(p)}, path)


def read_dir(root: str) -> dict[str, str]:
    if os.path.isdir(os.path.join(root, ".git")):  # what is committed, as a clone would have it
        run = subprocess.run(["git", "-C", root, "archive", "--format=tar", "HEAD"], capture_output=True)
        if run.returncode == 0:
            files = trees._from_tar(io.BytesIO(run.stdout), root)
            return _checked({p: t for p, t in files if not _skipped(p)}, root)
    out: dict[str, str] = {}
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        for n in names:
            path = os.path.join(here, n)
            rel = os.path.relpath(path, root)
            if os.path.islink(path) or os.path.getsize(path) > trees.MAX_FILE_BYTES:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    out[rel] = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            if len(out) > MAX_FILES:
                raise SourceError(f"{root}: more than {MAX_FILES} files (a repository this large is not built)")
    return _checked(out, root)


def _skipped(path: str) -> bool:
    parts = path.split("/")
    return any(p in SKIP_DIRS or p.endswith(".egg-info") for p in parts[:-1]) or path.endswith((".pyc", ".pyo"))


def _checked(tree: dict[str, str], where: str) -> dict[str, str]:
    if len(tree) > MAX_FILES:
        raise SourceError(f"{where}: more than {MAX_FILES} files (a repository this large is not built)")
    if not any(p.endswith(".py") for p in tree):
        raise SourceError(f"{where}: no Python files")
    return tree


def native_files(tree: dict[str, str], packages: list[str]) -> list[str]:
    """C/Cython/Rust sources inside the project's packages: a build step the sandbox cannot run."""
    return sorted(p for p in tree if p.endswith(NATIVE) and any(p.startswith(k + "/") or p.startswith("src/" + k + "/")
                                                                  for k in packages))


def _git_version(root: str) -> str:
    run = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else "0"

