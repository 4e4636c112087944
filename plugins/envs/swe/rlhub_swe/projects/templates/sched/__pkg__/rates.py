"""Rates ('10/s', '100/min', '5 per 2h') and durations ('1m30s', '250ms') read from text and
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


def __parse_rate__(text: str) -> Rate:
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
