"""Candidate process trees for one sandboxed task, measured against each other in one run.

    python benchmarks/bench_process_tree.py [--preload cadquery,numpy.random] [--rounds 8] [--batch 5]

Starts one real bwrap sandbox (the supervisor's command line and capabilities, plus
CAP_SYS_CHROOT for the setns candidates) whose worker imports `--preload` (default: what the
CAD worker imports), then times, interleaved round by round, what it costs to give one trivial
task fresh namespaces, tmpfs, a pid-1 init and a torn-down pid namespace, for each candidate
(see _tree_candidates.py): `fork3` (the supervisor, init and task all forks of the worker),
`spawn` (supervisor and init a posix_spawned small interpreter), `zygote` (supervisor and init
forks of a small helper forked before the preload), and `floor` (the task's own fork alone).
Prints medians (wall, ms per task), CPU ms per task summed over every process of the tree, and
each candidate's ratio to fork3. Use `--preload ''` for a bare worker (as swe's and cold runs').
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hub.sandbox import Profile  # noqa: E402
from hub.sandbox.bwrap import bwrap_argv, module_dirs  # noqa: E402

CANDIDATES = Path(__file__).with_name("_tree_candidates.py")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preload", default="cadquery,numpy.random", help="modules the worker imports (comma-separated)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--batch", type=int, default=5, help="tasks per candidate per round")
    ap.add_argument("--only", default="fork3,spawn,zygote,floor", help="candidates to time (fork3 first: the baseline)")
    opts = ap.parse_args()
    preload = tuple(p for p in opts.preload.split(",") if p)

    argv = bwrap_argv(Profile(name="bench", tmpfs_mb=64), persistent_work=False, extra_dirs=module_dirs(preload))
    if "CAP_SYS_CHROOT" not in argv:  # setns into a mount namespace needs it (after --cap-drop ALL)
        at = argv.index("--cap-drop") + 2
        argv[at:at] = ["--cap-add", "CAP_SYS_CHROOT"]
    argv += ["--", sys.executable, "-I", "-c", CANDIDATES.read_text(),
             json.dumps({"preload": preload, "rounds": opts.rounds, "batch": opts.batch,
                                                   "only": opts.only.split(",")})]
    load = os.getloadavg()
    out = subprocess.run(argv, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, timeout=1800)
    if out.returncode != 0:
        print(out.stderr[-3000:], file=sys.stderr)
        return 1
    data = json.loads(out.stdout)
    n = opts.rounds * opts.batch
    print(f"worker: preload {preload or '(none)'}: {data['rss_mb']:.0f} MB resident, {data['maps']} mappings, "
          f"import {data['preload_s']:.2f} s; {n} tasks per candidate, interleaved")
    base_wall = statistics.median(data["walls"]["fork3"])
    base_cpu = data["cpu"]["fork3"] / n
    print(f"{'candidate':<8} {'wall ms (median)':>17} {'CPU ms/task':>12} {'wall/fork3':>11} {'CPU/fork3':>10}")
    for name, walls in data["walls"].items():
        wall, cpu = statistics.median(walls), data["cpu"][name] / n
        print(f"{name:<8} {wall * 1e3:>17.2f} {cpu * 1e3:>12.2f} {wall / base_wall:>11.2f} {cpu / base_cpu:>10.2f}")
    print(f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
