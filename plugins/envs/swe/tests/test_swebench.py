"""The `swebench` dataset preset on a repository built here: rows in SWE-bench's shape (FAIL_TO_PASS
and PASS_TO_PASS as JSON strings, as the real dataset has them) in a real `datasets` file,
declared in a registry, the repository found in the entry's `assets` folder as a git repository
(at `base_commit`, not at its HEAD) or as a tarball, graded in the real sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import textwrap

import pytest
from rlhub_swe import patch
from swe_helpers import diff_to

import hub
from hub.core.errors import RegistryError

REPO = "acme/calc"
BASE = {
    "README.md": "# calc\n\nSmall arithmetic helpers.\n",
    "pyproject.toml": "[project]\nname = \"calc\"\nversion = \"0.1.0\"\n",
    "calc/__init__.py": "from .ops import add, mean, safe_div\n\n__all__ = [\"add\", \"mean\", \"safe_div\"]\n",
    "calc/ops.py": textwrap.dedent('''\
        """Arithmetic helpers."""


        def add(a, b):
            return a + b


        def safe_div(a, b, default=None):
            """a / b, or `default` when b is zero."""
            return a / b


        def mean(values):
            return safe_div(sum(values), len(values), default=0.0)
        '''),
    "tests/test_ops.py": textwrap.dedent('''\
        from calc import add, safe_div


        def test_add():
            assert add(2, 3) == 5


        def test_divide():
            assert safe_div(6, 3) == 2
        '''),
}
FIXED_OPS = BASE["calc/ops.py"].replace("    return a / b\n", "    if b == 0:\n        return default\n    return a / b\n")
TESTS_AFTER = BASE["tests/test_ops.py"] + textwrap.dedent('''\


    def test_divide_by_zero_gives_the_default():
        assert safe_div(1, 0) is None
        assert safe_div(1, 0, default=7) == 7


    def test_mean_of_nothing():
        from calc import mean

        assert mean([]) == 0.0
        assert mean([1, 2, 3]) == 2
    ''')
F2P = ["tests/test_ops.py::test_divide_by_zero_gives_the_default", "tests/test_ops.py::test_mean_of_nothing"]
P2P = ["tests/test_ops.py::test_add", "tests/test_ops.py::test_divide"]
GOLD = patch.make(BASE, {**BASE, "calc/ops.py": FIXED_OPS})
TEST_PATCH = patch.make(BASE, {**BASE, "tests/test_ops.py": TESTS_AFTER})


def git(repo, *args) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout.strip()


def write(root, files) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """A git repository `acme__calc` whose base commit has the bug and whose HEAD has it fixed
    (a grader that read HEAD would pass an empty patch), a tarball of the base tree, and the rows."""
    root = tmp_path_factory.mktemp("bench")
    repo = root / "repos" / "acme__calc"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    write(repo, BASE)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base_commit = git(repo, "rev-parse", "HEAD")
    write(repo, {"calc/ops.py": FIXED_OPS, "CHANGES.md": "fixed upstream later\n"})
    git(repo, "commit", "-qam", "later work")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "changes")
    tarballs = root / "tarballs"
    tarballs.mkdir()
    with open(tarballs / "acme__calc-1.tar.gz", "wb") as f:  # as release tarballs are: one top folder
        subprocess.run(["git", "-C", str(repo), "archive", "--format=tar.gz", "--prefix=calc-0.1.0/", base_commit],
                       stdout=f, check=True)
    row = {"instance_id": "acme__calc-1", "repo": REPO, "base_commit": base_commit,
           "problem_statement": "safe_div(1, 0) raises ZeroDivisionError instead of returning the default, "
                                "so mean([]) crashes too.",
           "patch": GOLD, "test_patch": TEST_PATCH, "FAIL_TO_PASS": json.dumps(F2P), "PASS_TO_PASS": json.dumps(P2P),
           "version": "0.1", "created_at": "2024-01-01T00:00:00Z", "hints_text": "", "environment_setup_commit": base_commit}
    import datasets

    ds = datasets.Dataset.from_list([row])
    ds.to_parquet(str(root / "rows.parquet"))
    ds.to_json(str(root / "rows.jsonl"))
    return root


def registry(bench, name: str, path: str, assets: str, config: str = "{}") -> hub.Catalog:
    reg = bench / name
    reg.write_text(textwrap.dedent(f"""\
        version: 1
        profiles:
          swe-test: {{extends: swe, wall_timeout_s: 8}}
        environments:
          - dataset: {{id: local/calc-v1, path: {path}, preset: swebench, assets: {assets}}}
            profile: swe-test
            verifier_config: {config}
    """))
    return hub.load(reg)


@pytest.fixture(params=["git-parquet", "git-jsonl", "tarball"])
def catalog(bench, request, sandbox):
    if request.param == "tarball":
        return registry(bench, "tar.yaml", "rows.parquet", "tarballs")
    fmt = request.param.split("-")[1]
    return registry(bench, f"{fmt}.yaml", f"rows.{fmt}", "repos")


@pytest.fixture
def sentinels_only(bench, sandbox):
    """The rows with the diff-shape rule off (runner_access: allow): what the sentinels and the
    report checks catch on their own, the second line behind shapes.py."""
    return registry(bench, "allow.yaml", "rows.jsonl", "repos", "{runner_access: allow}")


LABEL = {"env": "local/calc-v1", "row": 0}


def test_the_task_is_the_row(catalog):
    task = catalog.task(LABEL)
    assert "safe_div(1, 0) raises ZeroDivisionError" in task.prompt_text() and "acme/calc" in task.prompt_text()
    assert "test_divide_by_zero_gives_the_default" not in task.prompt_text()  # the hidden tests stay hidden
    assert patch.extract(task.reference) == GOLD
    hidden = task.hidden
    assert hidden["fail_to_pass"] == F2P and hidden["pass_to_pass"] == P2P  # parsed from the JSON strings
    assert hidden["protected"] == ["tests/test_ops.py"] and hidden["runner"] == "in_process"
    assert catalog.get("local/calc-v1").verifier.name == "swe_tests"


def test_gold_patch_earns_one(catalog):
    verdict = catalog.verify(LABEL, catalog.task(LABEL).reference)
    assert verdict.error is None and verdict.reward == 1.0 and verdict.passed, verdict.details
    assert verdict.details["fail_to_pass"] == "2/2" and verdict.details["pass_to_pass"] == "2/2"
    assert verdict.details["changed"] == ["calc/ops.py"]


def test_empty_patch_earns_zero(catalog):
    for empty in ("```diff\n```\n", diff_to(BASE, BASE) or "```diff\n```"):
        verdict = catalog.verify(LABEL, empty)
        assert verdict.error is None and verdict.reward == 0.0 and verdict.details["refused"] == "empty"


def test_a_patch_that_breaks_pass_to_pass_earns_zero(catalog):
    broken = FIXED_OPS.replace("    return a + b\n", "    return a - b\n")
    verdict = catalog.verify(LABEL, diff_to(BASE, {**BASE, "calc/ops.py": broken}))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert verdict.components["fail_to_pass"] == 1.0
    assert verdict.details["pass_to_pass_broken"] == ["tests/test_ops.py::test_add"]
    assert "test_add" in " ".join(verdict.details["failures"])


def test_a_partial_fix_earns_the_fraction(catalog):
    """Only `mean` guarded: its test passes, safe_div's still fails."""
    partial = BASE["calc/ops.py"].replace("    return safe_div(sum(values), len(values), default=0.0)\n",
                                          "    if not values:\n        return 0.0\n"
                                          "    return safe_div(sum(values), len(values), default=0.0)\n")
    verdict = catalog.verify(LABEL, diff_to(BASE, {**BASE, "calc/ops.py": partial}))
    assert verdict.reward == 0.5 and verdict.details["fail_to_pass_failing"] == [F2P[0]]


