"""Benchmark: seconds per CAD verification, warm pool vs a cold sandbox, in one run.

    python plugins/verifiers/mesh/bench.py [--rounds 5] [--throughput 24]

- warm: `MeshIoU.verify` end to end: the sandboxed build (a task forked from a warm worker that
  pre-imported CadQuery; it forks the model's process, takes the B-rep back and measures it),
  the reference from the cache, the comparison on the host. Broken down into: sandbox (the
  call's own overhead: namespaces, forks, exits), fork (the model's process), script (running
  it and handing the B-rep over), transfer (reading the B-rep back), measure (validity, mass
  properties, features), mesh (tessellation), host (decoding the mesh, IoU, feature matching).
- cold (baseline): the same verification with a fresh sandbox whose worker imports CadQuery for
  this one part and is closed after it: what a verification costs without the pool.
- throughput: verifications/s with 1 and with 2 concurrent callers (both cores).
Prints medians and the cold/warm ratio; both measured here, now, on the same machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("RLHUB_MESH_CACHE", tempfile.mkdtemp(prefix="rlhub-mesh-bench-"))

from hub import Task, VerifyContext  # noqa: E402
from hub.sandbox import get_sandbox  # noqa: E402
from hub.sandbox.pool import WarmPool  # noqa: E402
from rlhub_mesh.plugin import CADQUERY_PROFILE  # noqa: E402
from rlhub_mesh.verifier import MeshIoU  # noqa: E402

PARTS = {
    "plate": """import cadquery as cq
result = (cq.Workplane().box(80, 50, 8).faces(">Z").workplane()
          .rarray(30, 20, 3, 2).hole(6).edges("|Z").fillet(4))""",
    "flange": """import cadquery as cq
result = (cq.Workplane().circle(40).extrude(10).faces(">Z").workplane().circle(15).extrude(20)
          .faces(">Z").workplane().hole(16).faces("<Z").workplane().polarArray(30, 0, 360, 6).hole(6))""",
    "bracket": """import cadquery as cq
result = (cq.Workplane("XZ").polyline([(0, 0), (60, 0), (60, 6), (6, 6), (6, 40), (0, 40)]).close()
          .extrude(30).edges("|Y").fillet(1.5).faces("<Z").workplane().pushPoints([(40, 15)]).hole(5))""",
    "gear": """import cadquery as cq, math
n = 24
pts = [((30 if i % 2 == 0 else 26) * math.cos(math.pi * i / n), (30 if i % 2 == 0 else 26) * math.sin(math.pi * i / n))
       for i in range(2 * n)]
result = cq.Workplane().polyline(pts).close().extrude(8).faces(">Z").workplane().hole(10)""",
}
# Candidates: a slightly wrong version of each part (the common case in training).
WRONG = {
    "plate": PARTS["plate"].replace("hole(6)", "hole(7)"),
    "flange": PARTS["flange"].replace("circle(40)", "circle(42)"),
    "bracket": PARTS["bracket"].replace("fillet(1.5)", "fillet(2)"),
    "gear": PARTS["gear"].replace("n = 24", "n = 22"),
}
STEPS = ("supervisor", "namespaces", "task", "teardown", "fork", "script", "transfer", "measure", "mesh", "host")


class _FreshSandbox:
    """A sandbox whose every call starts (and closes) its own worker: the cold baseline."""

    def call(self, profile, func, **task):
        pool = WarmPool(1)
        try:
            return pool.call(profile, func, **task)
        finally:
            pool.shutdown()


def fenced(script: str) -> str:
    return f"```python\n{script}\n```"


def breakdown(v) -> dict[str, float]:
    t, r = v.details["timing_s"], v.details["timing_s"]["runner"]
    sb = t["sandbox_steps"]
    return {"supervisor": t["sandbox"] - sb["ns_ready"] - sb["task_done"] - sb["teardown"],
            "namespaces": sb["ns_ready"], "task": sb["task_done"] - r["total_s"], "teardown": sb["teardown"],
            "fork": r["fork_s"], "script": r["script_s"],
            "transfer": r["transfer_s"], "measure": r["measure_s"], "mesh": r["mesh_s"],
            "host": t["decode"] + t["compare"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="verifications per part and mode")
    ap.add_argument("--throughput", type=int, default=24, help="verifications per throughput run")
    opts = ap.parse_args()

    os.system("uptime")
    sb = get_sandbox()
    profile = CADQUERY_PROFILE
    ctx = VerifyContext(profile=profile, _sandbox=sb)
    cold_ctx = VerifyContext(profile=profile, _sandbox=_FreshSandbox())
    verifier = MeshIoU()
    tasks = {name: Task(prompt=name, hidden={"reference_script": s}) for name, s in PARTS.items()}
    t = time.perf_counter()
    for name, task in tasks.items():  # start workers, build and cache every reference
        verifier.verify(task, fenced(WRONG[name]), ctx)
    print(f"setup (worker start, CadQuery import, references): {time.perf_counter() - t:.2f} s")

    warm_s, cold_s, steps = [], [], {k: [] for k in STEPS}
    for _ in range(opts.rounds):
        for name, task in tasks.items():  # interleaved, so load changes hit both modes alike
            t = time.perf_counter()
            v = verifier.verify(task, fenced(WRONG[name]), ctx)
            warm_s.append(time.perf_counter() - t)
            assert v.details["stage"] == "graded" and not v.passed, v.details
            for k, x in breakdown(v).items():
                steps[k].append(x)
            t = time.perf_counter()
            v = verifier.verify(task, fenced(WRONG[name]), cold_ctx)
            cold_s.append(time.perf_counter() - t)
            assert v.details["stage"] == "graded" and not v.passed, v.details

    warm, cold = statistics.median(warm_s), statistics.median(cold_s)
    print(f"parts: {', '.join(PARTS)}; {opts.rounds} rounds each")
    print(f"cold (a fresh sandbox worker per part) median {cold:.3f} s/verification")
    print(f"warm (pool, forked task)               median {warm:.3f} s/verification")
    print("  warm breakdown (medians, s): " + ", ".join(f"{k} {statistics.median(v):.4f}" for k, v in steps.items()))
    print(f"ratio cold/warm: {cold / warm:.1f}x")

    sb.warm(profile, "rlhub_mesh.runner:build")  # one worker per core before the throughput runs
    jobs = [(tasks[n], fenced(WRONG[n])) for n in PARTS] * (opts.throughput // len(PARTS) + 1)
    jobs = jobs[: opts.throughput]
    for workers in (1, 2):
        with ThreadPoolExecutor(workers) as pool:
            t = time.perf_counter()
            verdicts = list(pool.map(lambda job: verifier.verify(job[0], job[1], ctx), jobs))
            elapsed = time.perf_counter() - t
        assert all(v.details["stage"] == "graded" for v in verdicts)
        print(f"throughput, {workers} caller(s): {len(jobs) / elapsed:.2f} verifications/s")
    os.system("uptime")
    sb.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
