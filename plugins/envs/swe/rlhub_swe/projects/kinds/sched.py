"""Project kind `sched`: a rate limiter and job scheduler (token bucket, leaky bucket, sliding
windows; a priority queue scheduler with retries, backoff, deadlines and a fake clock; job policies
as units)."""

from ..model import BugSite, Feature, ProjectKind, Rename, Units

INIT = r'''"""$pkg: rate limiters (token bucket, leaky bucket, sliding windows) and a job scheduler with
priorities, retries with backoff, deadlines, and a fake clock that makes both exact to test."""

from .bucket import TokenBucket
from .clock import $FakeClock, SystemClock
from .errors import CapacityError, $Error, RateFormatError, RateLimited, UnknownJob
from .jobs import $Job
from .leaky import LeakyBucket
from .limits import make_limiter, parse_limits
from .rates import Rate, $parse_rate
from .retry import RetryPolicy
from .scheduler import $Scheduler
from .window import SlidingWindowCounter, SlidingWindowLog

__version__ = "0.$minor.0"
__all__ = ["CapacityError", "$Error", "$FakeClock", "$Job", "LeakyBucket", "Rate", "RateFormatError", "RateLimited",
           "RetryPolicy", "$Scheduler", "SlidingWindowCounter", "SlidingWindowLog", "SystemClock", "TokenBucket",
           "UnknownJob", "make_limiter", "parse_limits", "$parse_rate"]
'''

ERRORS = r'''"""Every error the package raises derives from $Error."""


class $Error(Exception):
    """Base class of the package's errors."""


class RateFormatError($Error, ValueError):
    """Text that is not a rate ('10/s', '5 per 2h'), a duration ('1m30s') or a limit spec."""


class UnknownAlgorithm($Error, ValueError):
    """A limiter algorithm that does not exist."""


class CapacityError($Error, ValueError):
    """A request larger than a limiter can ever grant at once, or a limiter that could grant nothing."""


class RateLimited($Error):
    """A request a limiter refused (`Limiter.acquire`); `retry_after`: seconds until it would not."""

    def __init__(self, key: str, retry_after: float) -> None:
        super().__init__(f"{key}: rate limited, retry after {retry_after:.3f}s")
        self.key, self.retry_after = key, retry_after


class UnknownJob($Error, KeyError):
    """A job id the scheduler has never seen."""

    def __str__(self) -> str:
        return f"no job {self.args[0]!r}"


class UnknownPolicy($Error, KeyError):
    """A policy name that no policy module has."""

    def __str__(self) -> str:
        return f"no policy {self.args[0]!r}"


class NoProgress($Error, RuntimeError):
    """The scheduler's loop stopped moving: time did not advance and no job ran."""


class PolicyError($Error, ValueError):
    """A policy setting, an override or a job payload that a policy does not accept. The message
    names the policy (and the file or line it came from, when there is one), the setting or field,
    and what it takes."""
'''

CLOCK = r'''"""Clocks. The limiters and the scheduler read time only through one of these, so that a
$FakeClock makes them exact and instant to test and to simulate."""

from __future__ import annotations

import time


class SystemClock:
    """Real time: a monotonic clock, in seconds."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class $FakeClock:
    """Time that moves only when told to. `sleep` moves it at once (and is remembered in `slept`)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self.slept: list[float] = []

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward by `seconds`; the new time."""
        if seconds < 0:
            raise ValueError(f"time cannot go backwards (advance by {seconds} s)")
        self._now += seconds
        return self._now

    def set(self, when: float) -> None:
        """Move time forward to `when`."""
        if when < self._now:
            raise ValueError(f"time cannot go backwards (from {self._now} to {when})")
        self._now = float(when)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        if seconds > 0:
            self.advance(seconds)
'''

RATES = r'''"""Rates ('10/s', '100/min', '5 per 2h') and durations ('1m30s', '250ms') read from text and
written back."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import RateFormatError

UNITS = {"ms": 0.001, "s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0,
         "h": 3600.0, "hour": 3600.0, "d": 86400.0, "day": 86400.0}
_RATE = re.compile(r"(\d+)\s*(?:/|per\s)\s*(\d*(?:\.\d+)?)\s*([a-z]+)")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|d|h|m|s)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_RATE_NAMES = (("d", 86400.0), ("h", 3600.0), ("min", 60.0), ("s", 1.0))
_DURATION_NAMES = (("d", 86400), ("h", 3600), ("m", 60))


@dataclass(frozen=True)
class Rate:
    """`count` events per `period` seconds."""

    count: int
    period: float

    @property
    def per_second(self) -> float:
        return self.count / self.period

    @property
    def interval(self) -> float:
        """Seconds between two events at an even pace (infinite for a rate of zero)."""
        return self.period / self.count if self.count else math.inf

    def scaled(self, factor: float) -> Rate:
        """The same period with `factor` times as many events (rounded down, at least one)."""
        return Rate(max(1, int(self.count * factor)), self.period)

    def __str__(self) -> str:
        return format_rate(self)


def $parse_rate(text: str) -> Rate:
    """'10/s' -> 10 per second; '100/min'; '5 per 2h' (5 per 7200 s); '3/500ms'. Spaces and plural
    units are fine ('20 per minutes'); a period of zero is not."""
    match = _RATE.fullmatch(text.strip().lower())
    if match is None:
        raise RateFormatError(f"not a rate: {text!r} (expected e.g. '10/s', '100/min' or '5 per 2h')")
    count, multiple, unit = int(match.group(1)), match.group(2), match.group(3)
    if unit not in UNITS and unit[:-1] in UNITS and unit.endswith("s"):
        unit = unit[:-1]
    if unit not in UNITS:
        raise RateFormatError(f"unknown time unit {unit!r} in {text!r}; known: {', '.join(sorted(UNITS))}")
    period = UNITS[unit] * (float(multiple) if multiple else 1.0)
    if period <= 0:
        raise RateFormatError(f"a rate needs a period longer than zero: {text!r}")
    return Rate(count, period)


def format_rate(rate: Rate) -> str:
    """The shortest text that reads back as `rate`: '10/s', '5/2h', '7/90s', '3/500ms'."""
    for name, seconds in _RATE_NAMES:
        if rate.period >= seconds and rate.period % seconds == 0:
            multiple = int(rate.period // seconds)
            return f"{rate.count}/{name}" if multiple == 1 else f"{rate.count}/{multiple}{name}"
    return f"{rate.count}/{rate.period * 1000:g}ms"


def parse_duration(text: str) -> float:
    """'1m30s' -> 90.0, '250ms' -> 0.25, '2h' -> 7200.0, '1.5' -> 1.5 (a plain number is seconds)."""
    cleaned = text.strip().lower().replace(" ", "")
    if _NUMBER.fullmatch(cleaned):
        return float(cleaned)
    position, total = 0, 0.0
    for match in _DURATION.finditer(cleaned):
        if match.start() != position:
            break
        total += float(match.group(1)) * UNITS[match.group(2)]
        position = match.end()
    if not cleaned or position != len(cleaned):
        raise RateFormatError(f"not a duration: {text!r} (expected e.g. '1m30s', '250ms' or '2.5')")
    return total


def format_duration(seconds: float) -> str:
    """90 -> '1m30s', 0.25 -> '250ms', 7200 -> '2h', 0 -> '0s'."""
    if seconds < 0:
        raise ValueError(f"a duration cannot be negative: {seconds}")
    if 0 < seconds < 1:
        return f"{seconds * 1000:g}ms"
    parts, rest = [], seconds
    for name, size in _DURATION_NAMES:
        whole = int(rest // size)
        if whole:
            parts.append(f"{whole}{name}")
            rest -= whole * size
    if rest or not parts:
        parts.append(f"{rest:g}s")
    return "".join(parts)
'''

LIMITER = r'''"""What every limiter offers: `check` (take now, or say how long to wait), `try_acquire`,
`acquire` (or RateLimited), `wait` (sleep on the limiter's clock until granted) and `refund`."""

from __future__ import annotations

from dataclasses import dataclass

from .clock import SystemClock
from .errors import CapacityError, $Error, RateLimited
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
        raise $Error(f"{self.name}: still refused after {MAX_WAITS} waits")

    def describe(self) -> str:
        return f"{self.name} limiter, {self.rate}"
'''

BUCKET = r'''"""The token bucket: bursts of up to its size at once, then a steady `rate`."""

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
'''

LEAKY = r'''"""The leaky bucket as a queue: requests leave at an even pace, `rate.interval` apart. Up to
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
'''

WINDOW = r'''"""Sliding windows: at most `rate.count` requests in any `rate.period` seconds.

SlidingWindowLog remembers when each admitted request came (exact); SlidingWindowCounter keeps two
counts, this fixed window's and the previous one's, and weights the previous one by how much of it
the sliding window still covers (constant memory, close enough)."""

from __future__ import annotations

import math
from collections import deque

from .limiter import EPSILON, Decision, Limiter
from .rates import Rate


class SlidingWindowLog(Limiter):
    name = "window"

    def __init__(self, rate: Rate, clock=None) -> None:
        super().__init__(rate, clock)
        self.log: deque[float] = deque()

    def _evict(self, now: float) -> None:
        horizon = now - self.rate.period
        while self.log and self.log[0] <= horizon:  #@if:bug.window_edge: while self.log and self.log[0] < horizon:
            self.log.popleft()

    def in_window(self) -> int:
        """Requests admitted in the last period."""
        self._evict(self.clock.now())
        return len(self.log)

    def check(self, n: int = 1) -> Decision:
        self._too_big(n)
        now = self.clock.now()
        self._evict(now)
        if len(self.log) + n <= self.rate.count:
            self.log.extend([now] * n)
            return Decision(True, 0.0, self.rate.count - len(self.log))
        # the request fits once enough of the oldest requests have left the window
        leaving = self.log[len(self.log) + n - self.rate.count - 1]
        return self.refuse(leaving + self.rate.period - now, self.rate.count - len(self.log))

    def refund(self, n: int = 1) -> None:
        for _ in range(min(n, len(self.log))):
            self.log.pop()


class SlidingWindowCounter(Limiter):
    name = "counter"

    def __init__(self, rate: Rate, clock=None) -> None:
        super().__init__(rate, clock)
        self.start = self._window_start(self.clock.now())
        self.current = 0
        self.previous = 0

    def _window_start(self, now: float) -> float:
        return math.floor(now / self.rate.period) * self.rate.period

    def _roll(self, now: float) -> None:
        start = self._window_start(now)
        if start <= self.start:
            return
        gap = round((start - self.start) / self.rate.period)
        self.previous = self.current if gap == 1 else 0
        self.current = 0
        self.start = start

    def _estimate(self, now: float) -> float:
        covered = 1.0 - (now - self.start) / self.rate.period
        return self.previous * covered + self.current

    def estimate(self) -> float:
        """The requests the sliding window is taken to hold now."""
        now = self.clock.now()
        self._roll(now)
        return self._estimate(now)

    def check(self, n: int = 1) -> Decision:
        self._too_big(n)
        now = self.clock.now()
        self._roll(now)
        count, period = self.rate.count, self.rate.period
        if self._estimate(now) + n <= count + EPSILON:
            self.current += n
            return Decision(True, 0.0, count - self._estimate(now))
        if self.current + n <= count:
            # later in this window, once the previous window's share has shrunk enough
            room = count - self.current - n
            when = self.start + period * (1.0 - room / self.previous)
        else:
            # not in this window: in the next one, where this window's count is the previous one
            room = count - n
            when = self.start + period + period * max(0.0, 1.0 - room / self.current)
        return self.refuse(when - now, count - self._estimate(now))

    def refund(self, n: int = 1) -> None:
        self.current = max(0, self.current - n)
'''

COMBINED = r'''"""Several limiters at once: a request is admitted only if every one admits it (say 10/s and
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
'''

LIMITS = r'''"""Limiters by algorithm name, and limit specs as policies and configuration write them:
'token:10/s', 'leaky:5/s@20' (room for 20), 'window:100/min', several joined by '+'."""

from __future__ import annotations

from .bucket import TokenBucket
from .combined import AllOf
from .errors import RateFormatError, UnknownAlgorithm
from .leaky import LeakyBucket
from .limiter import Limiter
from .rates import Rate, $parse_rate
from .window import SlidingWindowCounter, SlidingWindowLog

ALGORITHMS = {"token": TokenBucket, "leaky": LeakyBucket, "window": SlidingWindowLog, "counter": SlidingWindowCounter}
BURSTABLE = ("token", "leaky")
DEFAULT_ALGORITHM = "token"


def make_limiter(algorithm: str, rate: Rate | str, clock=None, burst: int | None = None) -> Limiter:
    """A limiter of `algorithm` (see ALGORITHMS) for `rate` (a Rate or its text). `burst`: the size
    of a token bucket or the room of a leaky bucket (the rate's count when None)."""
    if isinstance(rate, str):
        rate = $parse_rate(rate)
    try:
        kind = ALGORITHMS[algorithm]
    except KeyError:
        raise UnknownAlgorithm(f"unknown limiter algorithm {algorithm!r}; known: {', '.join(sorted(ALGORITHMS))}") from None
    if algorithm in BURSTABLE:
        return kind(rate, burst, clock)
    if burst is not None:
        raise RateFormatError(f"a {algorithm} limiter has no burst (only {' and '.join(BURSTABLE)} do)")
    return kind(rate, clock)


def parse_limits(text: str, clock=None) -> Limiter:
    """'token:10/s@20 + window:500/h' -> a limiter admitting a request only if all of its parts
    do. A part without an algorithm is a token bucket."""
    if not text.strip():
        raise RateFormatError("an empty limit (expected e.g. 'token:10/s' or 'window:100/min + token:5/s')")
    limiters = []
    for part in text.split("+"):
        part = part.strip()
        if not part:
            raise RateFormatError(f"an empty part in {text!r}")
        algorithm, _, rest = part.rpartition(":")
        rate_text, at, burst_text = rest.partition("@")
        burst = None
        if at:
            if not burst_text.strip().isdigit():
                raise RateFormatError(f"in {part!r}: the room after '@' must be a whole number, got {burst_text!r}")
            burst = int(burst_text)
        limiters.append(make_limiter(algorithm.strip() or DEFAULT_ALGORITHM, $parse_rate(rate_text), clock, burst))
    return limiters[0] if len(limiters) == 1 else AllOf(*limiters)


def describe(limiter: Limiter) -> str:
    return limiter.describe()
'''