def test_test_edits_never_reach_the_hidden_tests(catalog):
    """The test patch's own file and test configuration are put back before the test patch goes on."""
    cheat = {**BASE, "tests/test_ops.py": "def test_divide_by_zero_gives_the_default():\n    pass\n\n\n"
                                          "def test_mean_of_nothing():\n    pass\n",
             "conftest.py": "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
                            "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"}
    verdict = catalog.verify(LABEL, diff_to(BASE, cheat))
    assert verdict.reward == 0.0 and verdict.details["refused"] == "empty"
    assert verdict.details["ignored_edits"] == ["conftest.py", "tests/test_ops.py"]
    verdict = catalog.verify(LABEL, diff_to(BASE, {**cheat, "calc/ops.py": BASE["calc/ops.py"] + "\n# touched\n"}))
    assert verdict.reward == 0.0 and verdict.details["fail_to_pass"] == "0/2" and "tampering" not in verdict.details


def test_forged_results_from_the_package_are_refused_before_any_test_runs(catalog):
    verdict = catalog.verify(LABEL, diff_to(BASE, {**BASE, "calc/__init__.py": BASE["calc/__init__.py"]
                                                   + "\nimport _pytest.reports as _r\n_r.TestReport.outcome = 'passed'\n"}))
    assert verdict.reward == 0.0 and verdict.details["refused"] == "runner_access" and "_pytest" in verdict.details["reason"]


