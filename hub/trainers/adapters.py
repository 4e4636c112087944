"""The same verification for trainers other than OpenRLHF.

TRL: `GRPOTrainer(reward_funcs=[hub.trainer_adapters.trl_reward], ...)` with a dataset that has a
`label` column (`rlhub train`'s or `rlhub sample`'s files): TRL passes dataset columns as keyword
arguments and completions as text or as chat messages.
verl: `custom_reward_function.path=trainer/verl_compute_score.py` (name `compute_score`), with
the rlhub label as the sample's `ground_truth`.
Tool episodes: verl's agent loop in hub.trainers.verl_agent (trainer/verl_agent_loop.yaml), TRL's
`environment_factory` in hub.trainers.trl_env.
Both reward functions go through the reward file's `reward_func` (`hub.rewards.score_batch` with one catalog and one
thread pool per process): a number for every sample, in time, whatever happens.
"""

from __future__ import annotations

from typing import Any

from .openrlhf.reward import reward_func as score_batch  # the process's catalog, policy and thread pool


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
    out = score_batch(texts, [""] * len(texts), list(label))
    return [float(r) for r in out["rewards"]]


def verl_compute_score(data_source: str, solution_str: str, ground_truth: str, extra_info: Any = None,
                       **kwargs: Any) -> dict[str, Any]:
    """verl's compute_score: `ground_truth` is the rlhub label; returns {'score', 'graded_score',
    'passed', 'substituted', ...}: `score` is the reward (0 without a verdict), `graded_score` the
    same but NaN without a verdict, the metric for `algorithm.filter_groups` to drop such groups."""
    out = score_batch([solution_str], [""], [ground_truth])
    logs = {k.split("/", 1)[1]: v[0] for k, v in out["extra_logs"].items()}
    return {"score": float(out["rewards"][0]), "graded_score": float(out["scores"][0]), **logs}
