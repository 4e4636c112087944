"""No-verdict rate of every session family under the probes its checks play (goal: 0).

    python benchmarks/probe_sessions.py ['terminal/session-*' 'swe/*-session-*'] [--seed 0]
    python benchmarks/probe_sessions.py 'terminal/*static-*' --kinds crash,utf8   # only probes whose kind holds a word

For each selected environment with probes (Environment.episode_probes), plays every probe (as an
episode, or graded as one response when it has no turns) and prints, per family, the probes played,
how many ended without a verdict, how many earned other than expected (wrong: more than their cap;
right: other than the reference's reward), each probe's seconds against the reference's verification
measured in the same run (what the probe adds to a check run), and the slowest; then the totals.
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
    ap.add_argument("--kinds", default="", help="comma-separated words: play only probes whose kind holds one")
    args = ap.parse_args()
    words = [w for w in args.kinds.split(",") if w]
    cat = Catalog.load(args.registry)
    envs = sorted({r.id for g in args.globs for r in cat.select(g)})
    totals = {"probes": 0, "no_verdict": 0, "unexpected": 0}
    seconds = {"probes": 0.0, "reference": 0.0}
    for env in envs:
        renv = cat.get(env)
        label = renv.label(args.seed)
        task = cat.task(label)
        wrong, right = renv.env.episode_probes(task)
        wrong, right = ([p for p in ps if not words or any(w in p.kind for w in words)] for ps in (wrong, right))
        if not wrong and not right:
            continue
        start = time.monotonic()
        ref = cat.verify(label, task.reference, task=task).reward
        ref_s = time.monotonic() - start
        row = {"probes": 0, "no_verdict": 0, "unexpected": 0}
        slowest, times = 0.0, []
        for probe, is_right in [*((w, False) for w in wrong), *((r, True) for r in right)]:
            start = time.monotonic()
            if not probe.turns:  # a single-turn probe: one response
                v = cat.verify(label, probe.response, task=task)
            else:
                with cat.episode(label) as ep:
                    ep.reset()
                    for reply in probe.turns:
                        step = ep.step(reply)
                        if step.done:
                            break
                v = step.verdict
            took = time.monotonic() - start
            slowest = max(slowest, took)
            times.append(f"{probe.kind} {took:.2f}")
            seconds["probes"] += took
            row["probes"] += 1
            if v is None or v.error:
                row["no_verdict"] += 1
                print(f"  {env} {probe.kind}: NO VERDICT: {v.error if v else 'not done'}")
            elif (v.reward != ref) if is_right else (v.reward > (probe.max_reward if probe.max_reward is not None else ref - 1e-9)):
                row["unexpected"] += 1
                print(f"  {env} {probe.kind}: earned {v.reward} (reference {ref})")
        for k in totals:
            totals[k] += row[k]
        seconds["reference"] += ref_s
        print(f"{env:45s} probes {row['probes']}  no verdict {row['no_verdict']}  unexpected {row['unexpected']}  "
              f"slowest {slowest:.2f} s  (reference {ref_s:.2f} s; {', '.join(times)})", flush=True)
    rate = totals["no_verdict"] / max(1, totals["probes"])
    print(f"TOTAL {len(envs)} environments, {totals['probes']} probes: no verdict {totals['no_verdict']} ({rate:.1%}), "
          f"unexpected rewards {totals['unexpected']}; probes took {seconds['probes']:.1f} s, "
          f"{seconds['probes'] / max(seconds['reference'], 1e-9):.1f}x the references' {seconds['reference']:.1f} s")


if __name__ == "__main__":
    main()