KEYED = r'''"""One limiter per key (a client, a tenant, an address), made on first use and forgotten once
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
'''

JOBS = r'''"""Jobs: what the scheduler runs, and the states a job goes through."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

WAITING, RUNNING, DONE, FAILED, EXPIRED, CANCELLED = "waiting", "running", "done", "failed", "expired", "cancelled"
FINAL = (DONE, FAILED, EXPIRED, CANCELLED)
DEFAULT_PRIORITY = $default_priority  # lower numbers run first
DEFAULT_POLICY = "default"


@dataclass
class $Job:
    """One piece of work: `action()` is called when the job runs (an exception is a failed attempt).

    `priority`: among the jobs that are due, lower runs first; `run_at`: when it is due next;
    `deadline`: the time after which it is given up instead of run or retried (None: never)."""

    name: str
    action: Callable[[], Any] | None = None
    policy: str = DEFAULT_POLICY
    priority: int = DEFAULT_PRIORITY
    run_at: float = 0.0
    deadline: float | None = None
    payload: Any = None
    id: str = ""
    due_at: float | None = None          # when it was first due (waits are measured from here)
    attempts: int = 0
    state: str = WAITING
    error: str = ""
    result: Any = None
    finished_at: float | None = None
    admitted: bool = False               # let through by a shaping limiter, waiting for its turn
    history: list[tuple[float, str]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.state in FINAL

    def overdue(self, now: float) -> bool:
        """Past its deadline at `now` (a job due exactly at its deadline still runs)."""
        return self.deadline is not None and now > self.deadline

    def note(self, when: float, event: str) -> None:
        self.history.append((when, event))

    def times(self, prefix: str) -> list[float]:
        """When the events starting with `prefix` happened ('attempt', 'throttled', ...)."""
        return [when for when, event in self.history if event.startswith(prefix)]

    def describe(self) -> str:
        deadline = "" if self.deadline is None else f", deadline {self.deadline:g}"
        return (f"{self.id or self.name} [{self.policy}, priority {self.priority}] {self.state}, "
                f"due {self.run_at:g}{deadline}, {self.attempts} attempt(s)")
'''

JOBQUEUE = r'''"""The queue of waiting jobs. A job becomes due at its `run_at`; among the due ones the best
priority (the lowest number) goes first, then the one queued first."""

from __future__ import annotations

import heapq
import itertools

from .jobs import $Job


class JobQueue:
    def __init__(self) -> None:
        self._timeline: list[tuple[float, int, int, $Job]] = []  # not yet due: (run_at, place, push, job)
        self._ready: list[tuple[int, int, int, $Job]] = []       # due: (priority, place, push, job)
        self._places: dict[str, int] = {}                        # job id -> its place in line, kept across retries
        self._place = itertools.count()
        self._push = itertools.count()

    def push(self, job: $Job) -> None:
        """Queue `job`. Queued again (a retry), it keeps its place among the jobs of its priority."""
        if not job.id:
            raise ValueError(f"a queued job needs an id: {job.name!r} has none")
        place = self._places.setdefault(job.id, next(self._place))
        heapq.heappush(self._timeline, (job.run_at, place, next(self._push), job))

    def _promote(self, now: float) -> None:
        while self._timeline and self._timeline[0][0] <= now:
            _, place, push, job = heapq.heappop(self._timeline)
            heapq.heappush(self._ready, (job.priority, place, push, job))

    def pop_due(self, now: float) -> $Job | None:
        """The job to run next at `now`, or None when none is due."""
        self._promote(now)
        if not self._ready:
            return None
        return heapq.heappop(self._ready)[-1]

    def due(self, now: float) -> int:
        """How many jobs are due at `now`."""
        self._promote(now)
        return len(self._ready)

    def next_time(self) -> float | None:
        """When the next job is due (a time already past if one is due now); None when empty."""
        times = [entry[-1].run_at for entry in self._ready]
        if self._timeline:
            times.append(self._timeline[0][0])
        return min(times, default=None)

    def ids(self) -> list[str]:
        """The queued jobs' ids in the order they would run if all were due now."""
        entries = sorted((job.priority, place, push, job.id) for _, place, push, job in self._timeline)
        entries += [(priority, place, push, job.id) for priority, place, push, job in self._ready]
        return [entry[-1] for entry in sorted(entries)]
#@if:without.cancel
#@else

    def remove(self, job_id: str) -> bool:
        """Take a job out of the queue; False if it is not queued."""
        for name in ("_timeline", "_ready"):
            heap = getattr(self, name)
            kept = [entry for entry in heap if entry[-1].id != job_id]
            if len(kept) != len(heap):
                heapq.heapify(kept)
                setattr(self, name, kept)
                return True
        return False

    def __contains__(self, job_id: str) -> bool:
        return any(entry[-1].id == job_id for entry in (*self._timeline, *self._ready))
#@end

    def __len__(self) -> int:
        return len(self._timeline) + len(self._ready)
'''

BACKOFF = r'''"""Backoff: how long to wait before retry number `attempt` (1-based). Every strategy is capped
at `cap` seconds; jitter spreads delays so that retries do not arrive together."""

from __future__ import annotations

import math
import random

MAX_DELAY = $max_delay
FACTOR = $factor
KINDS = ("constant", "linear", "exponential")


def _check(attempt: int) -> None:
    if attempt < 1:
        raise ValueError(f"attempt must be 1 or more, got {attempt}")


def constant(attempt: int, base: float, cap: float = MAX_DELAY) -> float:
    _check(attempt)
    return min(cap, base)


def linear(attempt: int, base: float, step: float | None = None, cap: float = MAX_DELAY) -> float:
    """base, base + step, base + 2 * step, ... (`step` is `base` unless given)."""
    _check(attempt)
    return min(cap, base + (base if step is None else step) * (attempt - 1))


def exponential(attempt: int, base: float, factor: float = FACTOR, cap: float = MAX_DELAY) -> float:
    """base, base * factor, base * factor ** 2, ..., never more than `cap`."""
    _check(attempt)
    if base <= 0 or cap <= 0:
        return 0.0
#@if:bug.huge_attempt
#@else
    if factor > 1 and (attempt - 1) * math.log(factor) >= math.log(cap / base):
        return cap  # at the cap already (and factor ** attempt overflows a float for large attempts)
#@end
    return min(cap, base * factor ** (attempt - 1))


def _random(rng) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def jittered(delay: float, fraction: float, rng=None) -> float:
    """`delay` moved at random by up to `fraction` of itself either way. `rng`: a random.Random,
    a seed, or None (unseeded)."""
    if not 0 <= fraction <= 1:
        raise ValueError(f"the jitter is a fraction from 0 to 1, got {fraction}")
    spread = delay * fraction
    return delay + _random(rng).uniform(-spread, spread)


def full_jitter(delay: float, rng=None) -> float:
    """A delay drawn evenly from 0 to `delay` ("full jitter")."""
    return _random(rng).uniform(0.0, delay)


def series(kind: str, attempts: int, base: float, cap: float = MAX_DELAY) -> list[float]:
    """The delays before retries 1..`attempts` with strategy `kind` (one of KINDS)."""
    strategies = {"constant": constant, "linear": linear, "exponential": exponential}
    if kind not in strategies:
        raise ValueError(f"unknown backoff {kind!r}; known: {', '.join(KINDS)}")
    return [strategies[kind](attempt, base, cap=cap) for attempt in range(1, attempts + 1)]
'''

RETRY = r'''"""When a failed job is tried again, and after how long."""

from __future__ import annotations

from . import backoff
from .rates import format_duration

DEFAULT_ATTEMPTS = $default_attempts


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
'''

STATS = r'''"""What a scheduler did: outcomes per policy, attempts, and how long jobs waited to start."""

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
'''

SCHEDULER = r'''"""The scheduler: runs due jobs best priority first, each within its policy's limiter, retries
failed attempts after a backoff, and gives up on jobs past their deadline. All its time comes from
its clock: with a $FakeClock, `run_until` jumps from one due job to the next.

    clock = $FakeClock()
    s = $Scheduler(clock)
    s.set_limit("api", TokenBucket(Rate(2, 1.0), clock=clock))
    s.$submit("fetch", fetch, policy="api", deadline=30)
    s.run_until(60)
"""

from __future__ import annotations

import itertools
import math
import random

from .clock import SystemClock
from .errors import $Error, NoProgress, UnknownJob
from .jobqueue import JobQueue
from .jobs import CANCELLED, DEFAULT_POLICY, DEFAULT_PRIORITY, DONE, EXPIRED, FAILED, RUNNING, WAITING, $Job
from .limiter import Decision, Limiter
from .retry import RetryPolicy
from .stats import Stats

MAX_STILL = 100_000  # turns of the run loop without time moving or a job running before NoProgress
DRAIN_LIMIT = 86_400.0  # `drain` stops after this many seconds of clock time at most


class $Scheduler:
    """`clock`: a $FakeClock in tests and simulations (a SystemClock by default); `retry`: the
    retry policy of jobs whose policy has none of its own; `seed`: the retry jitter's seed."""

    def __init__(self, clock=None, retry: RetryPolicy | None = None, seed: int = 0) -> None:
        self.clock = clock if clock is not None else SystemClock()
        self.default_retry = retry if retry is not None else RetryPolicy()
        self.limiters: dict[str, Limiter] = {}
        self.retries: dict[str, RetryPolicy] = {}
        self.queue = JobQueue()
        self.stats = Stats()
        self.jobs: dict[str, $Job] = {}
        self.dead: list[$Job] = []
        self._rng = random.Random(seed)
        self._ids = itertools.count(1)

    # -- configuration ----------------------------------------------------------------------------
    def set_limit(self, policy: str, limiter: Limiter) -> None:
        """Jobs of `policy` run only when `limiter` admits them (it should read this scheduler's clock)."""
        self.limiters[policy] = limiter

    def set_retry(self, policy: str, retry: RetryPolicy) -> None:
        self.retries[policy] = retry

    def retry_for(self, policy: str) -> RetryPolicy:
        return self.retries.get(policy, self.default_retry)

    # -- adding jobs ------------------------------------------------------------------------------
    def $submit(self, name: str, action=None, *, policy: str = DEFAULT_POLICY, priority: int = DEFAULT_PRIORITY,
                delay: float = 0.0, deadline: float | None = None, payload=None) -> str:
        """Queue `action` (called with no arguments) to run `delay` seconds from now; the job's id.
        `deadline`: seconds from now after which the job is given up rather than run or retried."""
        if delay < 0:
            raise ValueError(f"delay must be 0 or more, got {delay}")
        if deadline is not None and deadline < delay:
            raise ValueError(f"the deadline ({deadline} s) comes before the job is due ({delay} s)")
        now = self.clock.now()
        job = $Job(name, action, policy=policy, priority=priority, run_at=now + delay,
                   deadline=None if deadline is None else now + deadline, payload=payload)
        return self.add(job)

    def add(self, job: $Job) -> str:
        """Queue a job made elsewhere (a policy's `job()`); it is given an id if it has none."""
        if not job.id:
            job.id = f"{job.name}#{next(self._ids)}"
        if job.id in self.jobs:
            raise $Error(f"a job with id {job.id!r} is already scheduled")
        job.due_at = job.run_at
        self.jobs[job.id] = job
        self.queue.push(job)
        job.note(self.clock.now(), "queued")
        return job.id

    def job(self, job_id: str) -> $Job:
        try:
            return self.jobs[job_id]
        except KeyError:
            raise UnknownJob(job_id) from None

    def state(self, job_id: str) -> str:
        return self.job(job_id).state

    def pending(self) -> list[str]:
        """The ids of the jobs still queued, in the order they would run if all were due."""
        return self.queue.ids()
#@if:without.cancel
#@else

    def cancel(self, job_id: str) -> bool:
        """Stop a job that has not finished: out of the queue, it never runs (again). False when it
        had finished already; UnknownJob for an id never seen."""
        job = self.job(job_id)
        if job.finished:
            return False
        self.queue.remove(job_id)
        self._finish(job, CANCELLED, "cancelled")
        return True
#@end

    # -- running ----------------------------------------------------------------------------------
    def run_pending(self) -> list[str]:
        """Run every job due now, best priority first; the ids of the attempts made, in order. A job
        its policy's limiter refuses waits until the limiter would admit it; a job past its
        deadline is given up ("expired")."""
        now = self.clock.now()
        ran: list[str] = []
        later: list[$Job] = []
        while (job := self.queue.pop_due(now)) is not None:
            if job.overdue(now):
                self._finish(job, EXPIRED, "its deadline passed before it could run")
                continue
            if not job.admitted:
                decision = self._admit(job)
                if not decision.allowed:
                    job.run_at = now + decision.retry_after
                    job.note(now, "throttled")
                    self.stats.throttled += 1
                    later.append(job)
                    continue
                if decision.delay > 0:
                    job.run_at, job.admitted = now + decision.delay, True
                    job.note(now, "shaped")
                    later.append(job)
                    continue
            self._attempt(job, now)
            ran.append(job.id)
        for job in later:
            self.queue.push(job)
        return ran

    def run_until(self, until: float) -> list[str]:
        """Move the clock on to `until`, stopping whenever a job falls due to run what is due; the
        ids of the attempts made."""
        ran = self._run(until)
        now = self.clock.now()
        if math.isfinite(until) and until > now:
            self.clock.sleep(until - now)
        return ran

    def drain(self, limit: float = DRAIN_LIMIT) -> list[str]:
        """Run until no job is left (or `limit` seconds of clock time have passed); the attempts made."""
        return self._run(self.clock.now() + limit)

    def _run(self, until: float) -> list[str]:
        ran: list[str] = []
        still = 0
        while True:
            before = len(ran)
            ran += self.run_pending()
            upcoming, now = self.queue.next_time(), self.clock.now()
            if upcoming is None or upcoming > until:
                return ran
            if upcoming > now:
                self.clock.sleep(upcoming - now)
                still = 0
            elif len(ran) == before:
                still += 1
                if still > MAX_STILL:
                    raise NoProgress(f"no job ran and time did not move in {MAX_STILL} turns (at {now:g})")

    def _admit(self, job: $Job) -> Decision:
        limiter = self.limiters.get(job.policy)  #@if:bug.limit_key: limiter = self.limiters.get(job.name)
        return Decision(True) if limiter is None else limiter.check(1)

    def _attempt(self, job: $Job, now: float) -> None:
        job.attempts += 1
        job.admitted = False
        job.state = RUNNING
        self.stats.attempts += 1
        if job.attempts == 1:
            self.stats.waited(now - job.due_at)
        job.note(now, f"attempt {job.attempts}")
        try:
            job.result = job.action() if job.action is not None else None
        except Exception as exc:
            self._failed(job, exc)
        else:
            self._finish(job, DONE)

    def _failed(self, job: $Job, exc: Exception) -> None:
        job.error = f"{type(exc).__name__}: {exc}"
        retry = self.retry_for(job.policy)
        now = self.clock.now()
        if retry.should_retry(job.attempts, exc):  #@if:bug.retry_branch: if not retry.should_retry(job.attempts, exc):
            when = now + retry.delay(job.attempts, self._rng)
            if job.overdue(when):
                self._finish(job, EXPIRED, f"its next attempt (at {when:g}) would be past its deadline")
                return
            job.run_at, job.state = when, WAITING
            self.stats.retries += 1
            job.note(now, f"retry at {when:g}")
            self.queue.push(job)
        else:
            self._finish(job, FAILED, job.error)
            self.dead.append(job)

    def _finish(self, job: $Job, state: str, reason: str = "") -> None:
        now = self.clock.now()
        job.state, job.finished_at = state, now
        job.note(now, state if state == DONE else f"{state}: {reason}")
        self.stats.record(job.policy, state)

    def report(self) -> str:
        """The outcomes per policy, as a table."""
        return self.stats.table()
'''

