"""Benchmark: seconds per CAD verification, warm pool vs a cold process, in one run.

    python plugins/verifiers/mesh/bench.py [--rounds 5] [--throughput 24]

- warm: `MeshIoU.verify` end to end (sandboxed build in a child forked from a warm worker that
  pre-imported CadQuery, reference from cache, host-side comparison).
- cold (baseline): the same runner in a fresh sandboxed `python3` that imports CadQuery first
  (`sb.run`), plus the same host-side comparison: what verification costs without the pool.
- throughput: verifications/s with 1 and with 2 concurrent callers (both cores).
Prints medians and the cold/warm ratio; both measured here, now, on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("RLHUB_MESH_CACHE", tempfile.mkdtemp(prefix="rlhub-mesh-bench-"))

import rlhub_mesh  # noqa: E402
from hub import Task, VerifyContext  # noqa: E402
from hub.sandbox import get_sandbox  # noqa: E402
from rlhub_mesh.meshes import decode  # noqa: E402
from rlhub_mesh.plugin import CADQUERY_PROFILE  # noqa: E402
from rlhub_mesh.verifier import MeshIoU, Part  # noqa: E402

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

COLD_MAIN = """import json, sys
from rlhub_mesh.runner import build
args = json.load(open("args.json"))
json.dump(build(**args), open("out.json", "w"))
"""


def fenced(script: str) -> str:
    return f"```python\n{script}\n```"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="verifications per part and mode")
    ap.add_argument("--throughput", type=int, default=24, help="verifications per throughput run")
    opts = ap.parse_args()

    sb = get_sandbox()
    profile = CADQUERY_PROFILE
    ctx = VerifyContext(profile=profile, _sandbox=sb)
    verifier = MeshIoU()
    tasks = {name: Task(prompt=name, hidden={"reference_script": s}) for name, s in PARTS.items()}
    t = time.perf_counter()
    for name, task in tasks.items():  # start workers, build and cache every reference
        verifier.verify(task, fenced(WRONG[name]), ctx)
    print(f"setup (worker start, CadQuery import, references): {time.perf_counter() - t:.2f} s")

    # A cold process sees only the interpreter's site-packages: mount this (editable) plugin.
    plugin_dir = os.path.dirname(os.path.dirname(os.path.abspath(rlhub_mesh.__file__)))
    cold_profile = profile.merged(collect=("out.json",), preload=(), mounts=[{"src": plugin_dir, "dst": plugin_dir}])
    settings = verifier._settings()
    warm_s, cold_s, build_s, compare_s = [], [], [], []
    for _ in range(opts.rounds):
        for name, task in tasks.items():  # interleaved, so load changes hit both modes alike
            t = time.perf_counter()
            v = verifier.verify(task, fenced(WRONG[name]), ctx)
            warm_s.append(time.perf_counter() - t)
            assert v.details["stage"] == "graded", v.details
            build_s.append(v.details["timing_s"]["build"])
            compare_s.append(v.details["timing_s"]["compare"])

            t = time.perf_counter()
            r = sb.run(cold_profile, [sys.executable, "main.py"], env={"PYTHONPATH": plugin_dir}, files={
                "main.py": COLD_MAIN, "args.json": json.dumps({"script": WRONG[name], **settings})})
            assert "out.json" in r.files, (r.exit_code, r.stderr[-500:], r.infra_error)
            built = json.loads(r.files["out.json"])
            cand = Part(built, decode(built["mesh"], verifier.config.max_triangles))
            ref = verifier.reference(task, ctx)
            verifier.compare(ref, cand, "none", ("holes", "fillets", "face_types"))
            cold_s.append(time.perf_counter() - t)

    warm, cold = statistics.median(warm_s), statistics.median(cold_s)
    print(f"parts: {', '.join(PARTS)}; {opts.rounds} rounds each")
    print(f"cold process (sb.run, imports CadQuery) median {cold:.3f} s/verification")
    print(f"warm pool (sb.call, forked worker)      median {warm:.3f} s/verification "
          f"(sandboxed build {statistics.median(build_s):.3f} s, host compare {statistics.median(compare_s):.3f} s)")
    print(f"speed-up cold/warm: {cold / warm:.1f}x")

    jobs = [(tasks[n], fenced(WRONG[n])) for n in PARTS] * (opts.throughput // len(PARTS) + 1)
    jobs = jobs[: opts.throughput]
    for workers in (1, 2):
        with ThreadPoolExecutor(workers) as pool:
            t = time.perf_counter()
            verdicts = list(pool.map(lambda job: verifier.verify(job[0], job[1], ctx), jobs))
            elapsed = time.perf_counter() - t
        assert all(v.details["stage"] == "graded" for v in verdicts)
        print(f"throughput, {workers} caller(s): {len(jobs) / elapsed:.2f} verifications/s")
    sb.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
