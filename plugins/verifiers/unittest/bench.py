"""Benchmark: `unit_tests` verifications/s, cold vs warm in one run, and where the time goes.

    python plugins/verifiers/unittest/bench.py [--n 40] [--threads 2] [--rounds 3]

modes, interleaved in rounds so machine noise hits all alike:
  cold    a fresh bwrap sandbox per verification running `python -m pytest` on the 6-test
          suite, judged by its exit code (the naive baseline: no isolation of the tests from
          the solution, no strict asserts, no sentinel)
  pytest  the `unit_tests` verifier on the same 6-test suite, warm pool, every isolation
          measure on (the solution in its own process, strict asserts, sentinel, ...)
  check   the `unit_tests` verifier on a HumanEval-style check program (prompt helper, six
          asserts), as a `dataset:` entry with `preset: humaneval` grades it
For each: verifications/s on --threads threads, median latency, and CPU per verification
(warm modes: this process plus the sandbox workers' whole process trees, read from /proc; a
cold sandbox's processes are not reaped where this process would count them): on an idle
machine with --threads cores, throughput is bounded by threads / CPU per verification, which
is printed too, so a busy shared machine still shows what the code costs. Then the median
breakdown of a warm verification. Print `uptime` beside the figures you quote.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from rlhub_unittest.plugin import PYTEST_PROFILE
from rlhub_unittest.verifier import UnitTests, UnitTestsConfig

from hub import Label, Task, VerifyContext
from hub.sandbox import get_sandbox

TESTS = """\
import pytest
import solution

def test_sorted():
    assert solution.merge([1, 4], [2, 3]) == [1, 2, 3, 4]

def test_empty():
    assert solution.merge([], []) == []

def test_one_side():
    assert solution.merge([], [5, 6]) == [5, 6]

@pytest.mark.parametrize("a, b", [([1], [1]), ([0, 0], [-1]), (list(range(0, 50, 2)), list(range(1, 50, 2)))])
def test_against_sorted(a, b):
    assert solution.merge(a, b) == sorted(a + b)
"""
SOLUTION = """\
def merge(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i]); i += 1
        else:
            out.append(b[j]); j += 1
    return out + a[i:] + b[j:]
"""
CHECK_PROMPT = '''\
def digits(n: int) -> list:
    """The decimal digits of n >= 0, most significant first."""
    return [int(c) for c in str(n)]


def digit_sum_rank(values: list) -> list:
    """Sort values by the sum of their digits (see digits()), ties by value.
    >>> digit_sum_rank([21, 3, 14])
    [3, 21, 14]
    """
'''
CHECK_COMPLETION = "    return sorted(values, key=lambda v: (sum(digits(v)), v))\n"
CHECK_TESTS = """\
METADATA = {"author": "rlhub", "dataset": "bench"}


def check(candidate):
    assert candidate([21, 3, 14]) == [3, 21, 14]
    assert candidate([]) == []
    assert candidate([5]) == [5]
    assert candidate([99, 18, 81, 9]) == [9, 18, 81, 99]
    assert candidate([10, 1]) == [1, 10]
    assert all(sum(digits(a)) <= sum(digits(b)) for a, b in zip(candidate(list(range(50))), candidate(list(range(50)))[1:]))
"""


class _Recording:
    """The process-wide sandbox, remembering each call's wall time and report (per thread)."""

    def __init__(self, sb) -> None:
        self.sb, self.local = sb, threading.local()

    def run(self, *args, **kwargs):
        return self.sb.run(*args, **kwargs)

    def call(self, *args, **kwargs):
        start = time.perf_counter()
        result = self.sb.call(*args, **kwargs)
        self.local.last = (time.perf_counter() - start, result.value)
        return result


def _task(mode: str) -> tuple[Task, str, UnitTests]:
    if mode == "check":
        task = Task(prompt=CHECK_PROMPT, hidden={"tests": CHECK_TESTS, "entry_point": "digit_sum_rank",
                                                 "test_style": "check"})
        response = f"```python\n{CHECK_COMPLETION}```"
    else:
        task = Task(prompt="merge two sorted lists", hidden={"tests": TESTS})
        response = f"```python\n{SOLUTION}```"
    task.label = Label(env=f"bench/{mode}-v1", seed=0)
    return task, response, UnitTests(UnitTestsConfig())


