"""The shipped real projects: pinned sdists (fetched by setup, refused when tampered), rows that
load and agree with their release, statements that never show the changed lines, and the
environments in the default registry."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile

import pytest
from rlhub_swe import patch, real, trees

import hub

PINS = sorted(real.pins().values(), key=lambda p: p.slug)


def test_every_pin_names_a_release_and_its_rows():
    assert PINS, "no real project is shipped"
    for pin in PINS:
        assert len(pin.sha256) == 64 and pin.sdist.endswith((".tar.gz", ".zip")) and pin.version in pin.sdist
        assert len(real.rows(pin.slug)) == pin.instances > 0
    # what the default registry promises: six or more projects from about 1k to 30k+ lines, 400+ instances
    assert len(PINS) >= 6 and sum(p.instances for p in PINS) >= 400
    assert min(p.lines for p in PINS) <= 2_000 and max(p.lines for p in PINS) >= 30_000


@pytest.mark.parametrize("slug", [p.slug for p in PINS])
def test_rows_agree_with_the_release(slug):
    """Each bug applies to the fetched release and touches its source only; the hidden modules are
    the release's test modules and hold every FAIL_TO_PASS and PASS_TO_PASS test; the statements
    repeat no changed line."""
    release = real.release_tree(slug)
    ids = set()
    for i, row in enumerate(real.rows(slug)):
        inst = real.instance(slug, i)
        assert row["instance_id"] not in ids
        ids.add(row["instance_id"])
        assert set(row["hidden_modules"]) <= set(release) and not set(row["hidden_modules"]) & set(inst.start)
        assert {t.split("::", 1)[0] for t in row["FAIL_TO_PASS"] + row["PASS_TO_PASS"]} <= set(row["hidden_modules"])
        assert not set(row["FAIL_TO_PASS"]) & set(row["PASS_TO_PASS"])
        touched = [c.path for c in patch.parse(row["bug_patch"])]
        assert touched and not set(touched) & set(row["hidden_modules"])
        assert patch.apply(inst.start, patch.parse(inst.gold_patch))[0] == inst.fixed
        changed = {ln[1:].strip() for ln in row["bug_patch"].splitlines()
                   if ln[:1] in "+-" and ln[:3] not in ("+++", "---") and len(ln[1:].strip()) >= 6}
        for text in row["statements"].values():
            assert not [c for c in changed if c in text], (row["instance_id"], text)


def test_the_real_environments_are_in_the_default_registry():
    catalog = hub.load(None)
    for pin in PINS:
        for mode in ("diff", "session", "session-tools"):
            assert catalog.get(f"swe/real-{pin.slug}-{mode}-v1").env is not None


def test_a_tampered_sdist_is_refused_naming_both_hashes(tmp_path, monkeypatch):
    pin = PINS[0]
    good = real.sdist_path(pin)
    monkeypatch.setenv("RLHUB_SWE_SDISTS", str(tmp_path))
    os.makedirs(real.cache_dir(pin))
    with open(good, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 2] ^= 0xFF
    with open(real.sdist_path(pin), "wb") as f:
        f.write(data)
    real._release.cache_clear()
    real.instance.cache_clear()
    try:
        with pytest.raises(trees.TreeError, match=f"pinned {pin.sha256}"):
            real.release_tree(pin.slug)
    finally:
        real._release.cache_clear()
        real.instance.cache_clear()


def test_fetch_refuses_what_the_index_serves_when_it_is_not_the_pinned_file(tmp_path):
    """A mirror serving another file under the pinned name: refused, named, exit 2, nothing cached."""
    pin = PINS[0]
    index = tmp_path / "index"
    index.mkdir()
    top = pin.sdist.removesuffix(".tar.gz")
    with tarfile.open(index / pin.sdist, "w:gz") as tar:
        for rel, text in {"PKG-INFO": f"Metadata-Version: 2.1\nName: {pin.name}\nVersion: {pin.version}\n",
                          "setup.py": f"from setuptools import setup\nsetup(name={pin.name!r}, version={pin.version!r})\n"}.items():
            info = tarfile.TarInfo(f"{top}/{rel}")
            info.size = len(text)
            tar.addfile(info, io.BytesIO(text.encode()))
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(index), "RLHUB_SWE_SDISTS": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-m", "hub.cli", "swe", "fetch"], capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"pinned {pin.sha256}: refused" in run.stderr and "Traceback" not in run.stderr
    assert not os.path.exists(os.path.join(tmp_path / "cache", pin.sha256[:16], pin.sdist))
    shutil.rmtree(index)


def test_a_broken_row_is_named_by_line_and_field():
    good = '{"instance_id": "a", "bug_patch": "x", "hidden_modules": ["t.py"], "FAIL_TO_PASS": ["t.py::a"], ' \
           '"PASS_TO_PASS": ["t.py::b"], "statements": {"terse": "t", "detailed": "d"}}'
    assert len(real.parse_rows(good + "\n", "f.jsonl")) == 1
    with pytest.raises(ValueError, match=r"f.jsonl line 2: field 'PASS_TO_PASS' must be a non-empty list"):
        real.parse_rows(good + "\n" + good.replace('["t.py::b"]', "[]") + "\n", "f.jsonl")
    with pytest.raises(ValueError, match="line 1: not JSON"):
        real.parse_rows("{oops\n", "f.jsonl")


REDTEAM = os.path.join(os.path.dirname(__file__), "redteam")


@pytest.mark.parametrize("name, env, reward", [
    ("sqlparse-0-tests-package-init", "swe/real-sqlparse-diff-v1", 0.0),
    ("docutils-0-tests-package-init", "swe/real-docutils-diff-v1", 0.0),
    ("sqlparse-0-genuine", "swe/real-sqlparse-diff-v1", 1.0),
])
def test_the_red_teams_fix_from_the_tests_own_package_earns_nothing(name, env, reward):
    """The red team's answers (given the README only): each edits only an existing test package's
    `__init__.py`, which patches the package when the tests import it, and the package keeps its
    bug. Both earned 1.0 while only the hidden modules were protected; every file in the hidden
    modules' test folders is the tests' own now. The genuine one-line fix still earns 1.0."""
    cat = hub.load(None)
    with open(os.path.join(REDTEAM, name + ".diff.md"), encoding="utf-8") as f:
        verdict = cat.verify({"env": env, "seed": 0}, f.read())
    assert verdict.reward == reward, verdict.details
    if reward == 0.0:
        assert verdict.details["ignored_edits"] and all(p.startswith(("tests/", "test/")) for p in verdict.details["ignored_edits"])
        assert "changes nothing once edits to tests" in verdict.details["reason"]


GATES = sorted(f.removesuffix(".diff.md") for f in os.listdir(REDTEAM) if f.endswith("-gate.diff.md"))


@pytest.mark.parametrize("name", GATES)
def test_the_red_teams_fixes_that_are_on_only_where_graded_earn_nothing(name):
    """The red team's fixes that switch themselves on only on the grading machine: its host name,
    working directory, the module's own path, the open-files limit, the stack's remaining depth.
    Each earned 1.0 (a user of the package still had the bug); in-process grading runs the tests
    once, so it refuses the shapes these need before any test runs."""
    slug = name.split("-")[0]
    cat = hub.load(None)
    with open(os.path.join(REDTEAM, name + ".diff.md"), encoding="utf-8") as f:
        verdict = cat.verify({"env": f"swe/real-{slug}-diff-v1", "seed": 0}, f.read())
    assert verdict.reward == 0.0 and verdict.details.get("refused") == "runner_access", verdict.details
    assert "the grading machine's identity" in verdict.details["reason"]


def test_a_fix_for_the_failing_tests_own_input_alone_earns_nothing():
    """The red team's click answer: the task has one FAIL_TO_PASS test (a boolean flag `--on/--off`
    is completed), and `... or "--on" in param.opts` passed it while every other flag stayed broken
    (1.0). A literal that only the failing test holds, and neither the repository nor the fix, is
    refused before any test runs; the gold fix still earns 1.0."""
    cat = hub.load(None)
    label = {"env": "swe/real-click-diff-v1", "seed": 0}
    with open(os.path.join(REDTEAM, "click-0-special-case.diff.md"), encoding="utf-8") as f:
        verdict = cat.verify(label, f.read())
    assert verdict.reward == 0.0 and verdict.details.get("refused") == "special_case", verdict.details
    assert "'--on', an input of a FAIL_TO_PASS test" in verdict.details["reason"]
    assert cat.verify(label, cat.task(label).reference).reward == 1.0


def test_a_partial_fix_earns_nothing_as_swe_bench_resolves():
    """The red team's no-op stub of docutils' missing `StringList.pad_double_width`: 6 of its 7
    FAIL_TO_PASS tests pass, and wide-character tables stay wrong. Under `reward: fraction` it
    earned 0.857; the real tasks are graded all or nothing."""
    cat = hub.load(None)
    with open(os.path.join(REDTEAM, "docutils-0-stub.diff.md"), encoding="utf-8") as f:
        verdict = cat.verify({"env": "swe/real-docutils-diff-v1", "seed": 0}, f.read())
    assert verdict.details["fail_to_pass"] == "6/7" and verdict.reward == 0.0 and not verdict.passed
