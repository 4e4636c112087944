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
  rlhub train run.yaml --dry-run --preflight   ... and check what every node needs (exit 1 if missing)
  rlhub train run.yaml --registry my.yaml      another registry than the run file's (default: as every verb)

a RUN.yaml:
  name: arith-grpo
  model: Qwen/Qwen2.5-0.5B-Instruct      # HF id or local path
  gpus: 8                                # per node; nodes: 1
  registry: registry.yaml                # beside the run file; default: ./registry.yaml, else the plugins'
  context_len: 32768                     # only where the model's config.json is not on this machine
  modality: text-only                    # ... likewise: multimodal | text-only (image prompts need multimodal)
  mixture: {seed: 0, train_prompts: 20000, eval_prompts: 256, select: "arith/*", exclude: [], format: jsonl}
  algorithm: {preset: grpo, n_samples_per_prompt: 8, dynamic_filtering: true}   # or reinforce_baseline
  # algorithm.max_len: default chosen from the mixture's measured prompt lengths (printed), refused if they cannot fit
  rewards: auto          # file | agent | service (+ reward_url) ; auto = agent iff a multi-turn env is selected
  turn_format: auto      # from the model's chat template; or chatml | llama3 | plain
  openrlhf: {ds.zero_stage: 3}           # any extra OpenRLHF flag, dotted as in 0.11
  # cluster: {address: http://head:8265} # submit with `ray job submit` instead of running here
"""


def cmd_train(args: argparse.Namespace) -> int:
    from ...config.catalog import Catalog
    from ...mixture.promptfile import selected_envs
    from ...trainers.openrlhf import parser as openrlhf_cli
    from ...trainers.openrlhf import preflight
    from ...trainers.openrlhf.launch import launch, load_run, prepare, registry_path

    run, base = load_run(args.run_file)
    path, note = registry_path(run, base, args.registry)
    cat = Catalog.load(path)
    for info in cat.plugins.failures:
        print(f"rlhub: warning: plugin {info.name!r} ({info.distribution} {info.version}) {info.error}", file=sys.stderr)
    print(f"rlhub: registry: {cat.registry.name}" + (f" ({note})" if note else ""), file=sys.stderr)
    summary = prepare(run, base, dry_run=args.dry_run, catalog=cat)
    if not args.no_validate:
        openrlhf_cli.check(summary["argv"])
    summary["validated"] = not args.no_validate
    # Without --preflight a launch from here still checks the packages it starts with (cheap).
    checks = None
    if args.preflight:
        checks = preflight.run_checks(cat, selected_envs(cat, run.mixture.select, tuple(run.mixture.exclude)))
    elif not args.dry_run and run.cluster is None:
        checks = preflight.packages()
    summary["preflight"] = preflight.as_json(checks) if checks is not None else None
    for warning in summary["warnings"]:
        print(f"rlhub: warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"# run directory: {summary['run_dir']} ({summary['mode']} rewards; "
              + ", ".join(f"{k}: {n} prompts" for k, n in summary["splits"].items()) + ")")
        print("".join(f"#   {name}: {what}\n" for name, what in summary["files"].items()), end="")
        print("".join(f"# lengths: {line}\n" for line in summary["lengths"]["lines"]), end="")
        print("# checked against OpenRLHF's parser and checks" if summary["validated"] else "# not validated")
        print("".join(f"{k}={shlex.quote(v)} " for k, v in summary["env"].items()) + shlex.join(summary["command"]))
        if checks is not None:
            print(preflight.render(checks))
    if checks is not None and any(c.fails for c in checks):
        missing = ", ".join(c.component for c in checks if c.fails)
        print(f"rlhub: error: preflight: missing here: {missing} (table above; every Ray node needs them)"
              + ("" if args.dry_run else "; nothing launched"), file=sys.stderr)
        return 1
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
    p.add_argument("--preflight", action="store_true",
                   help="check here what every node needs (OpenRLHF, vLLM, Ray, DeepSpeed versions; bubblewrap and root; "
                        "rlhub and its plugins; the registry's assets) and print a table; exit 1 if anything is missing")
