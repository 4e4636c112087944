"""`rlhub export`: the trajectories of `rlhub eval` as an SFT or a preference (DPO) dataset."""

from __future__ import annotations

import argparse
import json

from ...plugins.hookspecs import hookimpl
from ..common import add_select, add_verb, examples, selected

DESCRIPTION = """\
Write the trajectories of an `rlhub eval --out` file as a Hugging Face `datasets` dataset, each
row with the task's label (DESIGN.md's JSON string), its environment and its reward(s):
  sft  the trajectories that passed: `messages` (the whole transcript; a multi-turn episode's
       every turn, tool calls and results included) and the same as `prompt` + `completion`,
       TRL's conversational language-modelling and prompt-completion shapes.
  dpo  per task, a passing trajectory (`chosen`) and a failing one (`rejected`) after their
       shared `prompt`, with `chosen_reward`, `rejected_reward`; each trajectory in one pair
       at most (best passing with worst failing).
Samples without a verdict are never exported. Tool environments get a `tools` column (their
function schemas, rebuilt from the registry); image prompts an `images` column (`<image>` marks
each one's place).
--out DIR writes the dataset with save_to_disk (read it with datasets.load_from_disk(DIR));
--out FILE.parquet or FILE.jsonl writes one file (datasets.load_dataset("parquet" | "json",
data_files=FILE)). Prints what was written and what was skipped, and why.
exit 0: written; 2: not a trajectories file (file and line named), or nothing to export."""


def cmd_export(args: argparse.Namespace) -> int:
    from ...core.errors import UserError
    from ...evaluation import export

    if args.min_reward is not None and not 0 <= args.min_reward <= 1:
        raise UserError(f"--min-reward is a reward, in [0, 1]; got {args.min_reward}")
    out, how = export.check_out(args.out)  # before reading anything: a bad --out costs nothing
    trajs = export.read(args.trajectories)
    result = (export.sft if args.format == "sft" else export.dpo)(trajs, selected(args), args.min_reward)
    if not result.rows:
        skipped = "; ".join(f"{why}: {n}" for why, n in sorted(result.skipped.items()))
        need = "a passing trajectory" if args.format == "sft" else "a task with both a passing and a failing trajectory"
        raise UserError(f"{args.trajectories}: nothing to export as {args.format}: none of its {result.trajectories} "
                        f"trajectories gives {need} ({skipped})")
    if any(row.get("tools") for row in result.rows):
        from ..common import catalog

        export.tool_schemas(catalog(args), result.rows)
    export.write(result.rows, args.format, out, how)
    if args.json:
        print(json.dumps(export.json_summary(result, args.format, out, how)))
    else:
        print(export.summary(result, args.format, out, how))
    return 0


@hookimpl
def rlhub_register_commands(subparsers):
    p = add_verb(subparsers, "export", cmd_export, "write eval trajectories as an SFT or DPO dataset (datasets)",
                 DESCRIPTION,
                 epilog=examples("rlhub export traj.jsonl --format sft --out data/sft",
                                 "rlhub export traj.jsonl --format dpo --out pairs.parquet --select 'terminal/*'",
                                 "rlhub export traj.jsonl --format sft --min-reward 0.9 --out sft.jsonl --json"))
    p.add_argument("trajectories", metavar="TRAJ.jsonl", help="what `rlhub eval --out` wrote (a path or an s3://, gs://, file:// URL)")
    p.add_argument("--format", choices=("sft", "dpo"), required=True,
                   help="sft: passing trajectories; dpo: passing/failing pairs of the same task")
    p.add_argument("--out", required=True, metavar="DIR|FILE.parquet|FILE.jsonl",
                   help="a directory (save_to_disk) or one Parquet / JSON-lines file")
    p.add_argument("--min-reward", type=float, metavar="R",
                   help="keep only passing trajectories with at least this reward (dpo: the chosen side)")
    add_select(p, "trajectories of environments")
