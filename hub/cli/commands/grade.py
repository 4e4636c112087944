"""`rlhub verify` (grade one response) and `rlhub reference` (the response that earns full reward)."""

from __future__ import annotations

import argparse
import json
import sys

from ...core.errors import EXIT_FAILED, EXIT_NO_VERDICT, EXIT_OK, UserError
from ...plugins.hookspecs import hookimpl
from ..common import add_verb, catalog, examples, output_path, read_text_arg

LABEL_EXAMPLE = '\'{"env": "arith/add-v1", "seed": 3}\''


def cmd_verify(args: argparse.Namespace) -> int:
    from ...core.task import Label

    response = read_text_arg(args.response_file, "--response-file")
    cat = catalog(args)
    label = Label.parse(args.label)
    task = cat.task(label)
    render_to = str(output_path(args.render, "--render", "diff.png")) if args.render else None
    verdict = cat.verify(label, response, task=task, render_to=render_to)
    print(json.dumps(verdict.to_dict(), default=str))  # one verdict as JSON, with or without --json
    if args.explain or sys.stdout.isatty():  # the human view goes beside it, never into the JSON
        from ...evaluation.verdicts import explain, reward_why

        verifier = cat.get(label.env).verifier
        shown = verdict.to_dict()
        sys.stdout.flush()
        print(explain(shown, verifier.config.model_dump(mode="json"), expected=task.reference,
                      why=reward_why(verifier, shown)), file=sys.stderr)
    if verdict.error:
        return EXIT_NO_VERDICT
    return EXIT_OK if verdict.passed else EXIT_FAILED


def cmd_reference(args: argparse.Namespace) -> int:
    if args.turns:
        return _reference_turns(args)
    ref = catalog(args).reference(args.label)
    if args.json:
        print(json.dumps({"label": args.label, "reference": ref}))
    else:
        sys.stdout.write(ref if ref.endswith("\n") else ref + "\n")
    return EXIT_OK


def _reference_turns(args: argparse.Namespace) -> int:
    """The reference as the turns a model plays, one file each in --turns DIR, and the command that plays them."""
    import shlex
    from pathlib import Path

    from ...core.task import Label

    cat = catalog(args)
    label = Label.parse(args.label)
    task = cat.task(label)
    turns = cat.get(label.env).env.reference_turns(task)
    out = Path(args.turns)
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for i, text in enumerate(turns, 1):
            path = out / f"turn-{i}.txt"
            path.write_text(text if text.endswith("\n") else text + "\n")
            paths.append(str(path))
    except OSError as exc:
        raise UserError(f"--turns {args.turns}: cannot write the turns there ({exc.strerror or exc})") from None
    key = "seed" if label.seed is not None else "row"
    play = f"rlhub play {label.env} --{key} {label.index} " + " ".join(f"--turn {shlex.quote(p)}" for p in paths)
    if args.json:
        print(json.dumps({"label": label.to_json(), "turns": paths, "play": play}))
    else:
        print(f"{len(paths)} turn(s) in {out}; play them with:\n  {play}")
    return EXIT_OK


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "verify", cmd_verify, "grade one response; prints {reward, passed, details} as JSON",
                 "Grade one response against the task its label names. Prints one verdict as JSON on stdout\n"
                 "(Verdict.to_dict(), unchanged for scripts); with --explain, or when stdout is a terminal, also\n"
                 "a readable view on stderr: each component, the reward mode and why the reward is what it is,\n"
                 "failed tests or every mismatched feature (whole), expected vs got, tracebacks unescaped (numbers rounded there for display only).\n"
                 "exit 0: passed; 1: not passed; 2: bad input; 3: no verdict (the verifier failed).",
                 epilog=examples(f"rlhub reference --label {LABEL_EXAMPLE} > answer.txt",
                                 f"rlhub verify --label {LABEL_EXAMPLE} --response-file answer.txt --explain"))
    p.add_argument("--label", required=True, help=f"e.g. {LABEL_EXAMPLE}")
    p.add_argument("--response-file", required=True, metavar="FILE", help="the model's response ('-' for stdin)")
    p.add_argument("--explain", action="store_true", help="also print a readable view of the verdict (on stderr)")
    p.add_argument("--render", metavar="PATH.png", help="also draw the verdict (verifiers that can, e.g. mesh_iou: "
                   "reference and candidate side by side, mismatched features marked)")
    p = add_verb(subparsers, "reference", cmd_reference, "print the reference solution, written as a model's response",
                 epilog=examples(f"rlhub reference --label {LABEL_EXAMPLE}",
                                 "rlhub reference --label '{\"env\": \"terminal/session-word-frequency-v1\", \"seed\": 0}' "
                                 "--turns ref/",
                                 f"rlhub reference --label {LABEL_EXAMPLE} | rlhub verify --label {LABEL_EXAMPLE} "
                                 "--response-file -"))
    p.add_argument("--label", required=True, help=f"e.g. {LABEL_EXAMPLE}")
    p.add_argument("--turns", metavar="DIR", help="write the reference as the turns a model plays (one file each, 'turn-N.txt') "
                   "to DIR and print the `rlhub play` command that plays them (sessions and tool environments)")
