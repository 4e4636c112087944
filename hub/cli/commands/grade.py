"""`rlhub verify` (grade one response) and `rlhub reference` (the response that earns full reward)."""

from __future__ import annotations

import argparse
import json
import sys

from ...core.errors import EXIT_FAILED, EXIT_NO_VERDICT, EXIT_OK
from ...plugins.hookspecs import hookimpl
from ..common import add_verb, catalog, read_text_arg

LABEL_EXAMPLE = '\'{"env": "arith/add-v1", "seed": 3}\''


def cmd_verify(args: argparse.Namespace) -> int:
    response = read_text_arg(args.response_file, "--response-file")
    verdict = catalog(args).verify(args.label, response)
    print(json.dumps(verdict.to_dict(), default=str))  # one verdict as JSON, with or without --json
    if verdict.error:
        return EXIT_NO_VERDICT
    return EXIT_OK if verdict.passed else EXIT_FAILED


def cmd_reference(args: argparse.Namespace) -> int:
    ref = catalog(args).reference(args.label)
    if args.json:
        print(json.dumps({"label": args.label, "reference": ref}))
    else:
        sys.stdout.write(ref if ref.endswith("\n") else ref + "\n")
    return EXIT_OK


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "verify", cmd_verify, "grade one response; prints {reward, passed, details} as JSON",
                 "Grade one response against the task its label names. Prints one verdict as JSON.\n"
                 "exit 0: passed; 1: not passed; 2: bad input; 3: no verdict (the verifier failed).",
                 epilog=f"example:\n  rlhub reference --label {LABEL_EXAMPLE} > answer.txt\n"
                        f"  rlhub verify --label {LABEL_EXAMPLE} --response-file answer.txt")
    p.add_argument("--label", required=True, help=f"e.g. {LABEL_EXAMPLE}")
    p.add_argument("--response-file", required=True, metavar="FILE", help="the model's response ('-' for stdin)")
    p = add_verb(subparsers, "reference", cmd_reference, "print the reference solution, written as a model's response",
                 epilog=f"example:\n  rlhub reference --label {LABEL_EXAMPLE}")
    p.add_argument("--label", required=True, help=f"e.g. {LABEL_EXAMPLE}")
