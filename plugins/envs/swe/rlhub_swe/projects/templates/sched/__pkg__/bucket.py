"""The token bucket: bursts of up to its size at once, then a steady `rate`."""

from __future__ import annotations

from .limiter import EPSILON, Decision, Limiter
from .rates import Rate


class TokenBucket(Limiter):
    """Holds up to `burst` tokens (default: the rate's count), full at the start and refilled
    continuously at `rate`. A request takes `n` tokens, or is refused with the time until there
    would be enough."""

    name = "token"

    def __init__(self, rate: Rate, burst: int | None = None, clock=None) -> None:
        super().__init__(rate, clock)
        self.burst = self._room(burst, "burst")
        self.tokens = float(self.burst)
        self.updated = self.clock.now()

    @property
    def capacity(self) -> int:
        return self.burst

    def _refill(self) -> None:
        now = self.clock.now()
        if now > self.updated:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate.per_second)
            self.updated = now

    def available(self) -> float:
        """Tokens in the bucket now."""
        self._refill()
        return self.tokens

    def check(self, n: int = 1) -> Decision:
        self._too_big(n)
        self._refill()
        if self.tokens + EPSILON >= n:
            self.tokens = max(0.0, self.tokens - n)
            return Decision(True, 0.0, self.tokens)
        return self.refuse((n - self.tokens) / self.rate.per_second, self.tokens)

    def refund(self, n: int = 1) -> None:
        self._refill()
        self.tokens = min(self.burst, self.tokens + n)

    def time_until_full(self) -> float:
        """Seconds until the bucket holds `burst` tokens again."""
        self._refill()
        return (self.burst - self.tokens) / self.rate.per_second

    def describe(self) -> str:
        return f"token bucket, {self.rate}, bursts of up to {self.burst}"
