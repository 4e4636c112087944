"""The `unit_tests` verifier: hidden tests against the model's code, graded from outside it.

Contract with environments: `UnitTestsHidden` (task.hidden), checked when a task is made.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import os
from dataclasses import dataclass
from typing import Any, Literal, Optional, Union

from pydantic import field_validator

from hub import Verdict, Verifier, VerifierConfig, VerifierError
from hub.core.errors import TaskError
from hub.core.verifier import HiddenData

from . import suite as suite_mod
from .codec import LIMIT
from .solution_file import assemble, prompt_prefix, with_usage_example

HARNESS = "rlhub_unittest.harness:run"
_MESSAGE_CHARS = 1500


class UnitTestsConfig(VerifierConfig):
    reward: Literal["all_or_nothing", "fraction"] = "all_or_nothing"
    style: Literal["pytest", "check", "stdio"] = "pytest"
    extract: Literal["auto", "last_block", "whole"] = "auto"
    # what the benchmark's own harness puts before every solution (preambles.py; the presets set it)
    preamble: Literal["none", "livecodebench", "apps"] = "none"
    # which block is the answer: the last that defines the task's entry point (an example-usage
    # block after it is not the answer), or the last one (what a rubric's analysers read)
    answer_block: Literal["defines_entry", "last"] = "defines_entry"
    max_response_chars: int = 200_000


SOLUTION_PATHS = {"python": "solution.py", "bash": "solution.sh", "sql": "query.sql"}


class UnitTestsHidden(HiddenData):
    """What `unit_tests` reads from task.hidden (environments build this, or a dict of its shape)."""

    tests: Any  # a pytest file, a check program (str, or MBPP's list of asserts), or stdio cases
    test_style: Optional[Literal["pytest", "check", "stdio"]] = None  # default: the config's `style`
    entry_point: Any = None  # check style: the function `check(candidate)` is given (LiveCodeBench: its metadata)
    prompt_prefix: str = ""  # check style: code put before a completion that is not a whole function
    solution_path: Optional[str] = None  # default: solution.py, solution.sh or query.sql by language
    language: Literal["python", "bash", "sql"] = "python"
    files: dict[str, str] = {}  # read-only fixtures in the work dir (*.py ones are importable)
    test_ids: Optional[list[str]] = None  # expected test names (default: from the tests' AST)
    test_setup: Union[str, list[str], None] = None  # MBPP's test_setup_code
    public_tests: Any = None  # stdio: the public cases (LiveCodeBench)
    package: Optional[str] = None  # multi-file projects: the solution is this top-level package in the work dir; the
    # tests import it and its modules (`import inventory.ledger`), each served from the solution's process

    @field_validator("package")
    @classmethod
    def _top_level(cls, v: Optional[str]) -> Optional[str]:
        if v is not None and not v.isidentifier():
            raise ValueError(f"{v!r} must be a top-level package name")
        return v

    @field_validator("solution_path")
    @classmethod
    def _inside(cls, v: Optional[str]) -> Optional[str]:
        if v is not None and (not v or os.path.isabs(v) or ".." in v.split("/")):
            raise ValueError(f"{v!r} must be a relative path inside the work dir")
        return v


@dataclass(frozen=True)
class TestSpec:
    """task.hidden, validated: a malformed task is the environment's bug (no verdict), not the model's."""

    tests: Any  # str; for stdio, the cases (a tuple of the tests and public_tests values)
    style: str
    entry_point: Any
    prompt_prefix: str
    solution_path: str
    language: str
    files: dict[str, str]
    test_ids: list[str] | None
    setup: str = ""
    package: str | None = None

    @classmethod
    def from_hidden(cls, hidden: "UnitTestsHidden", config: UnitTestsConfig) -> TestSpec:
        """The typed hidden data with the config's defaults applied (the test style); what only
        makes sense with the style (a stdio case list, asserts as code) is checked here."""
        tests, style = hidden.tests, hidden.test_style or config.style
        if style == "stdio":  # input/output cases: parsed by the suite (io_cases.py)
            if tests in (None, "", [], {}):
                raise TaskError("unit_tests needs task.hidden['tests']: the input/output cases")
            tests = (hidden.public_tests, tests)
        elif isinstance(tests, (list, tuple)) and all(isinstance(t, str) for t in tests):
            tests = "\n".join(tests)  # MBPP's test_list: one assert per item
        if style != "stdio" and (not isinstance(tests, str) or not tests.strip()):
            raise TaskError("unit_tests needs task.hidden['tests']: a pytest file or a check program (str)")
        if style in ("check", "stdio") and hidden.language != "python":
            raise TaskError(f"{style}-style tests run Python solutions: task.hidden['language'] must be 'python'")
        setup = hidden.test_setup or ""
        if hidden.package is not None and (style != "pytest" or hidden.language != "python"):
            raise TaskError(f"task.hidden['package'] {hidden.package!r} needs pytest-style Python tests")
        return cls(tests=tests, style=style, entry_point=hidden.entry_point or None, prompt_prefix=hidden.prompt_prefix,
                   solution_path=(f"{hidden.package}/__init__.py" if hidden.package else
                                  hidden.solution_path or SOLUTION_PATHS[hidden.language]), language=hidden.language,
                   files=dict(hidden.files), test_ids=list(hidden.test_ids) if hidden.test_ids else None,
                   setup="\n".join(setup) if isinstance(setup, list) else setup, package=hidden.package)

    @property
    def module_name(self) -> str:
        return self.package or os.path.splitext(os.path.basename(self.solution_path))[0]


class UnitTests(Verifier):
    """Reward from hidden tests run in the sandbox (all or nothing, or the fraction passed)."""

    name = "unit_tests"
    Config = UnitTestsConfig
    Hidden = UnitTestsHidden

    def verify(self, task, response, ctx) -> Verdict:
        spec = TestSpec.from_hidden(self.hidden(task), self.config)
        if len(response) > self.config.max_response_chars:
            return Verdict(0.0, False, details={"reason": f"response longer than {self.config.max_response_chars} chars"})
        code = assemble(spec, response, self.config.extract, task.prompt, self.config.preamble,
                        self.config.answer_block == "defines_entry")
        if code is None:
            return Verdict(0.0, False, details={"reason": f"no {spec.language} code found in the response"})
        return self._run(spec, {spec.solution_path: code}, ctx, prompt_prefix(spec, task.prompt), task.prompt)

    def response_key(self, task, response: str) -> str | None:
        """The verdict depends on the assembled solution file alone."""
        if len(response) > self.config.max_response_chars:
            return None
        spec = TestSpec.from_hidden(self.hidden(task), self.config)
        code = assemble(spec, response, self.config.extract, task.prompt, self.config.preamble,
                        self.config.answer_block == "defines_entry")
        return "code:" + hashlib.sha256((code or "").encode("utf-8", "surrogatepass")).hexdigest()

    def right_forms(self, task) -> list[str]:
        """The reference's code followed by an example-usage block that calls the entry point
        (graded as the reference: the block that defines the entry point is the answer)."""
        if self.config.answer_block != "defines_entry":
            return []
        spec = TestSpec.from_hidden(self.hidden(task), self.config)
        return [form] if (form := with_usage_example(spec, task.reference, task.prompt)) else []

    def hacks(self, task) -> list:
        """A rotating share of the reusable reward-hack suite, shaped to this task (hacks.py)."""
        from .hacks import task_hacks

        return task_hacks(TestSpec.from_hidden(self.hidden(task), self.config), task)

    def verify_files(self, task, files: dict[str, str | bytes], ctx) -> Verdict:
        """Grade a work dir the model wrote itself (a multi-turn session): `files` holds the
        solution at `solution_path` and whatever else the model left there (a planted
        conftest.py or pytest.py changes nothing). The task's fixtures overwrite same-named files."""
        spec = TestSpec.from_hidden(self.hidden(task), self.config)
        if spec.solution_path not in files:
            return Verdict(0.0, False, details={"reason": f"no {spec.solution_path} in the work dir"})
        return self._run(spec, dict(files), ctx, prompt_prefix(spec, task.prompt), task.prompt)

    def _run(self, spec: TestSpec, model_files: dict[str, str | bytes], ctx, prefix: str = "", prompt=None) -> Verdict:
        return self.grade(*self.run_suite(spec, model_files, ctx, prefix, prompt))

    def run_suite(self, spec: TestSpec, model_files: dict[str, str | bytes], ctx, prefix: str = "", prompt=None):
        """Run the hidden tests against the model's files in the sandbox: (the suite, the run's result).

        Nothing the solution does makes this "no verdict": when the run failed in a way that may
        be the tests' own (they failed to load after the solution was asked something, or the
        test process ended without a report), the tests are run again without the solution; only
        if they fail that way again is it the task's bug (VerifierError). Otherwise the result
        says the solution broke the run: its zero."""
        python_module = spec.module_name if spec.language == "python" else None
        try:
            suite = suite_mod.prepared(spec.tests, spec.style, entry_point=spec.entry_point, test_ids=spec.test_ids,
                                       solution_module=python_module, prefix=prefix, setup=spec.setup,
                                       prompt=suite_mod.prompt_names(prompt))
        except suite_mod.SuiteError as exc:  # the environment's bug: no verdict, not the model's 0
            raise VerifierError(f"the task's tests are unusable: {exc}") from None
        profile = ctx.profile
        # The task's fixtures win over anything the model left, except the file it was asked to write
        # (a "complete this module" task ships the partial module under the solution's own name).
        fixtures = {n: t for n, t in spec.files.items() if n != spec.solution_path}
        files = {**model_files, **fixtures}
        modules = {os.path.splitext(n)[0].replace("/", "."): t for n, t in fixtures.items() if n.endswith(".py")}
        args = {
            "module_source": suite.source, "module_code": base64.b64encode(suite.code).decode(),
            "solution_module": python_module or "",
            "solution_file": spec.solution_path, "modules": modules,
            "deadline_s": max(1.0, profile.wall_timeout_s * 0.85 - 0.5),
            "test_timeout_s": max(1.0, profile.wall_timeout_s * 0.4), "style": spec.style,
            "package": spec.package is not None, "test_names": list(suite.own_names),
        }
        result = ctx.sandbox.call(profile, HARNESS, files=files, args=args)
        if result.infra_error:
            raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
        if isinstance(result.value, dict) and result.value.get("refused"):  # before anything of the model's ran
            raise VerifierError(f"the test runner refused to start (not the model's fault): {result.value['refused']}")
        doubt = _doubtful(result)
        if doubt is not None and python_module:
            again = ctx.sandbox.call(profile, HARNESS, files=fixtures, args={**args, "null_solution": True})
            if again.infra_error:
                raise VerifierError(f"sandbox failed (not the model's fault): {again.infra_error}")
            alone = _doubtful(again) or _load_failure(again.value, "tests")
            if alone is not None:  # the tests break without the solution too: the task's bug
                raise VerifierError(f"the hidden tests fail without the solution too: {alone[-_MESSAGE_CHARS:]}")
            result = dataclasses.replace(result, value=_solution_broke_the_run(result.value, doubt))
        return suite, result

    def grade(self, suite: suite_mod.Suite, result) -> Verdict:
        outcome, details, tamper = self.test_outcomes(suite, result)
        if outcome is None:
            return Verdict(0.0, False, details=details)
        if tamper:
            return Verdict(0.0, False, components={"tests": 0.0}, details=details)
        passed, total = sum(outcome.values()), len(outcome)
        fraction = passed / total
        reward = fraction if self.config.reward == "fraction" else float(passed == total)
        return Verdict(reward, passed == total, components={"tests": fraction}, details=details)

    def explain_reward(self, verdict: dict) -> str | None:
        """The reward rule applied to the verdict's test counts."""
        d = verdict.get("details") or {}
        if verdict.get("error") or "tests_total" not in d:
            return None
        passed, total = d.get("tests_passed", 0), d["tests_total"]
        if d.get("tampering"):
            return f"0: {d['tampering']}"
        if self.config.reward == "fraction":
            return f"reward: fraction: tests passed / tests = {passed}/{total} = {passed / total if total else 0:.4g}"
        return f"reward: all_or_nothing: 1 only when all {total} tests pass; {passed} passed, so {float(passed == total):g}"

    def test_outcomes(self, suite: suite_mod.Suite, result) -> tuple[dict[str, bool] | None, dict[str, Any], str | None]:
        """Each expected test's outcome (True: passed), the details, and why the run cannot be
        trusted (None: it can). No outcomes (None) when the run gave no report; VerifierError
        when the task's own tests broke it (they failed to load before the solution was asked
        anything) or the test runner refused to start."""
        report = result.value
        if isinstance(report, dict) and report.get("refused"):
            raise VerifierError(f"the test runner refused to start (not the model's fault): {report['refused']}")
        if not _well_formed(report):
            why = ("timed out" if result.timed_out else "ran out of memory" if result.oom
                   else f"the test run was killed (exit {result.exit_code}, signal {result.signal})")
            return None, {"reason": f"no test report: {why}", "stderr": result.stderr[-500:]}, None
        by_tests = _load_failure(report, "tests")
        if by_tests is not None:  # the task's tests broke before the solution was asked anything
            raise VerifierError(f"the hidden tests could not be loaded: {by_tests[-_MESSAGE_CHARS:]}")
        results: dict[str, dict] = report["results"]
        collected = [c for c in report.get("collected", []) if isinstance(c, str)]
        outcome, entries_of = {}, {}
        for test_id in suite.expected:
            # every collected test of that name (each parametrisation) must have passed its call phase
            nodes = [c for c in collected if c == test_id or c.startswith(test_id + "[")] or [test_id]
            entries = [results.get(n) for n in nodes]
            entries_of[test_id] = [e for e in entries if e is not None]
            outcome[test_id] = all(e is not None and e.get("outcome") == "passed" and e.get("call") == "passed"
                                   for e in entries)
        passed = sum(outcome.values())
        total = len(outcome)
        sentinel = [e for n, e in results.items() if n == suite.sentinel or n.startswith(suite.sentinel + "[")]
        details: dict[str, Any] = {"tests_passed": passed, "tests_total": total}
        failures = {t: _why(entries_of[t]) for t, ok in outcome.items() if not ok}
        if failures:
            details["failures"] = dict(list(failures.items())[:10])
        limits = sorted({m.split(LIMIT + ": ", 1)[1].split("\n")[0][:200] for m in
                         (str(e.get("message", "")) for e in results.values()) if LIMIT + ": " in m})
        if limits:
            details["limits_hit"] = limits
        if report["collect_errors"]:
            details["collect_errors"] = [str(e.get("message", e) if isinstance(e, dict) else e)[-_MESSAGE_CHARS:]
                                         for e in report["collect_errors"]]
            if not passed:
                details.setdefault("reason", details["collect_errors"][0].strip().splitlines()[-1][:300])
        tamper = None
        if any(e.get("outcome") == "passed" or e.get("call") == "passed" for e in sentinel):
            tamper = "a hidden test that every genuine run fails was reported as passed: results were forged"
        elif passed and not any(e.get("outcome") == "failed" and "AssertionError" in str(e.get("message", ""))
                                for e in sentinel):
            tamper = "a hidden test that every genuine run fails did not fail: the run cannot be trusted"
        if tamper:
            details["tampering"] = tamper
        return outcome, details, tamper


