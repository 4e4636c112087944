"""Backoff: how long to wait before retry number `attempt` (1-based). Every strategy is capped
at `cap` seconds; jitter spreads delays so that retries do not arrive together."""

from __future__ import annotations

import math
import random

MAX_DELAY = __max_delay__
FACTOR = __factor__
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
