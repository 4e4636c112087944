"""The `swe_tests` verifier on generated projects, through the real sandbox (bwrap): grading as
SWE-bench grades (FAIL_TO_PASS fraction gated on PASS_TO_PASS), named refusals, and every bad
input of the issue getting a defined verdict, with the next verification clean."""

from __future__ import annotations

import re

import pytest
from rlhub_swe.projects.kinds import NAMES, kind
from rlhub_swe.projects.model import Variant, render
from swe_helpers import diff_to, edited, find


def bug_env(name: str) -> str:
    return f"swe/{name}-bug-{kind(name).bugs[0].cls.replace('_', '-')}-diff-v1"


def assert_full_reward(verdict, built) -> None:
    assert verdict.error is None, verdict.error
    assert verdict.reward == 1.0 and verdict.passed, verdict.details
    assert verdict.components == {"fail_to_pass": 1.0, "pass_to_pass": 1.0}
    n, m = len(built.fail_to_pass), len(built.pass_to_pass)
    assert verdict.details["fail_to_pass"] == f"{n}/{n}" and verdict.details["pass_to_pass"] == f"{m}/{m}"


# -- grading ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("task", ["bug", "feature", "rename"])
def test_reference_diff_earns_full_reward(catalog, name, task):
    env = bug_env(name) if task == "bug" else f"swe/{name}-{task}-diff-v1"
    label, t, built = find(catalog, env)
    assert built.fail_to_pass and built.pass_to_pass
    verdict = catalog.verify(label, t.reference)
    assert_full_reward(verdict, built)
    assert set(verdict.details["changed"]) == {p for p in built.touched if not p.startswith("tests/")}
    # the same change written as `diff -u` writes it (one line of context, no git headers)
    for right in catalog.get(env).env.right_answers(t):
        assert catalog.verify(label, right).reward == 1.0


def test_one_change_written_two_ways_shares_a_verdict_key(catalog):
    """The checks memoise verdicts by `response_key`: the final tree (and the edits set aside), so
    the reference's other forms reuse its verdict, and anything that leaves another tree does not."""
    env = bug_env("ledger")
    label, t, built = find(catalog, env)
    verifier, environment = catalog.get(env).verifier, catalog.get(env).env
    key = verifier.response_key(t, t.reference)
    assert key and key.startswith("tree:")
    assert [verifier.response_key(t, r) for r in environment.right_answers(t)] == [key] * len(environment.right_answers(t))
    assert verifier.response_key(t, "no diff here") is None  # a refusal is graded, not keyed
    with_test_edit = {**built.target_files, **{p: built.base.files[p] + "# noted\n"
                                                 for p in built.base.files if p.startswith("tests/test_")}}
    others = [w.response for w in environment.wrong_answers(t)] + [diff_to(built.base.files, with_test_edit)]
    keys = [verifier.response_key(t, r) for r in others]
    assert key not in keys and len(set(keys)) == len(keys), keys


def test_partial_fix_earns_the_fail_to_pass_fraction(catalog):
    """ledger's sign bug (`format_amount` puts '-' on positive amounts): dropping the sign altogether
    fixes the positive amounts, the CSV export and the margin in a refusal, not the negative amounts:
    3 of 5 FAIL_TO_PASS."""
    label, _task, built = find(catalog, "swe/ledger-bug-wrong-branch-diff-v1", lambda b: b.params.target == "sign")
    money = f"{built.base.package}/money.py"
    half = edited(built.base.files, money, 'sign = "-" if cents > 0 else ""', 'sign = ""')
    verdict = catalog.verify(label, diff_to(built.base.files, half))
    assert sorted(built.fail_to_pass) == sorted(["test_format_amount_positive", "test_format_amount_negative",
                                                 "test_format_round_trip", "test_csv_export",
                                                 "test_no_channel_takes_the_order"])
    assert verdict.error is None and not verdict.passed
    assert verdict.reward == 0.6 and verdict.components["fail_to_pass"] == 0.6
    assert verdict.details["fail_to_pass"] == "3/5"
    assert sorted(verdict.details["fail_to_pass_failing"]) == ["test_format_amount_negative", "test_format_round_trip"]
    assert "test_format_amount_negative" in verdict.details["failures"]


