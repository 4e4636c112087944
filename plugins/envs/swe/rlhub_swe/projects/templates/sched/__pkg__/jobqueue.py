"""The queue of waiting jobs. A job becomes due at its `run_at`; among the due ones the best
priority (the lowest number) goes first, then the one queued first."""

from __future__ import annotations

import heapq
import itertools

from .jobs import __Job__


class JobQueue:
    def __init__(self) -> None:
        self._timeline: list[tuple[float, int, int, __Job__]] = []  # not yet due: (run_at, place, push, job)
        self._ready: list[tuple[int, int, int, __Job__]] = []       # due: (priority, place, push, job)
        self._places: dict[str, int] = {}                        # job id -> its place in line, kept across retries
        self._place = itertools.count()
        self._push = itertools.count()

    def push(self, job: __Job__) -> None:
        """Queue `job`. Queued again (a retry), it keeps its place among the jobs of its priority."""
        if not job.id:
            raise ValueError(f"a queued job needs an id: {job.name!r} has none")
        place = self._places.setdefault(job.id, next(self._place))
        heapq.heappush(self._timeline, (job.run_at, place, next(self._push), job))

    def _promote(self, now: float) -> None:
        while self._timeline and self._timeline[0][0] <= now:
            _, place, push, job = heapq.heappop(self._timeline)
            heapq.heappush(self._ready, (job.priority, place, push, job))

    def pop_due(self, now: float) -> __Job__ | None:
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
