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
from typing import Any, Literal, Sequence

from ..core.errors import UserError

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


Kind = Literal["ok", "no_verdict", "timeout", "bad_label"]
FLAGS = ("timeout", "no_verdict", "bad_label")


@dataclass
class Outcome:
    """One sample's result on the reward path: a verdict's reward, or why there is none."""

    kind: Kind
    reward: float
    passed: bool = False
    error: str | None = None
    verify_s: float = 0.0
    attempts: int = 1
    worker: str = ""  # where it ran (thread name or Ray node id), for logs

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reward": self.reward, "passed": self.passed, "error": self.error,
                "verify_s": self.verify_s, "worker": self.worker}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Outcome":
        return cls(kind=d["kind"], reward=d["reward"], passed=d["passed"], error=d["error"],
                   verify_s=d["verify_s"], worker=d.get("worker", ""))


def verify_one(catalog: Any, label: Any, response: str, worker: str = "") -> Outcome:
    """Grade one response. Never raises: a bad label, a crash, a sandbox failure each get a kind."""
    start = time.perf_counter()
    try:
        verdict = catalog.verify(label, response)
    except UserError as exc:  # malformed label, unknown environment, index out of range
        return Outcome("bad_label", 0.0, error=str(exc), verify_s=time.perf_counter() - start, worker=worker)
    except Exception as exc:  # catalog.verify does not raise for model output: this is ours
        return Outcome("no_verdict", 0.0, error=f"internal error: {type(exc).__name__}: {exc}",
                       verify_s=time.perf_counter() - start, worker=worker)
    elapsed = time.perf_counter() - start
    if verdict.error:
        return Outcome("no_verdict", 0.0, error=verdict.error, verify_s=elapsed, worker=worker)
    return Outcome("ok", verdict.reward, passed=bool(verdict.passed), verify_s=elapsed, worker=worker)


def reply(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """OpenRLHF's reply: one reward per sample, and one flag list per failure kind in extra_logs."""
    rewards = [o.reward for o in outcomes]
    extra_logs = {"rlhub/passed": [float(o.passed) for o in outcomes]}
    for flag in FLAGS:
        extra_logs[f"rlhub/{flag}"] = [float(o.kind == flag) for o in outcomes]
    return {"rewards": rewards, "scores": list(rewards), "extra_logs": extra_logs}


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
    substitute = {"no_verdict": policy.no_verdict_reward, "bad_label": policy.bad_label_reward,
                  "timeout": policy.no_verdict_reward}

    def one(i: int) -> Outcome:
        return verify_one(catalog, labels[i], cut_response(queries[i], prompts[i] or ""))

    own_pool = pool is None
    pool = pool or ThreadPoolExecutor(max_workers=max(1, min(policy.max_workers, n)))
    outcomes: list[Outcome] = []
    try:
        futures = [pool.submit(one, i) for i in range(n)]
        end = time.monotonic() + policy.deadline_s
        for fut in futures:
            try:
                outcome = fut.result(timeout=max(0.0, end - time.monotonic()))
            except FutureTimeout:
                fut.cancel()
                outcome = Outcome("timeout", 0.0, error=f"no verdict within {policy.deadline_s:g} s")
            if outcome.kind != "ok":
                outcome.reward = substitute[outcome.kind]
            outcomes.append(outcome)
    finally:
        if own_pool:
            pool.shutdown(wait=False, cancel_futures=True)
    return reply(outcomes)