SIMULATE = r'''"""Request traces replayed against a limiter on a $FakeClock: how many get through, and when.
Capacity planning without waiting: a day of traffic replays in milliseconds."""

from __future__ import annotations

from dataclasses import dataclass, field

from .clock import $FakeClock
from .limits import parse_limits


def steady(per_second: float, seconds: float, start: float = 0.0) -> list[float]:
    """Request times at an even pace: `per_second` a second for `seconds` seconds."""
    if per_second <= 0 or seconds < 0:
        raise ValueError(f"a steady trace needs a pace above 0 and a length of 0 or more, got {per_second}, {seconds}")
    return [start + i / per_second for i in range(int(round(per_second * seconds)))]


def burst(count: int, at: float = 0.0) -> list[float]:
    """`count` requests at the same moment."""
    return [float(at)] * count


def merge(*traces: list[float]) -> list[float]:
    return sorted(t for trace in traces for t in trace)


@dataclass
class Replay:
    admitted: list[float] = field(default_factory=list)
    refused: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # per admitted request: how long a shaping limiter held it

    def per_window(self, width: float) -> list[int]:
        """Admitted requests in each window of `width` seconds, from time 0 to the last one."""
        if not self.admitted:
            return []
        counts = [0] * (int(max(self.admitted) // width) + 1)
        for t in self.admitted:
            counts[int(t // width)] += 1
        return counts

    def summary(self) -> dict:
        total = len(self.admitted) + len(self.refused)
        return {"requests": total, "admitted": len(self.admitted), "refused": len(self.refused),
                "admitted_share": len(self.admitted) / total if total else None,
                "max_delay": max(self.delays, default=0.0)}


def _made(limiter, clock):
    return parse_limits(limiter, clock) if isinstance(limiter, str) else limiter(clock)


def replay(limiter, times: list[float], start: float = 0.0) -> Replay:
    """Each request time in `times` asks for 1. `limiter`: a limit spec ('token:5/s@10', see
    limits.parse_limits) or a function of a clock returning a fresh limiter."""
    clock = $FakeClock(start)
    made = _made(limiter, clock)
    out = Replay()
    for t in sorted(times):
        if t < start:
            raise ValueError(f"a request at {t} comes before the replay starts ({start})")
        clock.set(t)
        decision = made.check(1)
        if decision.allowed:
            out.admitted.append(t)
            out.delays.append(decision.delay)
        else:
            out.refused.append(t)
    return out


def drain_time(limiter, count: int) -> float:
    """Seconds from `count` requests arriving at once until the last of them is let through, each
    waiting its turn (`Limiter.wait`); `limiter` as for `replay`. No time passes: a fake clock."""
    if count < 0:
        raise ValueError(f"a backlog is 0 requests or more, got {count}")
    clock = $FakeClock()
    made = _made(limiter, clock)
    for _ in range(count):
        made.wait()
    return clock.now()
'''

POLICY = r'''"""What every job policy shares. A module of `$pkg.policies` declares its settings (DEFAULTS) and
the fields of its jobs' payloads (FIELDS), and calls these: its settings and their overrides
checked, with errors that name the policy and the setting; its limit written as a limit spec;
payloads checked and read from text; a job's history told in the policy's terms; its health.

A payload's FIELDS map each field to what it holds: "text" (not blank), or (LOW, HIGH) for a
whole number from LOW to HIGH.
"""

from __future__ import annotations

from .errors import PolicyError, RateFormatError
from .limits import ALGORITHMS, BURSTABLE
from .rates import format_duration, format_rate, $parse_rate

SETTINGS = ("rate", "algorithm", "burst", "priority", "attempts", "base_delay", "max_delay", "deadline")
WHOLE = (("burst", 1), ("priority", 0), ("attempts", 1))  # whole-number settings and their least value
SECONDS = ("base_delay", "max_delay", "deadline")
HEALTH = ("idle", "healthy", "degraded", "failing")


def whole(value) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def seconds(value) -> bool:
    """A finite number of seconds, 0 or more."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf")


def check_settings(policy: str, defaults: dict, overrides: dict) -> dict:
    """`defaults` with `overrides` applied, every value checked; PolicyError names `policy`, the
    setting and what it takes."""
    unknown = sorted(set(overrides) - set(SETTINGS))
    if unknown:
        raise PolicyError(f"{policy}: unknown setting {unknown[0]!r} (settings: {', '.join(SETTINGS)})")
    values = {**defaults, **overrides}
    if not isinstance(values["rate"], str):
        raise PolicyError(f"{policy}: rate must be text such as '10/s' or '5 per 2h', got {values['rate']!r}")
    try:
        count = $parse_rate(values["rate"]).count
    except RateFormatError as exc:
        raise PolicyError(f"{policy}: rate: {exc}") from None
    if count < 1:
        raise PolicyError(f"{policy}: rate must let at least 1 job through a period, got {values['rate']!r}")
    if values["algorithm"] not in ALGORITHMS:
        raise PolicyError(f"{policy}: algorithm must be one of {', '.join(sorted(ALGORITHMS))}, got {values['algorithm']!r}")
    for key, least in WHOLE:
        if not whole(values[key]) or values[key] < least:
            raise PolicyError(f"{policy}: {key} must be a whole number, {least} or more, got {values[key]!r}")
    for key in SECONDS:
        if not seconds(values[key]):
            raise PolicyError(f"{policy}: {key} must be a number of seconds, 0 or more, got {values[key]!r}")
    return values


def limit_spec(settings: dict) -> str:
    """Checked settings' limit as `limits.parse_limits` reads it: 'token:5/s@10', 'window:100/min'."""
    room = f"@{settings['burst']}" if settings["algorithm"] in BURSTABLE else ""
    return f"{settings['algorithm']}:{format_rate($parse_rate(settings['rate']))}{room}"


def payload_problems(policy: str, payload, fields: dict) -> list[str]:
    """What is wrong with a job's payload for a policy with these `fields`, one message each
    (none: it is right): a missing or unknown field, a value of the wrong kind or out of range."""
    if not isinstance(payload, dict):
        return [f"{policy}: a payload is an object with {', '.join(fields)}, got {type(payload).__name__}"]
    found = [f"{policy}: the payload has no {field!r}" for field in fields if field not in payload]
    found += [f"{policy}: unknown payload field {field!r} (fields: {', '.join(fields)})"
              for field in sorted(map(str, payload)) if field not in fields]
    for field, kind in fields.items():
        if field not in payload:
            continue
        value = payload[field]
        if kind == "text":
            if not isinstance(value, str) or not value.strip():
                found.append(f"{policy}: {field} must be text that is not blank, got {value!r}")
        elif not (whole(value) and kind[0] <= value <= kind[1]):
            found.append(f"{policy}: {field} must be a whole number from {kind[0]} to {kind[1]}, got {value!r}")
    return found


def read_payload(policy: str, text: str, fields: dict) -> dict:
    """A payload as a job file writes it, 'FIELD=VALUE ...', with the number fields read as
    numbers; PolicyError for a word that is not FIELD=VALUE, a field given twice, or a payload
    that `payload_problems` finds fault with."""
    payload: dict = {}
    for word in text.split():
        field, sep, value = word.partition("=")
        if not sep or not field:
            raise PolicyError(f"{policy}: expected FIELD=VALUE in the payload, got {word!r}")
        if field in payload:
            raise PolicyError(f"{policy}: the payload gives {field} twice")
        number = fields.get(field) != "text" and value.lstrip("-").isdigit()
        payload[field] = int(value) if number else value
    return require_payload(policy, payload, fields)


def require_payload(policy: str, payload, fields: dict) -> dict:
    """`payload` when it is right, else PolicyError naming every problem `payload_problems` finds."""
    found = payload_problems(policy, payload, fields)
    if found:
        raise PolicyError("; ".join(found))
    return payload


def tell(policy: str, job, settings: dict) -> list[str]:
    """What happened to `job`, a line an event ('1.5s: attempt 2 of 3'), in the terms of a policy
    with these (checked) settings."""
    lines = []
    for when, event in job.history:
        if event == "queued":
            text = f"queued ({policy}, priority {job.priority})"
        elif event == "throttled":
            text = f"held back: the {settings['algorithm']} limit of {settings['rate']} was reached"
        elif event == "shaped":
            text = f"admitted, waiting for its turn ({settings['rate']} at an even pace)"
        elif event.startswith("attempt "):
            text = f"{event} of {settings['attempts']}"
        elif event.startswith("retry at "):
            text = f"failed; next attempt in {format_duration(float(event.rsplit(' ', 1)[1]) - when)}"
        elif event.startswith("expired") and job.deadline is not None:
            text = f"{event} (deadline {format_duration(job.deadline)})"
        else:
            text = event
        lines.append(f"{format_duration(when)}: {text}")
    return lines


def health(share: float | None, healthy: float) -> str:
    """One of HEALTH from the share of finished jobs that were done (None: none finished yet):
    'healthy' from `healthy` up, 'failing' at 0, 'degraded' in between."""
    if share is None:
        return "idle"
    if share >= healthy:
        return "healthy"
    return "failing" if share == 0 else "degraded"
'''

