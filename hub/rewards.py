"""OpenRLHF's reward contract, shared by the reward-function file and `rlhub serve`.

OpenRLHF sends `queries` (prompt + response, decoded with special tokens), `prompts` and
`labels`, and expects `{"rewards": [...], "scores": [...], "extra_logs": {...}}` with one number
per query. It must always get numbers, in time: an exception or a None there fails training
much later with an unrelated error. So every failure becomes a defined reward plus a flag.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import UserError

# Trailing special tokens of common chat templates (Qwen, Llama 3, Mistral, Gemma, GPT-2...).
_TRAILING_SPECIAL = re.compile(
    r"(?:\s*(?:<\|(?:im_end|endoftext|eot_id|end_of_text|end|eom_id)\|>|</s>|<eos>|<end_of_turn>|<pad>|<\|pad\|>))+\s*$"
)


def cut_response(query: str, prompt: str) -> str:
    """The model's response inside `query`, for any chat template.

    The prompt is located in the query (a BOS token or a template may wrap it) and everything
    after it is the response, minus trailing end-of-turn and padding tokens.
    """
    if prompt:
        at = query.find(prompt)  # the first occurrence: a response may quote its prompt
        if at >= 0:
            query = query[at + len(prompt):]
    return _TRAILING_SPECIAL.sub("", query)


@dataclass
class RewardPolicy:
    """What a sample earns when no verdict can be had, and how long a batch may take."""

    deadline_s: float = 150.0  # OpenRLHF's client gives up after 180 s
    no_verdict_reward: float = 0.0
    bad_label_reward: float = 0.0
    max_workers: int = 8


def score_batch(catalog: Any, queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any],
                policy: RewardPolicy | None = None, pool: ThreadPoolExecutor | None = None) -> dict[str, Any]:
    """Verify a batch; always returns one reward per query within `policy.deadline_s`."""
    policy = policy or RewardPolicy()
    n = len(queries)
    if len(prompts) != n or len(labels) != n:
        raise UserError(f"queries, prompts and labels must have the same length, got {n}, {len(prompts)}, {len(labels)}")
    rewards = [policy.no_verdict_reward] * n
    passed = [0.0] * n
    flags = {"timeout": [0.0] * n, "no_verdict": [0.0] * n, "bad_label": [0.0] * n}

    def one(i: int):
        return catalog.verify(labels[i], cut_response(queries[i], prompts[i] or ""))

    own_pool = pool is None
    pool = pool or ThreadPoolExecutor(max_workers=max(1, min(policy.max_workers, n)))
    try:
        futures = [pool.submit(one, i) for i in range(n)]
        end = time.monotonic() + policy.deadline_s
        for i, fut in enumerate(futures):
            try:
                verdict = fut.result(timeout=max(0.0, end - time.monotonic()))
            except FutureTimeout:
                fut.cancel()
                flags["timeout"][i] = 1.0
                continue
            except UserError:  # a label for an unknown environment, malformed JSON...
                flags["bad_label"][i] = 1.0
                rewards[i] = policy.bad_label_reward
                continue
            except Exception:
                flags["no_verdict"][i] = 1.0
                continue
            if verdict.error:
                flags["no_verdict"][i] = 1.0
                continue
            rewards[i] = verdict.reward
            passed[i] = float(verdict.passed)
    finally:
        if own_pool:
            pool.shutdown(wait=False, cancel_futures=True)
    extra_logs = {"rlhub/passed": passed, **{f"rlhub/{k}": v for k, v in flags.items()}}
    return {"rewards": rewards, "scores": list(rewards), "extra_logs": extra_logs}
