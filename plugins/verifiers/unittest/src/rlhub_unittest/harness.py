"""Sandbox side, trusted: run the hidden test module against the model's code, and report.

`run` is what the verifier calls through the warm pool (`sb.call(profile,
"rlhub_unittest.harness:run", ...)`). This process is the test runner (runner.py); it never runs
the model's code: the solution lives in a process of its own (a fresh exec, stand_in.py), holds
none of our fds and cannot read our memory (we are not dumpable). So the runner needs no
process of its own either: the report is made here and leaves through the sandbox's result
pipe, which the solution's process never holds. The outcome, from the runner's events:

- a test whose result never arrives failed;
- a test that overruns its time limit fails and the next test runs (runner.py's alarm); a
  call into the solution that hangs is cut before that (stand_in.py);
- the hidden sentinel test (which must fail) stays as a second line: if it did not fail, the
  verifier trusts nothing of the run.
"""

from __future__ import annotations

import base64
import os
import resource
import sys
import tempfile
import time

from . import pytest_run, runner, stand_in


def run(module_source: str, solution_module: str, solution_file: str, modules: dict[str, str] | None = None,
        deadline_s: float = 10.0, test_timeout_s: float = 5.0, style: str = "pytest", module_code: str = "",
        package: bool = False) -> dict:
    """Run the hidden module; return {"results": {test id: {...}}, "collected": [...],
    "collect_errors": [{"message", "by_tests"}], "solution_started": bool,
    "load_failed_by_tests": str | None, "timed_out": bool, "timings": {...}}.

    `modules`: trusted Python fixture modules (name -> source) the tests may import.
    `style`: "pytest" (run under pytest) or "check"/"stdio" (a plain loop over test_case_N functions).
    `module_code`: the module compiled for suite.PLACEHOLDER (base64 of marshal), used in a warm worker.
    `package`: `solution_module` is a package in the work dir (`solution_file` its __init__.py): the tests
    import it and any of its modules (`import inventory.ledger`), each a stand-in served from the
    solution's process, where the package is imported from the work dir as usual.
    """
    stand_in.not_dumpable()
    started = time.monotonic()
    deadline = started + deadline_s
    if pytest_run.PREPARED is not None:  # a warm worker: this task's private /tmp, pytest's prepared name
        home = pytest_run.HOME
        os.makedirs(home, exist_ok=True)
    else:
        home = tempfile.mkdtemp(prefix="rlhub-tests-")
    placeholder = os.path.join(home, "test_hidden.py")
    with open(placeholder, "w") as f:  # the real tests never touch the disk: this name is all pytest gets
        f.write("# the hidden tests are held in memory\n")
    spec = {"source": module_source, "solution_module": solution_module, "solution_file": solution_file,
            "modules": modules or {}, "workdir": os.getcwd(), "style": style, "deadline": deadline,
            "test_timeout_s": test_timeout_s, "python": sys.executable, "package": package,
            "code": base64.b64decode(module_code) if module_code else b""}
    events = runner.run(spec, placeholder, pytest_run.run_pytest)
    return _report(events, home, deadline, started)


def _report(events: list[dict], home: str, deadline: float, started: float) -> dict:
    results: dict[str, dict] = {}
    collected: list[str] | None = None
    collect_errors: list[dict] = []
    solution_started = done = False
    timings: dict[str, float] = {}
    aborted = None
    for event in events:
        kind = event.get("t")
        if kind == "collected" and collected is None:
            collected = [str(i) for i in event["ids"]]
        elif kind == "collect_error":
            collect_errors.append({"message": str(event.get("message", "")).replace(home + "/", "")[-2000:],
                                   "by_tests": event.get("by_tests") is True})
        elif kind == "solution_started":
            solution_started = True
        elif kind == "result":
            entry = results.setdefault(str(event["id"]), {"outcome": "passed", "message": ""})
            if event.get("outcome") != "passed" or event.get("wasxfail"):
                if entry["outcome"] == "passed":  # the first failing phase says why
                    entry["outcome"] = "skipped" if event.get("outcome") == "skipped" else "failed"
                    entry["message"] = str(event.get("message", "")).replace(home + "/", "")[-2000:]
        elif kind == "timings":
            timings = {k: v for k, v in event.items() if k != "t"}
        elif kind == "aborted":
            aborted = str(event.get("message", ""))
        elif kind == "done":
            done = True
    load_failed_by_tests = next((e["message"] for e in collect_errors if e["by_tests"]), None)
    if aborted and collected is None and not solution_started and not collect_errors:
        load_failed_by_tests = f"the test runner failed while loading the tests: {aborted}"
    timings.update(pytest_prepared=pytest_run.NOT_PREPARED or "yes", task_cpu=runner.cpu_seconds(resource.RUSAGE_SELF) + runner.cpu_seconds(resource.RUSAGE_CHILDREN),
                   harness_wall=time.monotonic() - started)
    return {"results": results, "collected": collected or [], "collect_errors": collect_errors[:3], "timings": timings,
            "timed_out": time.monotonic() >= deadline, "solution_started": solution_started,
            "load_failed_by_tests": load_failed_by_tests, "finished": done, "aborted": aborted}
