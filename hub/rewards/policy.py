"""What a sample earns when it gets no verdict, and the flags that say why: one policy for the
reward file, the agent and the service, so the three paths cannot disagree.

The substitute reward is 0 for every kind and is not configurable anywhere: a reward above an
honest failure's would pay a model for turning its sample into "no verdict" (and a model must
never be able to choose that outcome; see the README's "Samples without a verdict"). Instead the
sample is flagged so that a trainer can leave it out of training:
- `rlhub/<kind>` = 1 (timeout, no_verdict or bad_label) and `rlhub/substituted` = 1;
- its `score` is NaN (its `reward` stays 0): the filters of OpenRLHF (dynamic filtering keeps a
  prompt's group only when the mean score lies inside a range) and verl (DAPO's filter_groups keeps
  a group only when its metric's std is > 0) then drop the group, as NaN is inside no range and no
  std of it is > 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Kind = Literal["ok", "no_verdict", "timeout", "bad_label"]
# Every reply logs one flag per failure kind, under these names, in this order.
FLAGS: tuple[Kind, ...] = ("timeout", "no_verdict", "bad_label")
# A flag beside the kind: the sample was graded, but its query did not contain its prompt.
PROMPT_MISMATCH = "prompt_mismatch"
# The flag a trainer masks on: the reward is a stand-in (any kind but "ok").
SUBSTITUTED = "substituted"
SUBSTITUTE_REWARD = 0.0
LOG_PREFIX = "rlhub/"
# Settings older versions accepted; refused with this explanation rather than silently ignored.
REMOVED_SETTINGS = ("timeout_reward", "no_verdict_reward", "bad_label_reward")
REMOVED_WHY = ("substitute rewards are no longer configurable: a sample without a verdict always earns 0 and is "
               "flagged (rlhub/substituted, NaN score) so the trainer can leave it out; see the README, "
               "'Samples without a verdict'")


def log_key(name: str) -> str:
    """'timeout' -> 'rlhub/timeout': the extra_logs key OpenRLHF reports."""
    return LOG_PREFIX + name


def score(kind: Kind, reward: float) -> float:
    """OpenRLHF's `scores` entry (what its dynamic filtering reads): the reward of a graded
    sample, NaN for a substituted one, so that a filter drops its group."""
    return reward if kind == "ok" else math.nan


def sample_logs(kind: Kind, passed: bool, prompt_mismatch: bool = False) -> dict[str, float]:
    """One sample's flags, as every path reports them (OpenRLHF turns each key into a tensor)."""
    logs = {log_key("passed"): float(passed)}
    for flag in FLAGS:
        logs[log_key(flag)] = float(kind == flag)
    logs[log_key(SUBSTITUTED)] = float(kind != "ok")
    logs[log_key(PROMPT_MISMATCH)] = float(prompt_mismatch)
    return logs


@dataclass(frozen=True)
class RewardPolicy:
    """How long one batch may take, and how many samples are verified at once. What a sample
    without a verdict earns is not a setting: `substitute` is 0 for every kind."""

    deadline_s: float = 150.0  # OpenRLHF's client gives up after 180 s
    max_workers: int = 8

    def substitute(self, kind: Kind) -> float:
        if kind not in FLAGS:
            raise ValueError(f"no substitute reward for {kind!r}: expected one of {FLAGS}")
        return SUBSTITUTE_REWARD
