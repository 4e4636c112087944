"""Trajectories out as training data: `rlhub export traj.jsonl --format sft|dpo --out DIR`.

The input is what `rlhub eval --out` writes (one trajectory a line: `label`, `prompt` messages,
`turns`, the verdict). Each exported row keeps the task's label (DESIGN.md's JSON string) so a
row can be traced back to, and re-graded from, its task.

- sft: every trajectory that passed (and reached `--min-reward`), in TRL's conversational shapes
  at once: `messages` (the whole transcript: prompt, then every assistant turn and what answered
  it, ending on the last assistant turn), and `prompt` + `completion` (the same cut after the
  prompt, for prompt-completion training).
- dpo: per task (same label), a passing trajectory as `chosen` and a failing one as `rejected`
  (the completions after their shared `prompt`), each trajectory in one pair at most: the best
  passing with the worst failing, the next with the next. A pair whose rejected reward is not
  below the chosen one is not a preference and is skipped.

Samples without a verdict (an endpoint or verifier failure) are neither chosen nor rejected: the
failure was not the model's (README: "Samples without a verdict").
"""

from __future__ import annotations

import fnmatch
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import UserError
from ..core.files import read_jsonl
from ..core.task import Label

FORMATS = ("sft", "dpo")
FILE_SUFFIXES = (".parquet", ".jsonl", ".json")  # else --out is a directory for `save_to_disk`
IMAGE = "<image>"  # as in the training datasets (hub/mixture/splits.py): the image's place in the text
EXPECTED = "a trajectory written by `rlhub eval --out` (with 'label', 'prompt', 'turns', 'reward', 'passed')"


@dataclass
class Trajectory:
    line: int
    record: dict[str, Any]
    label: str = ""  # canonical (Label.to_json), so the same task groups whatever its spelling
    env: str = ""

    @property
    def graded(self) -> bool:
        return not self.record.get("error")

    @property
    def passed(self) -> bool:
        return self.graded and bool(self.record.get("passed"))

    @property
    def reward(self) -> float:
        return float(self.record.get("reward") or 0.0)


@dataclass
class Export:
    rows: list[dict[str, Any]]
    trajectories: int
    skipped: Counter = field(default_factory=Counter)  # why -> how many (trajectories or tasks, as said)
    envs: set[str] = field(default_factory=set)


def read(path: str) -> list[Trajectory]:
    """Every trajectory of the file, checked for what export reads; a line that is not one is a
    UserError naming the file and the line."""
    from ..assets.remote import local_input

    out = []
    for number, rec in read_jsonl(local_input(str(path), "trajectories file"), "trajectories file", EXPECTED):
        where = f"{path}:{number}"
        if not isinstance(rec, dict) or not {"label", "turns", "reward", "passed"} <= set(rec):
            raise UserError(f"{where}: expected {EXPECTED}")
        if not isinstance(rec["turns"], list) or not all(isinstance(t, dict) and "action" in t for t in rec["turns"]):
            raise UserError(f"{where}: 'turns' must be a list of turns each with an 'action'; expected {EXPECTED}")
        if not isinstance(rec["reward"], (int, float)) or isinstance(rec["reward"], bool):
            raise UserError(f"{where}: 'reward' must be a number, got {rec['reward']!r}")
        traj = Trajectory(number, rec)
        if traj.graded:  # a trajectory without a verdict may carry a label that names no task
            try:
                label = Label.parse(rec["label"])
            except UserError as exc:
                raise UserError(f"{where}: {exc}") from None
            traj.label, traj.env = label.to_json(), label.env
            prompt = rec.get("prompt")
            if not isinstance(prompt, list) or not all(isinstance(m, dict) and "role" in m for m in prompt):
                raise UserError(f"{where}: 'prompt' must be the chat messages the model was sent; expected {EXPECTED}")
        else:
            traj.env = str(rec.get("env") or "")
        out.append(traj)
    return out


