"""The suite collects tests/ and every plugin's tests/ in one run (scripts/test.sh). A folder that
is not a package has its modules imported by basename: two modules of one name in two such folders
break collection (it did: cad's and docqa's test_tools.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_plugin_test_modules_have_names_of_their_own():
    files = [*REPO.glob("tests/**/*.py"), *REPO.glob("plugins/*/*/tests/**/*.py")]
    names = Counter(p.name for p in files if not (p.parent / "__init__.py").exists())
    assert not [n for n, k in names.items() if k > 1 and n != "conftest.py"]
