"""The same verification for trainers other than OpenRLHF.

TRL: `GRPOTrainer(reward_funcs=[hub.trainer_adapters.trl_reward], ...)` with a dataset that has a
`label` column (`rlhub train`'s or `rlhub sample`'s files): TRL passes dataset columns as keyword
arguments and completions as text or as chat messages.
verl: `custom_reward_function.path=trainer/verl_compute_score.py` (name `compute_score`), with
the rlhub label as the sample's `ground_truth`.
Both go through `hub.rewards.score_batch`: a number for every sample, in time, whatever happens.
"""

from __future__ import annotations

from typing import Any

from .openrlhf_reward import catalog, policy
from .rewards import score_batch


def _text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):  # conversational: [{"role": "assistant", "content": ...}]
        return "".join(str(m.get("content", "")) for m in completion if m.get("role", "assistant") == "assistant")
    return str(completion)


def trl_reward(prompts: list[Any], completions: list[Any], label: list[str] | None = None, **kwargs: Any) -> list[float]:
    """A TRL GRPOTrainer reward function: one float per completion."""
    if label is None:
        raise ValueError("rlhub's TRL reward needs a 'label' column in the dataset (as `rlhub sample` writes)")
    texts = [_text(c) for c in completions]
    out = score_batch(catalog(), texts, [""] * len(texts), list(label), policy())
    return [float(r) for r in out["rewards"]]


def verl_compute_score(data_source: str, solution_str: str, ground_truth: str, extra_info: Any = None,
                       **kwargs: Any) -> dict[str, Any]:
    """verl's compute_score: `ground_truth` is the rlhub label; returns {'score', 'passed', ...}."""
    out = score_batch(catalog(), [solution_str], [""], [ground_truth], policy())
    logs = {k.split("/", 1)[1]: v[0] for k, v in out["extra_logs"].items()}
    return {"score": float(out["rewards"][0]), **logs}
