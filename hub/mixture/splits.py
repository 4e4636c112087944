"""Prompt datasets for training runs, in the form OpenRLHF 0.11 reads, written with `datasets`.

Every row has one shape, whatever the environment: `input` is chat messages whose contents are
strings (OpenRLHF applies the model's chat template to them: `--data.apply_chat_template`), an
image in a prompt is an `<image>` placeholder in the text, in order, and `images` lists the
image files (`--data.image_key images`), empty for text prompts. So text prompts and
vision-language prompts share one column type, in JSONL and Parquet alike. `label` and
`datasource` are `records.prompt_record`'s, and so is `tools` (the OpenAI schemas, [] for a text
environment): typed `List(Json())`, so tools whose schemas differ share the column. The evaluation split is held out: no label in it
appears in the training split.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable

from tqdm import tqdm

from ..core.errors import UserError
from ..core.task import Task
from .promptfile import sampler_for

FORMATS = ("jsonl", "parquet")
IMAGE = "<image>"  # OpenRLHF's placeholder: it turns "<image>text" into [{"type": "image"}, {"type": "text", ...}]


def split_labels(catalog, n_train: int, n_eval: int, seed: int, select: str | None = None,
                 exclude: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Labels drawn by the mixture; the first `n_eval` distinct ones are held out for evaluation."""
    if n_train <= 0 or n_eval < 0:
        raise UserError(f"need a positive number of training prompts and a non-negative eval size, got {n_train}, {n_eval}")
    sampler = sampler_for(catalog, seed, select, exclude)
    held: list[str] = []
    seen: set[str] = set()
    train: list[str] = []
    budget = 20 * (n_train + n_eval) + 1000  # draws before deciding the registry is too small
    while len(held) < n_eval or len(train) < n_train:
        if sampler.drawn >= budget:
            raise UserError(f"could only draw {len(held)} held-out and {len(train)} training prompts that do not "
                            f"overlap (asked for {n_eval} and {n_train}): the selected environments have too few tasks")
        for label in sampler.sample(max(64, n_eval + n_train - len(held) - len(train))):
            if len(held) < n_eval:
                if label not in seen:
                    seen.add(label)
                    held.append(label)
            elif label not in seen and len(train) < n_train:
                train.append(label)  # repeats within training are fine (the mixture's weights)
    return train, held


def messages(task: Task) -> tuple[list[dict[str, str]], list[bytes]]:
    """The task's prompt as chat messages with string contents (`<image>` where an image goes),
    and its images in the order their placeholders appear."""
    chat = [{"role": "user", "content": task.prompt}] if isinstance(task.prompt, str) else task.prompt
    out, images = [], list(task.images)
    for message in chat:
        content = message.get("content", "")
        if isinstance(content, list):  # multimodal parts: text, and images (by reference or inline URL)
            content = "\n".join(IMAGE if part.get("type") in ("image", "image_url") else str(part.get("text", ""))
                                for part in content)
        out.append({"role": str(message.get("role", "user")), "content": str(content)})
    placeholders = sum(m["content"].count(IMAGE) for m in out)
    if placeholders != len(images):
        raise UserError(f"{task.env_id}: the prompt has {placeholders} image(s) but the task carries {len(images)}: "
                        "an environment's image parts and Task.images must match one to one")
    return out, images


def _features(text_prompt: bool = False):
    from datasets import Features, Json, List, Sequence, Value

    columns = {"input": [{"role": Value("string"), "content": Value("string")}],
               "images": Sequence(Value("string")), "label": Value("string"), "datasource": Value("string"),
               "tools": List(Json())}
    if text_prompt:
        columns["prompt"] = Value("string")
    return Features(columns)


def write(catalog, splits: dict[str, list[str]], out_dir: Path, fmt: str = "jsonl",
          image_ref: Callable[[Path], str] = str,
          row_hook: Callable[[dict[str, Any], Task], dict[str, Any]] | None = None,
          text_prompt: bool = False) -> dict[str, dict[str, Any]]:
    """Write each split's prompts to `out_dir/<split>.<fmt>` and their images to
    `out_dir/images/<sha256>.png` (named in the rows by `image_ref(path)`). Returns, by split,
    the path, the number of prompts and how many of them carry images. `row_hook(row, task)`
    may rewrite a row (a trainer's prompt rendering); with `text_prompt` it also sets `prompt`,
    the prompt as text in the model's chat template."""
    if fmt not in FORMATS:
        raise UserError(f"dataset format {fmt!r}: expected one of {', '.join(FORMATS)}")
    import datasets

    datasets.disable_progress_bars()  # a bar per file is noise: one bar below covers the prompts
    out_dir.mkdir(parents=True, exist_ok=True)
    images_dir = out_dir / "images"
    every = [label for labels in splits.values() for label in labels]
    catalog.prepare(every)  # costly shared work (drawings) starts now, for every split at once
    bar = tqdm(total=len(every), desc="prompts", unit="prompt", disable=None, leave=False)
    written = {}
    for name, labels in splits.items():
        rows = []
        for label in labels:
            task = catalog.task(label)
            chat, images = messages(task)
            refs = []
            for png in images:
                path = images_dir / f"{hashlib.sha256(png).hexdigest()}.png"
                if not path.exists():
                    images_dir.mkdir(exist_ok=True)
                    path.write_bytes(png)
                refs.append(image_ref(path))
            row = {"input": chat, "images": refs, "label": label, "datasource": task.env_id,
                   "tools": catalog.tools(label, task)}
            rows.append(row_hook(row, task) if row_hook else row)
            bar.update()
        path = out_dir / f"{name}.{fmt}"
        ds = datasets.Dataset.from_list(rows, features=_features(text_prompt))
        if fmt == "jsonl":
            ds.to_json(str(path), lines=True, force_ascii=False)
        else:
            ds.to_parquet(str(path))
        written[name] = {"path": path, "prompts": len(rows), "with_images": sum(1 for r in rows if r["images"]),
                         "max_images": max((len(r["images"]) for r in rows), default=0)}
    bar.close()
    return written
