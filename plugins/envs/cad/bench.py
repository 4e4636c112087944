"""Generation benchmark for rlhub-cad: prompts per second for the text kinds, image render time.

    python plugins/envs/cad/bench.py [--repeats 5] [--images 4]

Prints medians over repeats. The baseline, measured in the same run, is building the arith
example tasks (a trivial generator), so the ratio says what CAD prompt writing costs on this
machine right now (the machine is shared: absolute figures are noisy, ratios less so).
Image rendering is timed cold (fresh cache: child interpreter + CadQuery import + build + SVG +
rasterise) and warm (cache hit).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from hub.plugins.builtin.arith import BinaryOp
from rlhub_cad.env import CadEnvironment
from rlhub_cad.families import FAMILIES
from rlhub_cad.kinds import TEXT_KINDS


def rate(make_task, n: int) -> float:
    start = time.perf_counter()
    for i in range(n):
        make_task(i)
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--per-env", type=int, default=20, help="tasks per environment per repeat")
    ap.add_argument("--images", type=int, default=3, help="image tasks rendered cold")
    args = ap.parse_args()

    arith = BinaryOp("arith/add-v1", "add")
    baseline = statistics.median(rate(arith.make_task, 2000) for _ in range(args.repeats))
    print(f"baseline arith/add-v1: {baseline:,.0f} tasks/s (median of {args.repeats})")
    for kind in TEXT_KINDS:
        envs = [CadEnvironment(f"cad/{f.name}-{kind}-v1", f, kind) for f in FAMILIES]
        rates = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            for env in envs:
                for i in range(args.per_env):
                    env.make_task(i)
            rates.append(len(envs) * args.per_env / (time.perf_counter() - start))
        med = statistics.median(rates)
        print(f"cad text kind {kind:12s}: {med:8,.0f} prompts/s  ({med / baseline:.3f} x baseline)")

    with tempfile.TemporaryDirectory() as cache:
        os.environ["RLHUB_CAD_CACHE"] = cache
        cold, warm = [], []
        for i in range(args.images):
            fam = FAMILIES[i * 5 % len(FAMILIES)]
            env = CadEnvironment(f"cad/{fam.name}-image-v1", fam, "image")
            start = time.perf_counter()
            env.make_task(i)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            env.make_task(i)
            warm.append(time.perf_counter() - start)
        from rlhub_cad.render import prerender
        scripts = [f.script(f.sample(__import__("random").Random(99))) for f in FAMILIES]
        start = time.perf_counter()
        prerender(scripts)
        batch = (time.perf_counter() - start) / len(scripts)
    print(f"image task, cold render (child + import + build + svg + png): median {statistics.median(cold):.2f} s")
    print(f"image task, cached: median {statistics.median(warm) * 1000:.1f} ms  "
          f"({statistics.median(cold) / statistics.median(warm):,.0f} x faster than cold)")
    print(f"prerender batch of {len(scripts)} drawings in one child: {batch:.3f} s per drawing")


if __name__ == "__main__":
    main()