POLICIES_INDEX = r'''"""Job policies by name: each module of this package sets one kind of job's rate limit, retries,
deadline, priority and payload.

    configure(scheduler)                        every policy's limiter and retries, as written
    configure(scheduler, overrides=load_overrides(text, "policies.json"))
                                                the same, with a config file's changes
    submit_lines(scheduler, text, "jobs.txt")   jobs from a file, one a line
    explain(scheduler, job_id)                  what happened to a job, in its policy's terms
    health(scheduler)                           how each policy's jobs fare
"""

from __future__ import annotations

import json

from ..errors import PolicyError, UnknownPolicy
from ..rates import format_duration
$unit_imports

POLICIES = {
$unit_table
}


def policy(name: str):
    try:
        return POLICIES[name]
    except KeyError:
        raise UnknownPolicy(name) from None


def names() -> list[str]:
    return sorted(POLICIES)


def load_overrides(text: str, where: str = "<overrides>") -> dict[str, dict]:
    """Changes to the policies' settings from JSON text (`{"login": {"rate": "10/min", "attempts": 2}}`),
    each checked by its policy; PolicyError names `where`, the policy and the setting."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PolicyError(f"{where}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise PolicyError(f"{where}: expected an object of policies, got {type(data).__name__}")
    for name, changes in data.items():
        if name not in POLICIES:
            raise PolicyError(f"{where}: no policy {name!r} (policies: {', '.join(names())})")
        if not isinstance(changes, dict):
            raise PolicyError(f"{where}: {name}: expected an object of settings, got {type(changes).__name__}")
        try:
            POLICIES[name].settings(**changes)
        except PolicyError as exc:
            raise PolicyError(f"{where}: {exc}") from None
    return data


def export_settings(only: list[str] | None = None) -> str:
    """Every policy's settings (or those of `only`) as JSON, in the form `load_overrides` reads."""
    chosen = names() if only is None else [policy(name).NAME for name in only]
    return json.dumps({name: POLICIES[name].settings() for name in chosen}, indent=2) + "\n"


def configure(scheduler, only: list[str] | None = None, overrides: dict[str, dict] | None = None) -> list[str]:
    """Give `scheduler` each policy's limiter (on the scheduler's clock) and retry policy, or only
    those of `only`; `overrides`: {policy: {setting: value}} (see load_overrides). The names configured."""
    overrides = overrides or {}
    unknown = sorted(set(overrides) - set(POLICIES))
    if unknown:
        raise UnknownPolicy(unknown[0])
    chosen = sorted(POLICIES) if only is None else [policy(name).NAME for name in only]
    for name in chosen:
        module, changes = POLICIES[name], overrides.get(name, {})
        scheduler.set_limit(name, module.limiter(scheduler.clock, **changes))
        scheduler.set_retry(name, module.retry_policy(**changes))
    return chosen


def submit_lines(scheduler, text: str, where: str = "<jobs>") -> list[str]:
    """Jobs from text, one a line: `POLICY NAME [FIELD=VALUE ...]` (the payload; '#' starts a
    comment). Every line is checked before any job is submitted; the jobs' ids, in order."""
    planned = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split(None, 2)
        if len(words) < 2:
            raise PolicyError(f"{where}:{number}: expected POLICY NAME [FIELD=VALUE ...], got {line!r}")
        if words[0] not in POLICIES:
            raise PolicyError(f"{where}:{number}: no policy {words[0]!r} (policies: {', '.join(names())})")
        module = POLICIES[words[0]]
        try:
            payload = module.parse_payload(words[2]) if len(words) > 2 else None
        except PolicyError as exc:
            raise PolicyError(f"{where}:{number}: {exc}") from None
        planned.append((module, words[1], payload))
    return [module.send(scheduler, name, payload=payload) for module, name, payload in planned]


def explain(scheduler, job_id: str, overrides: dict[str, dict] | None = None) -> str:
    """What happened to a job, a line an event, in its policy's terms: `overrides` as `configure`
    was given them, so that the story names the settings the scheduler ran with. UnknownJob for an
    id the scheduler never saw; a job of no known policy gets its bare history."""
    job = scheduler.job(job_id)
    module = POLICIES.get(job.policy)
    if module is not None:
        events = module.explain(job, **(overrides or {}).get(job.policy, {}))
    else:
        events = [f"{format_duration(when)}: {event}" for when, event in job.history]
    return "\n".join([f"{job.id}: {job.state} after {job.attempts} attempt(s)", *events])


def health(scheduler) -> dict[str, str]:
    """Each policy's health in `scheduler`'s stats: 'idle', 'healthy', 'degraded' or 'failing'."""
    return {name: POLICIES[name].health(scheduler.stats) for name in sorted(POLICIES)}


def problems() -> dict[str, list[str]]:
    """What is questionable in each policy's settings (policies without any left out)."""
    found = {}
    for name in sorted(POLICIES):
        issues = POLICIES[name].problems()
        if issues:
            found[name] = issues
    return found


def by_priority() -> list[str]:
    """Policy names, most urgent first (then by name)."""
    return sorted(POLICIES, key=lambda name: (POLICIES[name].PRIORITY, name))


def table() -> str:
    return "\n".join(POLICIES[name].describe() for name in sorted(POLICIES))
'''

UNIT = r'''"""The `$unit` policy: at most $limit/$period ($algorithm limiter), up to $attempts attempts a job.

Jobs of this policy run at priority $priority (lower numbers run first) and carry a payload of two
fields: `$key_field` (text) and `$size_field` (a whole number from 0 to $max_size). A failed attempt
is retried after an exponential backoff from BASE_DELAY seconds, at most MAX_DELAY; a job with a
DEADLINE (seconds after it falls due; 0: none) is given up once that has passed.

`settings(rate="10/min", attempts=2)` checks changes to these settings and returns them all;
`limiter`, `retry_policy`, `job`, `send`, `backlog_time` and `explain` take the same changes.
"""

from __future__ import annotations

from ..jobs import $Job
from ..limits import BURSTABLE, parse_limits
from ..policy import check_settings, health as judge, limit_spec, payload_problems, read_payload, require_payload, tell
from ..rates import Rate, format_duration, $parse_rate
from ..retry import RetryPolicy
from ..simulate import drain_time, replay, steady

NAME = "$unit"
RATE = "$limit/$period"
ALGORITHM = "$algorithm"
BURST = $burst
PRIORITY = $priority
MAX_ATTEMPTS = $attempts
BASE_DELAY = $base_delay
MAX_DELAY = $max_delay
DEADLINE = $deadline  # seconds after a job is due; 0: none
FIELDS = {"$key_field": "text", "$size_field": (0, $max_size)}  # a job's payload
HEALTHY = $healthy  # the least share of finished jobs done for the policy to count as healthy
DEFAULTS = {"rate": RATE, "algorithm": ALGORITHM, "burst": BURST, "priority": PRIORITY, "attempts": MAX_ATTEMPTS,
            "base_delay": BASE_DELAY, "max_delay": MAX_DELAY, "deadline": DEADLINE}


def settings(**overrides) -> dict:
    """Every setting as plain data (what `policies.export_settings` writes), `overrides` checked and applied."""
    return check_settings(NAME, DEFAULTS, overrides)


def rate(**overrides) -> Rate:
    return $parse_rate(settings(**overrides)["rate"])


def spec(**overrides) -> str:
    """The limit as a limit spec: '$algorithm:$limit/$period', with '@BURST' for the bucket algorithms."""
    return limit_spec(settings(**overrides))


def limiter(clock=None, **overrides):
    """A fresh limiter for this policy (room for its burst with the bucket algorithms)."""
    return parse_limits(spec(**overrides), clock)


def retry_policy(**overrides) -> RetryPolicy:
    chosen = settings(**overrides)
    return RetryPolicy(max_attempts=chosen["attempts"], base_delay=chosen["base_delay"], max_delay=chosen["max_delay"])


def check_payload(payload) -> list[str]:
    """What is wrong with a job's payload, one message each (none: it is right)."""
    return payload_problems(NAME, payload, FIELDS)


def parse_payload(text: str) -> dict:
    """'$key_field=ann $size_field=12' -> a checked payload."""
    return read_payload(NAME, text, FIELDS)


def _prepare(payload, overrides: dict) -> dict:
    chosen = settings(**overrides)
    if payload is not None:
        require_payload(NAME, payload, FIELDS)
    return chosen


def job(name: str, action=None, now: float = 0.0, payload=None, **overrides) -> $Job:
    """A job of this policy due at `now`, given up DEADLINE seconds later (never if DEADLINE is 0)."""
    chosen = _prepare(payload, overrides)
    deadline = chosen["deadline"]
    return $Job(name, action, policy=NAME, priority=chosen["priority"], run_at=now,
                deadline=now + deadline if deadline else None, payload=payload)


def send(scheduler, name: str, action=None, payload=None, **overrides) -> str:
    """Submit a job of this policy to `scheduler`, due now; its id."""
    chosen = _prepare(payload, overrides)
    return scheduler.$submit(name, action, policy=NAME, priority=chosen["priority"], deadline=chosen["deadline"] or None,
                             payload=payload)


def delays() -> list[float]:
    """The waits before each retry of a job that keeps failing."""
    return retry_policy().delays()


def worst_case() -> float:
    """Seconds from a job's first attempt to its last when every attempt fails."""
    return sum(delays())


def admitted(seconds: float, per_second: float) -> int:
    """How many of `per_second` evenly paced requests a second this policy lets through in `seconds`."""
    return len(replay(limiter, steady(per_second, seconds)).admitted)


def backlog_time(count: int, **overrides) -> float:
    """Seconds until the last of `count` jobs due at once may start, at this policy's pace."""
    return drain_time(lambda clock: limiter(clock, **overrides), count)


def explain(job, **overrides) -> list[str]:
    """What happened to `job`, a line an event, in this policy's terms."""
    return tell(NAME, job, settings(**overrides))


def health(stats) -> str:
    """'idle', 'healthy' (at least HEALTHY of its finished jobs done), 'degraded' or 'failing'."""
    return judge(stats.success_rate(NAME), HEALTHY)


def problems() -> list[str]:
    """What is questionable in these settings, one message each."""
    found = []
    if MAX_DELAY < BASE_DELAY:
        found.append(f"{NAME}: the longest retry wait ({MAX_DELAY:g} s) is shorter than the first ({BASE_DELAY:g} s)")
    if DEADLINE and MAX_ATTEMPTS > 1 and BASE_DELAY >= DEADLINE:
        found.append(f"{NAME}: the first retry ({format_duration(BASE_DELAY)} after a failure) comes after the "
                     f"{format_duration(DEADLINE)} deadline")
    if DEADLINE and rate().interval > DEADLINE:
        found.append(f"{NAME}: a throttled job waits up to {format_duration(rate().interval)} for its turn, "
                     f"past the {format_duration(DEADLINE)} deadline")
    return found


def describe() -> str:
    room = f", burst {BURST}" if ALGORITHM in BURSTABLE else ""
    deadline = f", deadline {format_duration(DEADLINE)}" if DEADLINE else ""
    return f"{NAME}: {RATE} ({ALGORITHM}{room}), priority {PRIORITY}, {MAX_ATTEMPTS} attempt(s){deadline}"
'''

README = r'''# $pkg

Rate limiters and a job scheduler, with a fake clock that makes both exact and instant to test.

- **Limiters** (`$pkg.bucket`, `$pkg.leaky`, `$pkg.window`): a token bucket (bursts, then a
  steady rate), a leaky bucket (spreads requests out at an even pace), a sliding-window log (exact)
  and a sliding-window counter (constant memory). `check(n)` answers with a `Decision`
  (`allowed`, `retry_after`, `remaining`, `delay`); `acquire` raises `RateLimited`; `wait` sleeps
  on the limiter's clock. `parse_limits("token:10/s@20 + window:500/h")` combines them.
- **Scheduler** (`$pkg.scheduler`): jobs run when due, best priority (lowest number) first,
  each within its policy's limiter; failures are retried with exponential backoff
  (`$pkg.retry`, `$pkg.backoff`) and jobs past their deadline are given up.
- **Policies** (`$pkg.policies`): $unit_count job policies, one module each, with their rate,
  retries, priority, deadline and payload; `configure(scheduler)` installs them all (see below).
- **Simulation** (`$pkg.simulate`): replay a request trace against a limiter in no time.

```python
from $pkg import $FakeClock, $Scheduler, TokenBucket, $parse_rate

clock = $FakeClock()
s = $Scheduler(clock)
s.set_limit("api", TokenBucket($parse_rate("2/s"), clock=clock))
for n in range(5):
    s.$submit(f"call-{n}", lambda: "ok", policy="api", deadline=60)
s.run_until(10)
print(s.stats.summary()["done"])   # 5: two at once, then one every half second
```

## Policies

Each module of `$pkg.policies` is one kind of job: its rate limit, algorithm and burst, priority,
attempts and backoff, deadline, and the payload its jobs carry (`FIELDS`: a text field and a
number with its range). What they share lives in `$pkg.policy`.

- `policy("login").settings(rate="10/min")` returns every setting with the changes applied, each
  checked: a `PolicyError` names the policy, the setting and what it takes
  (`login: burst must be a whole number, 1 or more, got 0`). `limiter`, `retry_policy`, `job`,
  `send`, `backlog_time` and `explain` take the same changes.
- `load_overrides(text, "policies.json")` reads changes for several policies from JSON
  (`{"login": {"rate": "10/min", "attempts": 2}}`), and `configure(scheduler, overrides=...)`
  installs them; `export_settings()` writes every policy's settings in that form.
- `submit_lines(scheduler, text, "jobs.txt")` submits jobs written one a line,
  `POLICY NAME FIELD=VALUE ...` (`#` starts a comment); every line is checked first, and an error
  names the file and line (`jobs.txt:3: login: the payload has no 'user'`).
- `explain(scheduler, job_id)` tells what happened to a job in its policy's terms:

  ```
  second#2: done after 2 attempt(s)
  0s: queued (login, priority 1)
  0s: held back: the token limit of 1/s was reached
  1s: attempt 1 of 3
  1s: failed; next attempt in 1s
  2s: attempt 2 of 3
  2s: done
  ```

- `health(scheduler)` says how each policy's jobs fare: `idle` (none finished), `healthy` (at
  least the policy's `HEALTHY` share done), `degraded` or `failing` (none done).
- `policy("login").backlog_time(50)`: how long 50 jobs due at once take to start, at the
  policy's pace (`simulate.drain_time`, on a fake clock).

Run the tests with `python -m pytest -q`.
'''

PYPROJECT = r'''[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$pkg"
version = "0.$minor.0"
description = "Rate limiters and a job scheduler with retries, backoff, deadlines and a fake clock"
requires-python = ">=3.10"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

TESTS = r'''#@area rates
import math
import pytest
from $pkg.errors import RateFormatError
from $pkg.rates import Rate, format_duration, format_rate, parse_duration, $parse_rate
#@test visible
def test_parse_simple_rates():
    for text, expected in (("10/s", (10, 1.0)), ("100/min", (100, 60.0)), ("5 per 2h", (5, 7200.0)),
                           (" 3 / 500ms ", (3, 0.5)), ("1/d", (1, 86400.0))):
        rate = $parse_rate(text)
        assert (rate.count, rate.period) == expected, text
#@test visible
def test_rate_pace():
    rate = Rate(10, 2.0)
    assert rate.per_second == 5.0
    assert rate.interval == 0.2
    assert Rate(0, 1.0).interval == math.inf
    with pytest.raises(AttributeError):
        rate.count = 11
#@test
def test_parse_plural_and_long_units():
    for text, period in (("20 per minutes", 60.0), ("1/hours", 3600.0), ("2/day", 86400.0), ("7/secs", 1.0),
                         ("4/second", 1.0), ("9 per 1.5s", 1.5), ("6/2m", 120.0)):
        assert $parse_rate(text).period == period, text
    assert $parse_rate("20 per minutes").count == 20
