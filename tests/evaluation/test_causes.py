"""The failure cause read from a verdict, in the shapes the verifiers write (the report test
covers the live ones: an import error in a swe patch, a wrong answer, no verdict, a graded part)."""

from __future__ import annotations

import pytest

from hub.evaluation.causes import failure_cause

MESH_TIMEOUT = {"stage": "timeout", "reason": "the script ran past the 30 s limit"}
NO_REPORT = {"reason": "no test report: timed out", "stderr": ""}
SWE_IN_PROCESS = {"failures": {"test_a": "not reported"}, "timed_out": True}
SYNTAX = {"tests_passed": 0, "tests_total": 3, "collect_errors": ["import solution\nSyntaxError: invalid syntax"]}
NAME = {"tests_passed": 0, "tests_total": 2, "failures": {"t1": "failed: x\nNameError: name 'y' is not defined",
                                                           "t2": "failed: x\nNameError: name 'y' is not defined"}}
ASSERTED = {"tests_passed": 1, "tests_total": 3, "failures": {"t1": "failed: assert 1 == 2\nAssertionError",
                                                               "t2": "failed: x\nValueError: bad"}}
FORGED = {"tests_passed": 3, "tests_total": 3, "tampering": "a hidden test that every genuine run fails was reported as passed"}
OUT_OF_TURNS = {"tests_passed": 0, "tests_total": 2, "failures": {"t": "failed: assert False\nAssertionError"},
                "episode": {"turns": 20, "submitted": False}}


@pytest.mark.parametrize("record, cause", [
    ({"error": "environment step took longer than 300.0 s"}, "no verdict: timeout"),
    ({"error": "sandbox failed: the worker died"}, "no verdict: sandbox failed"),
    ({"details": MESH_TIMEOUT, "components": {"gate": 0.0}}, "timeout"),
    ({"details": NO_REPORT}, "timeout"),
    ({"details": SWE_IN_PROCESS}, "timeout"),
    ({"details": {"stage": "error", "reason": "ModuleNotFoundError: No module named 'trimesh'"}}, "import error"),
    ({"details": {"stage": "policy", "reason": "line 2: import of 'os' is forbidden"}}, "refused: policy"),
    ({"details": {"reason": "the patch changes nothing", "refused": "empty"}}, "refused: empty"),
    ({"details": SYNTAX}, "syntax error"),
    ({"details": NAME}, "raised NameError"),
    ({"details": ASSERTED, "components": {"tests": 1 / 3}}, "wrong answer"),
    ({"details": FORGED}, "tampering"),
    ({"details": OUT_OF_TURNS}, "wrong answer (out of turns)"),
    ({"details": {"extracted": "7"}, "components": {"exact": 0.0}}, "wrong answer"),
    ({"turns": [{"finish_reason": "length"}], "details": {}}, "truncated (max tokens)"),
    ({"passed": True, "reward": 1.0, "details": {}}, None),
])
def test_the_cause_is_read_from_the_verdict(record, cause):
    assert failure_cause({"passed": False, "reward": 0.0, **record}) == cause
