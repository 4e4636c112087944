"""`rlhub check`: the verifier checks (the same as `pytest registry.yaml`)."""

from __future__ import annotations

import argparse

from ...plugins.hookspecs import hookimpl
from ..common import add_select, add_verb, selected

DESCRIPTION = """\
For every selected environment: the reference earns full reward (also in a fresh process); empty,
malformed and wrong answers (by kind and size) do not, nor do the verifier's reward hacks; other
forms of a right answer do; generation and verification are deterministic; the prompt does not
leak the answer. Exit 0 only if all hold. Same as `pytest registry.yaml`."""


def cmd_check(args: argparse.Namespace) -> int:
    from ...checks.runner import run_checks

    return run_checks(registry=args.registry, select=selected(args), seeds=args.seeds, fail_fast=args.exitfirst,
                      verbose=args.verbose, json_out=args.json, workers=args.workers)


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "check", cmd_check, "run the verifier checks (pytest) for the selected environments",
                 DESCRIPTION, epilog="examples:\n  rlhub check 'arith/*'\n  rlhub check --select 'cad/plate-*' --seeds 1 -x")
    add_select(p)
    p.add_argument("--seeds", type=int, default=2, help="tasks checked per environment (default 2)")
    p.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per check")
    p.add_argument("-n", "--workers", type=int, default=0, help="reserved: parallel workers (0 = in process)")
