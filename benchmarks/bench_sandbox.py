"""Sandbox throughput: cold sandbox per task vs the warm pool, for three workloads.

    python benchmarks/bench_sandbox.py [--tasks N] [--cad-tasks N] [--workers W]

Prints, for each workload, verifications/s and median latency of (a) a fresh bwrap sandbox per
task and (b) the warm pool (fork per task from a preloaded worker), and the ratio warm/cold.
Every isolation measure is on in both: namespaces, uid drop, no capabilities, seccomp, cgroup.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hub.sandbox import Profile, Sandbox  # noqa: E402

PLAIN = "total = sum(i * i for i in range(10000))\nprint(total)\n"
PYTEST_FILE = """
def add(a, b):
    return a + b

def test_add():
    assert add(2, 3) == 5

def test_add_negative():
    assert add(-1, 1) == 0

def test_strings():
    assert "ab" + "c" == "abc"
"""
CAD = """
import cadquery as cq
part = cq.Workplane("XY").box(20, 10, 5).faces(">Z").hole(3)
cq.exporters.export(part, "part.stl")
print("exported")
"""


def workloads():
    base = Profile(name="bench", wall_timeout_s=60, cpu_s=60, memory_mb=1024, max_procs=64, tmpfs_mb=64)
    return [
        ("plain python", base, {"main.py": PLAIN}, ["python3", "main.py"],
         base.merged(preload=("hub.testing.probes",)), ("hub.testing.probes:run_program", {"path": "main.py"}),
         lambda r: r.stdout.strip() == str(sum(i * i for i in range(10000)))),
        ("pytest file", base, {"test_add.py": PYTEST_FILE}, ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_add.py"],
         base.merged(preload=("pytest", "hub.testing.probes")), ("hub.testing.probes:run_pytest", {}),
         lambda r: "3 passed" in r.stdout),
        ("cadquery box -> STL", base.merged(collect=("*.stl",)), {"main.py": CAD}, ["python3", "main.py"],
         base.merged(collect=("*.stl",), preload=("cadquery", "hub.testing.probes")),
         ("hub.testing.probes:run_program", {"path": "main.py"}),
         lambda r: r.files.get("part.stl", b"")[:5] in (b"solid", b"\x00\x00\x00\x00\x00") or len(r.files.get("part.stl", b"")) > 84),
    ]


def measure(fn, n: int, workers: int):
    latencies, failures = [], []

    def one(_):
        t = time.perf_counter()
        ok, detail = fn()
        latencies.append(time.perf_counter() - t)
        if not ok:
            failures.append(detail)

    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        list(ex.map(one, range(n)))
    elapsed = time.perf_counter() - start
    return n / elapsed, statistics.median(latencies), failures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=40, help="tasks per mode for the fast workloads")
    ap.add_argument("--cad-tasks", type=int, default=8, help="tasks per mode for the CadQuery workload")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="concurrent tasks (default: cores)")
    args = ap.parse_args()

    sb = Sandbox(pool_size=args.workers)
    print(f"{os.cpu_count()} cores, {args.workers} concurrent tasks; memory bounded by: "
          f"{sb.run(Profile(), ['true']).memory_limit}; load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'workload':<22} {'mode':<6} {'verif/s':>8} {'median ms':>10}   notes")
    try:
        for name, cold_profile, files, argv, warm_profile, (func, fargs), check in workloads():
            n = args.cad_tasks if "cadquery" in name else args.tasks

            def cold():
                r = sb.run(cold_profile, argv, files=files)
                return check(r), (r.exit_code, r.stderr[-300:], r.infra_error)

            def warm():
                r = sb.call(warm_profile, func, files=files, args=fargs)
                return check(r), (r.exit_code, r.stderr[-300:], r.infra_error)

            cold_rate, cold_med, cold_fail = measure(cold, n, args.workers)
            print(f"{name:<22} {'cold':<6} {cold_rate:>8.2f} {cold_med * 1000:>10.0f}   "
                  f"{'FAILED: ' + str(cold_fail[0]) if cold_fail else 'ok'}", flush=True)
            t = time.perf_counter()
            sb.warm(warm_profile, func)
            warmup = time.perf_counter() - t
            warm_rate, warm_med, warm_fail = measure(warm, n, args.workers)
            print(f"{name:<22} {'warm':<6} {warm_rate:>8.2f} {warm_med * 1000:>10.0f}   "
                  f"{'FAILED: ' + str(warm_fail[0]) if warm_fail else 'ok'}; pool start {warmup:.1f}s; "
                  f"warm/cold = {warm_rate / cold_rate:.1f}x", flush=True)
    finally:
        sb.shutdown()


if __name__ == "__main__":
    main()
