"""What a run needs to know about its model: its context length and whether it sees images.

Read from the model's config.json when it is on this machine (nothing is downloaded), else from
the run file's `context_len` and `modality`; each fact says where it came from, or that it is
unknown, so a printed limit is never a silent guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class ModelFacts:
    context: int | None  # tokens the model attends over (None: unknown)
    context_from: str
    modality: str | None  # "multimodal" | "text-only" | None (unknown)
    modality_from: str


def load_config(model: str) -> tuple[Any, str | None]:
    """The model's transformers config if it is on this machine, else (None, why)."""
    try:
        from transformers import AutoConfig

        return AutoConfig.from_pretrained(model, local_files_only=True), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def _context_of(config: Any) -> int | None:
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    for name in ("max_position_embeddings", "max_sequence_length", "seq_length", "n_positions"):
        value = getattr(text, name, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def facts(run, config: Any = None, why: str | None = None) -> ModelFacts:
    """The run's model facts; `config` is the model's config when it is here (`load_config`)."""
    where = f"config.json of {run.model!r}"
    context, context_from = None, ""
    if run.context_len is not None:
        context, context_from = run.context_len, "the run file's context_len"
    elif config is not None and _context_of(config):
        context, context_from = _context_of(config), f"{where} (max_position_embeddings)"
    else:
        context_from = (f"unknown: {run.model}'s config is not on this machine and the run file states no "
                        "context_len" if config is None else f"unknown: {where} names no max_position_embeddings")
    if config is not None:
        vision = getattr(config, "vision_config", None) is not None
        modality = "multimodal" if vision else "text-only"
        modality_from = f"{where} ({'has' if vision else 'no'} vision_config)"
        if run.modality not in ("auto", modality):
            modality_from += f"; the run file's modality: {run.modality} is overruled by it"
    elif run.modality != "auto":
        modality, modality_from = run.modality, "the run file's modality"
    else:
        modality, modality_from = None, (f"unknown: {run.model}'s config is not on this machine and the run file "
                                         "states no modality (multimodal | text-only)")
    return ModelFacts(context, context_from, modality, modality_from)
