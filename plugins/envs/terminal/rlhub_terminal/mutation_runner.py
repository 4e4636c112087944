"""Sandbox side of the test-adequacy check: a task's hidden tests run against its reference and
each mutant of it, all in one sandbox call, each version in a forked child of its own.

Every version is our code (the reference, mechanically changed), not a model's, so there is no
judge to protect here, only time to bound: a child that outlives its share is killed with its
process group and counts as killed (a hung or very slow mutant fails the real verifier too). A
child stops at its first failing test, so a killed mutant costs one test; a survivor runs them all.
The tests run latest-killer first (move to front), so most mutants die on the first test they run.
The test functions are called directly (the hidden tests are plain functions, some taking
`tmp_path`), which is what makes a few hundred versions fit in one call.
"""

from __future__ import annotations

import inspect
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
import types

TEST_MODULE = "test_hidden"


def _call_tests(tests: str, test_ids: list[str] | None) -> dict:
    module = types.ModuleType(TEST_MODULE)
    module.__file__ = os.path.abspath(f"{TEST_MODULE}.py")
    sys.modules[TEST_MODULE] = module
    exec(compile(tests, module.__file__, "exec"), module.__dict__)  # noqa: S102 - our hidden tests
    names = test_ids or [n for n, v in vars(module).items() if n.startswith("test") and callable(v)]
    for i, name in enumerate(names):
        fn = getattr(module, name, None)
        if fn is None:
            return {"killed": name, "why": "no such test"}
        kwargs = {}
        for param in inspect.signature(fn).parameters:
            if param != "tmp_path":
                return {"killed": name, "why": f"fixture {param!r} is not provided"}
            from pathlib import Path

            kwargs[param] = Path(tempfile.mkdtemp(prefix=f"t{i}-", dir=os.getcwd()))
        try:
            fn(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - any way a test can fail (pytest.fail is a BaseException)
            return {"killed": name, "why": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {"killed": None, "passed": len(names), "names": names}


def _child(where: str, tests: str, test_ids, solution_path: str, files: dict, source: str, write_fd: int) -> None:
    try:
        os.setsid()
        os.makedirs(where)
        os.chdir(where)
        for path, text in {**files, solution_path: source, f"{TEST_MODULE}.py": tests}.items():
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        sys.path.insert(0, where)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        result = _call_tests(tests, test_ids)
        os.write(write_fd, json.dumps(result).encode())
    finally:
        os._exit(0)


def _wait(read_fd: int, timeout_s: float) -> tuple[bytes, bool]:
    data, deadline = b"", time.monotonic() + timeout_s
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return data, True
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            return data, True
        chunk = os.read(read_fd, 65536)
        if not chunk:
            return data, False
        data += chunk


def _one(root: str, n: int, tests: str, test_ids, solution_path: str, files: dict, source: str,
         timeout_s: float) -> dict:
    where = os.path.join(root, f"v{n}")
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(where, tests, test_ids, solution_path, files, source, write_fd)
    os.close(write_fd)
    data, timed_out = _wait(read_fd, timeout_s)
    os.close(read_fd)
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os.waitpid(pid, 0)
    shutil.rmtree(where, ignore_errors=True)
    if timed_out:
        return {"killed": "timeout", "why": f"over {timeout_s:.1f}s"}
    try:
        result = json.loads(data.decode())
    except ValueError:
        return {"killed": "crashed", "why": "the child died without a report"}
    return result


def run(tests: str, test_ids: list[str] | None, solution_path: str, files: dict[str, str], reference: str,
        mutants: list[list[str]], budget_s: float) -> dict:
    """{"reference": run, "runs": {mutant name: run}, "per_mutant_s": timeout}: each run is
    {"killed": None, "passed": n} (survived), {"killed": None, "not_run": True} or {"killed": test name | "timeout" | "crashed", "why"}."""
    os.environ.setdefault("LC_ALL", "C")
    root = tempfile.mkdtemp(prefix="mut-", dir=os.getcwd())
    start = time.monotonic()
    ref = _one(root, 0, tests, test_ids, solution_path, files, reference, min(budget_s / 4, 30.0))
    took = time.monotonic() - start
    if ref.get("killed") is not None:
        return {"reference": ref, "runs": {}}
    per = max(0.5, 20 * took)  # a survivor runs about as long as the reference; a hung mutant is cut short
    order = list(ref.get("names") or test_ids or [])
    runs: dict[str, dict] = {}
    for n, (name, source) in enumerate(mutants, 1):
        if time.monotonic() - start > budget_s:
            runs[name] = {"killed": None, "not_run": True, "why": "the call's time budget ran out"}
            continue
        runs[name] = _one(root, n, tests, order or test_ids, solution_path, files, source, per)
        if runs[name].get("killed") in order:  # this test tells mutants apart: try it first next time
            order.insert(0, order.pop(order.index(runs[name]["killed"])))
    shutil.rmtree(root, ignore_errors=True)
    return {"reference": ref, "runs": runs, "per_mutant_s": per, "reference_s": took}