#@test
def test_parse_rate_rejects_what_is_not_a_rate():
    for bad in ("", "10", "s/10", "ten/s", "10/fortnight", "10/0s", "-1/s", "10//s", "10/s/s"):
        with pytest.raises(RateFormatError):
            $parse_rate(bad)
#@test
def test_format_rate_is_the_shortest_that_reads_back():
    for text, shown in (("10/s", "10/s"), ("100/60s", "100/min"), ("5/2h", "5/2h"), ("3/500ms", "3/500ms"),
                        ("7/90s", "7/90s"), ("1/d", "1/d"), ("2/120min", "2/2h"), ("4/48h", "4/2d")):
        rate = $parse_rate(text)
        assert format_rate(rate) == shown, text
        again = $parse_rate(shown)
        assert (again.count, again.period) == (rate.count, rate.period)
#@test visible
def test_durations():
    assert parse_duration("1m30s") == 90.0
    assert parse_duration("250ms") == 0.25
    assert parse_duration("2h") == 7200.0
    assert parse_duration(" 1.5 ") == 1.5
    assert parse_duration("1d2h") == 93600.0
#@test
def test_duration_errors():
    for bad in ("", "abc", "1x", "5m 3", "1.2.3", "inf", "nan", "m5", "-3s"):
        with pytest.raises(RateFormatError):
            parse_duration(bad)
#@test
def test_format_duration():
    assert [format_duration(s) for s in (90, 0.25, 7200, 0, 93784, 61.5, 1)] == [
        "1m30s", "250ms", "2h", "0s", "1d2h3m4s", "1m1.5s", "1s"]
    with pytest.raises(ValueError):
        format_duration(-1)
#@test
def test_rate_scaled():
    assert Rate(10, 1.0).scaled(0.5).count == 5
    assert Rate(10, 1.0).scaled(0.01).count == 1
    assert Rate(10, 3.0).scaled(3).period == 3.0
    assert Rate(10, 3.0).scaled(3).count == 30

#@area clock
import pytest
from $pkg import $FakeClock, SystemClock
#@test visible
def test_fake_clock_moves_only_when_told():
    clock = $FakeClock(5)
    assert clock.now() == 5.0
    assert clock.advance(2.5) == 7.5
    clock.sleep(0.5)
    clock.sleep(0)
    assert clock.now() == 8.0
    assert clock.slept == [0.5, 0]
#@test
def test_fake_clock_never_goes_back():
    clock = $FakeClock(5)
    with pytest.raises(ValueError):
        clock.advance(-1)
    with pytest.raises(ValueError):
        clock.set(4.5)
    clock.set(6)
    assert clock.now() == 6.0
#@test
def test_system_clock_is_monotonic():
    clock = SystemClock()
    first = clock.now()
    clock.sleep(0.001)
    assert clock.now() > first

#@area bucket
import pytest
from $pkg import $FakeClock
from $pkg.bucket import TokenBucket
from $pkg.errors import CapacityError, RateLimited
from $pkg.rates import Rate
#@test visible
def test_bucket_allows_a_burst_then_refuses():
    bucket = TokenBucket(Rate(5, 1.0), clock=$FakeClock())
    assert [bucket.try_acquire() for _ in range(6)] == [True] * 5 + [False]
#@test visible
def test_bucket_refills_at_its_rate():
    clock = $FakeClock()
    bucket = TokenBucket(Rate(2, 1.0), burst=4, clock=clock)
    assert bucket.check(4).allowed is True
    clock.advance(0.5)
    assert bucket.available() == 1.0
    assert [bucket.try_acquire(), bucket.try_acquire()] == [True, False]
    clock.advance(10)
    assert bucket.available() == 4.0
#@test
def test_bucket_says_when_to_retry():
    clock = $FakeClock()
    bucket = TokenBucket(Rate(4, 1.0), burst=2, clock=clock)
    first = bucket.check(2)
    assert (first.allowed, first.retry_after, first.remaining) == (True, 0.0, 0.0)
    refused = bucket.check(1)
    assert refused.allowed is False
    assert refused.retry_after == pytest.approx(0.25)
    clock.advance(0.25)
    assert bucket.check(1).allowed is True
    clock.advance(0.1)
    assert bucket.check(2).retry_after == pytest.approx(0.4)
#@test
def test_bucket_refuses_impossible_requests():
    bucket = TokenBucket(Rate(1, 1.0), burst=2, clock=$FakeClock())
    with pytest.raises(CapacityError):
        bucket.check(3)
    with pytest.raises(ValueError):
        bucket.check(0)
    with pytest.raises(CapacityError):
        TokenBucket(Rate(0, 1.0))
    with pytest.raises(CapacityError):
        TokenBucket(Rate(1, 1.0), burst=0)
#@test
def test_bucket_acquire_and_wait():
    clock = $FakeClock()
    bucket = TokenBucket(Rate(2, 1.0), burst=1, clock=clock)
    assert bucket.acquire().allowed is True
    with pytest.raises(RateLimited):
        bucket.acquire(key="client-7")
    assert bucket.wait() == pytest.approx(0.5)
    assert clock.now() == pytest.approx(0.5)
    assert bucket.wait() == pytest.approx(0.5)
    assert clock.now() == pytest.approx(1.0)
#@test
def test_bucket_refund_and_time_until_full():
    clock = $FakeClock()
    bucket = TokenBucket(Rate(10, 1.0), burst=5, clock=clock)
    assert bucket.check(3).remaining == 2.0
    assert bucket.time_until_full() == pytest.approx(0.3)
    bucket.refund(2)
    assert bucket.available() == 4.0
    bucket.refund(10)
    assert bucket.available() == 5.0
    assert bucket.time_until_full() == 0.0
#@test
def test_bucket_size_and_description():
    bucket = TokenBucket(Rate(3, 1.0), clock=$FakeClock())
    assert (bucket.capacity, bucket.name) == (3, "token")
    assert "bursts of up to 7" in TokenBucket(Rate(3, 1.0), burst=7).describe()
    assert bucket.check().remaining == 2.0
    bucket.refund()
    assert bucket.available() == 3.0