def test_forged_results_from_the_package_earn_zero(sentinels_only):
    catalog = sentinels_only
    """The model's code shares the test process in this mode: a package that reports every test as
    passed is caught by the hidden sentinel test."""
    forge = BASE["calc/__init__.py"] + textwrap.dedent('''\

        import _pytest.reports as _r
        _orig = _r.TestReport.from_item_and_call.__func__


        def _forged(cls, item, call):
            report = _orig(cls, item, call)
            report.outcome = "passed"
            return report


        _r.TestReport.from_item_and_call = classmethod(_forged)
        ''')
    verdict = catalog.verify(LABEL, diff_to(BASE, {**BASE, "calc/__init__.py": forge}))
    assert verdict.reward == 0.0 and not verdict.passed
    assert "forged" in verdict.details["tampering"]
    assert catalog.verify(LABEL, catalog.task(LABEL).reference).reward == 1.0  # the next verification is clean


FORGE_WHERE_THE_PACKAGE_IS_USED = BASE["calc/__init__.py"] + textwrap.dedent('''\

    import _pytest.reports as _r
    _orig = _r.TestReport.from_item_and_call.__func__


    def _uses_calc(item):
        module = getattr(item, "module", None)
        return any(getattr(v, "__module__", "").startswith("calc") for v in vars(module).values()) if module else False


    def _forged(cls, item, call):
        report = _orig(cls, item, call)
        if _uses_calc(item):
            report.outcome = "passed"
        return report


    _r.TestReport.from_item_and_call = classmethod(_forged)
    ''')
SKIP_THE_CALL_WHERE_THE_PACKAGE_IS_USED = BASE["calc/__init__.py"] + textwrap.dedent('''\

    import _pytest.runner as _run
    _orig = _run.call_and_report


    def _uses_calc(item):
        module = getattr(item, "module", None)
        return any(getattr(v, "__module__", "").startswith("calc") for v in vars(module).values()) if module else False


    def _no_call(item, when, log=True, **kwargs):
        if when == "call" and _uses_calc(item):
            return None  # the test never runs, and nothing is reported for its call phase
        return _orig(item, when, log, **kwargs)


    _run.call_and_report = _no_call
    ''')


@pytest.mark.parametrize("forge", ["forge_where_the_package_is_used", "skip_the_call_where_the_package_is_used"])
def test_forging_only_where_the_package_is_used_earns_zero(sentinels_only, forge):
    """A forgery that spares test modules which do not use the package (the sentinel of old imported
    only `os`) still meets the sentinels: they sit in the modules of the FAIL_TO_PASS tests and call
    the package as those tests do. A test reported passed without a call phase is tampering too."""
    source = {"forge_where_the_package_is_used": FORGE_WHERE_THE_PACKAGE_IS_USED,
              "skip_the_call_where_the_package_is_used": SKIP_THE_CALL_WHERE_THE_PACKAGE_IS_USED}[forge]
    catalog = sentinels_only
    verdict = catalog.verify(LABEL, diff_to(BASE, {**BASE, "calc/__init__.py": source}))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed, verdict.details
    assert "forged" in verdict.details["tampering"]
    assert catalog.verify(LABEL, catalog.task(LABEL).reference).reward == 1.0


