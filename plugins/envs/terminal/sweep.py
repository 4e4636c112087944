"""Discrimination sweep for family authors: over many seeds, every reference must earn full
reward and every wrong answer must fail, through the real `unit_tests` verifier.

    python plugins/envs/terminal/sweep.py [--seeds 2:12] [--only GLOB] [--threads 2]

(`pytest registry.yaml` checks 2 seeds per environment; this looks wider, for a new family.)
Exit status 1 if anything fails.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import hub


def check(cat, env: str, seed: int) -> list[str]:
    label = {"env": env, "seed": seed}
    task = cat.task(label)
    problems = []
    v = cat.verify(label, task.reference, task=task)
    if not v.passed or v.error:
        problems.append(f"reference fails: {label} {v.error or str(v.details)[:300]}")
    for wrong in cat.get(env).env.wrong_responses(task):
        v = cat.verify(label, wrong, task=task)
        if v.passed or v.error:
            problems.append(f"wrong answer {'passes' if v.passed else 'gets no verdict'}: {label}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="2:12", help="range START:STOP of seeds")
    ap.add_argument("--only", default="terminal/*", help="environment glob (session variants are skipped)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    start, stop = map(int, args.seeds.split(":"))
    cat = hub.load(Path(__file__).with_name("registry.yaml"))
    envs = [e for e in sorted(cat.envs) if fnmatch.fnmatchcase(e, args.only) and "/session-" not in e]
    jobs = [(e, s) for e in envs for s in range(start, stop)]
    with ThreadPoolExecutor(args.threads) as pool:
        problems = [p for found in pool.map(lambda job: check(cat, *job), jobs) for p in found]
    for p in problems:
        print(p)
    print(f"{len(jobs)} tasks over {len(envs)} environments: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
