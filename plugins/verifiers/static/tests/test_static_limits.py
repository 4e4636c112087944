"""What a model can do to an analyser (make it run long, make it print a flood) ends in a named
verdict under the profile's limits; what it cannot (a missing or failing tool) is no verdict,
named, never a silent 1."""

from __future__ import annotations

from rlhub_static.mypy import Mypy
from rlhub_static.plugin import STATIC_PROFILE
from rlhub_static.ruff import Ruff


def test_an_analyser_that_runs_past_the_time_limit_is_a_named_verdict(analyse):
    code = "".join(f"def f{i}(x: int) -> int:\n    return x + {i}\n\n\n" for i in range(6000))
    # mypy with its warm standard-library cache analyses this file in about 0.45 s: on an idle core
    # it can finish inside a 0.5 s limit (a clean report, rightly 1.0), so the limit is well below
    v = analyse(Mypy, code, profile=STATIC_PROFILE.merged(wall_timeout_s=0.15, cpu_s=1), max_response_chars=10**6)
    assert v.error is None and v.reward == 0.0 and not v.passed
    assert v.details["limit"] == "time" and "mypy ran past the time limit" in v.details["reason"]


def test_a_flood_of_findings_beyond_the_output_cap_is_a_named_verdict(analyse):
    code = "import os\n" * 20000  # 20000 findings, ~10 MB of JSON
    v = analyse(Ruff, code, select=["F"], profile=STATIC_PROFILE.merged(output_bytes=64 << 10), max_response_chars=10**6)
    assert v.error is None and v.reward == 0.0 and v.details["limit"] == "output"
    assert "printed more than the output cap (65536 bytes)" in v.details["reason"]


class MissingRuff(Ruff):
    name = "ruff"

    def argv(self):
        return [self.program("ruff-not-installed"), "check", self.filename]


class MissingMypy(Mypy):
    def argv(self):
        return self.module("mypy_not_installed") + [self.filename]


def test_a_missing_tool_is_no_verdict_naming_it(analyse):
    v = analyse(MissingRuff, "x = 1\n")
    assert v.error and "`ruff-not-installed` is not installed" in v.error and v.reward == 0.0 and not v.passed
    v = analyse(MissingMypy, "x = 1\n")
    assert v.error and "'mypy_not_installed' is not installed" in v.error


def test_a_failing_tool_is_no_verdict_naming_it(analyse):
    v = analyse(Ruff, "x = 1\n", select=["ZZZ9"])  # a well-formed selector ruff does not know: it exits 2
    assert v.error and v.error.startswith("ruff failed (exit code 2") and not v.passed
    v = analyse(Mypy, "x = 1\n", python_version="3.1")  # a version mypy refuses
    assert v.error and v.error.startswith("mypy failed (exit code 2")
