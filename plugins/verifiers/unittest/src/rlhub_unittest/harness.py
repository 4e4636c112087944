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
        package: bool = False, test_names: list[str] | None = None, null_solution: bool = False) -> dict:
    """Run the hidden module; return {"results": {test id: {"outcome", "message", "call"}},
    "collected": [...], "collect_errors": [{"message", "cause"}], "solution_started": bool,
    "load_failed_by_tests": str | None, "timed_out": bool, "timings": {...}} (never raises).

    `modules`: trusted Python fixture modules (name -> source) the tests may import.
    `style`: "pytest" (run under pytest) or "check"/"stdio" (a plain loop over test_case_N functions).
    `module_code`: the module compiled for suite.PLACEHOLDER (base64 of marshal), used in a warm worker.
    `package`: `solution_module` is a package in the work dir (`solution_file` its __init__.py): the tests
    import it and any of its modules (`import inventory.ledger`), each a stand-in served from the
    solution's process, where the package is imported from the work dir as usual.
    `test_names`: the names the tests bind themselves (`from solution import *` leaves them alone).
    `null_solution`: load the tests without the solution (no process; every name of it a no-op):
    did a load failure need the solution?
    """
    started = time.monotonic()
    try:
        stand_in.not_dumpable()
        writable = writable_sys_path()
        if writable:  # a module planted there would be imported by this (trusted) process
            return {"refused": f"the test runner's sys.path has writable entries: {', '.join(writable)[:500]}"}
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
                "code": base64.b64decode(module_code) if module_code else b"", "test_names": list(test_names or ()),
                "null_solution": null_solution}
        events = runner.run(spec, placeholder, pytest_run.run_pytest)
        return _report(events, home, deadline, started)
    except BaseException as exc:  # the runner's own failure: said so, never an exit of this process
        return {"results": {}, "collected": [], "collect_errors": [], "timings": {}, "timed_out": False,
                "solution_started": False, "load_failed_by_tests": None, "finished": False,
                "aborted": f"the harness failed: {type(exc).__name__}: {exc}"[:500]}


def writable_sys_path() -> list[str]:
    """sys.path entries this process could write to or create (a module planted in one would be
    imported here). The sandbox makes none: the host's entries it exposes are read-only binds."""
    found = []
    for entry in sys.path:
        if not entry:
            continue
        path = os.path.abspath(entry)
        while not os.path.lexists(path):  # an entry that does not exist yet could be made
            parent = os.path.dirname(path)
            if parent == path:
                break
            path = parent
        if os.access(path, os.W_OK):
            try:
                read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
            except OSError:
                read_only = False
            if not read_only:
                found.append(entry)
    return found


def _report(events: list[dict], home: str, deadline: float, started: float) -> dict:
    """The run's report. A test's outcome is "passed" only on a passing call-phase report for
    it (and no failing phase): a test the run never finished (an interrupt, a crash of the
    runner, a missing id) has none."""
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
                                   "cause": event.get("cause") if event.get("cause") in ("tests", "solution") else "unknown"})
        elif kind == "solution_started":
            solution_started = True
        elif kind == "result":
            entry = results.setdefault(str(event["id"]), {"outcome": "unfinished", "message": "", "call": None})
            good = event.get("outcome") == "passed" and not event.get("wasxfail")
            if event.get("when") == "call" and entry["call"] is None:
                entry["call"] = "passed" if good else str(event.get("outcome"))
            if not good and entry["outcome"] not in ("failed", "skipped"):  # the first failing phase says why
                entry["outcome"] = "skipped" if event.get("outcome") == "skipped" else "failed"
                entry["message"] = str(event.get("message", "")).replace(home + "/", "")[-2000:]
        elif kind == "timings":
            timings = {k: v for k, v in event.items() if k != "t"}
        elif kind == "aborted":
            aborted = str(event.get("message", ""))
        elif kind == "done":
            done = True
    for entry in results.values():
        if entry["outcome"] == "unfinished" and entry["call"] == "passed":
            entry["outcome"] = "passed"
        elif entry["outcome"] == "unfinished":
            entry["message"] = "the test never reported its outcome (the run stopped during it)"
    load_failed_by_tests = next((e["message"] for e in collect_errors if e["cause"] == "tests"), None)
    if aborted and collected is None and not solution_started and not collect_errors:
        load_failed_by_tests = f"the test runner failed while loading the tests: {aborted}"
    timings.update(pytest_prepared=pytest_run.NOT_PREPARED or "yes", task_cpu=runner.cpu_seconds(resource.RUSAGE_SELF) + runner.cpu_seconds(resource.RUSAGE_CHILDREN),
                   harness_wall=time.monotonic() - started)
    return {"results": results, "collected": collected or [], "collect_errors": collect_errors[:3], "timings": timings,
            "timed_out": time.monotonic() >= deadline, "solution_started": solution_started,
            "load_failed_by_tests": load_failed_by_tests, "finished": done, "aborted": aborted}
