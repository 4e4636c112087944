"""`rlhub eval` (a model on the registry, through an OpenAI-compatible endpoint) and
`rlhub rescore` (grade a trajectories file again, e.g. after a verifier fix)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from ...plugins.hookspecs import hookimpl
from ..common import add_select, selected


def _table(rows, extra_cols=()) -> str:
    from ..common import table

    from ...evaluation.stats import fmt, interval

    ks = sorted({k for r in rows for k in r if k.startswith("pass@")}, key=lambda k: int(k[5:]))
    header = ["ENV", "N", "REWARD", "95% CI", "PASS", "95% CI", *[k.upper() for k in ks], "NO VERDICT", "TURNS", "TOKENS",
              "TRUNCATED", *[c.upper() for c in extra_cols], "TOP FAILURE REASONS"]
    body = [[r["env"], r["n"], fmt(r["reward"]), interval(r["reward_ci"]), fmt(r["pass_rate"], ".1%"),
             interval(r["pass_ci"], ".1%"), *[fmt(r.get(k), ".1%") for k in ks], r["errors"], f"{r['turns']:.2f}",
             f"{r.get('tokens', 0):.0f}", f"{r.get('truncated', 0):.1%}", *[r[c] for c in extra_cols],
             "; ".join(f"{why} ({n})" for why, n in r.get("reasons", []))] for r in rows]
    return table(body, header)


def _no_verdict_check(rows: list[dict], limit: float) -> str | None:
    """The reason to fail the run: more than `limit` of its samples got no verdict."""
    total = rows[-1]
    if total["n"] and total["errors"] / total["n"] > limit:
        kinds = "; ".join(f"{why} ({n})" for why, n in total["reasons"] if why.startswith("no verdict"))
        return (f"{total['errors']} of {total['n']} samples ({total['errors'] / total['n']:.0%}) got no verdict, more than "
                f"--max-no-verdict {limit:.0%}: {kinds or 'see the trajectories file'}")
    return None


def cmd_eval(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from ..common import catalog, output_path
    from ...assets.remote import remote_output
    from ...core.errors import EXIT_NO_VERDICT, UserError
    from ...evaluation import report
    from ...evaluation.endpoint import probe
    from ...evaluation.run import load_labels, run_eval, summarize

    if args.compare:
        return _compare(args)
    if not args.base_url or not args.model:
        raise UserError("rlhub eval needs --base-url and --model (or --compare A.jsonl B.jsonl to compare two runs)")
    if args.n < 0:
        raise UserError(f"--n must be 0 or more, got {args.n}")
    if args.per_env < 0 or args.attempts < 1:
        raise UserError(f"--per-env must be 0 or more and --attempts 1 or more; got {args.per_env}, {args.attempts}")
    if args.attempts > 1 and args.temperature == 0:
        print("rlhub: warning: --attempts > 1 at --temperature 0: a deterministic endpoint answers every attempt "
              "alike, and pass@k says nothing more than pass@1", file=sys.stderr)
    if not 0 <= args.max_no_verdict <= 1:
        raise UserError(f"--max-no-verdict is a share of the samples, in [0, 1]; got {args.max_no_verdict}")
    if args.concurrency <= 0 or args.max_tokens <= 0:
        raise UserError("--concurrency and --max-tokens must be positive")
    remote_out, remote_report = remote_output(args.out, "--out"), remote_output(args.report, "--report")
    out = remote_out.local if remote_out else output_path(args.out, "--out")
    report_path = (remote_report.local if remote_report else
                   output_path(args.report, "--report", "report.html") if args.report else None)
    cat = catalog(args)
    if args.prompts:
        labels = load_labels(cat, args.prompts, args.n, args.seed, selected(args))
    else:
        from ...evaluation.stats import stratified_labels

        labels = stratified_labels(cat, args.per_env, args.seed, selected(args), args.tag, args.n)
    labels = [label for label in labels for _ in range(args.attempts)]
    api_key = args.api_key or os.environ.get("OPENAI_API_KEY", "EMPTY")
    probe(args.base_url, args.model, api_key)  # before any work: a dead endpoint is one clear line
    records = asyncio.run(run_eval(cat, labels, args.base_url, args.model, out, concurrency=args.concurrency,
                                   max_tokens=args.max_tokens, temperature=args.temperature, api_key=api_key,
                                   step_timeout=args.step_timeout, progress=not args.json))
    rows = summarize(records, args.attempts)
    if remote_out:  # written here line by line as ever, then uploaded whole
        out = remote_out.upload()
    if report_path is not None:
        report.write(cat, records, rows, report_path, model=args.model, base_url=args.base_url,
                     registry=cat.registry.name, out=str(out))
        if remote_report:
            report_path = remote_report.upload()
    if args.json:
        print(json.dumps({"out": str(out), "report": str(report_path) if report_path else None,
                          "registry": cat.registry.name, "summary": rows}))
    else:
        print(_table(rows) + f"\ntrajectories: {out}" + (f"\nreport: {report_path}" if report_path else ""))
    failed = _no_verdict_check(rows, args.max_no_verdict)
    if failed:
        print(f"rlhub: error: {failed}", file=sys.stderr)
        return EXIT_NO_VERDICT
    return 0


def _compare(args: argparse.Namespace) -> int:
    """Two trajectory files side by side: per environment, domain and overall, B's mean reward and
    pass rate minus A's with 95 % Welch intervals, on the environments both hold."""
    from ..common import table
    from ...evaluation.run import read_trajectories
    from ...evaluation.stats import compare, fmt, interval

    a_path, b_path = args.compare
    a, b = read_trajectories(a_path), read_trajectories(b_path)
    result = compare(a, b)
    if args.json:
        print(json.dumps({"a": a_path, "b": b_path, **result}))
        return 0
    body = [[r["env"], r["n_a"], r["n_b"], fmt(r["reward_a"]), fmt(r["reward_b"]), fmt(r["delta"], "+.3f"),
             interval(r["delta_ci"], "+.3f"), fmt(r["pass_delta"], "+.1%"), "yes" if r["significant"] else ""]
            for r in result["rows"]]
    print(table(body, ["ENV", "N A", "N B", "REWARD A", "REWARD B", "B - A", "95% CI", "PASS B - A", "SIGNIFICANT"]))
    for side, path in (("only_a", a_path), ("only_b", b_path)):
        if result[side]:
            print(f"only in {path} (not compared): {', '.join(result[side][:20])}"
                  + (f" and {len(result[side]) - 20} more" if len(result[side]) > 20 else ""))
    return 0


