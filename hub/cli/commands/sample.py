"""`rlhub sample`: prompts drawn by the registry's weights, in OpenRLHF's prompt-file format."""

from __future__ import annotations

import argparse

from ...core.errors import EXIT_OK, UserError
from ...plugins.hookspecs import hookimpl
from ..common import add_select, add_verb, catalog, emit, examples, output_path, selected

DESCRIPTION = """\
Draw N prompts by the registry's weights. Each JSONL line is {"input": prompt, "label": label},
OpenRLHF's prompt-dataset format (--data.input_key input --data.label_key label).
The same seed gives the same file; the file appears only once complete."""


def cmd_sample(args: argparse.Namespace) -> int:
    from ...mixture.promptfile import write_prompts

    if args.n <= 0:
        raise UserError(f"--n must be a positive number of prompts, got {args.n}: nothing to sample")
    out = output_path(args.out, "--out")
    state_out = output_path(args.state_out, "--state-out", "state.json") if args.state_out else None
    summary = write_prompts(catalog(args), n=args.n, seed=args.seed, out=out, select=selected(args),
                            state_out=state_out, resume=args.resume)
    emit(args, summary, lambda: f"wrote {summary['n']} prompts to {summary['out']} "
         f"({summary['envs']} environments, {summary['prompts_per_s']:.0f} prompts/s)")
    return EXIT_OK


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "sample", cmd_sample, "draw N prompts by the registry's weights into an OpenRLHF prompt file",
                 DESCRIPTION, epilog=examples("rlhub sample -n 1024 --seed 0 --out prompts.jsonl",
                                              "rlhub sample -n 50 'cad/*image*' --out cad.jsonl --state-out s.json"))
    p.add_argument("-n", "--n", type=int, required=True, help="number of prompts")
    p.add_argument("--seed", type=int, default=0, help="sampling seed")
    p.add_argument("--out", required=True, metavar="FILE.jsonl", help="output file")
    add_select(p)
    p.add_argument("--state-out", metavar="FILE", help="save the sampler's state here, to resume later")
    p.add_argument("--resume", metavar="FILE", help="continue the stream saved by --state-out")
