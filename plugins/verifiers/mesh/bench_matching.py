"""Benchmark: the host side of grading a CAD part (feature matching), the pair-by-pair rule
(rlhub_mesh.pair_rule, the baseline) against the cost matrix the verifier uses, in one run.

    python plugins/verifiers/mesh/bench_matching.py [--env cad/gear-spur-edit-v1] [--rounds 3]

Builds the environment's reference and wrong answers once (real sandboxed CadQuery builds), then
grades every part against the reference with each way of pairing features, alternating, and
prints the median milliseconds per part, the ratio, and whether the rewards agree.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

os.environ.setdefault("RLHUB_MESH_CACHE", tempfile.mkdtemp(prefix="rlhub-mesh-bench-"))

from hub import Verdict, VerifyContext  # noqa: E402
from hub.config.catalog import Catalog  # noqa: E402
from rlhub_mesh import compare  # noqa: E402
from rlhub_mesh.pair_rule import pair_cost  # noqa: E402


def pairwise(ref: list[dict], cand: list[dict], s: compare.Scales) -> np.ndarray:
    return np.array([[pair_cost(f, g, s) for g in cand] for f in ref])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="cad/gear-spur-edit-v1", help="a CAD environment (default: a spur gear's)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    cat = Catalog.load(None)
    renv = cat.get(args.env)
    task = cat.task(renv.label(0))
    verifier, ctx = renv.verifier, VerifyContext(profile=renv.profile)
    ref = verifier.reference(task, ctx)
    responses = [task.reference] + [w.response for w in renv.env.wrong_answers(task)]
    parts = [p for p in (verifier.candidate(task, r, ctx) for r in responses) if not isinstance(p, Verdict)]
    mode, grading = verifier._options(task)
    features = sum(len(p.built.get("features", [])) + len(p.built.get("form", [])) for p in parts) // len(parts)
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"{args.env}: {len(parts)} parts, about {features} features and faces each; load average {load}")

    matrix = compare._cost_matrix
    times: dict[str, list[float]] = {"pairwise (baseline)": [], "matrix": []}
    rewards: dict[str, list[float]] = {}
    try:
        for _ in range(args.rounds):
            for name, fn in (("pairwise (baseline)", pairwise), ("matrix", matrix)):
                compare._cost_matrix = fn
                start = time.perf_counter()
                rewards[name] = [verifier.grade(ref, p, mode, grading).reward for p in parts]
                times[name].append((time.perf_counter() - start) / len(parts))
    finally:
        compare._cost_matrix = matrix
    base, new = (statistics.median(times[k]) for k in ("pairwise (baseline)", "matrix"))
    for name, values in times.items():
        print(f"  {name:20s} {statistics.median(values) * 1000:8.1f} ms per part (median of {args.rounds})")
    print(f"  speed-up {base / new:.1f}x; rewards {'identical' if len(set(map(tuple, rewards.values()))) == 1 else 'DIFFER'}")


if __name__ == "__main__":
    main()
