"""The sandbox's supervisor now against an earlier one, in the same run: before/after figures.

    python benchmarks/bench_tree_ab.py [--against e8ed051] [--rounds 5] [--batch 4] [--only cad,unit_tests,call,cold]

Starts two sandboxes side by side: one whose bwrap runs this checkout's supervisor, one whose bwrap
runs `hub/sandbox/supervisor.py` as it was at --against (default e8ed051, the last commit that
forked the task's supervisor, init and task all from the warm worker). The host side is this
checkout's for both (the protocol between them did not change). Then, interleaved batch by batch
so load changes hit both alike, it times:

  call        a warm call of a trivial trusted function (small worker): the machinery alone
  cold        a fresh sandbox (bwrap, supervisor, one `true` task, closed)
  unit_tests  the `unit_tests` verifier on the unittest bench's 6-test pytest suite (warm)
  cad         `MeshIoU.verify` of the mesh bench's four slightly wrong parts (warm, CadQuery worker)

and prints, for each, the median wall time, CPU per operation (this process plus the sandboxes'
whole process trees, from /proc), and after/before ratios; for cad also the mesh bench's breakdown
(sandbox steps, the model's fork, script, measure, ...) and the process-management share. Single
caller: the figures are latencies. Print `uptime` with them (it is printed before and after).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hub import Label, Task, VerifyContext  # noqa: E402
from hub.sandbox import Profile, Sandbox  # noqa: E402
from hub.sandbox.pool import WarmPool  # noqa: E402
from hub.sandbox.process import SandboxProcess  # noqa: E402


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def baseline_sandbox(rev: str) -> Sandbox:
    """A Sandbox whose workers (and cold runs) start the supervisor as it was at `rev`."""
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:hub/sandbox/supervisor.py"],
                            capture_output=True, text=True, check=True).stdout

    class Process(SandboxProcess):
        supervisor_source = source

    class Pool(WarmPool):
        def _spawn(self, profile, func):
            module = (func.partition(":")[0],) if func else ()
            return Process(profile, preload=profile.preload, extra_modules=module)

    sb = Sandbox(pool_size=1)
    sb.pool = Pool(1)
    sb.process_class = Process
    return sb


def tree_cpu(sb: Sandbox) -> float:
    """CPU seconds of this process (and its reaped children) plus every live sandbox process tree
    of `sb`'s pool (utime, stime and the children each has reaped)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    parent, ticks = {}, {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(name)], ticks[int(name)] = int(fields[1]), sum(int(x) for x in fields[11:15])
    inside = {w.proc.pid for ws in sb.pool._idle.values() for w in ws if w.proc is not None}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parent.items():
            if ppid in inside and pid not in inside:
                inside.add(pid)
                changed = True
    return total + sum(ticks.get(p, 0) for p in inside) / os.sysconf("SC_CLK_TCK")


def workloads(names: list[str]):
    """name -> (setup(sb) -> op(sb) -> details or None)."""
    out = {}
    probe = Profile(name="ab-call", preload=("hub.testing.probes",), recycle_after=10_000)

    def call():
        def op(sb):
            r = sb.call(probe, "hub.testing.probes:echo")
            assert r.exit_code == 0, r
        return op
    out["call"] = call

    def cold():
        def op(sb):
            box = getattr(sb, "process_class", SandboxProcess)(Profile(name="ab-cold"))
            try:
                assert box.run_task(Profile(name="ab-cold"), argv=["true"]).exit_code == 0
            finally:
                box.close()
        return op
    out["cold"] = cold

    def unit_tests():
        bench = _load(REPO / "plugins/verifiers/unittest/bench.py", "_unittest_bench")
        from rlhub_unittest.plugin import PYTEST_PROFILE
        from rlhub_unittest.verifier import UnitTests, UnitTestsConfig

        task = Task(prompt="merge two sorted lists", hidden={"tests": bench.TESTS})
        task.label = Label(env="bench/pytest-v1", seed=0)
        response, verifier = f"```python\n{bench.SOLUTION}```", UnitTests(UnitTestsConfig())
        profile = PYTEST_PROFILE.merged(recycle_after=10_000)

        def op(sb):
            v = verifier.verify(task, response, VerifyContext(profile=profile, _sandbox=sb))
            assert v.reward == 1.0, v.details
        return op
    out["unit_tests"] = unit_tests

    def cad():
        bench = _load(REPO / "plugins/verifiers/mesh/bench.py", "_mesh_bench")
        from rlhub_mesh.plugin import CADQUERY_PROFILE
        from rlhub_mesh.verifier import MeshIoU

        verifier = MeshIoU()
        profile = CADQUERY_PROFILE.merged(recycle_after=10_000)
        jobs = [(Task(prompt=n, hidden={"reference_script": s}), bench.fenced(bench.WRONG[n])) for n, s in bench.PARTS.items()]
        turn = {"i": 0}

        def op(sb):
            task, response = jobs[turn["i"] % len(jobs)]
            turn["i"] += 1
            v = verifier.verify(task, response, VerifyContext(profile=profile, _sandbox=sb))
            assert v.details["stage"] == "graded" and not v.passed, v.details
            return bench.breakdown(v)
        return op
    out["cad"] = cad
    return {k: out[k] for k in names}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="e8ed051", help="git revision of the baseline supervisor")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch", type=int, default=4, help="operations per side per round")
    ap.add_argument("--only", default="call,cold,unit_tests,cad")
    opts = ap.parse_args()
    os.system("uptime")
    sides = {"before": baseline_sandbox(opts.against), "after": Sandbox(pool_size=1)}
    try:
        for name, make in workloads(opts.only.split(",")).items():
            op = make()
            for sb in sides.values():  # warm-up: workers start, caches fill (cad: references built)
                for _ in range(max(2, opts.batch)):
                    op(sb)
            walls = {s: [] for s in sides}
            cpu = {s: 0.0 for s in sides}
            steps = {s: [] for s in sides}
            for _ in range(opts.rounds):
                for side, sb in sides.items():
                    before = tree_cpu(sb)
                    for _ in range(opts.batch):
                        t = time.perf_counter()
                        details = op(sb)
                        walls[side].append(time.perf_counter() - t)
                        if details:
                            steps[side].append(details)
                    cpu[side] += tree_cpu(sb) - before
            n = opts.rounds * opts.batch
            med = {s: statistics.median(walls[s]) for s in sides}
            per = {s: cpu[s] / n for s in sides}
            print(f"{name:<10} before {med['before'] * 1e3:7.1f} ms (CPU {per['before'] * 1e3:6.1f} ms)   "
                  f"after {med['after'] * 1e3:7.1f} ms (CPU {per['after'] * 1e3:6.1f} ms)   "
                  f"after/before: wall {med['after'] / med['before']:.2f}, CPU {per['after'] / per['before']:.2f}   "
                  f"({n} each, load {os.getloadavg()[0]:.1f})", flush=True)
            for side in sides:
                if steps[side]:
                    keys = steps[side][0].keys()
                    medians = {k: statistics.median(d[k] for d in steps[side]) for k in keys}
                    machinery = sum(medians[k] for k in ("supervisor", "namespaces", "task", "teardown", "fork"))
                    print(f"  {side:<6} breakdown (medians, ms): " + ", ".join(f"{k} {v * 1e3:.1f}" for k, v in medians.items())
                          + f"; process management {machinery * 1e3:.1f} ms = {machinery / med[side]:.0%} of the median")
    finally:
        for sb in sides.values():
            sb.shutdown()
    os.system("uptime")
    return 0


if __name__ == "__main__":
    sys.exit(main())
