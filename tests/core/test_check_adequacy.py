"""The test-adequacy check (hub.checks.library.check_tests_adequate): it reads the environment's
mutation report and fails an environment whose hidden tests miss too many of its reference's mutants."""

from __future__ import annotations

import pytest

from hub.core.verifier import Verifier
from hub.checks.library import MUTATION_SCORE_MIN, CheckFailed, CheckSkipped, check_tests_adequate
from hub.core.task import Label, Task


class _Env:
    def __init__(self, report):
        self.report, self.calls = report, 0

    def mutation_report(self, task, ctx):
        self.calls += 1
        return self.report


class _Renv:
    id = "fake/adequacy-v1"
    profile = None
    verifier = Verifier()  # the base verifier: names no cheap answers

    def __init__(self, env):
        self.env = env

    def label(self, index):
        return Label(env=self.id, seed=index)


class _Catalog:
    def task(self, label):
        return Task(prompt="p", hidden={}, reference="r", label=label)


def _report(killed, considered, **extra):
    return {"score": killed / considered, "killed": killed, "considered": considered, "survivors": ["Op: `a` -> `b`"],
            "misdeclared": [], "not_run": [], "error": None, **extra}


def test_a_report_at_the_threshold_passes_and_below_fails():
    check_tests_adequate(_Catalog(), _Renv(_Env(_report(19, 20))), 0)  # 0.95
    with pytest.raises(CheckFailed, match=r"0\.900 < 0\.95 \(18 of 20 killed\).*Op: `a` -> `b`"):
        check_tests_adequate(_Catalog(), _Renv(_Env(_report(18, 20))), 0)
    assert MUTATION_SCORE_MIN == 0.95


def test_an_equivalence_declared_for_a_killed_mutant_fails_even_at_full_score():
    env = _Env(_report(20, 20, misdeclared=["Op: `x` -> `y` (declared equivalent: same; killed by test_case1)"]))
    with pytest.raises(CheckFailed, match="declared equivalent but killed"):
        check_tests_adequate(_Catalog(), _Renv(env), 0)


def test_no_measurement_is_a_failure_not_a_pass():
    with pytest.raises(CheckFailed, match="not measured: sandbox down"):
        check_tests_adequate(_Catalog(), _Renv(_Env({"error": "sandbox down"})), 0)


def test_one_seed_only_and_skipped_without_a_mutation_report():
    env = _Env(_report(1, 20))
    with pytest.raises(CheckSkipped, match="first task only"):
        check_tests_adequate(_Catalog(), _Renv(env), 1)
    assert env.calls == 0
    with pytest.raises(CheckSkipped, match="no mutation_report"):
        check_tests_adequate(_Catalog(), _Renv(object()), 0)


def test_planned_once_and_only_where_the_environment_mutates_its_reference():
    from hub.checks.library import planned

    class Renv(_Renv):
        num_tasks = None

    assert [i for c, i in planned(Renv(_Env(None)), 3) if c == "tests_adequate"] == [0]
    assert not [c for c, _ in planned(Renv(object()), 3) if c == "tests_adequate"]
