"""Several limiters at once: a request is admitted only if every one admits it (say 10/s and
500/h); when one refuses, those that had already admitted it get their share back."""

from __future__ import annotations

from .limiter import Decision, Limiter


class AllOf(Limiter):
    name = "all-of"

    def __init__(self, *limiters: Limiter) -> None:
        if len(limiters) < 2:
            raise ValueError(f"AllOf needs two limiters or more, got {len(limiters)}")
        self.limiters = limiters
        self.clock = limiters[0].clock
        self.rate = min((limiter.rate for limiter in limiters), key=lambda rate: rate.per_second)

    @property
    def capacity(self) -> int:
        return min(limiter.capacity for limiter in self.limiters)

    def check(self, n: int = 1) -> Decision:
        self._too_big(n)
        taken: list[Limiter] = []
        decisions: list[Decision] = []
        for limiter in self.limiters:
            decision = limiter.check(n)
            if not decision.allowed:
                for done in reversed(taken):
                    done.refund(n)
                return decision
            taken.append(limiter)
            decisions.append(decision)
        return Decision(True, 0.0, min(d.remaining for d in decisions), max(d.delay for d in decisions))

    def refund(self, n: int = 1) -> None:
        for limiter in self.limiters:
            limiter.refund(n)

    def describe(self) -> str:
        return " and ".join(limiter.describe() for limiter in self.limiters)
