"""What a scheduler did: outcomes per policy, attempts, and how long jobs waited to start."""

from __future__ import annotations

import math
from collections import Counter

from .jobs import CANCELLED, DONE, EXPIRED, FAILED

OUTCOMES = (DONE, FAILED, EXPIRED, CANCELLED)


def percentile(values: list[float], p: float) -> float | None:
    """The nearest-rank percentile `p` (0 to 100) of `values`; None when there are none."""
    if not 0 <= p <= 100:
        raise ValueError(f"a percentile is from 0 to 100, got {p}")
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


class Stats:
    def __init__(self, waits: list[float] | None = None) -> None:  #@if:bug.shared_waits: def __init__(self, waits: list[float] = []) -> None:
        """`waits`: start from these (the waits of an earlier run carried over)."""
        self.waits = [] if waits is None else waits  #@if:bug.shared_waits: self.waits = waits
        self.outcomes: Counter[str] = Counter()
        self.by_policy: dict[str, Counter[str]] = {}
        self.attempts = 0
        self.retries = 0
        self.throttled = 0

    def waited(self, seconds: float) -> None:
        """A job started `seconds` after it was first due."""
        self.waits.append(seconds)

    def record(self, policy: str, outcome: str) -> None:
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}; known: {', '.join(OUTCOMES)}")
        self.outcomes[outcome] += 1
        self.by_policy.setdefault(policy, Counter())[outcome] += 1

    def count(self, outcome: str, policy: str | None = None) -> int:
        counts = self.outcomes if policy is None else self.by_policy.get(policy, Counter())
        return counts[outcome]

    def success_rate(self, policy: str | None = None) -> float | None:
        """Done / finished (of one policy, or of all); None before any job finished."""
        finished = sum(self.count(outcome, policy) for outcome in OUTCOMES)
        return self.count(DONE, policy) / finished if finished else None

    def summary(self) -> dict:
        out: dict = {outcome: self.outcomes[outcome] for outcome in OUTCOMES}
        out.update(attempts=self.attempts, retries=self.retries, throttled=self.throttled,
                   p50_wait=percentile(self.waits, 50), p95_wait=percentile(self.waits, 95),
                   max_wait=max(self.waits, default=None))
        return out

    def table(self) -> str:
        """One line per policy with its outcomes, policies by name."""
        width = max([len("policy"), *(len(policy) for policy in self.by_policy)])
        lines = [f"{'policy'.ljust(width)}  " + "  ".join(f"{outcome:>9}" for outcome in OUTCOMES)]
        for policy in sorted(self.by_policy):
            counts = self.by_policy[policy]
            lines.append(f"{policy.ljust(width)}  " + "  ".join(f"{counts[outcome]:>9}" for outcome in OUTCOMES))
        return "\n".join(lines)
