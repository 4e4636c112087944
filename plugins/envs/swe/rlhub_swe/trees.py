"""Repository trees: the base a task starts from, and what a final tree may and may not change.

A tree is `{relative path: text}`. Bases come from three places, each cached per process:
- a generated project (`{"generated": {kind, seed, units, flags, names, drop_tests}}`), rendered again;
- a git repository at a commit (`{"git": {"repo": path, "commit": sha}}`), read with `git archive`;
- a tarball of the repository (`{"tarball": path}`), read with `tarfile`;
- a shipped real project's instance (`{"real": {project, row}}`): its release with the bug, without
  the hidden test modules (rlhub_swe.real).
"""

from __future__ import annotations

import fnmatch
import functools
import io
import subprocess
import tarfile
from typing import Any

from .projects.kinds import kind as project_kind
from .projects.model import Variant, render

MAX_FILE_BYTES = 1 << 20        # one file of a tree (larger ones are left out and named)
MAX_TREE_BYTES = 24 << 20       # all of them
# Files that configure how tests are collected and run: a model's edits to them never reach the
# hidden tests (SWE-bench applies its test patch over the model's; here they are put back).
TEST_CONFIG = ("conftest.py", "*/conftest.py", "pytest.ini", "setup.cfg", "tox.ini", "pyproject.toml", "sitecustomize.py",
               "*/sitecustomize.py", "usercustomize.py", "*.pth",
               # installed-distribution metadata on sys.path: a pytest11 entry point there loads as a plugin
               "*.dist-info/*", "*.egg-info/*", "*.egg-link")


class TreeError(ValueError):
    """The base tree cannot be had (a missing repository or commit): the task's fault, no verdict."""


def variant_of(recipe: dict[str, Any]) -> Variant:
    return Variant(frozenset(recipe.get("flags", ())), tuple(tuple(x) for x in recipe.get("names", ())))


def generated(recipe: dict[str, Any]):
    return render(project_kind(recipe["kind"]), int(recipe["seed"]), variant_of(recipe), recipe.get("units"),
                  tuple(recipe.get("drop_tests", ())))


@functools.lru_cache(maxsize=16)
def _git(repo: str, commit: str) -> tuple[tuple[str, str], ...]:
    try:
        data = subprocess.run(["git", "-C", repo, "archive", "--format=tar", commit], capture_output=True, check=True,
                              timeout=120).stdout
    except FileNotFoundError:
        raise TreeError("git is not installed: cannot read the task's repository") from None
    except subprocess.CalledProcessError as exc:
        raise TreeError(f"cannot read commit {commit} of {repo}: {exc.stderr.decode(errors='replace').strip()[:300]}") from None
    return _from_tar(io.BytesIO(data), f"{repo}@{commit}")


@functools.lru_cache(maxsize=16)
def _tarball(path: str) -> tuple[tuple[str, str], ...]:
    try:
        with open(path, "rb") as f:
            return _from_tar(io.BytesIO(f.read()), path)
    except OSError as exc:
        raise TreeError(f"cannot read the repository tarball {path}: {exc}") from None


def _from_tar(stream, where: str) -> tuple[tuple[str, str], ...]:
    files = []
    try:
        with tarfile.open(fileobj=stream) as tar:
            members = [m for m in tar.getmembers() if m.isfile()]
            prefix = _common_prefix([m.name for m in members])
            for m in members:
                if m.size > MAX_FILE_BYTES:
                    continue
                data = tar.extractfile(m).read()
                try:
                    files.append((m.name[len(prefix):], data.decode("utf-8")))
                except UnicodeDecodeError:
                    continue  # binary files are not part of a text tree
    except tarfile.TarError as exc:
        raise TreeError(f"{where}: not a readable tar archive: {exc}") from None
    return tuple(sorted(files))


def _common_prefix(names: list[str]) -> str:
    """'repo-1.0/' when every member sits under one top directory (as release tarballs do)."""
    tops = {n.split("/", 1)[0] for n in names if "/" in n}
    if len(tops) == 1 and all("/" in n for n in names):
        return tops.pop() + "/"
    return ""


def base_tree(base: dict[str, Any]) -> dict[str, str]:
    if "generated" in base:
        return dict(generated(base["generated"]).files)
    if "git" in base:
        return dict(_git(base["git"]["repo"], base["git"]["commit"]))
    if "tarball" in base:
        return dict(_tarball(base["tarball"]))
    if "real" in base:
        from .real import start_tree

        return start_tree(str(base["real"]["project"]), int(base["real"]["row"]))
    raise TreeError(f"unknown kind of base tree: {sorted(base)}")


def protected(path: str, globs: list[str] | tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(path, g) for g in (*TEST_CONFIG, *globs))


def restore(base: dict[str, str], final: dict[str, str], globs: list[str]) -> tuple[dict[str, str], list[str]]:
    """`final` with every protected path as it was in `base` (added ones removed): (tree, what was put back).

    A protected path always wins over what the model left in its way: its file where a protected
    directory was (`tests` replacing `tests/`), its files below a protected file (`pyproject.toml/`
    made a directory). Those are removed and named with the rest, so the restored tree can always
    be written out."""
    out = dict(final)
    put_back = []
    for path in sorted(set(base) | set(final)):
        if protected(path, globs) and base.get(path) != final.get(path):
            put_back.append(path)
            if path in base:
                out[path] = base[path]
            else:
                out.pop(path, None)
    restored = {p for p in put_back if p in base}
    for above, below in clashes(out):
        if above in restored and below in out:
            del out[below]  # the model's file under a protected file
            put_back.append(below)
        elif below in restored and above in out:
            del out[above]  # the model's file where a protected directory is
            put_back.append(above)
    return out, sorted(put_back)


def clashes(tree: dict[str, str]) -> list[tuple[str, str]]:
    """(file, path below it) for every path of `tree` that is also a directory of another: such a
    tree cannot exist on disk (nothing a session leaves makes one; a restore or a diff could)."""
    found = []
    for path in sorted(tree):
        parts = path.split("/")
        found += [(above, path) for above in ("/".join(parts[:i]) for i in range(1, len(parts))) if above in tree]
    return found


def bad_path(path: str) -> str | None:
    """Why `path` cannot be written into a work dir as it stands (None when it can)."""
    parts = path.split("/")
    if not path or path.startswith("/") or any(p in ("", ".", "..") for p in parts):
        return "not a plain relative path"
    if "\x00" in path:
        return "a NUL character in its name"
    if len(path.encode("utf-8", "surrogateescape")) > 4000 or any(len(p.encode("utf-8", "surrogateescape")) > 255 for p in parts):
        return "a name too long for a file system"
    return None


def changed(base: dict[str, str], final: dict[str, str]) -> list[str]:
    return sorted(p for p in set(base) | set(final) if base.get(p) != final.get(p))