#@area leaky
import pytest
from $pkg import $FakeClock
from $pkg.errors import CapacityError
from $pkg.leaky import LeakyBucket
from $pkg.rates import Rate
#@test visible
def test_leaky_spaces_requests_evenly():
    bucket = LeakyBucket(Rate(4, 1.0), capacity=3, clock=$FakeClock())
    decisions = [bucket.check() for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert [d.delay for d in decisions[:3]] == [0.0, 0.25, 0.5]
    assert decisions[3].retry_after == pytest.approx(0.25)
#@test
def test_leaky_drains_over_time():
    clock = $FakeClock()
    bucket = LeakyBucket(Rate(4, 1.0), capacity=3, clock=clock)
    for _ in range(3):
        bucket.check()
    clock.advance(0.5)
    assert bucket.queued() == pytest.approx(1.0)
    decision = bucket.check()
    assert (decision.allowed, decision.delay) == (True, pytest.approx(0.25))
    with pytest.raises(CapacityError):
        bucket.check(4)
#@test
def test_leaky_wait_sleeps_for_its_turn():
    clock = $FakeClock()
    bucket = LeakyBucket(Rate(4, 1.0), capacity=2, clock=clock)
    assert [bucket.wait() for _ in range(3)] == [0.0, 0.25, 0.25]
    assert clock.now() == 0.5
#@test
def test_leaky_refund():
    clock = $FakeClock()
    bucket = LeakyBucket(Rate(4, 1.0), capacity=2, clock=clock)
    bucket.check()
    bucket.check()
    bucket.refund()
    assert bucket.check().delay == 0.25
    assert bucket.check().allowed is False

#@area window
import pytest
from $pkg import $FakeClock
from $pkg.errors import CapacityError
from $pkg.rates import Rate
from $pkg.window import SlidingWindowCounter, SlidingWindowLog
#@test visible
def test_window_log_counts_the_last_period():
    clock = $FakeClock()
    window = SlidingWindowLog(Rate(3, 1.0), clock=clock)
    assert [window.try_acquire() for _ in range(4)] == [True, True, True, False]
    clock.advance(0.5)
    assert window.try_acquire() is False
    clock.advance(1.0)
    assert [window.try_acquire() for _ in range(4)] == [True, True, True, False]
#@test catches=window_edge
def test_window_log_frees_a_slot_one_period_later():
    clock = $FakeClock()
    window = SlidingWindowLog(Rate(3, 1.0), clock=clock)
    for _ in range(3):
        window.check()
    clock.advance(0.25)
    assert window.check().retry_after == 0.75
    clock.advance(0.75)
    assert window.try_acquire() is True
    assert window.in_window() == 1
#@test
def test_window_log_retry_after_for_larger_requests():
    clock = $FakeClock()
    window = SlidingWindowLog(Rate(3, 1.0), clock=clock)
    for t in (0.0, 0.25, 0.5):
        clock.set(t)
        window.check()
    clock.set(0.75)
    assert window.check().retry_after == pytest.approx(0.25)
    clock.set(1.125)
    assert window.check(2).retry_after == pytest.approx(0.125)
    with pytest.raises(CapacityError):
        window.check(4)
#@test
def test_window_log_refund():
    window = SlidingWindowLog(Rate(2, 1.0), clock=$FakeClock())
    window.check(2)
    window.refund()
    assert window.in_window() == 1
    assert window.try_acquire() is True
#@test visible
def test_window_counter_weights_the_previous_window():
    clock = $FakeClock(0.5)
    counter = SlidingWindowCounter(Rate(10, 1.0), clock=clock)
    assert counter.check(10).allowed is True
    clock.set(1.5)
    assert counter.estimate() == 5.0
    assert [counter.try_acquire() for _ in range(6)] == [True] * 5 + [False]
#@test
def test_window_counter_says_when_to_retry():
    clock = $FakeClock(0.5)
    counter = SlidingWindowCounter(Rate(10, 1.0), clock=clock)
    counter.check(10)
    clock.set(0.75)
    refused = counter.check()
    assert refused.retry_after == pytest.approx(0.35)
    clock.advance(refused.retry_after)
    assert counter.try_acquire() is True
    clock.set(1.5)
    for _ in range(4):
        counter.check()
    assert counter.check().allowed is False
#@test
def test_window_counter_forgets_after_two_periods():
    clock = $FakeClock(0.5)
    counter = SlidingWindowCounter(Rate(10, 1.0), clock=clock)
    counter.check(10)
    clock.set(2.5)
    assert counter.estimate() == 0.0
    assert counter.check(10).allowed is True
    counter.refund(4)
    assert counter.estimate() == 6.0

#@area backoff
import random
import pytest
from $pkg import backoff
#@test visible
def test_constant_and_linear():
    assert backoff.constant(5, 2.0) == 2.0
    assert backoff.constant(1, 2.0, cap=1.5) == 1.5
    assert [backoff.linear(n, 1.0) for n in (1, 2, 3)] == [1.0, 2.0, 3.0]
    assert backoff.linear(3, 1.0, step=0.5) == 2.0
    assert backoff.linear(10_000, 1.0) == backoff.MAX_DELAY
#@test visible
def test_exponential_grows_by_the_factor():
    assert backoff.exponential(1, 0.5) == 0.5
    assert backoff.exponential(2, 0.5) == 0.5 * backoff.FACTOR
    assert backoff.exponential(3, 0.5) == 0.5 * backoff.FACTOR ** 2
    assert backoff.exponential(4, 1.0, factor=2, cap=5.0) == 5.0
    assert backoff.exponential(3, 1.0, factor=2, cap=5.0) == 4.0
    assert backoff.exponential(3, 1.0, factor=1, cap=5.0) == 1.0
#@test
def test_backoff_attempts_start_at_one():
    for strategy in (backoff.constant, backoff.linear, backoff.exponential):
        with pytest.raises(ValueError):
            strategy(0, 1.0)
    assert backoff.exponential(10, 0.0) == 0.0
    assert backoff.exponential(2, 1.0, cap=0.0) == 0.0
    assert backoff.exponential(2, 1.0, cap=0.5) == 0.5
    assert backoff.exponential(60, 1.0) == $max_delay
    assert backoff.exponential(2, 1.0) == $factor
#@test catches=huge_attempt
def test_exponential_far_past_the_cap():
    assert backoff.exponential(5000, 0.25) == backoff.MAX_DELAY
    assert backoff.exponential(1100, 1.0, factor=3, cap=60.0) == 60.0
    assert backoff.exponential(2000, 1.0, factor=2, cap=7.0) == 7.0
    assert backoff.series("exponential", 1200, 2.0, cap=9.0)[-1] == 9.0
#@test
def test_jitter_stays_within_its_spread():
    values = [backoff.jittered(10.0, 0.2, seed) for seed in range(200)]
    assert all(8.0 <= v <= 12.0 for v in values)
    assert min(values) < 9.0 and max(values) > 11.0
    assert backoff.jittered(10.0, 0.2, 3) == 10.0 + random.Random(3).uniform(-2.0, 2.0)
    assert backoff.jittered(10.0, 0.0, 3) == 10.0
    for fraction in (-0.1, 1.5):
        with pytest.raises(ValueError):
            backoff.jittered(1.0, fraction, 0)
#@test
def test_full_jitter():
    values = [backoff.full_jitter(4.0, seed) for seed in range(200)]
    assert all(0.0 <= v <= 4.0 for v in values)
    assert min(values) < 0.5 and max(values) > 3.5
#@test
def test_backoff_series():
    assert backoff.series("constant", 3, 2.0) == [2.0, 2.0, 2.0]
    assert backoff.series("linear", 3, 1.5) == [1.5, 3.0, 4.5]
    assert backoff.series("exponential", 4, 1.0, cap=5.0) == [min(5.0, backoff.FACTOR ** n) for n in range(4)]
    assert backoff.series("linear", 0, 1.0) == []
    with pytest.raises(ValueError):
        backoff.series("fibonacci", 3, 1.0)

#@area retry
import pytest
from $pkg import RetryPolicy, backoff
#@test visible
def test_retry_policy_counts_attempts():
    policy = RetryPolicy(max_attempts=3)
    assert [policy.should_retry(n, ConnectionError("down")) for n in (1, 2, 3)] == [True, True, False]
    assert RetryPolicy(max_attempts=1).should_retry(1, ConnectionError()) is False
#@test visible
def test_retry_only_listed_errors():
    policy = RetryPolicy(max_attempts=5, retry_on=(ConnectionError, TimeoutError), give_up_on=(ConnectionRefusedError,))
    assert policy.should_retry(1, TimeoutError()) is True
    assert policy.should_retry(1, ConnectionResetError()) is True
    assert policy.should_retry(1, ValueError()) is False
    assert policy.should_retry(1, ConnectionRefusedError()) is False
#@test catches=swap_backoff
def test_retry_delays_grow_by_the_factor():
    assert RetryPolicy(max_attempts=5, base_delay=1.0, factor=2, max_delay=100.0).delays() == [1.0, 2.0, 4.0, 8.0]
    assert RetryPolicy(max_attempts=3, base_delay=0.5, factor=3).delays() == [0.5, 1.5]
#@test catches=swap_backoff
def test_retry_delay_is_capped():
    policy = RetryPolicy(max_attempts=10, base_delay=2.0, factor=2, max_delay=10.0)
    assert policy.delays() == [2.0, 4.0, 8.0] + [10.0] * 6
    assert policy.total_delay() == 74.0
    assert policy.delay(3) == 8.0
#@test catches=swap_backoff
def test_retry_jitter_is_drawn_from_the_seed():
    policy = RetryPolicy(max_attempts=3, base_delay=4.0, jitter=0.5)
    assert policy.delay(1, 11) == policy.delay(1, 11)
    values = [policy.delay(1, seed) for seed in range(50)]
    assert all(2.0 <= v <= 6.0 for v in values)
    assert len(set(values)) > 1
#@test
def test_retry_policy_refuses_nonsense():
    for kwargs in ({"max_attempts": 0}, {"base_delay": -1.0}, {"jitter": 1.5}, {"factor": 0.5}, {"max_delay": -2.0}):
        with pytest.raises(ValueError):
            RetryPolicy(**kwargs)
#@test catches=swap_backoff
def test_retry_describe():
    assert RetryPolicy(max_attempts=1).describe() == "up to 1 attempt(s), waits none"
    assert RetryPolicy(max_attempts=3, base_delay=0.5, factor=2).describe() == "up to 3 attempt(s), waits 500ms, 1s"

#@area jobqueue
import pytest
from $pkg.jobqueue import JobQueue
from $pkg.jobs import $Job
#@test visible
def test_queue_runs_due_jobs_by_priority():
    queue = JobQueue()
    for name, priority, run_at in (("a", 5, 0.0), ("b", 1, 0.0), ("c", 0, 2.0)):
        queue.push($Job(name, priority=priority, run_at=run_at, id=name))
    assert queue.pop_due(0.0).id == "b"
    assert queue.pop_due(0.0).id == "a"
    assert queue.pop_due(0.0) is None
    assert queue.pop_due(5.0).id == "c"
    assert len(queue) == 0
#@test visible
def test_queue_keeps_order_within_a_priority():
    queue = JobQueue()
    for name in ("first", "second", "third"):
        queue.push($Job(name, priority=3, id=name))
    assert [queue.pop_due(0.0).id for _ in range(3)] == ["first", "second", "third"]
#@test
def test_queue_next_time_and_due():
    queue = JobQueue()
    assert queue.next_time() is None
    queue.push($Job("x", run_at=3.0, id="x"))
    queue.push($Job("y", run_at=1.0, id="y"))
    assert queue.next_time() == 1.0
    assert queue.due(2.0) == 1
    assert queue.next_time() == 1.0
    assert queue.pop_due(2.0).id == "y"
    assert queue.next_time() == 3.0
    assert len(queue) == 1
#@test
def test_queue_ids_in_running_order():
    queue = JobQueue()
    for name, priority, run_at in (("late-urgent", 0, 9.0), ("normal", 5, 0.0), ("urgent", 0, 0.0)):
        queue.push($Job(name, priority=priority, run_at=run_at, id=name))
    queue.due(0.0)
    assert queue.ids() == ["late-urgent", "urgent", "normal"]
#@test
def test_queue_needs_job_ids():
    with pytest.raises(ValueError):
        JobQueue().push($Job("nameless"))
#@test
def test_retried_job_keeps_its_place():
    queue = JobQueue()
    queue.push($Job("a", priority=1, id="a"))
    job = queue.pop_due(0.0)
    queue.push($Job("b", priority=1, id="b"))
    queue.push(job)
    assert [queue.pop_due(0.0).id, queue.pop_due(0.0).id] == ["a", "b"]
#@test needs=cancel
def test_queue_remove():
    queue = JobQueue()
    queue.push($Job("a", id="a"))
    queue.push($Job("b", id="b", run_at=4.0))
    queue.due(0.0)
    assert ("a" in queue, "b" in queue, "c" in queue) == (True, True, False)
    assert queue.remove("a") is True
    assert queue.remove("a") is False
    assert queue.remove("b") is True
    assert (len(queue), queue.pop_due(10.0)) == (0, None)

#@area scheduler
import pytest
from $pkg import $FakeClock, RetryPolicy, $Scheduler
from $pkg.bucket import TokenBucket
from $pkg.errors import $Error, UnknownJob
from $pkg.leaky import LeakyBucket
from $pkg.rates import Rate
#@test visible
def test_jobs_run_in_priority_order_when_due():
    clock = $FakeClock()
    s = $Scheduler(clock)
    order = []
    s.$submit("low", lambda: order.append("low"), priority=9)
    s.$submit("high", lambda: order.append("high"), priority=1)
    s.$submit("later", lambda: order.append("later"), priority=0, delay=5)
    assert len(s.run_pending()) == 2
    assert order == ["high", "low"]
    s.run_until(10)
    assert order == ["high", "low", "later"]
    assert clock.now() == 10.0
#@test visible
def test_results_and_states():
    s = $Scheduler($FakeClock())
    job_id = s.$submit("answer", lambda: 42)
    assert s.state(job_id) == "waiting"
    assert s.run_pending() == [job_id]
    job = s.job(job_id)
    assert (job.result, job.state, job.attempts) == (42, "done", 1)
    with pytest.raises(UnknownJob):
        s.job("nope")
#@test visible
def test_deadlines_expire_jobs_that_could_not_run():
    clock = $FakeClock()
    s = $Scheduler(clock)
    ran = []
    on_time = s.$submit("on-time", lambda: ran.append("on-time"), delay=3, deadline=3)
    s.run_until(3)
    late = s.$submit("late", lambda: ran.append("late"), delay=1, deadline=2)
    clock.advance(5)
    s.run_pending()
    assert ran == ["on-time"]
    assert (s.state(on_time), s.state(late)) == ("done", "expired")
#@test
def test_job_ids_and_validation():
    s = $Scheduler($FakeClock())
    assert [s.$submit("ping"), s.$submit("ping")] == ["ping#1", "ping#2"]
    assert s.pending() == ["ping#1", "ping#2"]
    with pytest.raises(ValueError):
        s.$submit("bad", delay=-1)
    with pytest.raises(ValueError):
        s.$submit("bad", delay=5, deadline=2)
    with pytest.raises($Error):
        s.add(s.job("ping#1"))
#@test catches=retry_branch
def test_failed_jobs_are_retried_after_a_backoff():
    clock = $FakeClock()
    s = $Scheduler(clock, retry=RetryPolicy(max_attempts=3, base_delay=1.0, factor=2))
    calls = []

    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionError("down")
        return "ok"

    job_id = s.$submit("flaky", flaky)
    s.run_until(100)
    job = s.job(job_id)
    assert (job.state, job.attempts, job.result) == ("done", 3, "ok")
    assert job.times("attempt") == [0.0, 1.0, 3.0]
#@test catches=retry_branch
def test_permanent_errors_are_not_retried():
    s = $Scheduler($FakeClock(), retry=RetryPolicy(max_attempts=5, retry_on=(ConnectionError,)))

    def broken():
        raise ValueError("bad input")

    job_id = s.$submit("broken", broken)
    s.run_until(100)
    job = s.job(job_id)
    assert (job.state, job.attempts, job.error) == ("failed", 1, "ValueError: bad input")
    assert [j.id for j in s.dead] == [job_id]
#@test catches=retry_branch,swap_backoff
def test_retries_stop_at_max_attempts():
    s = $Scheduler($FakeClock(), retry=RetryPolicy(max_attempts=4, base_delay=0.5))

    def down():
        raise ConnectionError("still down")

    job_id = s.$submit("down", down)
    s.run_until(1000)
    assert (s.state(job_id), s.job(job_id).attempts) == ("failed", 4)
    assert s.stats.summary()["retries"] == 3
#@test catches=retry_branch
def test_retry_past_the_deadline_expires():
    s = $Scheduler($FakeClock(), retry=RetryPolicy(max_attempts=10, base_delay=1.0, factor=2))

    def down():
        raise TimeoutError("slow")

    job_id = s.$submit("down", down, deadline=2.5)
    s.run_until(100)
    job = s.job(job_id)
    assert (job.state, job.attempts) == ("expired", 2)
    assert job.times("attempt") == [0.0, 1.0]
#@test catches=limit_key
def test_policy_limits_are_enforced():
    clock = $FakeClock()
    s = $Scheduler(clock)
    s.set_limit("api", TokenBucket(Rate(2, 1.0), clock=clock))
    ids = [s.$submit("call", policy="api") for _ in range(5)]
    s.run_until(10)
    assert [s.job(i).times("attempt")[0] for i in ids] == [0.0, 0.0, 0.5, 1.0, 1.5]
    assert s.stats.summary()["throttled"] > 0
#@test catches=limit_key
def test_limits_apply_per_policy():
    clock = $FakeClock()
    s = $Scheduler(clock)
    s.set_limit("mail", TokenBucket(Rate(1, 2.0), clock=clock))
    mail = [s.$submit("send", policy="mail") for _ in range(3)]
    other = [s.$submit("send", policy="other") for _ in range(3)]
    s.run_until(10)
    assert [s.job(i).times("attempt")[0] for i in mail] == [0.0, 2.0, 4.0]
    assert [s.job(i).times("attempt")[0] for i in other] == [0.0, 0.0, 0.0]
#@test catches=limit_key
def test_a_leaky_limit_spaces_jobs_out():
    clock = $FakeClock()
    s = $Scheduler(clock)
    s.set_limit("sync", LeakyBucket(Rate(4, 1.0), capacity=10, clock=clock))
    ids = [s.$submit(f"sync-{n}", policy="sync") for n in range(4)]
    s.run_until(5)
    assert [s.job(i).times("attempt")[0] for i in ids] == [0.0, 0.25, 0.5, 0.75]
#@test catches=retry_branch
def test_outcomes_are_counted():
    clock = $FakeClock()
    s = $Scheduler(clock, retry=RetryPolicy(max_attempts=1))

    def fails():
        raise RuntimeError("no")

    s.$submit("ok", lambda: 1, policy="a")
    s.$submit("ok", lambda: 2, policy="a")
    s.$submit("bad", fails, policy="b")
    s.$submit("late", lambda: 3, policy="b", delay=1, deadline=1)
    clock.advance(2)
    s.drain(limit=60)
    summary = s.stats.summary()
    assert (summary["done"], summary["failed"], summary["expired"], summary["attempts"]) == (2, 1, 1, 3)
    assert s.stats.count("done", "a") == 2
    assert s.stats.success_rate("b") == 0.0
    assert s.report().splitlines()[1].split() == ["a", "2", "0", "0", "0"]
#@test catches=shared_waits
def test_waits_are_measured_per_scheduler():
    clock = $FakeClock()
    busy = $Scheduler(clock)
    busy.set_limit("api", TokenBucket(Rate(2, 1.0), clock=clock))
    for _ in range(4):
        busy.$submit("call", policy="api")
    busy.run_until(10)
    fresh = $Scheduler(clock)
    assert fresh.stats.summary()["max_wait"] is None
    fresh.$submit("quick")
    fresh.run_pending()
    assert fresh.stats.summary()["max_wait"] == 0.0
#@test
def test_drain_stops_when_nothing_is_left():
    clock = $FakeClock()
    s = $Scheduler(clock)
    for delay in (0, 7, 30):
        s.$submit("tick", delay=delay)
    assert len(s.drain()) == 3
    assert clock.now() == 30.0
    assert s.pending() == []
#@test needs=cancel
def test_cancel_stops_a_waiting_job():
    clock = $FakeClock()
    s = $Scheduler(clock)
    ran = []
    later = s.$submit("later", lambda: ran.append("later"), delay=5)
    now = s.$submit("now", lambda: ran.append("now"))
    assert s.cancel(later) is True
    s.run_until(10)
    assert ran == ["now"]
    assert (s.state(later), s.cancel(later), s.cancel(now)) == ("cancelled", False, False)
    with pytest.raises(UnknownJob):
        s.cancel("nope")
#@test needs=cancel
def test_cancelled_jobs_are_counted():
    s = $Scheduler($FakeClock())
    ids = [s.$submit("job", delay=1) for _ in range(3)]
    s.cancel(ids[0])
    s.cancel(ids[2])
    s.drain()
    summary = s.stats.summary()
    assert (summary["cancelled"], summary["done"]) == (2, 1)
    assert s.pending() == []

#@area stats
import pytest
from $pkg.stats import Stats, percentile
#@test visible
def test_percentile_nearest_rank():
    values = [5, 1, 4, 2, 3]
    assert [percentile(values, p) for p in (0, 20, 50, 90, 100)] == [1, 1, 3, 5, 5]
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)
#@test visible
def test_outcomes_by_policy():
    stats = Stats()
    for policy, outcome in (("api", "done"), ("api", "done"), ("api", "failed"), ("mail", "done")):
        stats.record(policy, outcome)
    assert (stats.count("done"), stats.count("done", "api"), stats.count("failed", "mail")) == (3, 2, 0)
    assert stats.success_rate("api") == pytest.approx(2 / 3)
    assert stats.success_rate("nobody") is None
    with pytest.raises(ValueError):
        stats.record("api", "exploded")