def _content(content: Any, images: list[str]) -> str | None:
    """A message's content as text (multimodal parts: `<image>` where an image was, its URL kept)."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            kind = part.get("type") if isinstance(part, dict) else None
            if kind in ("image", "image_url"):
                url = part.get("image_url")
                images.append(str(url.get("url") if isinstance(url, dict) else url or part.get("image") or ""))
                texts.append(IMAGE)
            else:
                texts.append(str(part.get("text", "")) if isinstance(part, dict) else str(part))
        return "\n".join(texts)
    return str(content)


def _message(msg: dict[str, Any], images: list[str]) -> dict[str, Any]:
    out = {"role": str(msg.get("role")), "content": _content(msg.get("content"), images)}
    for key in ("tool_calls", "tool_call_id", "name"):
        if msg.get(key):
            out[key] = msg[key]
    return out


def completion(record: dict[str, Any]) -> list[dict[str, Any]]:
    """What followed the prompt, as chat messages, the way `rlhub eval` sent them to the model
    (hub/evaluation/run.py `_next_messages`): each assistant turn, then its tool results as `tool`
    messages and/or the environment's observation as a user message, until the last assistant turn."""
    tools = bool(record.get("tools"))
    turns = record["turns"]
    out: list[dict[str, Any]] = []
    for i, turn in enumerate(turns):
        calls, results = turn.get("tool_calls") or [], turn.get("tool_results") or []
        if calls:
            out.append({"role": "assistant", "content": turn["action"] or None, "tool_calls": calls})
        else:
            out.append({"role": "assistant", "content": turn["action"]})
        if i == len(turns) - 1:
            break  # what came after the last turn (the verdict) is not part of the conversation
        if not tools or (not calls and not results):
            out.append({"role": "user", "content": turn.get("observation", "")})
            continue
        out += [dict(r) for r in results]
        notes = turn.get("notes")
        if notes or not results:
            out.append({"role": "user", "content": "\n".join(notes or []) or turn.get("observation", "")})
    return out


def _selected(trajs: list[Trajectory], select: str | None, skipped: Counter) -> list[Trajectory]:
    if not trajs:
        raise UserError("the trajectories file holds no trajectories: nothing to export")
    if select:
        kept = [t for t in trajs if fnmatch.fnmatchcase(t.env, select)]
        if not kept:
            envs = sorted({t.env for t in trajs if t.env})
            raise UserError(f"--select {select!r} matches none of the {len(trajs)} trajectories' environments "
                            f"({', '.join(envs[:8])}{', ...' if len(envs) > 8 else ''}): nothing to export")
        if len(kept) < len(trajs):
            skipped["not selected"] += len(trajs) - len(kept)
        trajs = kept
    return trajs


def sft(trajs: list[Trajectory], select: str | None = None, min_reward: float | None = None) -> Export:
    """Rows of the trajectories that passed (with at least `min_reward`)."""
    skipped: Counter = Counter()
    chosen = []
    for t in _selected(trajs, select, skipped):
        if not t.graded:
            skipped["no verdict"] += 1
        elif not t.passed:
            skipped["failed"] += 1
        elif min_reward is not None and t.reward < min_reward:
            skipped["below --min-reward"] += 1
        else:
            chosen.append(t)
    rows = []
    for t in chosen:
        images: list[str] = []
        prompt = [_message(m, images) for m in t.record["prompt"]]
        done = [_message(m, images) for m in completion(t.record)]
        rows.append({"prompt": prompt, "completion": done, "messages": prompt + done, "label": t.label, "env": t.env,
                     "reward": t.reward, "passed": True, "turns": len(t.record["turns"]),
                     "model": str(t.record.get("model") or ""), "images": images, "tools": t.record.get("tools")})
    return Export(rows, len(trajs), skipped, {t.env for t in chosen})


def dpo(trajs: list[Trajectory], select: str | None = None, min_reward: float | None = None) -> Export:
    """Pairs (chosen passed, rejected failed) of the same task; `min_reward` bounds the chosen."""
    skipped: Counter = Counter()
    by_task: dict[str, list[Trajectory]] = defaultdict(list)
    for t in _selected(trajs, select, skipped):
        if t.graded:
            by_task[t.label].append(t)
        else:
            skipped["no verdict"] += 1
    rows, envs = [], set()
    for label, group in by_task.items():
        good = sorted((t for t in group if t.passed and (min_reward is None or t.reward >= min_reward)),
                      key=lambda t: (-t.reward, t.line))
        bad = sorted((t for t in group if not t.passed), key=lambda t: (t.reward, t.line))
        if not good or not bad:
            why = "tasks without a failing trajectory" if good else (
                "tasks without a passing trajectory" + (" at --min-reward" if min_reward is not None else ""))
            skipped[why] += 1
            continue
        for chosen, rejected in zip(good, bad):
            if rejected.reward >= chosen.reward:
                skipped["pairs whose rejected reward is not below the chosen"] += 1
                continue
            images: list[str] = []
            prompt = [_message(m, images) for m in chosen.record["prompt"]]
            if [_message(m, []) for m in rejected.record["prompt"]] != prompt:
                skipped["pairs whose prompts differ"] += 1
                continue
            rows.append({"prompt": prompt, "chosen": [_message(m, images) for m in completion(chosen.record)],
                         "rejected": [_message(m, images) for m in completion(rejected.record)],
                         "label": label, "env": chosen.env, "chosen_reward": chosen.reward,
                         "rejected_reward": rejected.reward, "model": str(chosen.record.get("model") or ""),
                         "images": images, "tools": chosen.record.get("tools")})
            envs.add(chosen.env)
    return Export(rows, len(trajs), skipped, envs)


