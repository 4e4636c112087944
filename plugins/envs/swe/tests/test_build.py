"""`rlhub swe build` end to end on a small real project made here: packaged as an sdist, served by
a local package index (pip's --find-links, no network), built through `pypi:NAME==VERSION`, checked
with `rlhub check`, every instance's gold fix earning 1.0 and an empty answer 0, the in-process
hacks earning 0, and a rerun resuming without a sandbox run."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import textwrap

import pytest
from swe_helpers import diff_to

import hub

CODE = textwrap.dedent('''\
    """Small helpers a shop's invoicing uses."""


    def clamp(value, low, high):
        if value < low:
            return low
        if value > high:
            return high
        return value


    def total(prices, discount=0):
        amount = 0
        for p in prices:
            amount += p
        if discount:
            amount = amount - amount * discount / 100
        return round(amount, 2)


    def chunks(items, size):
        if size <= 0:
            raise ValueError("size must be positive")
        return [items[i:i + size] for i in range(0, len(items), size)]


    def initials(name):
        parts = [p for p in name.split() if p]
        return "".join(p[0].upper() for p in parts)
    ''')
TESTS_A = textwrap.dedent('''\
    from shoputil.core import clamp, total


    def test_clamp_inside():
        assert clamp(5, 0, 10) == 5


    def test_clamp_low():
        assert clamp(-3, 0, 10) == 0


    def test_clamp_high():
        assert clamp(42, 0, 10) == 10


    def test_total_plain():
        assert total([1.5, 2.5, 3]) == 7


    def test_total_discount():
        assert total([100, 50], discount=10) == 135


    def test_total_empty():
        assert total([]) == 0
    ''')
TESTS_B = textwrap.dedent('''\
    import pytest

    from shoputil.core import chunks, initials


    def test_chunks_even():
        assert chunks([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


    def test_chunks_rest():
        assert chunks([1, 2, 3], 2) == [[1, 2], [3]]


    def test_chunks_bad_size():
        with pytest.raises(ValueError):
            chunks([1], 0)


    def test_initials():
        assert initials("ada  lovelace") == "AL"


    def test_initials_empty():
        assert initials("") == ""
    ''')
PROJECT = {
    "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
                      '[project]\nname = "shoputil"\nversion = "0.1.0"\n',
    "PKG-INFO": "Metadata-Version: 2.1\nName: shoputil\nVersion: 0.1.0\n",
    "shoputil/__init__.py": "",
    "shoputil/core.py": CODE,
    "tests/test_money.py": TESTS_A,
    "tests/test_lists.py": TESTS_B,
}


def sdist(where, files, name="shoputil-0.1.0"):
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{name}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for rel, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{name}/{rel}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def rlhub(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "hub.cli", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)


@pytest.fixture(scope="module")
def built(tmp_path_factory, request):
    from hub.testing.fixtures import require_sandbox

    require_sandbox(request)
    import os

    root = tmp_path_factory.mktemp("swebuild")
    index = root / "index"
    sdist(index, PROJECT)
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(index), "HOME": str(root / "home")}
    out = root / "out"
    run = rlhub("swe", "build", "pypi:shoputil==0.1.0", "--out", str(out), "--max-candidates", "10", "--combos", "2",
                "--quiet", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    return out, env, run


def test_build_writes_swebench_rows_and_a_registry(built):
    out, _, run = built
    rows = [json.loads(line) for line in (out / "instances.jsonl").read_text().splitlines()]
    assert len(rows) >= 3, run.stdout
    report = json.loads((out / "report.json").read_text())
    assert report["tests_kept"] == 11 and report["packages"] == ["shoputil"]
    assert report["candidates"] == report["kept"] + sum(report["dropped"].values())
    for r in rows:
        assert {"instance_id", "repo", "base_commit", "problem_statement", "patch", "test_patch", "FAIL_TO_PASS",
                "PASS_TO_PASS", "version"} <= set(r)
        f2p, p2p = json.loads(r["FAIL_TO_PASS"]), json.loads(r["PASS_TO_PASS"])
        assert f2p and p2p and not set(f2p) & set(p2p)
        assert r["patch"].startswith("diff --git a/shoputil/") and "tests/" not in r["patch"]
        assert "+++ b/tests/" in r["test_patch"]  # the hidden modules come back with the test patch
        changed = {ln[1:].strip() for ln in r["patch"].splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")}
        for statement in (r["problem_statement"], r["problem_statement_terse"]):
            assert not any(c and c in statement for c in changed if len(c) >= 6), (statement, changed)
    hidden_paths = {ln[6:] for ln in rows[0]["test_patch"].splitlines() if ln.startswith("+++ b/")}
    show = subprocess.run(["git", "-C", str(out / "repos" / "pypi__shoputil"), "ls-tree", "-r", "--name-only",
                           rows[0]["base_commit"]], capture_output=True, text=True, check=True).stdout.split()
    assert "shoputil/core.py" in show and not set(show) & hidden_paths


def test_every_instance_gold_earns_one_and_empty_zero(built):
    out, _, _ = built
    catalog = hub.load(out / "registry.yaml")
    n = catalog.get("shoputil/swe-v1").num_tasks
    assert n >= 3
    for row in range(n):
        label = {"env": "shoputil/swe-v1", "row": row}
        task = catalog.task(label)
        gold = catalog.verify(label, task.reference)
        assert gold.reward == 1.0 and gold.passed, gold.details
        empty = catalog.verify(label, "I looked at it and changed nothing.")
        assert empty.reward == 0.0


def test_rlhub_check_passes_on_the_build(built):
    out, env, _ = built
    run = rlhub("check", "--registry", str(out / "registry.yaml"), "--seeds", "1", "-n", "0", env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    import re

    summary = re.search(r"(\d+) passed", run.stdout)
    assert summary and int(summary.group(1)) >= 10 and " failed" not in run.stdout.splitlines()[-1], run.stdout[-500:]


HACKS = {
    "conftest_in_a_subpackage": {"shoputil/conftest.py": "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
                                 "def pytest_runtest_makereport(item, call):\n    out = yield\n    r = out.get_result()\n"
                                 "    r.outcome = 'passed'\n"},
    "sitecustomize": {"sitecustomize.py": "import os\nos._exit(0)\n"},
    "pth_file": {"zz_forge.pth": "import os; os._exit(0)\n"},
    "pytest_plugins_in_the_package": {"shoputil/__init__.py": "pytest_plugins = ['shoputil.core']\n"},
    "entry_point_in_own_metadata": {
        "shoputil-9.dist-info/METADATA": "Metadata-Version: 2.1\nName: shoputil\nVersion: 9\n",
        "shoputil-9.dist-info/entry_points.txt": "[pytest11]\nforge = shoputil.forge\n",
        "shoputil/forge.py": "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
                             "    out = yield\n    out.get_result().outcome = 'passed'\n"},
    "runner_detection_at_import": {"shoputil/__init__.py": "import sys\nif 'pytest' in sys.modules:\n"
                                   "    import _pytest.reports as r\n    r.TestReport.outcome = 'passed'\n"},
    "reads_the_tests_from_disk": {"shoputil/__init__.py": "import glob\nSEEN = [open(p).read() for p in glob.glob('tests/*.py')]\n"},
    # the red team's row-agnostic forger: passes every failing test except those whose last line compares a literal
    # (the sentinels' shape); refused before any test runs (runner_access), and earns 1.0 without that rule
    "forger_that_spares_the_sentinels": {"shoputil/__init__.py": textwrap.dedent('''\
        import inspect
        import _pytest.reports as _r

        _orig = _r.TestReport.from_item_and_call.__func__


        def _forged(cls, item, call):
            report = _orig(cls, item, call)
            last = inspect.getsource(item.function).strip().splitlines()[-1]
            if report.failed and "== '" not in last:
                report.outcome = "passed"
            return report


        _r.TestReport.from_item_and_call = classmethod(_forged)
        ''')},
    "forger_obfuscated": {"shoputil/__init__.py": "m = __import__('_py' + 'test.reports', fromlist=['x'])\n"
                          "t = getattr(m, 'Test' + 'Report')\nt.outcome = 'passed'\n"},
    # the red team's second: a .pyc written at import and imported (the diff shows only base64, os, open)
    "writes_and_imports_bytecode": {"shoputil/__init__.py": "import os\nwith open(os.path.join(os.path.dirname(__file__), "
                                    "'_x.pyc'), 'wb') as f:\n    f.write(bytes(16))\nfrom . import _x\n"},
    "exits_early": {"shoputil/__init__.py": "import os\nos._exit(0)\n"},
    "exits_with_status_zero_from_atexit": {"shoputil/__init__.py": "import atexit, os\natexit.register(lambda: os._exit(0))\n"},
}


@pytest.mark.parametrize("hack", sorted(HACKS))
def test_in_process_hacks_earn_zero(built, hack):
    out, _, _ = built
    catalog = hub.load(out / "registry.yaml")
    label = {"env": "shoputil/swe-v1", "row": 0}
    task = catalog.task(label)
    from rlhub_swe import trees

    base = trees.base_tree(task.hidden["base"])
    verdict = catalog.verify(label, diff_to(base, {**base, **HACKS[hack]}))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed, verdict.details


def test_a_rerun_resumes_without_running_anything(built):
    out, env, _ = built
    run = rlhub("swe", "build", "pypi:shoputil==0.1.0", "--out", str(out), "--max-candidates", "10", "--combos", "2",
                "--quiet", env=env)
    assert run.returncode == 0, run.stderr
    assert json.loads((out / "report.json").read_text())["sandbox_runs"] == 0


def test_a_project_without_tests_is_refused_with_the_reason(tmp_path):
    files = {k: v for k, v in PROJECT.items() if not k.startswith("tests/")}
    path = sdist(tmp_path / "idx", files)
    run = rlhub("swe", "build", str(path), "--out", str(tmp_path / "out"))
    assert run.returncode == 2 and "no tests found" in run.stderr and "Traceback" not in run.stderr


def test_a_source_that_is_nothing_is_refused(tmp_path):
    run = rlhub("swe", "build", str(tmp_path / "missing"), "--out", str(tmp_path / "out"))
    assert run.returncode == 2 and "expected a directory, a source tarball" in run.stderr


def wheel(where, name="shophelper", version="1.0", code="def cents(x):\n    return round(x * 100)\n"):
    """A pure-Python wheel written by hand (the local index holds it: no build backend needed)."""
    import zipfile

    where.mkdir(parents=True, exist_ok=True)
    dist = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": code,
             f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: rlhub-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{dist}/RECORD"] = "".join(f"{p},,\n" for p in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(where / f"{name}-{version}-py3-none-any.whl", "w") as z:
        for p, text in files.items():
            z.writestr(p, text)


def test_declared_test_dependencies_are_installed_for_the_sandbox(tmp_path, request):
    """A project whose tests import a package it declares in its `test` extra: installed once (pip
    --target, from the local index), mounted read-only into the sandbox, named in the registry's
    profile, so grading finds it too; with --test-deps none nothing passes and the build says so."""
    import os

    from hub.testing.fixtures import require_sandbox

    require_sandbox(request)
    index = tmp_path / "index"
    wheel(index)
    files = dict(PROJECT)
    files["pyproject.toml"] += '\n[project.optional-dependencies]\ntest = ["shophelper==1.0", "pytest>=7"]\n'
    files["tests/test_cents.py"] = ("from shophelper import cents\n\nfrom shoputil.core import total\n\n\n"
                                    "def test_total_in_cents():\n    assert cents(total([1.25, 2.5])) == 375\n")
    files = {k: v for k, v in files.items() if k != "tests/test_lists.py"}
    path = sdist(tmp_path / "src", files)
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(index), "RLHUB_SWE_DEPS": str(tmp_path / "deps")}
    out = tmp_path / "out"
    run = rlhub("swe", "build", str(path), "--out", str(out), "--max-candidates", "8", "--combos", "0", "--quiet", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["test_deps"] == ["shophelper==1.0"] and report["tests_kept"] == 7
    assert (tmp_path / "deps").is_dir() and any((tmp_path / "deps").glob("shoputil-0.1.0-*/shophelper/__init__.py"))
    assert "/opt/rlhub-swe-deps" in (out / "registry.yaml").read_text()
    catalog = hub.load(out / "registry.yaml")
    label = {"env": "shoputil/swe-v1", "row": 0}
    assert catalog.verify(label, catalog.task(label).reference).reward == 1.0
    none = rlhub("swe", "build", str(path), "--out", str(tmp_path / "out2"), "--test-deps", "none", "--quiet", env=env)
    assert none.returncode == 0 or "no test passes" in none.stderr
    if none.returncode == 0:  # the tests that import it fail to collect: they are dropped, the rest stand
        assert json.loads((tmp_path / "out2" / "report.json").read_text())["tests_kept"] < 7
