"""What a sample earns when it gets no verdict, and the flags that say why: one policy for the
reward file, the agent and the service, so the three paths can never disagree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["ok", "no_verdict", "timeout", "bad_label"]
# Every reply logs one flag per failure kind, under these names, in this order.
FLAGS: tuple[Kind, ...] = ("timeout", "no_verdict", "bad_label")
# A flag beside the kind: the sample was graded, but its query did not contain its prompt.
PROMPT_MISMATCH = "prompt_mismatch"
LOG_PREFIX = "rlhub/"


def log_key(name: str) -> str:
    """'timeout' -> 'rlhub/timeout': the extra_logs key OpenRLHF reports."""
    return LOG_PREFIX + name


@dataclass(frozen=True)
class RewardPolicy:
    """Substitute rewards (no verdict is never silently a 0: it is this number plus a flag), and
    how long one batch may take."""

    deadline_s: float = 150.0  # OpenRLHF's client gives up after 180 s
    timeout_reward: float = 0.0  # verification overran the deadline
    no_verdict_reward: float = 0.0  # the verifier or the sandbox failed (not the model's doing)
    bad_label_reward: float = 0.0  # the label names no known task
    max_workers: int = 8

    def substitute(self, kind: Kind) -> float:
        return {"timeout": self.timeout_reward, "no_verdict": self.no_verdict_reward,
                "bad_label": self.bad_label_reward}[kind]  # type: ignore[index]