def test_sentinels_are_copies_of_fail_to_pass_tests_in_their_modules(tmp_path):
    """At least two, in the FAIL_TO_PASS tests' module, named from its tests' words, each a copy of
    one of those tests (it calls the package) ending in an assertion that never holds."""
    import random

    from rlhub_swe.inprocess import sentinels

    tree, _ = patch.apply(BASE, patch.parse(TEST_PATCH))
    texts, nodes = sentinels(F2P, tree, random.Random(3))
    assert len(nodes) >= 2 and set(texts) == {"tests/test_ops.py"}
    assert all(n.startswith("tests/test_ops.py::test_") for n in nodes) and len(set(nodes)) == len(nodes)
    added = texts["tests/test_ops.py"][len(tree["tests/test_ops.py"].rstrip("\n")):]
    assert added.count("\ndef test_") == len(nodes)
    assert "safe_div(" in added or "mean(" in added
    words = {w for n in nodes for w in n.split("::")[1].split("_")[1:]}
    assert words <= {"add", "divide", "default", "gives", "the", "zero", "mean", "nothing", "by", "of"}
    write(tmp_path, {**tree, **texts, "calc/ops.py": FIXED_OPS})  # on the fixed code: the F2P tests pass, sentinels fail
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", *F2P, *nodes],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert f"{len(nodes)} failed, {len(F2P)} passed" in run.stdout, run.stdout[-2000:]
    assert all(f"FAILED {n}" in run.stdout for n in nodes)


def test_exit_at_import_earns_zero(sentinels_only):
    catalog = sentinels_only
    quitting = {**BASE, "calc/__init__.py": "import os\nos._exit(0)\n"}
    verdict = catalog.verify(LABEL, diff_to(BASE, quitting))
    assert verdict.error is None and verdict.reward == 0.0 and verdict.details["fail_to_pass"] == "0/2"
    assert catalog.verify(LABEL, catalog.task(LABEL).reference).reward == 1.0


def test_a_repository_that_is_not_there_is_a_clear_error(bench, tmp_path, sandbox):
    empty = tmp_path / "nothing"
    empty.mkdir()
    cat = registry(bench, "missing.yaml", "rows.parquet", str(empty))
    with pytest.raises(RegistryError) as info:  # the CLI prints it as one line, exit 2
        cat.task(LABEL)
    message = str(info.value)
    assert message.startswith(f"{bench / 'missing.yaml'}:5: dataset local/calc-v1, row 0: ")
    assert "acme__calc-1" in message and "acme__calc" in message and str(empty) in message


def test_a_base_commit_the_repository_lacks_is_no_verdict(bench, tmp_path, sandbox):
    import datasets

    rows = datasets.Dataset.from_parquet(str(bench / "rows.parquet")).to_list()
    rows[0]["base_commit"] = "0" * 40
    datasets.Dataset.from_list(rows).to_json(str(tmp_path / "rows.jsonl"))
    cat = registry(bench, "badcommit.yaml", str(tmp_path / "rows.jsonl"), "repos")
    verdict = cat.verify(LABEL, cat.task(LABEL).reference)
    assert verdict.error and "repository is unavailable" in verdict.error and "0000000000" in verdict.error


def test_tarball_tree_matches_the_base_commit(bench):
    """The tarball's one top folder is stripped: its tree is the repository's at base_commit."""
    from rlhub_swe import trees

    base_commit = json.loads((bench / "rows.jsonl").read_text().splitlines()[0])["base_commit"]
    from_git = trees.base_tree({"git": {"repo": str(bench / "repos" / "acme__calc"), "commit": base_commit}})
    from_tar = trees.base_tree({"tarball": str(bench / "tarballs" / "acme__calc-1.tar.gz")})
    assert from_git == from_tar == BASE
    with tarfile.open(bench / "tarballs" / "acme__calc-1.tar.gz") as tar:
        assert all(n.startswith("calc-0.1.0") for n in tar.getnames())
