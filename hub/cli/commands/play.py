"""`rlhub play`: an episode by hand, the way the model plays it: the prompt, then for each turn
the model's reply (typed, piped, or one file per turn), the environment's observation, and at
the end the verdict."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Iterator, TextIO

from ...core.errors import EXIT_FAILED, EXIT_NO_VERDICT, EXIT_OK, UserError
from ...plugins.hookspecs import hookimpl
from ..common import add_verb, catalog, examples, read_text_arg

END = "."  # a line holding only this ends a turn typed on stdin

DESCRIPTION = """\
Play one task of ENV_ID as the model would: the prompt is printed, then each turn's reply is
read and the environment's observation printed, until the episode ends with its verdict.
A reply comes from the next --turn FILE, else from stdin: type it and end it with a line
holding only '.' (or Ctrl-D). Exit codes as for `rlhub verify`.
A tool environment (its prompt lists tools) reads the calls in a reply in the --tool-format
(hermes by default: <tool_call> JSON blocks) and prints each call's result."""


def turns_from(stream: TextIO, interactive: bool) -> Iterator[str]:
    """Replies read from `stream`, each ended by a line holding only '.', or by the end of input."""
    while True:
        if interactive:
            print(f"--- your reply (end with a line holding only '{END}', or Ctrl-D) ---", file=sys.stderr)
        lines = []
        for line in stream:
            if line.rstrip("\r\n") == END:
                break
            lines.append(line)
        else:
            if lines:
                yield "".join(lines)
            return
        yield "".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    from ...evaluation.verdicts import explain, reward_why
    from ...tools import formats
    from ..promptview import render, render_tools

    files = [read_text_arg(path, "--turn") for path in args.turn or []]  # every file checked before playing
    cat = catalog(args)
    renv = cat.get(args.env_id)
    label = renv.label(args.seed)
    replies = iter([*files])
    stdin_turns = turns_from(sys.stdin, sys.stdin.isatty())
    log = []
    transcript = sys.stderr if args.json else sys.stdout  # --json: stdout holds only the JSON
    episode = cat.episode(label)
    tools = cat.tools(label)
    if args.tool_format and hasattr(episode, "tool_format"):
        episode.tool_format = formats.check_format(args.tool_format)
    elif args.tool_format:
        raise UserError(f"--tool-format: {args.env_id} is a text environment (it offers no tools)")
    with episode:
        episode.reset()
        print(f"=== {label.to_json()}: up to {episode.max_turns} turn(s) ===\n{render(episode.task, args.max_chars)}",
              file=transcript)
        if tools:
            print(f"=== tools (calls read as {episode.tool_format}) ===\n{render_tools(tools)}", file=transcript)
        while True:
            reply = next(replies, None)
            if reply is None:
                reply = next(stdin_turns, None)
            if reply is None:
                raise UserError(f"the input ended after {len(log)} turn(s) and the episode has not ended "
                                f"(it allows {episode.max_turns}): give another --turn FILE or more on stdin")
            step = episode.step(reply)
            results = [{"name": r.name, "content": r.content, "is_error": r.is_error} for r in step.tool_results]
            log.append({"action": reply, "observation": step.observation, "done": step.done,
                        **({"tool_results": results, "notes": list(step.notes)} if tools else {})})
            for k, r in enumerate(results, 1):
                print(f"=== turn {len(log)}, call {k}: {r['name']}{' (error)' if r['is_error'] else ''} ===\n{r['content']}",
                      file=transcript, flush=True)
            if tools and step.notes:
                print(f"=== turn {len(log)}: notes ===\n" + "\n".join(step.notes), file=transcript, flush=True)
            if step.done:
                break
            if not tools:  # a tool episode's observation is its results and notes, printed above
                print(f"=== observation after turn {len(log)} ===\n{step.observation}", file=transcript, flush=True)
    verdict = step.verdict.to_dict() if step.verdict else {"reward": 0.0, "passed": False,
                                                           "error": "the episode ended without a verdict"}
    if args.json:
        print(json.dumps({"label": label.to_json(), "turns": log, "verdict": verdict}, default=str))
    else:
        config = renv.verifier.config.model_dump(mode="json")
        print(f"=== verdict after {len(log)} turn(s) ===\n{explain(verdict, config, expected=episode.task.reference, why=reward_why(renv.verifier, verdict))}")
    if verdict.get("error"):
        return EXIT_NO_VERDICT
    return EXIT_OK if verdict.get("passed") else EXIT_FAILED


@hookimpl
def rlhub_register_commands(subparsers):
    from ...tools import formats

    p = add_verb(subparsers, "play", cmd_play, "play one episode by hand: replies from stdin or files, observations printed",
                 DESCRIPTION, epilog=examples("rlhub play arith/guess-v1 --seed 3",
                                              "rlhub play terminal/session-word-frequency-v1 --turn t1.txt --turn t2.txt",
                                              "rlhub play arith/guess-tools-v1 --tool-format qwen3_coder --turn call.txt"))
    p.add_argument("env_id", metavar="ENV_ID")
    p.add_argument("--seed", type=int, default=0, help="which task (its seed, or row for a dataset)")
    p.add_argument("--turn", action="append", metavar="FILE", help="the reply for the next turn (repeatable, in order; '-' reads stdin)")
    p.add_argument("--max-chars", type=int, default=4000, help="trim the prompt's text parts to this many characters (0: all)")
    p.add_argument("--tool-format", choices=formats.known_formats(), metavar="NAME",
                   help=f"how a tool environment reads calls in a reply: {', '.join(formats.known_formats())} "
                        f"(default: the environment's, {formats.DEFAULT_FORMAT})")
