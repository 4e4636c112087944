"""The scheduler: runs due jobs best priority first, each within its policy's limiter, retries
failed attempts after a backoff, and gives up on jobs past their deadline. All its time comes from
its clock: with a __FakeClock__, `run_until` jumps from one due job to the next.

    clock = __FakeClock__()
    s = __Scheduler__(clock)
    s.set_limit("api", TokenBucket(Rate(2, 1.0), clock=clock))
    s.__submit__("fetch", fetch, policy="api", deadline=30)
    s.run_until(60)
"""

from __future__ import annotations

import itertools
import math
import random

from .clock import SystemClock
from .errors import __Error__, NoProgress, UnknownJob
from .jobqueue import JobQueue
from .jobs import CANCELLED, DEFAULT_POLICY, DEFAULT_PRIORITY, DONE, EXPIRED, FAILED, RUNNING, WAITING, __Job__
from .limiter import Decision, Limiter
from .retry import RetryPolicy
from .stats import Stats

MAX_STILL = 100_000  # turns of the run loop without time moving or a job running before NoProgress
DRAIN_LIMIT = 86_400.0  # `drain` stops after this many seconds of clock time at most


class __Scheduler__:
    """`clock`: a __FakeClock__ in tests and simulations (a SystemClock by default); `retry`: the
    retry policy of jobs whose policy has none of its own; `seed`: the retry jitter's seed."""

    def __init__(self, clock=None, retry: RetryPolicy | None = None, seed: int = 0) -> None:
        self.clock = clock if clock is not None else SystemClock()
        self.default_retry = retry if retry is not None else RetryPolicy()
        self.limiters: dict[str, Limiter] = {}
        self.retries: dict[str, RetryPolicy] = {}
        self.queue = JobQueue()
        self.stats = Stats()
        self.jobs: dict[str, __Job__] = {}
        self.dead: list[__Job__] = []
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
    def __submit__(self, name: str, action=None, *, policy: str = DEFAULT_POLICY, priority: int = DEFAULT_PRIORITY,
                delay: float = 0.0, deadline: float | None = None, payload=None) -> str:
        """Queue `action` (called with no arguments) to run `delay` seconds from now; the job's id.
        `deadline`: seconds from now after which the job is given up rather than run or retried."""
        if delay < 0:
            raise ValueError(f"delay must be 0 or more, got {delay}")
        if deadline is not None and deadline < delay:
            raise ValueError(f"the deadline ({deadline} s) comes before the job is due ({delay} s)")
        now = self.clock.now()
        job = __Job__(name, action, policy=policy, priority=priority, run_at=now + delay,
                   deadline=None if deadline is None else now + deadline, payload=payload)
        return self.add(job)

    def add(self, job: __Job__) -> str:
        """Queue a job made elsewhere (a policy's `job()`); it is given an id if it has none."""
        if not job.id:
            job.id = f"{job.name}#{next(self._ids)}"
        if job.id in self.jobs:
            raise __Error__(f"a job with id {job.id!r} is already scheduled")
        job.due_at = job.run_at
        self.jobs[job.id] = job
        self.queue.push(job)
        job.note(self.clock.now(), "queued")
        return job.id

    def job(self, job_id: str) -> __Job__:
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
        later: list[__Job__] = []
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

    def _admit(self, job: __Job__) -> Decision:
        limiter = self.limiters.get(job.policy)  #@if:bug.limit_key: limiter = self.limiters.get(job.name)
        return Decision(True) if limiter is None else limiter.check(1)

    def _attempt(self, job: __Job__, now: float) -> None:
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

    def _failed(self, job: __Job__, exc: Exception) -> None:
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

    def _finish(self, job: __Job__, state: str, reason: str = "") -> None:
        now = self.clock.now()
        job.state, job.finished_at = state, now
        job.note(now, state if state == DONE else f"{state}: {reason}")
        self.stats.record(job.policy, state)

    def report(self) -> str:
        """The outcomes per policy, as a table."""
        return self.stats.table()
