"""One limiter per key (a client, a tenant, an address), made on first use and forgotten once
idle."""

from __future__ import annotations

from .clock import SystemClock
from .errors import RateLimited
from .limiter import Decision, Limiter
from .limits import parse_limits


class KeyedLimiter:
    """`limit`: a limit spec ('token:5/s', see limits.parse_limits) or a function of a clock that
    makes a fresh limiter. A key unused for `idle_after` seconds is forgotten by `forget_idle`
    (its next request starts afresh), so `idle_after` should be no shorter than the period."""

    def __init__(self, limit, clock=None, idle_after: float = 300.0) -> None:
        if idle_after <= 0:
            raise ValueError(f"idle_after must be more than 0 seconds, got {idle_after}")
        self.clock = clock if clock is not None else SystemClock()
        if isinstance(limit, str):
            parse_limits(limit, self.clock)  # a bad spec fails here, not at the first request
            self._make = lambda clock: parse_limits(limit, clock)
        else:
            self._make = limit
        self.idle_after = idle_after
        self._limiters: dict[str, Limiter] = {}
        self._seen: dict[str, float] = {}

    def limiter(self, key: str) -> Limiter:
        found = self._limiters.get(key)
        if found is None:
            found = self._limiters[key] = self._make(self.clock)
        self._seen[key] = self.clock.now()
        return found

    def check(self, key: str, n: int = 1) -> Decision:
        return self.limiter(key).check(n)

    def try_acquire(self, key: str, n: int = 1) -> bool:
        return self.check(key, n).allowed

    def acquire(self, key: str, n: int = 1) -> Decision:
        decision = self.check(key, n)
        if not decision.allowed:
            raise RateLimited(key, decision.retry_after)
        return decision

    def forget_idle(self) -> list[str]:
        """Forget the keys unused for `idle_after` seconds or more; their names."""
        now = self.clock.now()
        idle = sorted(key for key, seen in self._seen.items() if now - seen >= self.idle_after)
        for key in idle:
            del self._limiters[key], self._seen[key]
        return idle

    def keys(self) -> list[str]:
        return sorted(self._limiters)

    def __len__(self) -> int:
        return len(self._limiters)