RENAME_KEPT = {"old_name_kept": "keeps", "old_name_kept_property": "keeps", "old_name_kept_getattr": "__getattr__",
               "old_name_kept_module_getattr": "keeps", "call_sites_left": "keeps|still names"}


@pytest.mark.parametrize("name", [n for n in NAMES if kind(n).renames])
def test_a_rename_that_keeps_the_old_name_earns_zero(catalog, name):
    """Renamed everywhere, but the old name kept: as an assignment, a property, an instance
    `__getattr__` that builds the name from pieces (no test of the class sees it), a module
    `__getattr__`; or the call sites left. Each is found in the final tree before any test runs
    and earns 0, naming the file."""
    for target in ("method", "function"):
        env = f"swe/{name}-rename-diff-v1"
        found = [r for r in kind(name).renames if r.what == target]
        if not found:
            continue
        label, task, built = find(catalog, env, lambda b, ids={r.id for r in found}: b.params.target in ids)
        variants = {v.kind: v for v in catalog.get(env).env.wrong_answers(task) if v.kind in RENAME_KEPT}
        assert {"old_name_kept", "old_name_kept_getattr" if target == "method" else "old_name_kept_module_getattr"} <= set(variants)
        for kind_, variant in variants.items():
            verdict = catalog.verify(label, variant.response)
            assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed, (kind_, verdict.details)
            assert re.search(RENAME_KEPT[kind_], verdict.details["old_name_kept"][0]), (kind_, verdict.details)
            assert built.base.values[next(r for r in found if r.id == built.params.target).placeholder] in verdict.details["reason"]
        assert_full_reward(catalog.verify(label, task.reference), built)


RUN_TIME_ALIASES = {"method": ("old_name_kept_by_a_made_base", "old_name_kept_for_users_by_a_made_base"),
                    "function": ("old_name_kept_by_update_wrapper", "old_name_kept_for_users_by_update_wrapper"),
                    "class": ("old_name_kept_by_update_wrapper", "old_name_kept_for_users_by_update_wrapper")}


@pytest.mark.parametrize("target", ["method", "function", "class"])
def test_an_alias_made_at_run_time_is_found_by_looking_the_old_name_up(catalog, target):
    """The red team's aliases name nothing the static reading flags: the old name on a base class
    `make_dataclass` builds, or copied onto the package and its module by `update_wrapper` from an
    `argparse.Namespace`, with or without a `credits` gate (kept for users, not under `python -S`).
    The look-ups in a user-like process find each one (the package, its modules, the class, an
    instance): 0, saying where. An alias only instances carry is found on the tests' instances."""
    env = "swe/ledger-rename-diff-v1"
    label, task, built = find(catalog, env, lambda b: next(r for r in kind("ledger").renames
                                                           if r.id == b.params.target).what == target)
    variants = {v.kind: v for v in catalog.get(env).env.wrong_answers(task)}
    responses = {k: variants[k].response for k in RUN_TIME_ALIASES[target]}
    r = next(r for r in kind("ledger").renames if r.id == built.params.target)
    old, new = built.rename["old"], built.params.new_name
    if target == "method":  # the old name set on each instance as it is made: the class has none
        owner = built.base.values[r.owner]
        path = r.module.replace("$pkg", built.base.package).replace(".", "/") + ".py"
        instances_only = built.target_files[path] + (
            f"\n\nfrom argparse import Namespace as _Names\nfrom functools import update_wrapper as _carry\n\n"
            f"_init = {owner}.__init__\n\n\ndef _aliasing_init(self, *args, **kwargs):\n    _init(self, *args, **kwargs)\n"
            f"    _carry(self, _Names(**{{{old[:2]!r} + {old[2:]!r}: self.{new}}}), ())\n\n\n{owner}.__init__ = _aliasing_init\n")
        responses["instances_only"] = diff_to(built.base.files, {**built.target_files, path: instances_only})
    for name, response in responses.items():
        verdict = catalog.verify(label, response)
        assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed, (name, verdict.details)
        assert f"the old name `{old}` is kept" in verdict.details["reason"], (name, verdict.details)
        if name == "instances_only":
            assert "an instance of" in verdict.details["old_name_kept"][0], verdict.details


