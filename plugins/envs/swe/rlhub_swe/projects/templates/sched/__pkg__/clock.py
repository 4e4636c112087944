"""Clocks. The limiters and the scheduler read time only through one of these, so that a
__FakeClock__ makes them exact and instant to test and to simulate."""

from __future__ import annotations

import time


class SystemClock:
    """Real time: a monotonic clock, in seconds."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class __FakeClock__:
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
