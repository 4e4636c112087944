"""When a failed job is tried again, and after how long."""

from __future__ import annotations

from . import backoff
from .rates import format_duration

DEFAULT_ATTEMPTS = __default_attempts__


class RetryPolicy:
    """Up to `max_attempts` attempts in all, the first included. A failed attempt is retried when
    its error is one of `retry_on` and none of `give_up_on`, after an exponential backoff:
    `base_delay * factor ** (attempt - 1)` seconds, at most `max_delay`, moved at random by up to
    `jitter` (a fraction) either way when asked."""

    def __init__(self, max_attempts: int = DEFAULT_ATTEMPTS, base_delay: float = 1.0,
                 max_delay: float = backoff.MAX_DELAY, factor: float = backoff.FACTOR, jitter: float = 0.0,
                 retry_on: tuple = (Exception,), give_up_on: tuple = ()) -> None:
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be 1 or more, got {max_attempts}")
        if base_delay < 0 or max_delay < 0:
            raise ValueError(f"delays cannot be negative (base_delay={base_delay}, max_delay={max_delay})")
        if factor < 1:
            raise ValueError(f"the backoff factor must be 1 or more, got {factor}")
        if not 0 <= jitter <= 1:
            raise ValueError(f"jitter is a fraction from 0 to 1, got {jitter}")
        self.max_attempts, self.base_delay, self.max_delay = max_attempts, base_delay, max_delay
        self.factor, self.jitter = factor, jitter
        self.retry_on, self.give_up_on = tuple(retry_on), tuple(give_up_on)

    def should_retry(self, attempt: int, error: BaseException) -> bool:
        """After failed attempt number `attempt` (1-based) with `error`: is there another?"""
        if attempt >= self.max_attempts:
            return False
        if isinstance(error, self.give_up_on):
            return False
        return isinstance(error, self.retry_on)

    def _backoff(self, attempt: int) -> float:
        return backoff.exponential(attempt, self.base_delay, self.factor, self.max_delay)  #@if:bug.swap_backoff: return backoff.exponential(self.base_delay, attempt, self.factor, self.max_delay)

    def delay(self, attempt: int, rng=None) -> float:
        """Seconds to wait after failed attempt `attempt` before the next one. `rng` (a
        random.Random or a seed) draws the jitter."""
        wait = self._backoff(attempt)
        return backoff.jittered(wait, self.jitter, rng) if self.jitter else wait

    def delays(self) -> list[float]:
        """The wait before each retry of a job that always fails (without jitter)."""
        return [self._backoff(attempt) for attempt in range(1, self.max_attempts)]

    def total_delay(self) -> float:
        return sum(self.delays())

    def describe(self) -> str:
        waits = ", ".join(format_duration(d) for d in self.delays()) or "none"
        return f"up to {self.max_attempts} attempt(s), waits {waits}"
