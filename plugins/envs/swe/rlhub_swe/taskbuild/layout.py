"""What in a project's tree is its code and what is its tests."""

from __future__ import annotations

import posixpath

TEST_DIRS = {"tests", "test", "testing"}
NOT_MODULES = {"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "tasks.py", "docs", "conf.py"}


def is_test(path: str) -> bool:
    """A test module: `test_*.py` / `*_test.py` at the root or under a tests/test/testing directory."""
    if not path.endswith(".py"):
        return False
    name = posixpath.basename(path)
    dirs = path.split("/")[:-1]
    return (name.startswith("test_") or name.endswith("_test.py")) and (not dirs or any(d in TEST_DIRS for d in dirs))


def in_test_dir(path: str) -> bool:
    return any(d in TEST_DIRS for d in path.split("/")[:-1])


def packages(tree: dict[str, str]) -> list[str]:
    """Top-level import names: packages at the root or under src/, and root modules that are not tests or tooling."""
    found = set()
    for path in tree:
        parts = path.split("/")
        if parts[0] == "src":
            parts = parts[1:]
        if len(parts) == 2 and parts[1] == "__init__.py" and parts[0] not in TEST_DIRS:
            found.add(parts[0])
        elif len(parts) == 1 and path.endswith(".py") and path not in NOT_MODULES and not is_test(path) and "/" not in path:
            found.add(path[:-3])
    return sorted(found)


def source_files(tree: dict[str, str], pkgs: list[str]) -> list[str]:
    """The modules a bug may go in: the packages' own code, never their tests or test helpers."""
    out = []
    for path in sorted(tree):
        if not path.endswith(".py") or is_test(path) or in_test_dir(path) or posixpath.basename(path) == "conftest.py":
            continue
        rel = path[4:] if path.startswith("src/") else path
        top = rel.split("/", 1)[0]
        if top in pkgs or rel[:-3] in pkgs:
            out.append(path)
    return out


def test_files(tree: dict[str, str]) -> list[str]:
    return sorted(p for p in tree if is_test(p))


def count_lines(tree: dict[str, str], paths: list[str]) -> int:
    return sum(tree[p].count("\n") for p in paths)
