"""No-verdict rate of every session family under the probes its checks play (goal: 0).

    python benchmarks/probe_sessions.py ['terminal/session-*' 'swe/*-session-*'] [--seed 0]

For each selected environment with episode probes (Environment.episode_probes), plays every probe
as an episode and prints, per family, the probes played, how many ended without a verdict, how
many earned other than expected (wrong: more than their cap; right: other than the reference's
reward) and the slowest probe; then the totals.
"""

from __future__ import annotations

import argparse
import time

from hub.config.catalog import Catalog


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("globs", nargs="*", default=["terminal/session-*", "swe/*-session-*"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--registry", default=None)
    args = ap.parse_args()
    cat = Catalog.load(args.registry)
    envs = sorted({r.id for g in args.globs for r in cat.select(g)})
    totals = {"probes": 0, "no_verdict": 0, "unexpected": 0}
    for env in envs:
        renv = cat.get(env)
        label = renv.label(args.seed)
        task = cat.task(label)
        wrong, right = renv.env.episode_probes(task)
        if not wrong and not right:
            continue
        ref = cat.verify(label, task.reference).reward
        row = {"probes": 0, "no_verdict": 0, "unexpected": 0}
        slowest = 0.0
        for probe, is_right in [*((w, False) for w in wrong), *((r, True) for r in right)]:
            with cat.episode(label) as ep:
                ep.reset()
                start = time.monotonic()
                for reply in probe.turns:
                    step = ep.step(reply)
                    if step.done:
                        break
                slowest = max(slowest, time.monotonic() - start)
            v = step.verdict
            row["probes"] += 1
            if v is None or v.error:
                row["no_verdict"] += 1
                print(f"  {env} {probe.kind}: NO VERDICT: {v.error if v else 'not done'}")
            elif (v.reward != ref) if is_right else (v.reward > (probe.max_reward if probe.max_reward is not None else ref - 1e-9)):
                row["unexpected"] += 1
                print(f"  {env} {probe.kind}: earned {v.reward} (reference {ref})")
        for k in totals:
            totals[k] += row[k]
        print(f"{env:45s} probes {row['probes']}  no verdict {row['no_verdict']}  unexpected {row['unexpected']}  "
              f"slowest {slowest:.2f} s", flush=True)
    rate = totals["no_verdict"] / max(1, totals["probes"])
    print(f"TOTAL {len(envs)} environments, {totals['probes']} probes: no verdict {totals['no_verdict']} ({rate:.1%}), "
          f"unexpected rewards {totals['unexpected']}")


if __name__ == "__main__":
    main()
