"""`rlhub check`: the verifier checks (the same as `pytest registry.yaml`)."""

from __future__ import annotations

import argparse

from ...plugins.hookspecs import hookimpl
from ..common import add_select, add_verb, selected

DESCRIPTION = """\
For every selected environment: the reference earns full reward (also in a fresh process); empty,
malformed and wrong answers (by kind and size) do not, nor do the verifier's reward hacks; other
forms of a right answer do; generation and verification are deterministic; the prompt does not
leak the answer. Exit 0 only if all hold. Same as `pytest registry.yaml`.

The checks run on every core (pytest-xdist: `-n auto`, the default), one environment per worker
at a time, so its checks share verdicts; `-n 0` runs them in this process. Progress (environments
done / total, failed checks, rate) goes to stderr; the summary names the ten slowest environments.
`--ray ADDRESS` spreads the environments over a Ray cluster instead (actors on every node, each
with its own warm sandbox pool), with the same results and exit code.

`--quick` is the edit loop's tier and proves less: one seed, and none of the checks that
re-verify determinism or need a fresh process (verifier_deterministic, generation_deterministic,
reference_fresh_process). A verifier that drifts between calls, or a task that differs in another
process, passes it. CI never runs it: run the full check before you land."""


def cmd_check(args: argparse.Namespace) -> int:
    from ...checks.runner import run_checks
    from ...core.errors import UserError

    seeds = args.seeds if args.seeds is not None else (1 if args.quick else 2)
    if args.quick and seeds != 1:
        raise UserError(f"--quick checks one seed per environment; drop --seeds {seeds} (or drop --quick)")
    return run_checks(registry=args.registry, select=selected(args), seeds=seeds, fail_fast=args.exitfirst,
                      verbose=args.verbose, json_out=args.json, workers=args.workers, ray_address=args.ray,
                      quick=args.quick)


def workers(text: str) -> int | str:
    if text == "auto":
        return text
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 'auto' or a number of worker processes (0: in this process), got {text!r}")
    return n


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "check", cmd_check, "run the verifier checks (pytest) for the selected environments",
                 DESCRIPTION, epilog="examples:\n  rlhub check 'arith/*'\n  rlhub check --select 'cad/plate-*' --seeds 1 -x\n"
                         "  rlhub check -n 4 --json                # four worker processes, a JSON summary line\n"
                         "  rlhub check --quick 'cad/plate-*'      # while editing: proves less (see above)\n"
                         "  rlhub check --ray 127.0.0.1:6379       # on a running Ray cluster (`ray start --head`)")
    add_select(p)
    p.add_argument("--seeds", type=int, default=None, help="tasks checked per environment (default 2; --quick: 1)")
    p.add_argument("--quick", action="store_true",
                   help="the edit loop's tier, proving less: one seed, no determinism or fresh-process checks; "
                        "never what CI runs")
    p.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per check")
    p.add_argument("-n", "--workers", type=workers, default="auto", metavar="auto|N",
                   help="worker processes (default auto: one per core, at most one per environment; 0: in this process)")
    p.add_argument("--ray", metavar="ADDRESS", help="run on the Ray cluster at ADDRESS (as `ray.init(address=...)` takes it)")
