"""The bounded work queue, ordered by expected duration with ageing.

Each sample gets a key `enqueued_at + min(ageing * estimate, max_delay_s)` and the smallest key
runs first (an earliest-virtual-deadline order). A short sample therefore overtakes long ones
queued before it, but a long sample is overtaken only by samples that arrive within its bounded
delay: nothing starves. Long samples (estimate >= long_task_s) may occupy at most
`long_worker_limit` workers, so some workers stay free for short ones even in a burst of long
ones. The queue holds at most `capacity` samples; a batch that does not fit is refused whole
(`QueueFull`, with a Retry-After estimate), never half-accepted; room can be held for requests
refused earlier (retry_line.py).

Single-threaded: used only from the service's event loop.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections import Counter

from .work import WorkItem


class QueueFull(Exception):
    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class BatchTooLarge(Exception):
    """A batch larger than the whole queue: it can never be accepted, retrying is pointless."""


class Scheduler:
    def __init__(self, capacity: int, workers: int, long_worker_limit: int, long_task_s: float,
                 ageing: float, max_delay_s: float) -> None:
        self.capacity = capacity
        self.workers = workers
        self.long_worker_limit = long_worker_limit
        self.long_task_s = long_task_s
        self.ageing = ageing
        self.max_delay_s = max_delay_s
        self._short: list[tuple[float, int, WorkItem]] = []
        self._long: list[tuple[float, int, WorkItem]] = []
        self._seq = itertools.count()
        self._wakeup = asyncio.Condition()
        self.queued = 0
        self.running = 0
        self.running_long = 0
        self.queued_by_env: Counter[str] = Counter()
        self.queued_work_s = 0.0  # sum of the estimates of queued samples

    # -- admission -------------------------------------------------------------------------
    def retry_after_s(self, extra_work_s: float = 0.0) -> int:
        """Seconds until the queue has likely drained enough, for a Retry-After header."""
        return max(1, math.ceil((self.queued_work_s + extra_work_s) / max(1, self.workers)))

    async def admit(self, items: list[WorkItem], now: float, held: int = 0) -> None:
        """Queue all of `items` or none of them; `held` samples of room are kept for others
        (the requests refused before this one: retry_line.py)."""
        if len(items) > self.capacity:
            raise BatchTooLarge(f"batch of {len(items)} samples exceeds the queue's capacity of {self.capacity}; "
                                "send smaller batches or raise queue_limit")
        if self.queued + len(items) > self.capacity - held:
            also = f", room for {held} held for requests refused earlier" if held else ""
            raise QueueFull(f"queue full ({self.queued} of {self.capacity} samples waiting{also}, "
                            f"{len(items)} more offered)", self.retry_after_s(sum(i.estimate_s for i in items)))
        for item in items:
            item.enqueued_at = now
            item.key = now + min(self.ageing * item.estimate_s, self.max_delay_s)
            item.long = item.estimate_s >= self.long_task_s
            heapq.heappush(self._long if item.long else self._short, (item.key, next(self._seq), item))
            self.queued += 1
            self.queued_by_env[item.env] += 1
            self.queued_work_s += item.estimate_s
        async with self._wakeup:
            self._wakeup.notify_all()

    def cancel(self, item: WorkItem) -> bool:
        """Withdraw a queued sample (its request timed out or its client left). False if it already runs."""
        if item.cancelled or item.extra.get("taken"):
            item.cancelled = True
            return False
        item.cancelled = True
        self._forget(item)
        return True

    # -- dispatch ----------------------------------------------------------------------------
    def _forget(self, item: WorkItem) -> None:
        self.queued -= 1
        self.queued_by_env[item.env] -= 1
        if self.queued_by_env[item.env] <= 0:
            del self.queued_by_env[item.env]
        self.queued_work_s = max(0.0, self.queued_work_s - item.estimate_s)

    @staticmethod
    def _drop_cancelled(heap: list) -> None:
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)

    def _pop(self) -> WorkItem | None:
        self._drop_cancelled(self._short)
        self._drop_cancelled(self._long)
        long_ok = self.running_long < self.long_worker_limit
        candidates = [h for h in (self._short, self._long if long_ok else None) if h]
        if not candidates:
            return None
        heap = min(candidates, key=lambda h: h[0][:2])
        item = heapq.heappop(heap)[2]
        self._forget(item)
        item.extra["taken"] = True
        self.running += 1
        self.running_long += item.long
        return item

    async def take(self) -> WorkItem:
        """The next sample to run; waits while there is none this worker may take."""
        async with self._wakeup:
            while True:
                item = self._pop()
                if item is not None:
                    return item
                await self._wakeup.wait()

    async def done(self, item: WorkItem) -> None:
        self.running -= 1
        self.running_long -= item.long
        async with self._wakeup:
            self._wakeup.notify_all()

    def state(self) -> dict:
        return {"queued": self.queued, "capacity": self.capacity, "running": self.running,
                "running_long": self.running_long, "workers": self.workers,
                "long_worker_limit": self.long_worker_limit,
                "queued_work_s": round(self.queued_work_s, 3),
                "queued_by_env": dict(sorted(self.queued_by_env.items()))}
