"""`rlhub eval` (a model on the registry, through an OpenAI-compatible endpoint) and
`rlhub rescore` (grade a trajectories file again, e.g. after a verifier fix)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path

from ...plugins.hookspecs import hookimpl
from ..common import add_select, selected


def _table(rows, extra_cols=()) -> str:
    from ..common import table

    header = ["ENV", "N", "REWARD", "PASS", "ERRORS", "TURNS", *[c.upper() for c in extra_cols]]
    body = [[r["env"], r["n"], f"{r['reward']:.3f}", f"{r['pass_rate']:.1%}", r["errors"], f"{r['turns']:.2f}",
             *[r[c] for c in extra_cols]] for r in rows]
    return table(body, header)


def cmd_eval(args: argparse.Namespace) -> int:
    from ..common import catalog
    from ...evaluation.run import load_labels, run_eval, summarize

    cat = catalog(args)
    labels = load_labels(cat, args.prompts, args.n, args.seed, selected(args))
    records = asyncio.run(run_eval(cat, labels, args.base_url, args.model, Path(args.out), concurrency=args.concurrency,
                                   max_tokens=args.max_tokens, temperature=args.temperature,
                                   api_key=args.api_key or os.environ.get("OPENAI_API_KEY", "EMPTY"),
                                   step_timeout=args.step_timeout, progress=not args.json))
    rows = summarize(records)
    if args.json:
        print(json.dumps({"out": args.out, "summary": rows}))
    else:
        print(_table(rows) + f"\ntrajectories: {args.out}")
    return 0


def cmd_rescore(args: argparse.Namespace) -> int:
    from ..common import catalog
    from ...evaluation.run import read_trajectories, rescore, summarize

    cat = catalog(args)
    records = read_trajectories(args.trajectories)
    out = Path(args.out or str(Path(args.trajectories).with_suffix("")) + ".rescored.jsonl")
    results = rescore(cat, records, out, progress=not args.json)
    rows = summarize(results)
    before = {r["env"]: r for r in summarize(records)}
    changed: dict[str, int] = {}
    for r in results:
        if r["previous"]["reward"] != r["reward"]:
            for env in (r.get("env") or "?", "all"):
                changed[env] = changed.get(env, 0) + 1
    for row in rows:
        row["was"] = f"{before[row['env']]['reward']:.3f}" if row["env"] in before else "-"
        row["changed"] = changed.get(row["env"], 0)
    regraded = {}  # verifier parts that changed since the file was written, with how many trajectories each
    for r in results:
        for part in r.get("verifier_changed") or ():
            regraded[part] = regraded.get(part, 0) + 1
    if args.json:
        print(json.dumps({"out": str(out), "summary": rows, "verifier_changed": regraded}))
    else:
        note = "".join(f"\n{n} trajectories graded by a changed verifier: {part}" for part, n in sorted(regraded.items()))
        print(_table(rows, ("was", "changed")) + note + f"\nrescored trajectories: {out}")
    return 0


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import common

    p = common(subparsers.add_parser(
        "eval", help="evaluate a model on the registry through an OpenAI-compatible endpoint",
        description="Play sampled tasks (single- and multi-turn) against an OpenAI-compatible chat endpoint\n"
                    "(e.g. `vllm serve MODEL`), print rewards and pass rates per environment, and write every\n"
                    "trajectory to JSONL for `rlhub rescore`.", formatter_class=argparse.RawDescriptionHelpFormatter))
    p.add_argument("--base-url", required=True, help="e.g. http://localhost:8000/v1")
    p.add_argument("--model", required=True, help="the model name the endpoint serves")
    p.add_argument("--api-key", help="default: $OPENAI_API_KEY, else 'EMPTY'")
    p.add_argument("-n", "--n", type=int, default=100, help="tasks to evaluate (default 100; with --prompts: at most this many, 0 = all)")
    p.add_argument("--seed", type=int, default=0)
    add_select(p)
    p.add_argument("--prompts", metavar="FILE.jsonl", help="evaluate these labels (e.g. a run's eval.jsonl) instead of sampling")
    p.add_argument("--concurrency", type=int, default=16, help="episodes in flight (default 16)")
    p.add_argument("--max-tokens", type=int, default=1024)
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--step-timeout", type=float, default=300.0, help="seconds one environment step may take")
    p.add_argument("--out", default="trajectories.jsonl", metavar="FILE.jsonl")
    p.set_defaults(func=cmd_eval)

    p = common(subparsers.add_parser(
        "rescore", help="grade a trajectories file from `rlhub eval` again with the current verifiers"))
    p.add_argument("trajectories", metavar="FILE.jsonl")
    p.add_argument("--out", metavar="FILE.jsonl", help="default: FILE.rescored.jsonl")
    p.set_defaults(func=cmd_rescore)