def test_the_instance_look_ups_leave_an_honest_rename_its_full_reward(catalog):
    """The probed tests look only at what could be the package's instances: a test's own modules
    and functions (`pytest`, `pytest.raises` in its locals) are never handed to the package's process
    (the stand-in's solution process ends on them, and every later test with it). A method rename
    whose probed tests import pytest locally earns 1 with the probes in place."""
    from rlhub_swe.tasks import PROBE

    env = "swe/ledger-rename-diff-v1"

    def local_pytest(b):
        if next(r for r in kind("ledger").renames if r.id == b.params.target).what != "method":
            return False
        blocks = b.hidden_tests.split("\n\n\ndef ")
        return any("    import pytest\n" in x and PROBE in x for x in blocks)

    label, task, built = find(catalog, env, local_pytest)
    assert_full_reward(catalog.verify(label, task.reference), built)


def test_the_old_name_check_reads_only_what_differs_from_the_reference():
    """renames.kept on trees: the reference itself is clean; an alias, a string alias, a README that
    still names the old name, and name machinery added are each found; an unrelated edit is not."""
    from rlhub_swe import renames
    from rlhub_swe.tasks import Params, build

    built = build(Params("ledger", 7, "rename", "format_amount", new_name="show_cents"))
    base, target = built.base.files, built.target_files
    old, module = built.rename["old"], f"{built.base.package}/money.py"
    assert renames.kept(built.rename, base, target, target) == []
    cases = {
        "assignment": ({module: target[module] + f"\n{old} = show_cents\n"}, "keeps"),
        "string": ({module: target[module] + f"\n__all__ = [{old!r}]\n"}, "keeps"),
        "readme": ({"README.md": target["README.md"] + f"\nUse `{old}`.\n"}, "still names"),
        "machinery": ({module: target[module] + "\nglobals()['x' + 'y'] = show_cents\n"}, "adds globals"),
    }
    for case, (edit, found) in cases.items():
        where = renames.kept(built.rename, base, {**target, **edit}, target)
        assert where and found in where[0], (case, where)
    unrelated = {module: target[module] + "\n\ndef helper():\n    return 1\n"}
    assert renames.kept(built.rename, base, {**target, **unrelated}, target) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_feature_without_one_of_its_named_parts_earns_at_most_its_share(catalog, name):
    """The whole feature but one name the issue asks for left out (kept private): the tests of that
    name fail, and the reward is at most the share of the issue's parts that work."""
    env = f"swe/{name}-feature-diff-v1"
    label, task, built = find(catalog, env)
    missing = [v for v in catalog.get(env).env.wrong_answers(task) if v.kind.startswith("api_missing:")]
    assert missing
    for variant in missing:
        part = variant.kind.split(":", 1)[1]
        verdict = catalog.verify(label, variant.response)
        share = 1 - 1 / len(built.stated)
        assert verdict.error is None and not verdict.passed and verdict.reward <= share + 1e-9, verdict.details
        if "pass_to_pass_broken" not in verdict.details:  # (where the name is used elsewhere too, more breaks)
            assert part in verdict.details["stated_api_missing"]
            assert float(verdict.details["stated_api"].split()[0]) <= share + 1e-3


def other_bug(built):
    """A bug site of the project whose tests are all PASS_TO_PASS for this task."""
    _, blocks = built.kind.parsed
    for site in built.kind.bugs:
        caught = {b.name for b in blocks if site.id in b.catches}
        if site.id != built.params.target and caught and not caught & set(built.fail_to_pass):
            return site, caught
    raise LookupError("no other bug site")


