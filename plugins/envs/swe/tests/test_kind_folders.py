"""The kinds' template folders (projects/templates/KIND/): every folder is a kind, every file is
Python that parses and that ruff's pyflakes rules pass as it stands, and a folder that breaks the
rules gets an error naming the file and the field or line."""

from __future__ import annotations

import ast
import importlib.resources
import json
import shutil
import subprocess

import pytest
from rlhub_swe.projects.kinds import FIXED, MANIFEST, NAMES, kind, load
from rlhub_swe.projects.template import TemplateError

TEMPLATES = importlib.resources.files("rlhub_swe.projects") / "templates"


def placeholders(name: str) -> list[str]:
    k = kind(name)
    return [*FIXED, *k.names, *k.constants, *k.units.values]


def test_every_template_folder_is_a_kind():
    folders = [p.name for p in TEMPLATES.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))]
    assert sorted(folders) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_template_modules_parse_as_they_stand(name):
    modules = list((TEMPLATES / name).rglob("*.py"))
    assert len(modules) >= 15
    for path in modules:
        ast.parse(path.read_text(), str(path))


@pytest.mark.parametrize("name", NAMES)
def test_pyflakes_passes_the_template_folder(name):
    """Undefined names, redefinitions, unused variables: the placeholders are the only names the
    folder may use without defining them. (F401 aside: sched's tests/test_retry.py and csvq's
    planner.py import a name they never use, and taking it out would change those kinds' tasks.)"""
    ruff = pytest.importorskip("ruff", reason="ruff comes with rlhub-static (scripts/setup.sh installs it)")
    builtins = json.dumps([f"__{p}__" for p in placeholders(name)])
    command = [ruff.find_ruff_bin(), "check", "--no-cache", "--isolated", "--select", "F", "--ignore", "F401",
               "--config", f"builtins = {builtins}", "--output-format", "concise", str(TEMPLATES / name)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.fixture
def folder(tmp_path):
    """A copy of the ledger kind's folder, to break."""
    shutil.copytree(TEMPLATES / "ledger", tmp_path / "ledger")
    return tmp_path / "ledger"


def test_a_copied_folder_loads_as_the_same_kind(folder):
    copy, shipped = load(folder, "ledger"), kind("ledger")
    assert copy is not shipped
    for field in ("files", "tests", "units", "bugs", "features", "renames", "mutation_areas", "names", "constants"):
        assert getattr(copy, field) == getattr(shipped, field), field


BROKEN = [  # (file, text in it, what that text becomes: None removes the file, a new file is written), the error
    (MANIFEST, "count = [18, 31]", 'count = "many"', r"units.count: expected an array of integers, got 'many'"),
    (MANIFEST, "count = [18, 31]", "count = [31, 18]", r"units.count: expected \[fewest, most\]"),
    (MANIFEST, "count = [18, 31]", "count = [18, 31", r"templates/ledger/kind.toml: not valid TOML"),
    (MANIFEST, 'id = "paging"', "id = 7", r"kind.toml: bugs\[0\].id: expected a string, got 7"),
    (MANIFEST, "PAGE_SIZE = [10, 20, 25]", "PAGE_SIZE = []", r"constants.PAGE_SIZE: expected a non-empty"),
    (MANIFEST, "[names]\n", 'names = 3\n[x]\n', r"kind.toml: names: expected a table of arrays, got 3"),
    (MANIFEST, "[names]\n", '[names]\nname = ["x"]\n', r"placeholders \['name'\] would be written as Python's own"),
    (MANIFEST, '    "__pkg__/channels/__init__.py",\n', "", r"files must list __pkg__/channels/__init__.py"),
    ("__pkg__/stock.py", "", None, r"kind.toml: lists __pkg__/stock.py, which is not in templates/ledger/"),
    ("tests/test_money.py", "", None, r"lists tests/test_money.py, which is not in"),
    ("__pkg__/extra.py", "", "X = 1\n", r"templates/ledger/__pkg__/extra.py: not read by the kind"),
    ("__pkg__/money.py", "    # total_weight = sum(weights)", "    total_weight = sum(weights)",
     r"templates/ledger/__pkg__/money.py:\d+: a line of #@if's first part must be commented out"),
]


@pytest.mark.parametrize("path,old,new,message", BROKEN)
def test_a_broken_folder_names_the_file_and_what_is_wrong(folder, path, old, new, message):
    file = folder / path
    if new is None:
        file.unlink()
    elif not file.exists():
        file.write_text(new)
    else:
        assert old in file.read_text(), old
        file.write_text(file.read_text().replace(old, new, 1))
    with pytest.raises(TemplateError, match=message):
        load(folder, "ledger")


def test_an_unknown_kind_is_named():
    with pytest.raises(ValueError, match="unknown project kind 'nope'; expected one of ledger, conf"):
        kind("nope")