def cmd_rescore(args: argparse.Namespace) -> int:
    from ..common import catalog, output_path
    from ...assets import is_url
    from ...assets.remote import remote_output
    from ...core.errors import UserError
    from ...evaluation.run import read_trajectories, rescore, summarize
    from ...evaluation.stats import fmt

    records = read_trajectories(args.trajectories)
    if not records:
        raise UserError(f"{args.trajectories}: no trajectories in it: nothing to rescore")
    given = args.trajectories
    stem = given.rsplit(".", 1)[0] if is_url(given) and "." in given.rsplit("/", 1)[-1] else \
        given if is_url(given) else str(Path(given).with_suffix(""))
    remote = remote_output(args.out or stem + ".rescored.jsonl", "--out")
    out = remote.local if remote else output_path(args.out or stem + ".rescored.jsonl", "--out")
    cat = catalog(args)
    results = rescore(cat, records, out, progress=not args.json)
    if remote:
        out = remote.upload()
    rows = summarize(results)
    before = {r["env"]: r for r in summarize(records)}
    changed: dict[str, int] = {}
    for r in results:
        if r["previous"]["reward"] != r["reward"]:
            for env in (r.get("env") or "?", "all"):
                changed[env] = changed.get(env, 0) + 1
    for row in rows:
        row["was"] = fmt(before[row["env"]]["reward"]) if row["env"] in before else "-"
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


