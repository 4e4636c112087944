"""What each wrong part of an environment earns: a family author's view of the `wrong_fails` check.

    python -m rlhub_cad.mutation_report cad/plate-counterbore-dimensioned-v1 [cad/flange-...] [--seed 0]

Prints, per environment, the reference and every mutation (kind, size, what is wrong) with its
reward, whether it passed, its cap, and the first difference the verdict names.
"""

from __future__ import annotations

import argparse
import sys


def report(env_ids: list[str], seed: int = 0, registry: str | None = None) -> list[dict]:
    import hub

    cat = hub.load(registry)
    rows = []
    for env_id in env_ids:
        renv = cat.get(env_id)
        label = renv.label(seed)
        task = cat.task(label)
        ref = cat.verify(label, task.reference, task=task)
        rows.append({"env": env_id, "kind": "reference", "size": "", "reward": ref.reward, "passed": ref.passed,
                     "cap": 1.0, "says": ""})
        for v in renv.env.wrong_answers(task):
            verdict = cat.verify(label, v.response, task=task)
            says = (verdict.details.get("mismatches") or [verdict.details.get("reason", "")])[0]
            rows.append({"env": env_id, "kind": v.kind, "size": v.size, "reward": verdict.reward, "passed": verdict.passed,
                         "cap": v.max_reward, "says": says, "note": v.note})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env_ids", nargs="+")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--registry")
    args = ap.parse_args(argv)
    rows = report(args.env_ids, args.seed, args.registry)
    print("| environment | mutation | size | reward | passed | cap | the verdict says |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        size = f"{r['size']:g}" if isinstance(r["size"], float) else r["size"]
        print(f"| {r['env'].removeprefix('cad/')} | {r['kind']} | {size} | {r['reward']:.3f} | {'yes' if r['passed'] else 'no'} "
              f"| {r['cap']} | {r['says'][:90]} |")
    bad = [r for r in rows if r["kind"] != "reference" and (r["passed"] or r["reward"] > r["cap"] + 1e-9)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