@pytest.mark.parametrize("name", NAMES)
def test_breaking_pass_to_pass_gates_to_zero_and_names_the_tests(catalog, name):
    label, _task, built = find(catalog, bug_env(name))
    site, caught = other_bug(built)
    p = built.params
    broken_tree = render(built.kind, p.seed, Variant(frozenset({f"bug.{site.id}"})), p.units).files
    verdict = catalog.verify(label, diff_to(built.base.files, broken_tree))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert verdict.components["fail_to_pass"] == 1.0  # the fix itself is right; what it broke costs everything
    assert verdict.components["pass_to_pass"] < 1.0
    assert set(verdict.details["pass_to_pass_broken"]) == caught
    assert "PASS_TO_PASS" in verdict.details["reason"]
    assert set(verdict.details["failures"]) == caught


def test_all_or_nothing_config(rlhub_registry, sandbox):
    cat = rlhub_registry("""\
        version: 1
        environments:
          - id: "swe/ledger-bug-wrong-branch-diff-v1"
            verifier_config: {reward: all_or_nothing}
    """)
    label, task, built = find(cat, "swe/ledger-bug-wrong-branch-diff-v1", lambda b: b.params.target == "sign")
    money = f"{built.base.package}/money.py"
    half = edited(built.base.files, money, 'sign = "-" if cents > 0 else ""', 'sign = ""')
    verdict = cat.verify(label, diff_to(built.base.files, half))
    assert verdict.reward == 0.0 and not verdict.passed
    assert verdict.components["fail_to_pass"] == 0.6  # the parts still say how close it was
    assert_full_reward(cat.verify(label, task.reference), built)


