"""Sandbox side, trusted: run the hidden test module against the model's code, and report.

`run` is what the verifier calls through the warm pool (`sb.call(profile,
"rlhub_unittest.harness:run", ...)`). It never imports the model's code: it forks a test runner
per attempt (runner.py), which runs the model's code in a process of its own (a fresh exec,
stand_in.py) and streams one event per test phase back through a pipe that process never holds.
This parent decides the outcome from those events, the runner's fate and its own clock:

- a test whose result never arrives failed (the runner exited, was killed, or hung);
- when the runner dies or hangs during a test, that test fails and a fresh runner runs the rest;
- the hidden sentinel test (which must fail) stays as a second line: if it did not fail, the
  verifier trusts nothing of the run.
"""

from __future__ import annotations

import base64
import ctypes
import json
import os
import select
import signal
import sys
import tempfile
import time

from . import pytest_run, runner

PR_SET_DUMPABLE = 4
MAX_RESTARTS = 64


def _not_dumpable() -> None:
    """Other processes of our uid (the model's) may then not open /proc/<us>/fd or /mem: the
    pipe this function's return value travels through stays out of their reach. The runners
    forked from here inherit it."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class _Attempt:
    """One child: its pid, its event pipe, and what it reported."""

    def __init__(self, pid: int, rfd: int) -> None:
        self.pid, self.rfd = pid, rfd
        self.buf = b""
        self.events: list[dict] = []
        self.status: int | None = None

    def feed(self, data: bytes) -> None:
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                event = {"t": "garbled"}
            self.events.append(event if isinstance(event, dict) else {"t": "garbled"})


def _spawn(spec: dict, placeholder: str, deselect: list[str]) -> _Attempt:
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns from here
        os.close(rfd)
        runner.main(spec, placeholder, deselect, wfd)
    os.close(wfd)
    return _Attempt(pid, rfd)


def _wait(attempt: _Attempt, deadline: float, test_deadline: float) -> str:
    """Read events until the child exits ('exited') or a clock runs out ('timeout')."""
    started = {}
    while True:
        now = time.monotonic()
        current = next((e["id"] for e in reversed(attempt.events) if e.get("t") in ("start", "result")), None)
        if current is not None and current not in started:
            started = {current: now}
        limit = min(deadline, (started.get(current, now) + test_deadline) if current else deadline)
        if now >= limit:
            return "timeout"
        ready, _, _ = select.select([attempt.rfd], [], [], min(0.05, limit - now))
        if ready:
            data = os.read(attempt.rfd, 1 << 16)
            if data:
                attempt.feed(data)
                continue
        pid, status = os.waitpid(attempt.pid, os.WNOHANG)
        if pid:  # exited; drain what it wrote last (grandchildren may hold the pipe open: don't wait for EOF)
            attempt.status = status
            while select.select([attempt.rfd], [], [], 0)[0] and (data := os.read(attempt.rfd, 1 << 16)):
                attempt.feed(data)
            return "exited"


def _kill(attempt: _Attempt) -> None:
    for target in (-attempt.pid, attempt.pid):  # its process group, then itself
        try:
            os.kill(target, signal.SIGKILL)
        except OSError:
            pass
    try:
        _, attempt.status = os.waitpid(attempt.pid, 0)
    except ChildProcessError:
        pass


def _fate(attempt: _Attempt, how: str) -> str:
    if how == "timeout":
        return "killed after the time limit"
    status = attempt.status or 0
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"process exited with code {os.WEXITSTATUS(status)}"


def run(module_source: str, solution_module: str, solution_file: str, modules: dict[str, str] | None = None,
        deadline_s: float = 10.0, test_timeout_s: float = 5.0, style: str = "pytest", module_code: str = "") -> dict:
    """Run the hidden module; return {"results": {test id: {...}}, "collected": [...], "attempts": [...],
    "collect_errors": [{"message", "by_tests"}], "solution_started": bool, "load_failed_by_tests": str|None}.

    `modules`: trusted Python fixture modules (name -> source) the tests may import.
    `style`: "pytest" (run under pytest) or "check"/"stdio" (a plain loop over test_case_N functions).
    `module_code`: the module compiled for suite.PLACEHOLDER (base64 of marshal), used in a warm worker.
    """
    _not_dumpable()
    deadline = time.monotonic() + deadline_s
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
            "test_timeout_s": test_timeout_s, "python": sys.executable,
            "code": base64.b64decode(module_code) if module_code else b""}
    results: dict[str, dict] = {}
    collected: list[str] | None = None
    attempts: list[dict] = []
    collect_errors: list[dict] = []
    solution_started = False
    load_failed_by_tests = None
    for _ in range(MAX_RESTARTS):
        attempt = _spawn(spec, placeholder, sorted(results))
        how = _wait(attempt, deadline, test_timeout_s)
        if how == "timeout":
            _kill(attempt)
        in_progress = None
        done = False
        for event in attempt.events:
            kind = event.get("t")
            if kind == "collected" and collected is None and isinstance(event.get("ids"), list):
                collected = [str(i) for i in event["ids"]]
            elif kind == "collect_error":
                collect_errors.append({"message": str(event.get("message", "")).replace(home + "/", "")[-2000:],
                                       "by_tests": event.get("by_tests") is True})
            elif kind == "solution_started":
                solution_started = True
            elif kind == "start":
                in_progress = str(event.get("id"))
            elif kind == "result":
                node = str(event.get("id"))
                entry = results.setdefault(node, {"outcome": "passed", "message": ""})
                if event.get("outcome") != "passed" or event.get("wasxfail"):
                    if entry["outcome"] == "passed":  # the first failing phase says why
                        entry["outcome"] = "skipped" if event.get("outcome") == "skipped" else "failed"
                        entry["message"] = str(event.get("message", "")).replace(home + "/", "")[-2000:]
                if event.get("when") == "teardown":
                    in_progress = None
            elif kind == "done":
                done = True
        fate = _fate(attempt, how)
        attempts.append({"events": len(attempt.events), "fate": fate, "finished": done})
        os.close(attempt.rfd)
        if collected is None and not done and not solution_started and not collect_errors:
            # the runner died loading the tests before the solution was ever started: the tests' doing
            load_failed_by_tests = f"the test runner {fate} while loading the tests"
        if done or collected is None or in_progress is None:
            break  # finished, or died before/between tests: nothing left to resume
        results[in_progress] = {"outcome": "failed", "message": f"{fate} during this test"}
        if time.monotonic() >= deadline or set(collected) <= set(results):
            break
    if any(e["by_tests"] for e in collect_errors):
        load_failed_by_tests = next(e["message"] for e in collect_errors if e["by_tests"])
    return {"results": results, "collected": collected or [], "collect_errors": collect_errors[:3],
            "attempts": attempts, "timed_out": time.monotonic() >= deadline, "solution_started": solution_started,
            "load_failed_by_tests": load_failed_by_tests}