def _load_failure(report: Any, cause: str) -> str | None:
    """The message of the run's first load failure of that cause, if any."""
    if not isinstance(report, dict):
        return None
    errors = report.get("collect_errors") if isinstance(report.get("collect_errors"), list) else []
    message = next((str(e.get("message", "")) for e in errors if isinstance(e, dict) and e.get("cause") == cause), None)
    if message is None and cause == "tests" and report.get("load_failed_by_tests"):
        message = str(report["load_failed_by_tests"])
    return message


def _doubtful(result) -> str | None:
    """Why this run's failure might be the tests' own and not the solution's: a load failure
    after the solution was asked something, or a test process that ended by its own hand
    without a report. None: the run says clearly whose failure it was."""
    report = result.value
    if _well_formed(report):
        return _load_failure(report, "unknown")
    if result.exit_code is not None and result.signal is None and not result.timed_out and not result.oom:
        return f"the test process ended (exit code {result.exit_code}) before it reported: {result.stderr[-300:]}".strip()
    return None


def _solution_broke_the_run(report: Any, why: str) -> dict:
    """The report of a run the solution broke (the tests are fine without it): no test passed."""
    report = dict(report) if _well_formed(report) else {"results": {}, "collected": []}
    errors = [e for e in report.get("collect_errors", []) if isinstance(e, dict) and e.get("cause") != "unknown"]
    report["collect_errors"] = [{"message": f"{why}\n(the tests run without the solution: this failure is the "
                                            "solution's)", "cause": "solution"}, *errors]
    report["load_failed_by_tests"] = None
    return report


def _why(entries: list[dict]) -> str:
    if not entries:
        return "did not run (not collected, or the test run stopped before it)"
    bad = next((e for e in entries if e.get("outcome") != "passed"), entries[0])
    return f"{bad.get('outcome')}: {str(bad.get('message', ''))[-_MESSAGE_CHARS:]}"


def _well_formed(report: Any) -> bool:
    return (isinstance(report, dict) and isinstance(report.get("results"), dict)
            and all(isinstance(v, dict) for v in report["results"].values())
            and isinstance(report.get("collect_errors", []), list))