EVAL_DESCRIPTION = """\
Play sampled tasks (single- and multi-turn) against an OpenAI-compatible chat endpoint
(e.g. `vllm serve MODEL`), print per environment the pass rate, mean reward, samples without a
verdict, mean turns and completion tokens, the truncation rate and the top failure reasons, and
write every trajectory to JSONL for `rlhub rescore` (and, with --report, an HTML page).
The endpoint is checked before the run starts (a server that is down is one line, exit 2).
exit 0: done; 2: bad input, nothing to evaluate, or the endpoint unreachable; 3: more than
--max-no-verdict of the samples got no verdict (endpoint or verifier failures)."""


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import add_verb, examples

    p = add_verb(subparsers, "eval", cmd_eval, "evaluate a model on the registry through an OpenAI-compatible endpoint",
                 EVAL_DESCRIPTION,
                 epilog=examples("rlhub eval --base-url http://localhost:8000/v1 --model Qwen/Qwen2.5-0.5B-Instruct -n 200",
                                 "rlhub eval --base-url URL --model M --prompts runs/x/eval.jsonl --report report.html"))
    p.add_argument("--base-url", help="the endpoint, e.g. http://localhost:8000/v1 (required unless --compare)")
    p.add_argument("--model", help="the model name the endpoint serves (required unless --compare)")
    p.add_argument("--api-key", help="default: $OPENAI_API_KEY, else 'EMPTY'")
    p.add_argument("-n", "--n", type=int, default=100,
                   help="tasks to evaluate, spread evenly over the selected environments, domain by domain "
                        "(with --prompts: at most this many, 0 = all)")
    p.add_argument("--per-env", type=int, default=0, metavar="K", help="K tasks of every selected environment (instead of -n)")
    p.add_argument("--tag", help="only environments with this tag (examples, tagged 'example', are left out unless "
                                 "selected or tagged)")
    p.add_argument("--attempts", type=int, default=1, metavar="A",
                   help="attempts per task (with --temperature > 0): pass@k is reported for k up to A")
    p.add_argument("--compare", nargs=2, metavar=("A.jsonl", "B.jsonl"),
                   help="compare two trajectory files instead: B - A per environment with 95%% intervals")
    p.add_argument("--seed", type=int, default=0, help="sampling seed")
    add_select(p)
    p.add_argument("--prompts", metavar="FILE.jsonl", help="evaluate these labels (e.g. a run's eval.jsonl) instead of sampling")
    p.add_argument("--concurrency", type=int, default=16, help="episodes in flight")
    p.add_argument("--max-tokens", type=int, default=1024, help="per reply")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature of the model")
    p.add_argument("--step-timeout", type=float, default=300.0, help="seconds one environment step may take")
    p.add_argument("--out", default="trajectories.jsonl", metavar="FILE.jsonl", help="the trajectories file (a path, or a URL such as s3://bucket/run/traj.jsonl: written here, uploaded when done)")
    p.add_argument("--report", metavar="FILE.html", help="also write a self-contained HTML report (charts, failures, drawings)")
    p.add_argument("--max-no-verdict", type=float, default=0.1, metavar="SHARE",
                   help="exit 3 when more than this share of the samples got no verdict")

    p = add_verb(subparsers, "rescore", cmd_rescore, "grade a trajectories file from `rlhub eval` again with the current verifiers",
                 "Replay every recorded episode through today's environments and verifiers (e.g. after a\n"
                 "verifier fix) and print the new and the old rewards per environment.",
                 epilog=examples("rlhub rescore trajectories.jsonl", "rlhub rescore trajectories.jsonl --out again.jsonl --json"))
    p.add_argument("trajectories", metavar="FILE.jsonl")
    p.add_argument("--out", metavar="FILE.jsonl", help="default: FILE.rescored.jsonl (a path or an s3://, gs://, file:// URL)")