#@test catches=shared_waits
def test_new_stats_start_empty():
    first = Stats()
    first.waited(2.0)
    second = Stats()
    assert second.waits == []
    assert second.summary()["p95_wait"] is None
#@test
def test_waits_carried_over():
    summary = Stats([1.0, 3.0, 2.0]).summary()
    assert (summary["p50_wait"], summary["p95_wait"], summary["max_wait"]) == (2.0, 3.0, 3.0)
    assert sorted(summary) == sorted(["done", "failed", "expired", "cancelled", "attempts", "retries", "throttled",
                                      "p50_wait", "p95_wait", "max_wait"])
#@test
def test_stats_table():
    stats = Stats()
    stats.record("webhooks", "done")
    stats.record("api", "expired")
    lines = stats.table().splitlines()
    assert lines[0].split() == ["policy", "done", "failed", "expired", "cancelled"]
    assert [line.split() for line in lines[1:]] == [["api", "0", "0", "1", "0"], ["webhooks", "1", "0", "0", "0"]]

#@area limits
import pytest
from $pkg import $FakeClock
from $pkg.bucket import TokenBucket
from $pkg.combined import AllOf
from $pkg.errors import RateLimited, UnknownAlgorithm
from $pkg.keyed import KeyedLimiter
from $pkg.limits import make_limiter, parse_limits
from $pkg.rates import Rate
from $pkg.window import SlidingWindowLog
#@test visible
def test_limiters_by_algorithm_name():
    clock = $FakeClock()
    for algorithm in ("token", "leaky", "window", "counter"):
        assert make_limiter(algorithm, "5/s", clock).name == algorithm
    with pytest.raises(UnknownAlgorithm):
        make_limiter("magic", "5/s")
#@test visible
def test_limit_specs():
    clock = $FakeClock()
    assert parse_limits("token:10/s@20", clock).capacity == 20
    assert parse_limits("3/min", clock).name == "token"
    both = parse_limits("token:10/s + window:100/min", clock)
    assert (both.name, both.capacity) == ("all-of", 10)
#@test
def test_bad_limit_specs():
    for bad in ("", "token:10/s@x", "window:5/s@3", "bogus:1/s", "token:ten/s", "token:10/s + "):
        with pytest.raises(ValueError):
            parse_limits(bad)
#@test
def test_all_limiters_must_agree():
    clock = $FakeClock()
    bucket = TokenBucket(Rate(10, 1.0), clock=clock)
    both = AllOf(bucket, SlidingWindowLog(Rate(3, 60.0), clock=clock))
    assert [both.try_acquire() for _ in range(4)] == [True, True, True, False]
    assert bucket.available() == 7.0
    clock.advance(30)
    assert both.check().retry_after == 30.0
    with pytest.raises(ValueError):
        AllOf(bucket)
#@test
def test_one_limiter_per_key():
    clock = $FakeClock()
    limits = KeyedLimiter("token:2/s", clock)
    assert [limits.try_acquire("a") for _ in range(3)] == [True, True, False]
    assert limits.try_acquire("b") is True
    assert (limits.keys(), len(limits)) == (["a", "b"], 2)
    with pytest.raises(RateLimited) as info:
        limits.acquire("a")
    assert str(info.value).startswith("a: rate limited")
#@test
def test_idle_keys_are_forgotten():
    clock = $FakeClock()
    limits = KeyedLimiter("window:1/min", clock, idle_after=60)
    limits.check("a")
    clock.advance(30)
    limits.check("b")
    clock.advance(40)
    assert limits.forget_idle() == ["a"]
    assert limits.keys() == ["b"]
    assert limits.try_acquire("a") is True
    with pytest.raises(ValueError):
        KeyedLimiter("token:ten/s")

#@area simulate
from $pkg.simulate import burst, merge, replay, steady
#@test visible
def test_traces():
    assert steady(4, 1.0) == [0.0, 0.25, 0.5, 0.75]
    assert burst(3, at=2) == [2.0, 2.0, 2.0]
    assert merge([1.0, 3.0], [2.0], [0.5]) == [0.5, 1.0, 2.0, 3.0]
#@test visible
def test_replay_a_burst():
    summary = replay("token:2/s@4", burst(10)).summary()
    assert (summary["admitted"], summary["refused"], summary["admitted_share"]) == (4, 6, 0.4)
#@test
def test_replay_a_token_bucket_per_second():
    result = replay("token:2/s@2", steady(4, 3.0))
    assert result.admitted == [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5]
    assert result.per_window(1.0) == [3, 2, 2]
#@test catches=window_edge
def test_replay_a_sliding_window():
    result = replay("window:2/s", steady(4, 3.0))
    assert result.admitted == [0.0, 0.25, 1.0, 1.25, 2.0, 2.25]
    assert result.per_window(1.0) == [2, 2, 2]
#@test
def test_replay_a_leaky_bucket():
    result = replay("leaky:4/s@2", burst(3))
    assert result.delays == [0.0, 0.25]
    assert result.summary()["max_delay"] == 0.25
    assert replay("leaky:4/s", []).summary()["admitted_share"] is None

#@area policies
import json
import pytest
from $pkg import $FakeClock, $Scheduler, backoff
from $pkg.errors import PolicyError, UnknownPolicy
from $pkg.limits import parse_limits
from $pkg.policy import health as judge
from $pkg.policies import POLICIES, by_priority, configure, explain, export_settings, health, load_overrides, names, policy, problems, submit_lines, table
from $pkg.stats import Stats
#@test visible
def test_every_policy_is_listed():
    assert sorted(POLICIES) == sorted($unit_names)
    assert names() == sorted($unit_names)
#@test visible
def test_policies_describe_themselves():
    for name in $unit_names[:3]:
        module = policy(name)
        assert module.NAME == name
        assert module.describe().startswith(f"{name}: {module.RATE} ({module.ALGORITHM}")
        assert module.rate().count == int(module.RATE.split("/")[0])
#@test
def test_unknown_policy():
    with pytest.raises(UnknownPolicy):
        policy("no-such-policy")
    with pytest.raises(KeyError):
        policy("")
#@test
def test_policy_jobs_carry_their_settings():
    for name in $unit_names:
        module = policy(name)
        job = module.job("x", now=10.0)
        assert (job.policy, job.priority) == (name, module.PRIORITY)
        assert job.deadline == (10.0 + module.DEADLINE if module.DEADLINE else None)
#@test
def test_configure_a_scheduler():
    s = $Scheduler($FakeClock())
    assert configure(s) == names()
    assert sorted(s.limiters) == names()
    for name in $unit_names[-3:]:
        assert s.retry_for(name).max_attempts == policy(name).MAX_ATTEMPTS
    assert configure($Scheduler(), [$unit_names[0]]) == [$unit_names[0]]
#@test catches=limit_key
def test_policy_limits_hold_in_a_scheduler():
    for name in $unit_names[:4]:
        module = policy(name)
        probe = module.limiter($FakeClock())
        at_once = 0
        for _ in range(probe.capacity + 1):
            decision = probe.check()
            at_once += decision.allowed and decision.delay == 0
        s = $Scheduler($FakeClock())
        configure(s, [name])
        for n in range(probe.capacity + 1):
            module.send(s, f"{name}-{n}")
        assert len(s.run_pending()) == at_once, name
#@test catches=swap_backoff
def test_policy_delays_follow_the_backoff():
    for name in $unit_names:
        module = policy(name)
        expected = [min(module.MAX_DELAY, module.BASE_DELAY * backoff.FACTOR ** n) for n in range(module.MAX_ATTEMPTS - 1)]
        assert module.delays() == expected, name
        assert module.worst_case() == sum(expected)
#@test
def test_policy_problems():
    found = problems()
    assert set(found) <= set(names())
    for name in $unit_names:
        module = policy(name)
        deadline = module.DEADLINE or float("inf")
        expected = [module.MAX_DELAY < module.BASE_DELAY, module.MAX_ATTEMPTS > 1 and module.BASE_DELAY >= deadline,
                    module.rate().interval > deadline]
        assert len(found.get(name, [])) == sum(expected), name
        assert all(message.startswith(f"{name}: ") for message in found.get(name, []))
#@test
def test_policies_by_priority_and_table():
    order = by_priority()
    assert sorted(order) == names()
    assert [policy(n).PRIORITY for n in order] == sorted(policy(n).PRIORITY for n in order)
    assert table().splitlines() == [policy(n).describe() for n in names()]
#@test visible
def test_policy_settings_as_a_limit_spec():
    clock = $FakeClock()
    for name in $unit_names[:3]:
        module = policy(name)
        chosen = module.settings()
        assert (chosen["rate"], chosen["algorithm"], chosen["attempts"]) == (module.RATE, module.ALGORITHM, module.MAX_ATTEMPTS)
        room = f"@{module.BURST}" if module.ALGORITHM in ("token", "leaky") else ""
        assert module.spec() == f"{module.ALGORITHM}:{module.RATE}{room}"
        assert parse_limits(module.spec(), clock).capacity == (module.BURST if room else module.rate().count)
#@test
def test_policy_overrides_are_applied():
    clock = $FakeClock()
    for name in $unit_names[:2] + $unit_names[-2:]:
        module = policy(name)
        assert module.settings() == module.DEFAULTS
        assert module.settings(rate="7 per 2 min")["rate"] == "7 per 2 min"
        assert module.spec(rate="7 per 2 min", algorithm="token", burst=3) == "token:7/2min@3"
        assert module.spec(rate="90/60s", algorithm="counter") == "counter:90/min"
        made = module.limiter(clock, rate="2/s", algorithm="window")
        assert (made.name, made.capacity, made.rate.period) == ("window", 2, 1.0)
        retry = module.retry_policy(attempts=2, base_delay=0.5, max_delay=4.0)
        assert (retry.max_attempts, retry.base_delay, retry.max_delay) == (2, 0.5, 4.0)
        job = module.job("x", now=5.0, priority=0, deadline=10)
        assert (job.policy, job.priority, job.deadline) == (name, 0, 15.0)
        assert module.job("y", now=5.0, deadline=0).deadline is None
#@test
def test_bad_overrides_name_the_setting():
    module = policy($unit_names[0])
    for changes, words in (({"colour": "red"}, "unknown setting 'colour'"), ({"rate": "fast"}, "rate: not a rate"),
                           ({"rate": 10}, "rate must be text"), ({"rate": "0/s"}, "at least 1 job"),
                           ({"algorithm": "magic"}, "algorithm must be one of counter, leaky, token, window"),
                           ({"burst": 0}, "burst must be a whole number, 1 or more"), ({"attempts": True}, "attempts must be"),
                           ({"priority": 1.5}, "priority must be"), ({"base_delay": -1}, "base_delay must be a number of seconds"),
                           ({"deadline": float("nan")}, "deadline must be"), ({"max_delay": "5"}, "max_delay must be")):
        with pytest.raises(PolicyError) as info:
            module.settings(**changes)
        assert str(info.value).startswith(module.NAME + ": ") and words in str(info.value), (changes, str(info.value))
    with pytest.raises(PolicyError):
        module.limiter(algorithm="magic")
    with pytest.raises(ValueError):
        module.send($Scheduler($FakeClock()), "x", rate="")
#@test visible
def test_payloads_are_checked():
    module = policy($unit_names[0])
    key, size = list(module.FIELDS)
    assert module.check_payload({key: "ann", size: 3}) == []
    assert module.check_payload({key: "ann"}) == [f"{module.NAME}: the payload has no {size!r}"]
    with pytest.raises(PolicyError):
        module.job("x", payload={key: "", size: 1})
#@test
def test_every_payload_problem_is_named():
    for name in $unit_names[:2] + $unit_names[-2:]:
        module = policy(name)
        key, size = list(module.FIELDS)
        top = module.FIELDS[size][1]
        assert module.check_payload({key: "a", size: 0}) == [] and module.check_payload({key: "a", size: top}) == []
        for payload, count in (({key: "a", size: top + 1}, 1), ({key: "a", size: -1}, 1), ({key: "a", size: True}, 1),
                               ({key: "a", size: "3"}, 1), ({key: " ", size: 1}, 1), ({key: 7, size: 1}, 1), ({}, 2),
                               ({key: "a", size: 1, "extra": 1, "more": 2}, 2), ({size: 10 ** 9}, 2)):
            found = module.check_payload(payload)
            assert len(found) == count and all(m.startswith(name + ": ") for m in found), (payload, found)
        assert module.check_payload(["a"]) == [f"{name}: a payload is an object with {key}, {size}, got list"]
        assert f"must be a whole number from 0 to {top}, got {top + 1}" in module.check_payload({key: "a", size: top + 1})[0]
#@test
def test_payloads_from_text():
    for name in $unit_names[:3]:
        module = policy(name)
        key, size = list(module.FIELDS)
        assert module.parse_payload(f"{key}=ann {size}=7") == {key: "ann", size: 7}
        assert module.parse_payload(f" {size}=0   {key}=b-2 ") == {size: 0, key: "b-2"}
        for bad in (f"{key}=ann", f"{key}=ann {size}=x", f"{key}=ann {size}=-3", f"{key} {size}=1",
                    f"{key}=a {key}=b {size}=1", f"={key}", f"{key}=a {size}=1 other=2"):
            with pytest.raises(PolicyError) as info:
                module.parse_payload(bad)
            assert str(info.value).startswith(name + ": "), bad
