"""Rebuild check: every selected CAD environment's reference earns exactly 1.0 when rebuilt in
fresh processes.

    python -m rlhub_cad.rebuilds ['cad/*'] [--rounds 5] [--seeds 1] [--parallel 2]

The reference is built once in the pool; each round then starts a fresh sandbox worker (a new
interpreter that imports CadQuery afresh: other addresses, other hash seeds, other OCC state) and
rebuilds every reference in it, each in its own forked task; every rebuild is graded against the
first build by the verifier with the task's own grading. OCC rebuilds some shapes with another
B-rep from one process to the next (shells on revolves, cuts with arc cutters): the grade reads
features from the B-rep, in mm, so those must still earn exactly 1.0.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass


@dataclass
class Job:
    label: str
    script: str
    teeth: bool
    grading: dict


class _FreshWorker:
    """A sandbox with one worker of its own, started for one round and closed after it."""

    def __init__(self) -> None:
        from hub.sandbox.pool import WarmPool

        self.pool = WarmPool(1)

    def call(self, profile, func, **task):
        return self.pool.call(profile, func, **task)

    def close(self) -> None:
        self.pool.shutdown()


def jobs_for(pattern: str, seeds: int, extra: list[tuple[str, str]] = ()) -> list[Job]:
    from rlhub_cad.env import CadEnvironment
    from rlhub_cad.families import FAMILIES
    from rlhub_cad.kinds import KINDS

    out = []
    for fam in FAMILIES:
        for kind in KINDS:
            env_id = f"cad/{fam.name}-{kind}-v1"
            if not fnmatch.fnmatchcase(env_id, pattern):
                continue
            env = CadEnvironment(env_id, fam, kind)
            for seed in range(seeds):
                task = env.make_task(seed)
                out.append(Job(f'{{"env": "{env_id}", "seed": {seed}}}', task.hidden["reference_script"],
                               "teeth" in task.hidden["features"], task.hidden["grading"]))
    return out + [Job(name, script, False, {"mode": "absolute"}) for name, script in extra]


def check(jobs: list[Job], rounds: int = 5, parallel: int = 2, log=print) -> dict[str, list]:
    """{label: [verdict of each rebuild]}: (reward, passed, first mismatches)."""
    from hub import VerifyContext
    from hub.sandbox import get_sandbox
    from rlhub_mesh.grading import Grading
    from rlhub_mesh.plugin import CADQUERY_PROFILE
    from rlhub_mesh.verifier import MeshIoU

    verifier = MeshIoU()
    warm = VerifyContext(profile=CADQUERY_PROFILE, _sandbox=get_sandbox())
    first = {j.label: verifier._part(verifier._run(warm, j.script, j.teeth)) for j in jobs}
    results: dict[str, list] = {j.label: [] for j in jobs}

    def one_round(k: int) -> None:
        box = _FreshWorker()
        try:
            ctx = VerifyContext(profile=CADQUERY_PROFILE, _sandbox=box)
            start = time.perf_counter()
            for j in jobs:
                v = verifier.grade(first[j.label], verifier._part(verifier._run(ctx, j.script, j.teeth)), "none",
                                   Grading.model_validate(j.grading))
                results[j.label].append((v.reward, v.passed, v.details.get("mismatches", [])[:3]))
            log(f"round {k + 1}: {len(jobs)} rebuilds in a fresh worker, {time.perf_counter() - start:.1f} s")
        finally:
            box.close()

    with ThreadPoolExecutor(max(1, parallel)) as pool:
        list(pool.map(one_round, range(rounds)))
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("glob", nargs="?", default="cad/*")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=2)
    args = ap.parse_args(argv)
    jobs = jobs_for(args.glob, args.seeds)
    start = time.perf_counter()
    results = check(jobs, args.rounds, args.parallel)
    bad = {label: r for label, r in results.items() if any(reward != 1.0 or not passed for reward, passed, _ in r)}
    for label, r in bad.items():
        print(f"FAIL {label}: {r}")
    print(f"{len(jobs)} references x {args.rounds} rebuilds in fresh processes: "
          f"{len(jobs) - len(bad)} earn exactly 1.0 every time, {len(bad)} do not ({time.perf_counter() - start:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
