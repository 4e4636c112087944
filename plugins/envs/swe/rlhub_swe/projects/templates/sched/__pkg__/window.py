"""Sliding windows: at most `rate.count` requests in any `rate.period` seconds.

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