# -- refusals -----------------------------------------------------------------------------------------
REFUSALS = {
    "no_diff": (lambda b: "I looked at the code and fixed the bug.", "no_diff", "no unified diff"),
    "empty_diff": (lambda b: "```diff\n```\n", "empty", "empty"),
    "does_not_apply": (lambda b: "```diff\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n-no such line\n+x\n"
                                 " nor this one\n```\n", "does_not_apply", r"README\.md: hunk 1 \(@@ -1,2 @@\)"),
    "missing_file": (lambda b: f"```diff\n--- a/{b.base.package}/nowhere.py\n+++ b/{b.base.package}/nowhere.py\n"
                               "@@ -1 +1 @@\n-a\n+b\n```\n", "does_not_apply", "no such file"),
    "garbage": (lambda b: "```diff\n@@ this is not @@ a diff\n+++\n```\n", "malformed", "not a unified diff|no file changes"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_named_refusals(catalog, case):
    make, refused, reason = REFUSALS[case]
    label, _task, built = find(catalog, bug_env("ledger"))
    verdict = catalog.verify(label, make(built))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert verdict.details["refused"] == refused
    assert re.search(reason, verdict.details["reason"]), verdict.details["reason"]


# -- bad input: a defined verdict, and the next verification is clean --------------------------------
def _tests_weakened(b):
    tests = sorted(p for p in b.base.files if p.startswith("tests/test_"))
    tree = dict(b.base.files)
    for path in tests:
        tree[path] = tree[path].replace("    assert ", "    assert True or ")
    return tree


def _tree_cases(b) -> dict[str, tuple[dict[str, str], list[str]]]:
    """name -> (final tree, the paths the verdict must name as set aside)."""
    base, pkg = b.base.files, b.base.package
    tests = sorted(p for p in base if p.startswith("tests/"))
    skip_all = ("import pytest\n\n\ndef pytest_collection_modifyitems(config, items):\n    for item in items:\n"
                "        item.add_marker(pytest.mark.skip(reason='flaky'))\n")
    return {
        "touches_hidden_tests": (_tests_weakened(b), [p for p in tests if "    assert " in base[p]]),
        "deletes_test_suite": ({p: t for p, t in base.items() if not p.startswith("tests/")}, tests),
        "conftest_skips_tests": ({**base, "conftest.py": skip_all}, ["conftest.py"]),
        "nested_conftest_rewrites_tests": ({**base, "tests/conftest.py": skip_all, f"{pkg}/conftest.py": skip_all},
                                           [f"{pkg}/conftest.py", "tests/conftest.py"]),
        "pytest_ini_deselects": ({**base, "pytest.ini": "[pytest]\naddopts = -k 'not test_' -p no:python\n"}, ["pytest.ini"]),
        "setup_cfg_deselects": ({**base, "setup.cfg": "[tool:pytest]\naddopts = --collect-only\n"}, ["setup.cfg"]),
        "pyproject_rewrites_pytest": (edited(base, "pyproject.toml", "[build-system]", "[tool.pytest.ini_options]\n"
                                             "addopts = '--co'\n\n[build-system]"), ["pyproject.toml"]),
    }


TREE_CASES = ["touches_hidden_tests", "deletes_test_suite", "conftest_skips_tests", "nested_conftest_rewrites_tests",
              "pytest_ini_deselects", "setup_cfg_deselects", "pyproject_rewrites_pytest"]


def _big_diff(b) -> str:
    line = "x = 1  # " + "a" * 90 + "\n"
    return diff_to(b.base.files, {**b.base.files, "big.py": line * (50 * 1024 * 1024 // len(line))})


RAW_CASES = {
    # name -> (the response, the verdict's `refused`)
    "git_binary_patch": (lambda b: "```diff\ndiff --git a/logo.png b/logo.png\nnew file mode 100644\nindex 0000000..3b18e51\n"
                                   "GIT binary patch\nliteral 3\nKcmZ>Y%K!iX\n\nliteral 0\nHcmV?d00001\n\n```\n", "binary"),
    "binary_files_differ": (lambda b: f"```diff\ndiff --git a/{b.base.package}/__init__.py b/{b.base.package}/__init__.py\n"
                                      "index 1111111..2222222 100644\nBinary files a/x and b/x differ\n```\n", "binary"),
    "nul_bytes": (lambda b: diff_to(b.base.files, {**b.base.files, f"{b.base.package}/blob.py": "DATA = '\x00\x01\x02'\n"}),
                  "binary"),
    "parent_path": (lambda b: "```diff\n--- a/../outside.py\n+++ b/../outside.py\n@@ -0,0 +1 @@\n+x = 1\n```\n", "outside_repo"),
    "nested_parent_path": (lambda b: f"```diff\n--- /dev/null\n+++ b/{b.base.package}/../../etc/x.py\n@@ -0,0 +1 @@\n+x = 1\n```\n",
                           "outside_repo"),
    "absolute_path": (lambda b: "```diff\n--- /dev/null\n+++ /etc/cron.d/evil\n@@ -0,0 +1 @@\n+* * * * * root id\n```\n",
                      "outside_repo"),
    "symlink_out": (lambda b: "```diff\ndiff --git a/secrets b/secrets\nnew file mode 120000\nindex 0000000..1111111\n"
                              "--- /dev/null\n+++ b/secrets\n@@ -0,0 +1 @@\n+/etc/shadow\n\\ No newline at end of file\n```\n",
                    "symlink"),
    "package_becomes_symlink": (lambda b: f"```diff\ndiff --git a/{b.base.package}/__init__.py b/{b.base.package}/__init__.py\n"
                                          "old mode 100644\nnew mode 120000\n```\n", "symlink"),
    "fifty_megabytes": (_big_diff, "too_large"),
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("case", TREE_CASES)
def test_edits_to_tests_and_test_configuration_never_count(catalog, name, case):
    """Alone, they leave nothing to grade (a named refusal); with the right fix, the fix still earns
    1 and the verdict names what was set aside."""
    label, task, built = find(catalog, bug_env(name))
    tree, named = _tree_cases(built)[case]
    verdict = catalog.verify(label, diff_to(built.base.files, tree))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert verdict.details["refused"] == "empty"
    assert "set aside" in verdict.details["reason"]
    assert verdict.details["ignored_edits"] == sorted(named)[:20]
    with_fix = {**tree, **{p: t for p, t in built.target_files.items() if p in built.touched and not p.startswith("tests/")}}
    verdict = catalog.verify(label, diff_to(built.base.files, with_fix))
    assert_full_reward(verdict, built)
    assert verdict.details["ignored_edits"] == sorted(named)[:20]
    assert_full_reward(catalog.verify(label, task.reference), built)  # the next verification is clean


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("case", sorted(RAW_CASES))
def test_bad_patches_get_a_named_refusal(catalog, name, case):
    make, refused = RAW_CASES[case]
    label, task, built = find(catalog, bug_env(name))
    verdict = catalog.verify(label, make(built))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert verdict.details["refused"] == refused, verdict.details
    assert verdict.details["reason"]
    assert_full_reward(catalog.verify(label, task.reference), built)  # the next verification is clean


@pytest.mark.parametrize("name,where", [(n, "__init__") for n in NAMES] + [(NAMES[0], "deep")])
def test_infinite_loop_at_import_is_a_zero_with_the_reason(catalog, name, where):
    """A package that never finishes importing (at its top, or in the module the fix touches): each
    costs the test's time limit, not the whole profile."""
    label, task, built = find(catalog, bug_env(name))
    pkg = built.base.package
    path = f"{pkg}/__init__.py" if where == "__init__" else next(
        p for p in built.touched if p.startswith(pkg + "/") and p.endswith(".py"))
    tree = {**built.target_files, path: built.target_files[path] + "\n\nwhile True:  # at import\n    pass\n"}
    verdict = catalog.verify(label, diff_to(built.base.files, tree))
    assert verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert re.search(r"did not finish importing|timed out|time limit", verdict.details.get("reason", "")), verdict.details
    assert_full_reward(catalog.verify(label, task.reference), built)  # the sandbox is clean again


def test_a_package_that_does_not_import_is_a_zero_naming_the_error(catalog):
    label, _task, built = find(catalog, bug_env("ledger"))
    path = built.touched[0]
    tree = {**built.target_files, path: "while True:\n    pass\n" + built.target_files[path]}  # before `from __future__`
    verdict = catalog.verify(label, diff_to(built.base.files, tree))
    assert verdict.reward == 0.0 and verdict.details["tests_passed"] == 0
    assert verdict.details["reason"].startswith("SyntaxError: from __future__ imports must occur at the beginning")


# -- write-the-tests tasks: graded by mutants killed ----------------------------------------------------
@pytest.mark.parametrize("name", [n for n in NAMES if kind(n).mutation_areas])
def test_write_the_tests_reference_and_bad_input(catalog, name):
    label, task, built = find(catalog, f"swe/{name}-tests-diff-v1")
    m = built.hidden_mutation
    verdict = catalog.verify(label, task.reference)
    assert verdict.reward == 1.0 and verdict.passed, verdict.details
    killed, total = verdict.details["mutants_killed"].split("/")
    assert killed == total and int(total) >= 1
    gone = {p: t for p, t in built.base.files.items() if not p.startswith("tests/")}
    verdict = catalog.verify(label, diff_to(built.base.files, gone))
    assert verdict.reward == 0.0 and verdict.details["reason"] == f"no {m['tests']}: nothing to grade"
    # test configuration is set aside here too: a conftest.py that skips everything changes nothing
    skip = "import pytest\n\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n"
    verdict = catalog.verify(label, diff_to(built.base.files, {**built.target_files, "conftest.py": skip}))
    assert verdict.reward == 1.0 and verdict.details["ignored_edits"] == ["conftest.py"]
    if name == NAMES[0]:  # a test file that never returns (one kind: it costs the profile's wall clock)
        verdict = catalog.verify(label, diff_to(built.base.files, {**built.base.files, m["tests"]: "while True:\n    pass\n"}))
        assert verdict.reward == 0.0 and re.search(r"'timeout'|time ran out", verdict.details["reason"]), verdict.details
    assert catalog.verify(label, task.reference).reward == 1.0  # the next verification is clean


READS = {"reads_the_file": "opened", "compares_bytecode_with_file": "opened", "reads_the_runner": "sys._getframe",
         "change_detector": "__code__", "reads_the_file_by_dir_fd": "access time moved"}


def test_write_the_tests_graded_on_behaviour_only(catalog):
    """Every version of the module is on disk as the tests see it, so tests that compare the file
    with the loaded code learn nothing, and tests that read the file, code objects or frames are
    refused (reads_the_module); tests that pass or fail by chance fail one of the 3 runs of the
    original. An honest test file that uses the library's usual helpers (namedtuple, Enum, TypeVar,
    dataclasses, logging, fixtures, tmp_path, capsys, pytest.raises, tracebacks) is not refused."""
    env = "swe/ledger-tests-diff-v1"
    label, task, built = find(catalog, env)
    m = built.hidden_mutation
    wrong = {v.kind: v for v in catalog.get(env).env.wrong_answers(task)}
    for kind_, what in READS.items():
        verdict = catalog.verify(label, wrong[kind_].response)
        assert verdict.reward == 0.0 and verdict.details["refused"] == "reads_the_module", (kind_, verdict.details)
        assert what in verdict.details["reason"], (kind_, verdict.details)
        assert m["tests"] in verdict.details["reason"] or "access time" in what, (kind_, verdict.details)
    verdict = catalog.verify(label, wrong["flaky_tests"].response)
    assert verdict.reward == 0.0 and "the tests must pass on" in verdict.details["reason"], verdict.details  # the first odd pid
    honest = "import pytest\n" + built.target_files[m["tests"]] + HONEST_EXTRAS
    verdict = catalog.verify(label, diff_to(built.base.files, {**built.base.files, m["tests"]: honest}))
    assert verdict.reward == 1.0 and "refused" not in verdict.details, verdict.details


HONEST_EXTRAS = '''

import collections, dataclasses, enum, logging, traceback, typing, warnings

Point = collections.namedtuple("Point", "x y")
Color = enum.Enum("Color", "RED GREEN")
T = typing.TypeVar("T")


@dataclasses.dataclass
class Row:
    a: int = 1


@pytest.fixture
def note(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTE", "1")
    (tmp_path / "f.txt").write_text("hello")
    yield tmp_path / "f.txt"


@pytest.mark.parametrize("n", [1, 2])
def test_the_usual_helpers(note, n, capsys, tmp_path_factory):
    logging.getLogger("x").warning("careful %s", n)
    print("out")
    assert capsys.readouterr().out == "out\\n"
    assert note.read_text() == "hello" and Point(1, 2).x == 1 and Color.RED.name == "RED" and Row().a == 1
    tmp_path_factory.mktemp("more")
    with pytest.raises(ZeroDivisionError, match="division"):
        1 / 0
    try:
        raise ValueError("x")
    except ValueError:
        assert "ValueError" in traceback.format_exc()
    with warnings.catch_warnings(record=True):
        warnings.warn("w")
'''


def test_a_mutant_is_killed_only_when_every_run_fails():
    from rlhub_swe.mutation import RUNS, killed

    passing, failing = {"passed": 5, "failed": 0, "errors": 0}, {"passed": 4, "failed": 1, "errors": 0}
    assert RUNS == 3
    assert killed([failing, failing, {"status": "crashed"}], passing, RUNS)
    assert not killed([failing, passing, failing], passing, RUNS)
    assert not killed([failing, failing], passing, RUNS)  # a run that was not made is no kill
    assert not killed([passing], passing, RUNS)  # the runner stops at a mutant's first passing run


def test_a_fix_that_only_works_under_the_grader_earns_zero(catalog):
    """The right fix where the package detects the grader (its interpreter flags, its modules, no
    pytest; `credits` missing as under `python -S`), the bug everywhere else; or the fix only where
    pytest is loaded. The grader's own process is a user's Python without pytest (the `credits` gate
    and the pytest gate fail there), and a change that looks at its process runs the suite a second
    time as a user runs it (`python -m pytest` from a virtual environment), where the flags gate is
    off. The honest fix passes, with or without a name that triggers the second run."""
    env = bug_env("ledger")
    label, task, built = find(catalog, env)
    wrong = {v.kind: v for v in catalog.get(env).env.wrong_answers(task)}
    gated = catalog.verify(label, wrong["fix_gated_on_the_grader"].response)
    assert gated.error is None and gated.reward == 0.0 and not gated.passed, gated.details
    assert "plain `python -m pytest`" in gated.details["reason"]
    assert set(gated.details["plain_pytest"]["failed"]) == set(built.fail_to_pass)
    path = next(p for p in built.touched if not p.startswith("tests/"))
    assert all(why.startswith(path + ": ") for why in gated.details["plain_pytest"]["looks_at"])
    for kind_ in ("bug_gated_on_site_builtins", "fix_only_under_pytest", "bug_gated_on_the_working_directory"):  # the grader's process has credits, no pytest
        verdict = catalog.verify(label, wrong[kind_].response)
        assert verdict.reward == 0.0 and verdict.details["fail_to_pass"] == f"0/{len(built.fail_to_pass)}", verdict.details
    reference = catalog.verify(label, task.reference)
    assert_full_reward(reference, built)
    plain = reference.details["plain_pytest"]  # every paid answer is run again, in a user's checkout
    assert plain["where"].startswith("/home/") and "looks_at" not in plain and 0 <= plain["extra_frames"] <= 40
    honest = {**built.target_files, path: "import sys as _unused_sys\n" + built.target_files[path]}  # both runs pass it
    if "from __future__" in built.target_files[path]:
        honest[path] = built.target_files[path].replace("from __future__ import annotations\n",
                                                        "from __future__ import annotations\n\nimport sys as _unused\n", 1)
    verdict = catalog.verify(label, diff_to(built.base.files, honest))
    assert_full_reward(verdict, built)
    n = len(built.fail_to_pass) + len(built.pass_to_pass)
    assert verdict.details["plain_pytest"]["passed"] == f"{n}/{n}"


def test_what_the_second_run_is_triggered_by():
    """plain_pytest.suspects: what a change adds that could probe its process, site's builtins and a
    caught NameError among them (the red team's `try: credits` gate), and a file opened after a dot
    (`io.open('/pr' 'oc/self/status')`); an honest edit and `re.compile` trigger nothing."""
    from rlhub_swe.plain_pytest import suspects

    base = {"pkg/m.py": "import re\n\nWORD = re.compile('x')\n\n\ndef f(x):\n    return x\n"}
    assert suspects(base, {"pkg/m.py": base["pkg/m.py"].replace("return x", "return x + 1")}, "pkg") == []
    gate = base["pkg/m.py"] + "\n\ntry:\n    credits\n    G = 0\nexcept NameError:\n    G = 1\n"
    assert suspects(base, {"pkg/m.py": gate}, "pkg") == ["pkg/m.py: NameError", "pkg/m.py: credits"]
    reads = base["pkg/m.py"] + "\nimport io as _i\nG = _i.open('/pr' 'oc/self/status').read()\n"
    assert "pkg/m.py: open" in suspects(base, {"pkg/m.py": reads}, "pkg")


def test_the_plain_run_looks_like_a_users(catalog, sandbox):
    """What a package sees in the plain run: no isolation flags, a virtual environment, pytest
    loaded, a user's environment, nothing of rlhub's loaded or importable."""
    from rlhub_swe import plain_pytest

    label, task, built = find(catalog, bug_env("ledger"))
    probe = ("import importlib.util, json, os, sys\n\n\ndef test_probe():\n    print('PROBE', json.dumps({\n"
             "        'flags': [sys.flags.isolated, sys.flags.no_site, sys.flags.dont_write_bytecode],\n"
             "        'rlhub': sorted(m for m in sys.modules if 'rlhub' in m or m == 'hub' or m.startswith('hub.')),\n"
             "        'venv': sys.prefix != sys.base_prefix, 'pytest': 'pytest' in sys.modules, 'env': sorted(os.environ),\n"
             "        'importable': [n for n in ('hub', 'rlhub_unittest', 'rlhub_swe') if importlib.util.find_spec(n)]}))\n")
    command = plain_pytest.command(["tests/test_probe.py"])
    command[2] = command[2].replace("-q -rA", "-q -s")
    result = sandbox.run(catalog.get(bug_env("ledger")).profile, command,
                         files={**built.target_files, "tests/test_probe.py": probe})
    import json

    seen = json.loads(result.stdout.split("PROBE ", 1)[1].splitlines()[0])
    assert seen["flags"] == [0, 0, 0] and seen["rlhub"] == [] and seen["importable"] == []
    assert seen["venv"] and seen["pytest"]
    assert not {"PYTHONDONTWRITEBYTECODE", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "MPLBACKEND"} & set(seen["env"])
    assert {"PATH", "HOME", "VIRTUAL_ENV", "USER"} <= set(seen["env"])
