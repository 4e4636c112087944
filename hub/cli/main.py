"""The `rlhub` command line. Every verb, built-in or a plugin's, is added through the
`rlhub_register_commands` hook (hub/cli/commands/ holds the built-in ones), as pytest does.

Exit codes (stable, for scripts): 0 ok / passed, 1 ran but the answer is "no" (verdict not
passed, a check failed), 2 bad input (file, id, label, option), 3 no verdict (verifier crashed
or timed out).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..core.errors import EXIT_NO_VERDICT, EXIT_OK, EXIT_USAGE, TaskError, UserError

EPILOG = """\
examples:
  rlhub list                                   what the registry offers
  rlhub sample -n 8 --seed 0 --out prompts.jsonl
  rlhub reference --label '{"env": "arith/add-v1", "seed": 3}' > answer.txt
  rlhub verify --label '{"env": "arith/add-v1", "seed": 3}' --response-file answer.txt
  rlhub check 'arith/*'                        the verifier checks of those environments

every command takes --registry PATH (default: ./registry.yaml, else the registries of the
installed plugins together; each command names the one it used on stderr) and --json.
exit codes: 0 ok, 1 "no" (not passed, a check failed, too many samples without a verdict),
2 bad input (or nothing to do), 3 no verdict (the verifier failed).
"""


def build_parser() -> argparse.ArgumentParser:
    from ..core import __version__

    from .common import Parser

    parser = Parser(
        prog="rlhub", description="Environment hub and reward registry for RL post-training of LLMs.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"rlhub {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    from ..plugins.manager import installed

    for info, register_commands in installed().commands:
        try:
            register_commands(subparsers=sub)
        except Exception as exc:  # a broken plugin command must not take the CLI down
            print(f"rlhub: warning: plugin {info.name!r} could not add its commands: {exc}", file=sys.stderr)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"rlhub: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except TaskError as exc:  # the environment's bug, not the user's input: no verdict can be had
        print(f"rlhub: error: {exc}", file=sys.stderr)
        return EXIT_NO_VERDICT
    except KeyboardInterrupt:
        print("rlhub: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `rlhub list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:  # a file the user named could not be read or written
        if exc.filename is None:
            raise
        print(f"rlhub: error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE

