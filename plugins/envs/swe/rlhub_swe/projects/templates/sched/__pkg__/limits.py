"""Limiters by algorithm name, and limit specs as policies and configuration write them:
'token:10/s', 'leaky:5/s@20' (room for 20), 'window:100/min', several joined by '+'."""

from __future__ import annotations

from .bucket import TokenBucket
from .combined import AllOf
from .errors import RateFormatError, UnknownAlgorithm
from .leaky import LeakyBucket
from .limiter import Limiter
from .rates import Rate, __parse_rate__
from .window import SlidingWindowCounter, SlidingWindowLog

ALGORITHMS = {"token": TokenBucket, "leaky": LeakyBucket, "window": SlidingWindowLog, "counter": SlidingWindowCounter}
BURSTABLE = ("token", "leaky")
DEFAULT_ALGORITHM = "token"


def make_limiter(algorithm: str, rate: Rate | str, clock=None, burst: int | None = None) -> Limiter:
    """A limiter of `algorithm` (see ALGORITHMS) for `rate` (a Rate or its text). `burst`: the size
    of a token bucket or the room of a leaky bucket (the rate's count when None)."""
    if isinstance(rate, str):
        rate = __parse_rate__(rate)
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
        limiters.append(make_limiter(algorithm.strip() or DEFAULT_ALGORITHM, __parse_rate__(rate_text), clock, burst))
    return limiters[0] if len(limiters) == 1 else AllOf(*limiters)


def describe(limiter: Limiter) -> str:
    return limiter.describe()
