"""Prompt datasets for training runs, built from the registry with `datasets`.

Records are `records.prompt_record`'s. The evaluation split is held out: no label in it appears
in the training split.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import UserError
from .promptfile import sampler_for
from .records import prompt_records

FORMATS = ("jsonl", "parquet")


def _records(catalog, labels: list[str]) -> list[dict[str, Any]]:
    out = list(prompt_records(catalog, labels))
    # Parquet needs one type per column: if any prompt is chat messages, make them all messages.
    if any(not isinstance(r["input"], str) for r in out):
        for r in out:
            if isinstance(r["input"], str):
                r["input"] = [{"role": "user", "content": r["input"]}]
    return out


def split_labels(catalog, n_train: int, n_eval: int, seed: int, select: str | None = None) -> tuple[list[str], list[str]]:
    """Labels drawn by the mixture; the first `n_eval` distinct ones are held out for evaluation."""
    if n_train <= 0 or n_eval < 0:
        raise UserError(f"need a positive number of training prompts and a non-negative eval size, got {n_train}, {n_eval}")
    sampler = sampler_for(catalog, seed, select)
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


def build(catalog, n_train: int, n_eval: int = 0, seed: int = 0, select: str | None = None):
    """A `datasets.DatasetDict` with a `train` split and, if n_eval > 0, an `eval` split."""
    from datasets import Dataset, DatasetDict

    train, held = split_labels(catalog, n_train, n_eval, seed, select)
    splits = {"train": Dataset.from_list(_records(catalog, train))}
    if held:
        splits["eval"] = Dataset.from_list(_records(catalog, held))
    return DatasetDict(splits)


def write(dsets, out_dir: Path, fmt: str = "jsonl") -> dict[str, Path]:
    """Write each split to `out_dir/<split>.<fmt>`; returns the paths by split."""
    if fmt not in FORMATS:
        raise UserError(f"dataset format {fmt!r}: expected one of {', '.join(FORMATS)}")
    import datasets

    datasets.disable_progress_bars()  # a progress bar per tiny file is noise in `rlhub train`
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, ds in dsets.items():
        path = out_dir / f"{name}.{fmt}"
        if fmt == "jsonl":
            ds.to_json(str(path), lines=True, force_ascii=False)
        else:
            try:
                ds.to_parquet(str(path))
            except Exception as exc:  # Arrow cannot hold prompts whose message shapes differ
                raise UserError(f"{path}: these prompts cannot share one Parquet column ({type(exc).__name__}: "
                                f"{str(exc)[:200]}); write format: jsonl instead") from None
        paths[name] = path
    return paths