def cold(sb, samples: list) -> float:
    start = time.perf_counter()
    r = sb.run(PYTEST_PROFILE, ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_hidden.py"],
               files={"solution.py": SOLUTION, "test_hidden.py": TESTS}, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert r.exit_code == 0, (r.stdout[-500:], r.stderr[-500:], r.infra_error)
    return time.perf_counter() - start


def warm(mode: str):
    task, response, verifier = _task(mode)

    def one(sb, samples: list) -> float:
        start = time.perf_counter()
        v = verifier.verify(task, response, VerifyContext(profile=PYTEST_PROFILE, _sandbox=sb))
        total = time.perf_counter() - start
        assert v.reward == 1.0, v.details
        call_s, report = sb.local.last
        samples.append({"total": total, "host": total - call_s, "sandbox": call_s - report["timings"]["harness_wall"],
                        **report["timings"]})
        return total

    return one


def _cpu_seconds(roots: list[int]) -> float:
    """This process (and its reaped children) plus the live process trees under `roots`."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    parent, ticks = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(name)] = int(fields[1])
        ticks[int(name)] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    inside = set(roots)
    changed = True  # descendants: a pid's parent may come later in the listing, so iterate to a fixed point
    while changed:
        changed = False
        for pid, ppid in parent.items():
            if ppid in inside and pid not in inside:
                inside.add(pid)
                changed = True
    return total + sum(ticks.get(pid, 0) for pid in inside) / os.sysconf("SC_CLK_TCK")


def _worker_roots(sb) -> list[int]:
    workers = [w for ws in sb.pool._idle.values() for w in ws]  # a benchmark may look inside
    return [w.proc.pid for w in workers if w.proc is not None]


def measure(fn, sb, n: int, threads: int) -> dict:
    samples: list = []
    roots = _worker_roots(sb.sb)
    cpu0, start = _cpu_seconds(roots), time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        latencies = list(pool.map(lambda _: fn(sb, samples), range(n)))
    wall = time.perf_counter() - start
    cpu = _cpu_seconds(roots) - cpu0
    return {"rate": n / wall, "latency": statistics.median(latencies), "cpu": cpu / n, "samples": samples}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="verifications per mode and round")
    ap.add_argument("--threads", type=int, default=2, help="concurrent verifications (the cores)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sb = _Recording(get_sandbox())
    modes = {"cold": cold, "pytest": warm("pytest"), "check": warm("check")}
    for fn in modes.values():  # warm-up: the pool's workers start, caches fill
        measure(fn, sb, args.threads * 2, args.threads)
    noop = []
    for _ in range(20):  # a warm call of a function that does nothing: the sandbox's own share
        start = time.perf_counter()
        sb.sb.call(PYTEST_PROFILE, "os:getpid")
        noop.append(time.perf_counter() - start)
    rows: dict[str, list[dict]] = {m: [] for m in modes}
    for _ in range(args.rounds):
        for name, fn in modes.items():
            rows[name].append(measure(fn, sb, args.n, args.threads))
    print(f"unit_tests, {args.n} verifications x {args.rounds} rounds per mode, {args.threads} threads; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    labels = {"cold": "cold: fresh bwrap + python -m pytest", "pytest": "warm: 6-test pytest suite",
              "check": "warm: check program (HumanEval-style)"}
    summary = {}
    for name, runs in rows.items():
        rate = statistics.median(r["rate"] for r in runs)
        latency = statistics.median(r["latency"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        summary[name] = (rate, latency, cpu)
        cpu_text = "" if name == "cold" else (f"  CPU {cpu * 1000:5.1f} ms -> at most {args.threads / cpu:5.1f}/s "
                                              f"on {args.threads} idle cores")
        print(f"  {labels[name]:40s} {rate:6.1f}/s  median {latency * 1000:6.1f} ms{cpu_text}")
    for name in ("pytest", "check"):
        print(f"  {name} vs cold: {summary[name][0] / summary['cold'][0]:.2f}x throughput, "
              f"{summary['cold'][1] / summary[name][1]:.2f}x lower median latency")
    print(f"\nwhere a warm verification's time goes (median ms; a noop warm call takes {statistics.median(noop) * 1000:.1f} ms)")
    phases = [("host", "host: suite (cached), grading"), ("sandbox", "sandbox: task set-up, value back"),
              ("setup", "runner: signals, stdio, imports isolated"),
              ("load", "runner: collection (module exec; pytest collect)"), ("solution_start", "  of which: solution process start"),
              ("solution_import", "  of which: import of the solution"), ("tests", "runner: running the tests"),
              ("rpc", "  of which: calls into the solution"), ("rpc_calls", "  calls (count)"),
              ("runner_cpu", "CPU: test runner"), ("solution_cpu", "CPU: solution process"),
              ("task_cpu", "CPU: whole task (harness, runner, solution)")]
    print(f"  {'':48s} {'pytest':>8s} {'check':>8s}")
    for key, label in phases:
        cells = []
        for name in ("pytest", "check"):
            values = [s.get(key, 0.0) for r in rows[name] for s in r["samples"]]
            med = statistics.median(values) if values else 0.0
            cells.append(f"{med:8.0f}" if key == "rpc_calls" else f"{med * 1000:8.1f}")
        print(f"  {label:48s} {' '.join(cells)}")


if __name__ == "__main__":
    main()
