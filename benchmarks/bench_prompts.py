"""Prompts with images at speed: uncached CAD image prompts from the warm renderer, against one
fresh interpreter per drawing (the way it was), in one run; then the commands users wait on.

    python benchmarks/bench_prompts.py [--images 50] [--baseline 4] [--dry-run]

Every figure starts from an empty drawing cache (a temporary RLHUB_CAD_CACHE). Prints medians,
the CPU time the work took (this process and its children), and the load average: the
machines are shared, so compare the ratio and the CPU seconds, not the wall time across runs.
  - image prompts/s: `Catalog.prepare` + `Catalog.task` for --images uncached CAD image labels
  - baseline: the same drawing made in a fresh interpreter per image (import CadQuery, build, draw)
  - `rlhub sample --n 50 --select 'cad/*image*'` (target: <= 5 s on an idle 2-core machine)
  - with --dry-run: `rlhub train RUN.yaml --dry-run` with the default mixture, 10,000 prompts
    (target: under a minute)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def uptime() -> str:
    with open("/proc/loadavg") as fh:
        return "load average " + ", ".join(fh.read().split()[:3])


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def image_labels(n: int, seed: int) -> list[str]:
    from hub.config.catalog import Catalog

    ids = [e.id for e in Catalog.load(REPO / "registry.yaml").select("cad/*image*")]
    return [json.dumps({"env": ids[i % len(ids)], "seed": seed + i}) for i in range(n)]


def warm_rate(n: int) -> tuple[float, float]:
    """Uncached image prompts/s in a fresh process (the renderer starts cold in it), and its CPU s."""
    code = ("import json, sys, time\nfrom hub.config.catalog import Catalog\n"
            f"cat = Catalog.load({str(REPO / 'registry.yaml')!r})\nlabels = json.loads(sys.stdin.read())\n"
            "start = time.perf_counter()\ncat.prepare(labels)\n"
            "assert all(cat.task(l).images for l in labels)\nprint(time.perf_counter() - start)\n")
    with tempfile.TemporaryDirectory() as cache:
        before = cpu()
        out = subprocess.run([sys.executable, "-c", code], input=json.dumps(image_labels(n, 10_000)), check=True,
                             capture_output=True, text=True, env={**os.environ, "RLHUB_CAD_CACHE": cache})
        return n / float(out.stdout.strip().splitlines()[-1]), cpu() - before


def one_interpreter_per_image(n: int) -> float:
    """Seconds per drawing when each starts its own interpreter (the baseline)."""
    from hub.config.catalog import Catalog

    cat = Catalog.load(REPO / "registry.yaml")
    labels = [json.loads(label) for label in image_labels(n, 20_000)]
    scripts = [cat.get(label["env"]).env.drawn_script(label["seed"]) for label in labels]
    times = []
    for script in scripts:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import sys; from rlhub_cad.render import _draw; _draw(sys.stdin.read())"],
                       input=script, check=True, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as cache:
        before, start = cpu(), time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=cwd,
                       env={**os.environ, "RLHUB_CAD_CACHE": cache})
        return time.perf_counter() - start, cpu() - before


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--images", type=int, default=50, help="uncached image prompts for the rate")
    ap.add_argument("--baseline", type=int, default=4, help="drawings made one interpreter each")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dry-run", action="store_true", help="also `rlhub train --dry-run` with 10,000 prompts")
    args = ap.parse_args()
    print(f"{len(os.sched_getaffinity(0))} cores; {uptime()}")

    per_image = one_interpreter_per_image(args.baseline)
    print(f"baseline, one interpreter per drawing: {per_image:.2f} s per image = {1 / per_image:.2f} image prompts/s "
          f"(median of {args.baseline})")
    rates = [warm_rate(args.images) for _ in range(args.repeat)]
    rate = statistics.median(r for r, _ in rates)
    print(f"warm renderer, {args.images} uncached image prompts: {rate:.1f} prompts/s (median of {args.repeat}; "
          f"{statistics.median(c for _, c in rates):.1f} CPU s each run incl. CadQuery's import) = "
          f"{rate * per_image:.1f}x the baseline; {uptime()}")

    with tempfile.TemporaryDirectory() as tmp:
        sample = [timed([sys.executable, "-m", "hub.cli", "sample", "--n", "50", "--select", "cad/*image*",
                         "--out", str(Path(tmp) / "p.jsonl")], REPO) for _ in range(args.repeat)]
        print(f"rlhub sample --n 50 --select 'cad/*image*', empty cache: {statistics.median(w for w, _ in sample):.2f} s "
              f"(median of {args.repeat}; {statistics.median(c for _, c in sample):.1f} CPU s); {uptime()}")
        if args.dry_run:
            run = Path(tmp) / "run.yaml"
            run.write_text(f"name: bench\nmodel: some/model\nregistry: {REPO / 'registry.yaml'}\noutput_dir: {tmp}\n")
            wall, seconds = timed([sys.executable, "-m", "hub.cli", "train", str(run), "--dry-run"], REPO)
            print(f"rlhub train --dry-run, default mixture (10,000 prompts), empty cache: {wall:.1f} s "
                  f"({seconds:.1f} CPU s); {uptime()}")


if __name__ == "__main__":
    main()
