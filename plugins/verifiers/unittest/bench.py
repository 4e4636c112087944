"""Benchmark: verifications/s and median latency of a small pytest suite, cold vs warm, one run.

    python plugins/verifiers/unittest/bench.py [--n 40] [--threads 2]

cold: a fresh bwrap sandbox per verification running `python -m pytest` (judged by exit code,
      the naive baseline); warm: the `unit_tests` verifier through the warm pool (`sb.call`,
      pytest pre-imported, a forked child per run, strict asserts, sentinel). Both run in this
      process on the same machine, interleaved in rounds so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from hub import Label, Task, VerifyContext
from hub.sandbox import get_sandbox
from rlhub_unittest.plugin import PYTEST_PROFILE
from rlhub_unittest.verifier import UnitTests, UnitTestsConfig

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


def cold(sb) -> float:
    start = time.perf_counter()
    r = sb.run(PYTEST_PROFILE, ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_hidden.py"],
               files={"solution.py": SOLUTION, "test_hidden.py": TESTS}, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert r.exit_code == 0, (r.stdout[-500:], r.stderr[-500:], r.infra_error)
    return time.perf_counter() - start


def warm(sb) -> float:
    task = Task(prompt="merge two sorted lists", hidden={"tests": TESTS})
    task.label = Label(env="bench/merge-v1", seed=0)
    start = time.perf_counter()
    v = UnitTests(UnitTestsConfig()).verify(task, f"```python\n{SOLUTION}```", VerifyContext(profile=PYTEST_PROFILE, _sandbox=sb))
    assert v.reward == 1.0, v.details
    return time.perf_counter() - start


def measure(fn, sb, n: int, threads: int) -> tuple[float, float]:
    """(verifications per second, median latency in s) for n verifications on `threads` threads."""
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        latencies = list(pool.map(lambda _: fn(sb), range(n)))
    return n / (time.perf_counter() - start), statistics.median(latencies)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="verifications per mode and round")
    ap.add_argument("--threads", type=int, default=2, help="concurrent verifications (the cores)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sb = get_sandbox()
    for fn in (cold, warm):  # warm-up: the pool's workers start, caches fill
        measure(fn, sb, args.threads * 2, args.threads)
    rows: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    for _ in range(args.rounds):
        for name, fn in (("cold", cold), ("warm", warm)):
            rows[name].append(measure(fn, sb, args.n, args.threads))
    print(f"small pytest suite (6 tests), {args.n} verifications x {args.rounds} rounds, {args.threads} threads")
    summary = {}
    for name, runs in rows.items():
        rate = statistics.median(r for r, _ in runs)
        latency = statistics.median(l for _, l in runs)
        summary[name] = (rate, latency)
        label = "cold: fresh bwrap + python -m pytest" if name == "cold" else "warm: unit_tests via sb.call (pool)"
        print(f"  {label:40s} {rate:6.1f} verifications/s   median latency {latency * 1000:7.1f} ms")
    print(f"  warm/cold: {summary['warm'][0] / summary['cold'][0]:.2f}x throughput, "
          f"{summary['cold'][1] / summary['warm'][1]:.2f}x lower median latency")


if __name__ == "__main__":
    main()
