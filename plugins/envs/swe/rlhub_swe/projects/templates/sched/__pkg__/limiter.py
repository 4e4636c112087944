"""What every limiter offers: `check` (take now, or say how long to wait), `try_acquire`,
`acquire` (or RateLimited), `wait` (sleep on the limiter's clock until granted) and `refund`."""

from __future__ import annotations

from dataclasses import dataclass

from .clock import SystemClock
from .errors import CapacityError, __Error__, RateLimited
from .rates import Rate

EPSILON = 1e-9      # float slack: a refill short by less than this counts as complete
MIN_WAIT = 1e-6     # a refusal never says "try again in 0 s"
MAX_WAITS = 10_000  # `wait` gives up after this many refusals in a row


@dataclass(frozen=True)
class Decision:
    """A limiter's answer. `allowed`; if not, `retry_after`: seconds until the same request would
    be; `remaining`: what is left after this request; `delay`: for a shaping limiter (the leaky
    bucket), how long an admitted request must still wait for its turn."""

    allowed: bool
    retry_after: float = 0.0
    remaining: float = 0.0
    delay: float = 0.0


class Limiter:
    """Base class: a limiter of `rate` reading time from `clock` (a SystemClock by default)."""

    name = "limiter"

    def __init__(self, rate: Rate, clock=None) -> None:
        if rate.count < 1:
            raise CapacityError(f"a limiter needs a rate of at least 1 per period, got {rate}")
        self.rate = rate
        self.clock = clock if clock is not None else SystemClock()

    @property
    def capacity(self) -> int:
        """The most one request may ask for."""
        return self.rate.count

    def check(self, n: int = 1) -> Decision:
        """Take `n` now if they can be had: the decision either way."""
        raise NotImplementedError

    def refund(self, n: int = 1) -> None:
        """Give back `n` just taken (a request admitted here but refused elsewhere)."""
        raise NotImplementedError

    def _too_big(self, n: int) -> None:
        if n < 1:
            raise ValueError(f"a request takes at least 1, got {n}")
        if n > self.capacity:
            raise CapacityError(f"{self.name}: {n} asked for at once, at most {self.capacity} can ever be granted")

    def _room(self, given: int | None, what: str) -> int:
        """A bucket's size: `given` (its parameter `what`), or the rate's count when None; 1 or more."""
        size = self.rate.count if given is None else int(given)
        if size < 1:
            raise CapacityError(f"{self.name}: {what} must be 1 or more, got {given}")
        return size

    def refuse(self, wait: float, remaining: float) -> Decision:
        return Decision(False, max(MIN_WAIT, wait), max(0.0, remaining))

    def try_acquire(self, n: int = 1) -> bool:
        return self.check(n).allowed

    def acquire(self, n: int = 1, key: str = "") -> Decision:
        """Take `n` now or raise RateLimited (naming `key`, or the limiter)."""
        decision = self.check(n)
        if not decision.allowed:
            raise RateLimited(key or self.name, decision.retry_after)
        return decision

    def wait(self, n: int = 1) -> float:
        """Sleep on the limiter's clock until `n` are granted (and, for a shaping limiter, until
        their turn); the seconds waited."""
        waited = 0.0
        for _ in range(MAX_WAITS):
            decision = self.check(n)
            if decision.allowed:
                self.clock.sleep(decision.delay)
                return waited + decision.delay
            self.clock.sleep(decision.retry_after)
            waited += decision.retry_after
        raise __Error__(f"{self.name}: still refused after {MAX_WAITS} waits")

    def describe(self) -> str:
        return f"{self.name} limiter, {self.rate}"
