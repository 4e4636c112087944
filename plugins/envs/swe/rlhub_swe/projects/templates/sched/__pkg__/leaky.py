"""The leaky bucket as a queue: requests leave at an even pace, `rate.interval` apart. Up to
`capacity` requests may be waiting for their turn; any more are refused."""

from __future__ import annotations

from .limiter import EPSILON, Decision, Limiter
from .rates import Rate


class LeakyBucket(Limiter):
    """An admitted request gets `Decision.delay`: how long it must still wait for its turn. Unlike
    the token bucket it never lets a burst through at once: it spreads it out."""

    name = "leaky"

    def __init__(self, rate: Rate, capacity: int | None = None, clock=None) -> None:
        super().__init__(rate, clock)
        self.size = self._room(capacity, "capacity")
        self.next_free = self.clock.now()  # when the next request may leave

    @property
    def capacity(self) -> int:
        return self.size

    def queued(self) -> float:
        """Requests admitted and still waiting for their turn (the one leaving now counts in part)."""
        return max(0.0, self.next_free - self.clock.now()) / self.rate.interval

    def check(self, n: int = 1) -> Decision:
        self._too_big(n)
        now = self.clock.now()
        interval = self.rate.interval
        start = max(now, self.next_free)
        ahead = (start - now) / interval
        if ahead + n > self.size + EPSILON:
            return self.refuse((ahead + n - self.size) * interval, self.size - ahead)
        self.next_free = start + n * interval
        return Decision(True, 0.0, self.size - ahead - n, delay=start - now)

    def refund(self, n: int = 1) -> None:
        self.next_free = max(self.clock.now(), self.next_free - n * self.rate.interval)

    def describe(self) -> str:
        return f"leaky bucket, {self.rate}, up to {self.size} waiting"
