"""The suite collects every plugin's tests/ in one run (scripts/test.sh). Those folders are not
packages, so pytest imports their modules by basename: two test files of one name in two plugins
break collection (it did: cad's and docqa's test_tools.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_plugin_test_modules_have_names_of_their_own():
    names = Counter(p.name for p in REPO.glob("plugins/*/*/tests/**/*.py")
                    if not (p.parent / "__init__.py").exists())
    assert not [n for n, k in names.items() if k > 1 and n != "conftest.py"]