def tool_schemas(catalog, rows: list[dict[str, Any]]) -> None:
    """A `tools` column (the OpenAI function schemas, as the chat template renders them) on the rows
    of tool environments, rebuilt from the registry: trajectories name their tools only."""
    for row in rows:
        if not row.get("tools"):
            continue
        try:
            row["tools"] = catalog.tools(row["label"]) or None
        except UserError as exc:
            raise UserError(f"{row['label']}: the tools of its environment could not be rebuilt from the registry "
                            f"({exc}); pass the --registry the trajectories were evaluated on") from None


def features(rows: list[dict[str, Any]], fmt: str):
    """Explicit column types: every row one shape, whatever each one holds (a tool call's arguments,
    a missing image), as `datasets` and Arrow need."""
    from datasets import Features, Json, List, Value

    message = {"role": Value("string"), "content": Value("string")}
    if any(row.get("tools") for row in rows) or any(
            k in m for row in rows for col in ("completion", "chosen", "rejected") for m in row.get(col, ())
            for k in ("tool_calls", "tool_call_id")):
        message |= {"tool_calls": List(Json()), "tool_call_id": Value("string"), "name": Value("string")}
    cols: dict[str, Any] = {"prompt": List(message)}
    if fmt == "sft":
        cols |= {"completion": List(message), "messages": List(message), "label": Value("string"),
                 "env": Value("string"), "reward": Value("float64"), "passed": Value("bool"), "turns": Value("int32")}
    else:
        cols |= {"chosen": List(message), "rejected": List(message), "label": Value("string"), "env": Value("string"),
                 "chosen_reward": Value("float64"), "rejected_reward": Value("float64")}
    cols["model"] = Value("string")
    if any(row["images"] for row in rows):
        cols["images"] = List(Value("string"))
    if any(row.get("tools") for row in rows):
        cols["tools"] = List(Json())
    return Features(cols)


def check_out(out: str) -> tuple[Path, str]:
    """Where the dataset goes and how: (path, 'parquet' | 'jsonl' | 'disk'); refused before any work
    when it would overwrite something that is not a dataset."""
    from ..cli.common import output_path

    path = Path(out)
    suffix = path.suffix.lower()
    if suffix in FILE_SUFFIXES:
        return output_path(out, "--out", "sft.parquet"), "parquet" if suffix == ".parquet" else "jsonl"
    if path.exists() and not path.is_dir():
        raise UserError(f"{out}: is a file; --out expects a directory (for save_to_disk) or a name ending in "
                        f"{', '.join(FILE_SUFFIXES)}")
    if path.is_dir() and any(path.iterdir()) and not (path / "dataset_info.json").exists():
        raise UserError(f"{out}: a directory that holds other files than a saved dataset; "
                        "name a new or empty directory (or one an earlier export wrote)")
    return path, "disk"


def write(rows: list[dict[str, Any]], fmt: str, path: Path, how: str):
    import datasets

    datasets.disable_progress_bars()
    types = features(rows, fmt)
    ds = datasets.Dataset.from_dict({col: [row.get(col) for row in rows] for col in types}, features=types)
    if how == "parquet":
        ds.to_parquet(str(path))
    elif how == "jsonl":
        ds.to_json(str(path), lines=True, force_ascii=False)
    else:
        ds.save_to_disk(str(path))
    return ds


def summary(result: Export, fmt: str, out: Path, how: str) -> str:
    what = "pairs" if fmt == "dpo" else "trajectories"
    skipped = "; ".join(f"{why}: {n}" for why, n in sorted(result.skipped.items())) or "none"
    where = {"disk": "a dataset saved to disk (datasets.load_from_disk)", "parquet": "Parquet", "jsonl": "JSON lines"}[how]
    return (f"wrote {len(result.rows)} {fmt} rows ({what}) of {len(result.envs)} environments from "
            f"{result.trajectories} trajectories to {out} ({where}); skipped: {skipped}")


def json_summary(result: Export, fmt: str, out: Path, how: str) -> dict[str, Any]:
    return {"out": str(out), "format": fmt, "written_as": how, "rows": len(result.rows),
            "trajectories": result.trajectories, "environments": sorted(result.envs), "skipped": dict(result.skipped)}
