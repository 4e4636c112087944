"""Prompt files for training: labels from the mixture sampler, prompts from the environments."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ..core.errors import UserError
from ..core.files import atomic_write, read_text
from .records import prompt_records
from .sampler import MixtureSampler


def selected_envs(catalog, select: str | None = None, exclude: tuple[str, ...] = ()) -> list:
    """The environments `select` matches, less those an `exclude` glob matches (each must match one)."""
    import fnmatch

    envs = catalog.select(select)
    for glob in exclude:
        if not any(fnmatch.fnmatchcase(e.id, glob) for e in envs):
            raise UserError(f"exclude {glob!r} matches none of the {len(envs)} selected environments")
    kept = [e for e in envs if not any(fnmatch.fnmatchcase(e.id, glob) for glob in exclude)]
    if not kept:
        raise UserError(f"exclude {', '.join(exclude)} leaves none of the {len(envs)} selected environments")
    return kept


def sampler_for(catalog, seed: int, select: str | None = None, exclude: tuple[str, ...] = ()) -> MixtureSampler:
    s = catalog.registry.data.sampling
    return MixtureSampler(selected_envs(catalog, select, exclude), seed=seed, temperature=s.temperature,
                          domain_caps=s.domain_caps)


def write_prompts(catalog, n: int, seed: int, out: Path, select: str | None = None,
                  state_out: str | None = None, resume: str | None = None) -> dict[str, Any]:
    if n <= 0:
        raise UserError(f"--n must be a positive number of prompts, got {n}")
    sampler = sampler_for(catalog, seed, select)
    if resume:
        try:
            state = json.loads(read_text(resume, "sampler state file (--resume)"))
        except json.JSONDecodeError as exc:
            raise UserError(f"{resume}: not a sampler state (JSON): {exc}") from None
        sampler.restore(state)
    start = time.perf_counter()
    labels = sampler.sample(n)

    def write(fh) -> None:
        for record in tqdm(prompt_records(catalog, labels), total=n, desc="sampling", unit="prompt",
                           disable=None, leave=False):
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")

    atomic_write(out, write)
    if state_out:
        atomic_write(Path(state_out), lambda fh: fh.write(sampler.dumps_state()))
    elapsed = time.perf_counter() - start
    return {"n": n, "out": str(out), "seed": seed, "envs": len(sampler.ids),
            "prompts_per_s": n / elapsed if elapsed > 0 else float("inf")}
