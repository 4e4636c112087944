"""`rlhub check`: serial (`-n 0`) against parallel (`-n auto`, every core), in one run.

    python benchmarks/bench_checks.py [--select 'terminal/b*'] [--seeds 2] [--repeat 1]
    python benchmarks/bench_checks.py --all     # the whole default registry (minutes)

Runs the command as a user does (a fresh `rlhub check` process each time, the same render and
mesh caches for both), alternating serial and parallel runs, and prints the median wall time,
environments/s and the parallel run's speed-up over the serial one from the same run. The
machines are shared and noisy: read the ratio, and the load average printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def uptime() -> str:
    with open("/proc/loadavg") as fh:
        return "load average " + ", ".join(fh.read().split()[:3])


def run(select: str | None, seeds: int, workers: str) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "hub.cli", "check", "--json", "--seeds", str(seeds), "-n", workers]
    if select:
        cmd.append(select)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    if proc.returncode not in (0, 1):
        raise SystemExit(f"rlhub check failed to run (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return seconds, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--select", default="terminal/b*", help="environments to check (default: 11 terminal ones)")
    ap.add_argument("--all", action="store_true", help="the whole default registry instead of --select")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each (medians are printed)")
    args = ap.parse_args()
    select = None if args.all else args.select

    from hub.config.catalog import Catalog

    n_envs = len(Catalog.load(None).select(select))
    cores = len(os.sched_getaffinity(0))
    print(f"rlhub check {select or '(whole default registry)'}: {n_envs} environments, {args.seeds} seeds, "
          f"{cores} cores; {uptime()}")
    if n_envs <= 20:  # warm the disk caches (drawings, reference builds) for both sides alike
        run(select, 1, "0")
    times: dict[str, list[float]] = {"0": [], "auto": []}
    results: dict[str, dict] = {}
    for _ in range(args.repeat):
        for workers in ("0", "auto"):
            seconds, summary = run(select, args.seeds, workers)
            times[workers].append(seconds)
            results[workers] = summary
    serial, parallel = statistics.median(times["0"]), statistics.median(times["auto"])
    for name, workers, seconds in (("serial   (-n 0)   ", "0", serial), ("parallel (-n auto)", "auto", parallel)):
        s = results[workers]
        print(f"{name}: {seconds:7.1f} s  {n_envs / seconds:6.2f} environments/s  "
              f"({s['passed']} passed, {s['failed']} failed, {s['skipped']} skipped; {s['workers']} workers)")
    print(f"parallel / serial: {parallel / serial:.2f} of the time, {serial / parallel:.2f}x the environments/s; {uptime()}")
    same = all(results["0"][k] == results["auto"][k] for k in ("passed", "failed", "skipped"))
    print("same results both ways" if same else "RESULTS DIFFER between serial and parallel runs")
    slowest = results["auto"]["slowest"][:5]
    print("slowest: " + ", ".join(f"{r['env']} {r['seconds']:.1f}s" for r in slowest))


if __name__ == "__main__":
    main()