#@test
def test_jobs_carry_checked_payloads():
    s = $Scheduler($FakeClock())
    for name in $unit_names[:3]:
        module = policy(name)
        key, size = list(module.FIELDS)
        payload = {key: "ann", size: 2}
        assert s.job(module.send(s, f"{name}-job", payload=payload)).payload == payload
        assert module.job("x", payload=payload).payload == payload
        with pytest.raises(PolicyError):
            module.send(s, "bad", payload={key: "ann"})
    assert len(s.pending()) == 3
#@test catches=limit_key
def test_overrides_from_a_file_reach_the_scheduler():
    first, second = $unit_names[0], $unit_names[1]
    text = json.dumps({first: {"rate": "1/h", "algorithm": "token", "burst": 1}, second: {"attempts": 1}})
    overrides = load_overrides(text, "policies.json")
    assert overrides[first]["rate"] == "1/h"
    s = $Scheduler($FakeClock())
    assert configure(s, overrides=overrides) == names()
    ids = [policy(first).send(s, f"{first}-{n}") for n in range(3)]
    s.run_pending()
    assert [s.state(i) for i in ids] == ["done", "waiting", "waiting"]
    assert s.retry_for(second).max_attempts == 1
#@test
def test_bad_override_files_say_where():
    name = $unit_names[0]
    for text, words in (("{oops", "policies.json: not JSON (line 1"), ("[1]", "expected an object of policies, got list"),
                        ('{"no-such-policy": {}}', "no policy 'no-such-policy'"),
                        (json.dumps({name: 3}), f"policies.json: {name}: expected an object of settings"),
                        (json.dumps({name: {"burst": 0}}), f"policies.json: {name}: burst must be")):
        with pytest.raises(PolicyError) as info:
            load_overrides(text, "policies.json")
        assert str(info.value).startswith("policies.json: ") and words in str(info.value), text
    with pytest.raises(UnknownPolicy):
        configure($Scheduler(), overrides={"no-such-policy": {}})
#@test
def test_exported_settings_read_back():
    data = json.loads(export_settings())
    assert sorted(data) == names()
    assert all(data[name] == policy(name).settings() for name in names())
    assert load_overrides(export_settings()) == data
    assert list(json.loads(export_settings([$unit_names[1]]))) == [$unit_names[1]]
#@test
def test_jobs_from_lines():
    first, second = $unit_names[0], $unit_names[1]
    (key1, size1), (key2, size2) = list(policy(first).FIELDS), list(policy(second).FIELDS)
    text = (f"# nightly\n{first} a {key1}=ann {size1}=3\n\n"
            f"{second} b   # no payload\n{second} c {size2}=0 {key2}=bo\n")
    s = $Scheduler($FakeClock())
    ids = submit_lines(s, text, "jobs.txt")
    assert ids == ["a#1", "b#2", "c#3"]
    assert [s.job(i).policy for i in ids] == [first, second, second]
    assert (s.job("a#1").payload, s.job("b#2").payload) == ({key1: "ann", size1: 3}, None)
    for bad, where in ((f"{first} a\n{first}\n", "jobs.txt:2: expected POLICY NAME"), ("nope a\n", "jobs.txt:1: no policy 'nope'"),
                       (f"{first} a\n{first} b {key1}=x\n", f"jobs.txt:2: {first}: the payload has no {size1!r}")):
        fresh = $Scheduler($FakeClock())
        with pytest.raises(PolicyError) as info:
            submit_lines(fresh, bad, "jobs.txt")
        assert str(info.value).startswith(where), bad
        assert fresh.pending() == []
#@test catches=retry_branch,limit_key
def test_explain_tells_what_happened():
    name = $unit_names[0]
    module = policy(name)
    clock = $FakeClock()
    s = $Scheduler(clock)
    changes = {"rate": "1/s", "algorithm": "token", "burst": 1, "attempts": 3, "base_delay": 1.0, "deadline": 0}
    configure(s, [name], overrides={name: changes})
    calls = []

    def flaky():
        calls.append(clock.now())
        if len(calls) == 1:
            raise ConnectionError("down")

    module.send(s, "first", **changes)
    job_id = module.send(s, "second", flaky, **changes)
    s.run_until(100)
    assert explain(s, job_id, {name: changes}).splitlines() == [
        f"{job_id}: done after 2 attempt(s)", f"0s: queued ({name}, priority {module.PRIORITY})",
        "0s: held back: the token limit of 1/s was reached", "1s: attempt 1 of 3", "1s: failed; next attempt in 1s",
        "2s: attempt 2 of 3", "2s: done"]
    assert module.explain(s.job(job_id), **{**changes, "attempts": 5})[2] == "1s: attempt 1 of 5"
#@test
def test_explain_a_job_past_its_deadline_or_of_no_policy():
    name = $unit_names[0]
    clock = $FakeClock()
    s = $Scheduler(clock)
    late = policy(name).send(s, "late", deadline=2)
    clock.advance(3)
    s.run_pending()
    assert explain(s, late).splitlines()[-1] == "3s: expired: its deadline passed before it could run (deadline 2s)"
    other = s.$submit("loose", lambda: 1, policy="no-such-policy")
    s.run_pending()
    assert explain(s, other).splitlines() == [f"{other}: done after 1 attempt(s)", "3s: queued", "3s: attempt 1", "3s: done"]
    with pytest.raises(KeyError):
        explain(s, "nope")
#@test
def test_health_from_outcomes():
    assert [judge(None, 0.9), judge(0.0, 0.9), judge(0.5, 0.9), judge(0.89, 0.9), judge(0.9, 0.9), judge(1.0, 0.95)] == [
        "idle", "failing", "degraded", "degraded", "healthy", "healthy"]
    for name in $unit_names[:3]:
        module = policy(name)
        stats = Stats()
        assert module.health(stats) == "idle"
        stats.record(name, "failed")
        stats.record("someone-else", "done")
        assert module.health(stats) == "failing"
        for _ in range(4):
            stats.record(name, "done")
        assert module.health(stats) == ("healthy" if module.HEALTHY <= 0.8 else "degraded")
#@test
def test_health_of_a_scheduler():
    first, second = $unit_names[0], $unit_names[1]
    s = $Scheduler($FakeClock())
    configure(s, [first, second], overrides={second: {"attempts": 1, "deadline": 30, "rate": "100/s", "algorithm": "window"}})
    policy(first).send(s, "ok", lambda: 1)

    def broken():
        raise ValueError("no")

    policy(second).send(s, "bad", broken, deadline=30)
    s.drain(limit=600)
    found = health(s)
    assert sorted(found) == names()
    assert (found[first], found[second]) == ("healthy", "failing")
    assert {found[name] for name in $unit_names[2:]} == {"idle"}
#@test catches=window_edge
def test_backlog_time_follows_the_limiter():
    for name in $unit_names[:4]:
        module = policy(name)
        assert module.backlog_time(0) == 0.0 and module.backlog_time(1) == 0.0
        assert module.backlog_time(5, rate="2/s", algorithm="token", burst=3) == 1.0
        assert module.backlog_time(4, rate="4/s", algorithm="leaky", burst=10) == 0.75
        assert module.backlog_time(5, rate="2/s", algorithm="window") == 2.0
    with pytest.raises(ValueError):
        policy($unit_names[0]).backlog_time(-1)
'''

KIND = ProjectKind(
    name="sched",
    description="a rate limiter and job scheduler: token/leaky buckets, sliding windows, priorities, retries, deadlines",
    packages=("ratekit", "pacer", "throttlekit", "jobpace", "tempokit", "ratelimits", "backlogd", "pacekit"),
    names={
        "Scheduler": ("Scheduler", "JobScheduler", "Dispatcher", "Runner"),
        "Job": ("Job", "Task", "WorkItem", "Work"),
        "Error": ("SchedError", "SchedulerError", "ThrottleError", "PacerError"),
        "FakeClock": ("FakeClock", "ManualClock", "SimClock", "VirtualClock"),
        "submit": ("submit", "enqueue", "schedule", "add_job"),
        "parse_rate": ("parse_rate", "rate_from_text", "read_rate", "parse_limit"),
    },
    constants={"minor": (2, 3, 6, 11), "default_priority": (5, 10, 50), "factor": (2, 3), "max_delay": (30.0, 60.0, 300.0),
               "default_attempts": (3, 4, 5)},
    files={"$pkg/__init__.py": INIT, "$pkg/errors.py": ERRORS, "$pkg/clock.py": CLOCK, "$pkg/rates.py": RATES,
           "$pkg/limiter.py": LIMITER, "$pkg/bucket.py": BUCKET, "$pkg/leaky.py": LEAKY, "$pkg/window.py": WINDOW,
           "$pkg/combined.py": COMBINED, "$pkg/limits.py": LIMITS, "$pkg/keyed.py": KEYED, "$pkg/jobs.py": JOBS,
           "$pkg/jobqueue.py": JOBQUEUE, "$pkg/backoff.py": BACKOFF, "$pkg/retry.py": RETRY, "$pkg/stats.py": STATS,
           "$pkg/scheduler.py": SCHEDULER, "$pkg/simulate.py": SIMULATE, "$pkg/policy.py": POLICY,
           "$pkg/policies/__init__.py": POLICIES_INDEX,
           "README.md": README, "pyproject.toml": PYPROJECT},
    units=Units(dir="$pkg/policies", template=UNIT, index="$pkg/policies/__init__.py", count=(12, 20),
                names=("login", "search", "upload", "checkout", "webhook", "mailer", "sms", "export", "report",
                       "thumbnail", "billing", "sync", "backup", "indexer", "crawl", "notify", "payment", "refund",
                       "invoice", "signup", "reset", "download", "stream", "transcode", "ingest", "archive", "feed",
                       "digest", "audit", "geocode", "translate", "resize", "scan", "ocr"),
                values={"limit": (2, 3, 5, 10, 20, 60), "period": ("s", "min", "h"),
                        "algorithm": ("token", "leaky", "window", "counter"), "burst": (1, 2, 5, 10),
                        "priority": (0, 1, 2, 5, 9), "attempts": (2, 3, 5, 8), "base_delay": (0.25, 0.5, 3.0, 5.0),
                        "max_delay": (10.0, 30.0, 300.0), "deadline": (0, 2, 30, 3600),
                        "key_field": ("user", "account", "tenant", "email", "client"),
                        "size_field": ("size", "count", "pages", "items", "amount"),
                        "max_size": (10, 100, 1000, 5000), "healthy": (0.8, 0.9, 0.95)}),
    tests=TESTS,
    bugs=(
        BugSite("window_edge", "off_by_one", "$pkg/window.py",
                "The sliding window limiter keeps requests around too long. With `SlidingWindowLog(Rate(3, 1.0))` I make "
                "3 requests at t=0 and one more at exactly t=1.0: it is refused (retry_after is a microsecond), although "
                "the first three are a full second old and the window is one second. Replaying "
                "`replay('window:2/s', steady(4, 3.0))` lets 0.0 and 0.25 through, then nothing until 1.25."),
        BugSite("retry_branch", "wrong_branch", "$pkg/scheduler.py",
                "Retries are backwards. A job whose action raises ConnectionError, which my RetryPolicy retries, ends up "
                "'failed' in `scheduler.dead` after its first attempt, while a job raising ValueError (not in "
                "`retry_on`) is tried again and again until its deadline or the end of the run."),
        BugSite("shared_waits", "mutable_default", "$pkg/stats.py",
                "The wait times in `stats.summary()` are wrong for every scheduler but the first one I create: a brand "
                "new `$Scheduler` already reports a max_wait and p95_wait before it has run anything, and a new "
                "`Stats()` has waits in it. The numbers of earlier schedulers seem to leak into new ones."),
        BugSite("limit_key", "wrong_key", "$pkg/scheduler.py",
                "Rate limits given to the scheduler are ignored. I did `s.set_limit('api', TokenBucket(Rate(2, 1.0), "
                "clock=clock))` and submitted five jobs named 'call' with `policy='api'`: all five ran at t=0 instead "
                "of two at once and then one every half second. The bucket on its own limits fine, and the policies "
                "installed with `policies.configure()` are not enforced either."),
        BugSite("huge_attempt", "edge_case", "$pkg/backoff.py",
                "A job with a very large max_attempts (I use 2000 to mean 'keep retrying', every wait capped at "
                "max_delay) crashes the scheduler with OverflowError after about a thousand attempts. "
                "`backoff.exponential(1100, 1.0)` should simply be the cap."),
        BugSite("swap_backoff", "swapped_args", "$pkg/retry.py",
                "Retry waits do not grow as documented. `RetryPolicy(max_attempts=5, base_delay=1.0, factor=2).delays()` "
                "is [1.0, 2.0, 3.0, 4.0] instead of [1.0, 2.0, 4.0, 8.0], and with a base delay under a second "
                "(`base_delay=0.5`) asking for the delays raises ValueError: attempt must be 1 or more."),
    ),
    features=(
        Feature("cancel", ("$pkg/jobqueue.py", "$pkg/scheduler.py"),
                "Please add a way to cancel a job. `$Scheduler.cancel(job_id)` should take a job that has not finished "
                "out of the queue so that it never runs (or never runs again, when it is waiting for a retry), mark it "
                "'cancelled' and count it in `stats.summary()['cancelled']`. It returns True, or False when the job had "
                "already finished; an id the scheduler never saw raises UnknownJob. The queue should support this "
                "itself: `JobQueue.remove(job_id)` returns whether the job was queued, and `job_id in queue` says "
                "whether a job is waiting there."),
    ),
    renames=(
        Rename("Scheduler", "Scheduler", "class", "$pkg.scheduler"),
        Rename("parse_rate", "parse_rate", "function", "$pkg.rates"),
        Rename("submit", "submit", "method", "$pkg.scheduler", owner="Scheduler"),
    ),
    mutation_areas={"rates": "$pkg/rates.py", "bucket": "$pkg/bucket.py", "backoff": "$pkg/backoff.py"},
)
