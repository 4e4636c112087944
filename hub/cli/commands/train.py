"""`rlhub train RUN.yaml`: build a run's datasets and reward/agent file, check the OpenRLHF
command against OpenRLHF's own parser, then launch it (or only print it with --dry-run)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from ...plugins.hookspecs import hookimpl

EXAMPLE = """\
examples:
  rlhub train run.yaml --dry-run         write the datasets and reward file, print the checked command
  rlhub train run.yaml                   ... and launch it

a RUN.yaml:
  name: arith-grpo
  model: Qwen/Qwen2.5-0.5B-Instruct      # HF id or local path
  gpus: 8                                # per node; nodes: 1
  registry: registry.yaml
  mixture: {seed: 0, train_prompts: 20000, eval_prompts: 256, select: "arith/*", format: jsonl}
  algorithm: {preset: grpo, n_samples_per_prompt: 8, dynamic_filtering: true}   # or reinforce_baseline
  rewards: auto          # file | agent | service (+ reward_url) ; auto = agent iff a multi-turn env is selected
  turn_format: auto      # from the model's chat template; or chatml | llama3 | plain
  openrlhf: {ds.zero_stage: 3}           # any extra OpenRLHF flag, dotted as in 0.11
  # cluster: {address: http://head:8265} # submit with `ray job submit` instead of running here
"""


def cmd_train(args: argparse.Namespace) -> int:
    from ...trainers.openrlhf.launch import launch, load_run, prepare
    from ...trainers.openrlhf import parser as openrlhf_cli

    run, base = load_run(args.run_file)
    summary = prepare(run, base, dry_run=args.dry_run)
    if not args.no_validate:
        openrlhf_cli.check(summary["argv"])
    summary["validated"] = not args.no_validate
    for warning in summary["warnings"]:
        print(f"rlhub: warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"# run directory: {summary['run_dir']} ({summary['mode']} rewards; "
              + ", ".join(f"{k}: {n} prompts" for k, n in summary["splits"].items()) + ")")
        print("".join(f"#   {name}: {what}\n" for name, what in summary["files"].items()), end="")
        print("# checked against OpenRLHF's parser and checks" if summary["validated"] else "# not validated")
        print("".join(f"{k}={shlex.quote(v)} " for k, v in summary["env"].items()) + shlex.join(summary["command"]))
    if args.dry_run:
        return 0
    return launch(summary)


@hookimpl
def rlhub_register_commands(subparsers):
    from ..common import add_verb

    p = add_verb(subparsers, "train", cmd_train, "train on the registry with OpenRLHF, from one run file",
                 "Write the run's prompt datasets (held-out eval split) and reward or agent file, check the\n"
                 "OpenRLHF command against OpenRLHF's own parser, and launch it.", epilog=EXAMPLE)
    p.add_argument("run_file", metavar="RUN.yaml")
    p.add_argument("--dry-run", action="store_true", help="write the files and print the checked command; launch nothing")
    p.add_argument("--no-validate", action="store_true", help="skip the check against OpenRLHF's parser")
