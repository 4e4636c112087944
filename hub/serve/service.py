"""The reward service: admit a batch, schedule its samples, answer within the deadline.

Accounting (exposed at /queue and checked by the tests and the load test): every accepted
request is, at any moment, exactly one of in flight, answered, or abandoned by its client, so
`lost = accepted - answered - disconnected - in_flight` must be 0. Each sample's future is
resolved at most once; a late result for a sample already answered (timed out) is dropped.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .. import tracing
from ..core.errors import UserError
from ..rewards import FLAGS, cut, parse_label
from ..rewards.batch import end_sample, sample_attributes
from . import logs
from .config import ServeConfig
from .episodes import EpisodeHost
from .estimates import DurationEstimates
from .metrics import UNKNOWN, ServeMetrics
from .protocol import RewardBatch, response_body
from .retry_line import RetryLine
from .scheduler import QueueFull, Scheduler
from .work import Outcome, WorkerLost, WorkItem, load_catalog

MAX_WORKER_LOST = 8  # re-runs of one sample after losing its worker (process or node)


class RewardService:
    def __init__(self, config: ServeConfig, catalog: Any = None, backend: Any = None) -> None:
        tracing.setup("rlhub-serve")  # exports only if OTEL_EXPORTER_OTLP_ENDPOINT is set
        self.config = config
        self.policy = config.policy()
        self.catalog = catalog if catalog is not None else load_catalog(config.registry, config.plugins)
        self.estimates = DurationEstimates(prior_s=config.prior_s, path=config.estimates_file)
        self.metrics = ServeMetrics(config.metrics_env_labels, config.metrics_domain_labels)
        self.metrics.queue_capacity.set(config.queue_limit)
        self.scheduler = Scheduler(capacity=config.queue_limit, workers=config.workers,
                                   long_worker_limit=config.long_worker_limit, long_task_s=config.long_task_s,
                                   ageing=config.ageing, max_delay_s=config.max_delay_s)
        self.retry_line = RetryLine()
        self.backend = backend if backend is not None else self._make_backend()
        self.counts = {"accepted": 0, "answered": 0, "disconnected": 0, "in_flight": 0, "late_results": 0}
        self.draining = False
        self._workers: list[asyncio.Task] = []
        self._idle = asyncio.Event()
        self._backend_calls: set[asyncio.Future] = set()  # including those abandoned at a deadline
        # episodes: the HTTP episode API and streamable-HTTP MCP (one session per episode)
        self.episodes = EpisodeHost(self.catalog, cap=config.episode_cap, idle_ttl_s=config.episode_ttl_s,
                                    metrics=self.metrics)
        self.episode_pool = ThreadPoolExecutor(config.episode_threads, thread_name_prefix="rlhub-episode")
        self.mcp: Any = None  # hub.mcp.http.MCPSessions, made by the app on the first /mcp request
        self._reaper: asyncio.Task | None = None

    def _make_backend(self) -> Any:
        if self.config.backend == "ray":
            from .ray_backend import RayBackend

            return RayBackend(self.config, self.catalog)
        from .local_backend import LocalBackend

        return LocalBackend(self.catalog, self.config.workers, self.policy)

    # -- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        await self.backend.start()
        self._workers = [asyncio.create_task(self._worker(i), name=f"rlhub-worker-{i}")
                         for i in range(self.config.workers)]
        self._reaper = asyncio.create_task(self._reap_episodes(), name="rlhub-episode-reaper")
        logs.event("service.started", backend=self.backend.state(), workers=self.config.workers,
                   queue_limit=self.config.queue_limit, deadline_s=self.config.deadline_s,
                   environments=len(self.catalog.envs), registry=getattr(self.catalog.registry, "name", None))

    async def stop(self, grace_s: float | None = None) -> None:
        """Refuse new requests, let those accepted be answered (each within its deadline), then stop."""
        self.draining = True
        if self.counts["in_flight"]:
            self._idle.clear()
            try:
                await asyncio.wait_for(self._idle.wait(), grace_s if grace_s is not None else self.config.deadline_s + 5)
            except asyncio.TimeoutError:
                pass
        for task in self._workers:
            task.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)
        if self._reaper is not None:
            self._reaper.cancel()
            await asyncio.gather(self._reaper, return_exceptions=True)
        if self.mcp is not None:
            await self.mcp.stop()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.episode_pool, self.episodes.close_all)
        self.episode_pool.shutdown(wait=False, cancel_futures=True)
        for call in list(self._backend_calls):
            call.cancel()
        await self.backend.close()
        try:
            self.estimates.save()
        except OSError as exc:
            logs.event("estimates.save_failed", logging.WARNING, error=str(exc))
        logs.event("service.stopped", **self.counts)

    # -- requests ----------------------------------------------------------------------------
    def _prepare(self, batch: RewardBatch, request_id: str, deadline: float) -> tuple[list, list[WorkItem], list[bool]]:
        loop = asyncio.get_running_loop()
        outcomes: list[Outcome | None] = [None] * len(batch)
        items = []
        cuts = [cut(q, p or "") for q, p in zip(batch.queries, batch.prompts)]
        for i, raw_label in enumerate(batch.labels):
            label = parse_label(raw_label, self.policy)
            if isinstance(label, Outcome):
                outcomes[i] = label
                continue
            try:
                renv = self.catalog.get(label.env)
            except UserError as exc:
                outcomes[i] = Outcome.failed("bad_label", str(exc), self.policy)
                continue
            verifier = renv.identity.name
            items.append(WorkItem(
                request_id=request_id, index=i, env=label.env, verifier=verifier, label=label,
                response=cuts[i].response,
                estimate_s=self.estimates.estimate(label.env, verifier), deadline=deadline,
                future=loop.create_future()))
        return outcomes, items, [c.prompt_mismatch for c in cuts]

    async def score(self, batch: RewardBatch, request_id: str, body_key: bytes | None = None) -> dict[str, Any]:
        """Answer one request; raises QueueFull / BatchTooLarge before accepting anything.
        `body_key` (a hash of the body) keeps a refused request's place in the retry line."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + self.config.deadline_s
        outcomes, items, mismatched = self._prepare(batch, request_id, deadline)
        # One span per sample under the request's: its queueing, worker, verification and verdict.
        spans = [tracing.start("rlhub.sample", attributes=sample_attributes(i, raw))
                 for i, raw in enumerate(outcomes)]
        for it in items:
            it.span = spans[it.index]
            if it.span.is_recording():
                it.span.set_attributes({"rlhub.env": it.env, "rlhub.label": it.label.to_json()[:200]})
        try:
            return await self._score(batch, request_id, loop, start, deadline, outcomes, items, mismatched, spans,
                                     body_key)
        finally:
            for it in items:  # withdrawn, timed out or refused: the spans end with the request
                tracing.end(it.queue_span, **{"rlhub.withdrawn": True})
            for span in spans:
                tracing.end(span)

    async def _score(self, batch, request_id, loop, start, deadline, outcomes, items, mismatched, spans,
                     body_key) -> dict:
        ahead = self.scheduler.queued
        try:
            await self.scheduler.admit(items, start, held=self.retry_line.held_for_others(body_key, start))
        except QueueFull:
            self.retry_line.refused(body_key, len(items), start)
            raise
        self.retry_line.admitted(body_key)
        for it in items:  # queueing, with the scheduler's decision (order key, long or short) on it
            it.queue_span = tracing.start("rlhub.queue", parent=it.span, attributes={
                "rlhub.estimate_s": it.estimate_s, "rlhub.schedule.delay_s": it.key - it.enqueued_at,
                "rlhub.schedule.long": it.long, "rlhub.schedule.queued_ahead": ahead})
        self.counts["accepted"] += 1
        self.counts["in_flight"] += 1
        self._gauges()
        logs.event("request.accepted", request_id=request_id, samples=len(batch), queued=len(items),
                   bad_labels=len(batch) - len(items), queue=self.scheduler.queued)
        try:
            if items:
                await asyncio.wait([it.future for it in items], timeout=max(0.0, deadline - loop.time()))
        except asyncio.CancelledError:  # the client went away: withdraw its queued work
            withdrawn = sum(self.scheduler.cancel(it) for it in items)
            self.counts["disconnected"] += 1
            self.metrics.requests.labels("disconnected").inc()
            logs.event("request.disconnected", logging.WARNING, request_id=request_id, withdrawn=withdrawn,
                       samples=len(batch))
            raise
        finally:
            self.counts["in_flight"] -= 1
            if not self.counts["in_flight"]:
                self._idle.set()
            self._gauges()
        timed_out = 0
        for it in items:
            if it.future.done():
                outcomes[it.index] = it.future.result()
            else:
                self.scheduler.cancel(it)
                it.future.cancel()
                timed_out += 1
                outcomes[it.index] = Outcome.failed("timeout", f"not verified within the {self.config.deadline_s:g}s deadline",
                                                    self.policy, attempts=max(1, it.attempts))
                self.metrics.timeouts.labels(it.env, it.verifier).inc()
        by_index = {it.index: (it.env, it.verifier) for it in items}
        for i, outcome in enumerate(outcomes):
            env, verifier = by_index.get(i, (UNKNOWN, UNKNOWN))
            self.metrics.samples.labels(env, verifier, outcome.kind).inc()
            self.metrics.sample_answered(env, outcome)
            outcome.prompt_mismatch = mismatched[i]
            if mismatched[i]:
                self.metrics.prompt_mismatch.labels(env).inc()
            if spans[i].is_recording():
                spans[i].set_attribute("rlhub.attempts", outcome.attempts)
            end_sample(spans[i], outcome)
        self._warn(request_id, outcomes, mismatched)
        self.counts["answered"] += 1
        self.metrics.requests.labels("answered").inc()
        elapsed = loop.time() - start
        self.metrics.request_seconds.observe(elapsed)
        kinds = {k: sum(o.kind == k for o in outcomes) for k in ("ok", *FLAGS)}
        logs.event("request.answered", logging.WARNING if timed_out else logging.INFO, request_id=request_id,
                   samples=len(batch), seconds=round(elapsed, 4), **kinds)
        return response_body(outcomes, request_id)

    def _warn(self, request_id: str, outcomes: list[Outcome], mismatched: list[bool]) -> None:
        """Bad labels and prompts missing from their queries are the data's or the template's
        fault, not the model's: a warning per request that has any, with the first example."""
        bad = [o for o in outcomes if o.kind == "bad_label"]
        if bad:
            self.metrics.bad_labels.inc(len(bad))
            logs.event("request.bad_labels", logging.WARNING, request_id=request_id, samples=len(bad),
                       first=bad[0].error)
        if any(mismatched):
            logs.event("request.prompt_mismatch", logging.WARNING, request_id=request_id, samples=sum(mismatched),
                       graded="what follows the last assistant turn marker (or the whole query without one)",
                       hint="the query does not contain its prompt: are prompts and queries rendered with the "
                            "same chat template?")

    # -- workers -----------------------------------------------------------------------------
    async def _worker(self, slot: int) -> None:
        while True:
            item = await self.scheduler.take()
            self._gauges()
            tracing.end(item.queue_span)
            try:
                if not item.cancelled and not item.future.done():
                    with tracing.use(item.span):  # each attempt's rlhub.verify span is the sample's child
                        await self._run(item)
                    if item.extra.get("worker_lost") and item.span.is_recording():
                        item.span.set_attribute("rlhub.worker_lost", item.extra["worker_lost"])
            except Exception as exc:  # a bug of ours must not kill the worker or lose the sample
                logs.event("worker.error", logging.ERROR, request_id=item.request_id, error=repr(exc))
                self._resolve(item, Outcome.failed("no_verdict", f"internal error: {type(exc).__name__}: {exc}", self.policy))
            finally:
                await self.scheduler.done(item)
                self._gauges()

    async def _run(self, item: WorkItem) -> None:
        loop = asyncio.get_running_loop()
        self.metrics.wait_seconds.labels(item.env, item.verifier).observe(loop.time() - item.enqueued_at)
        outcome: Outcome | None = None
        while item.attempts <= self.config.retries:
            remaining = item.deadline - loop.time()
            if remaining <= 0 or item.future.done():
                break
            item.attempts += 1
            if item.attempts > 1:
                self.metrics.retries.labels(item.env, item.verifier).inc()
                logs.event("sample.retry", logging.WARNING, request_id=item.request_id, index=item.index,
                           env=item.env, attempt=item.attempts, after=outcome.error if outcome else None)
            task = asyncio.ensure_future(self.backend.run(item))
            task.add_done_callback(functools.partial(self._observe, item))
            self._backend_calls.add(task)
            task.add_done_callback(self._backend_calls.discard)
            try:
                outcome = await asyncio.wait_for(asyncio.shield(task), remaining)
            except asyncio.TimeoutError:
                return  # the request answers this sample as timed out; the slot is free again
            except WorkerLost as exc:
                # not the sample's fault: retry elsewhere (backing off while the cluster recovers),
                # bounded by the deadline and MAX_WORKER_LOST, without using up `retries`
                self.metrics.worker_lost.labels(item.verifier).inc()
                outcome = Outcome.failed("no_verdict", f"worker lost: {exc}", self.policy)
                lost = item.extra["worker_lost"] = item.extra.get("worker_lost", 0) + 1
                if lost <= MAX_WORKER_LOST:
                    item.attempts -= 1
                    await asyncio.sleep(min(2.0, 0.1 * 2 ** (lost - 1), max(0.0, item.deadline - loop.time())))
                continue
            if outcome.kind != "no_verdict":
                break
            self.metrics.sandbox_failures.labels(item.env, item.verifier).inc()
            logs.event("sample.no_verdict", logging.WARNING, request_id=item.request_id, index=item.index,
                       env=item.env, error=outcome.error, worker=outcome.worker)
        if outcome is None:
            return
        outcome.attempts = item.attempts + item.extra.get("worker_lost", 0)
        self._resolve(item, outcome)
        logs.event("sample.done", logging.DEBUG, request_id=item.request_id, index=item.index, env=item.env,
                   kind=outcome.kind, reward=outcome.reward, verify_s=round(outcome.verify_s, 4), worker=outcome.worker)

    def _resolve(self, item: WorkItem, outcome: Outcome) -> None:
        if item.future.done():
            self.counts["late_results"] += 1
        else:
            item.future.set_result(outcome)

    def _observe(self, item: WorkItem, task: asyncio.Future) -> None:
        if task.cancelled() or task.exception() is not None:
            return
        outcome = task.result()
        if outcome.kind in ("ok", "no_verdict"):
            self.estimates.observe(item.env, item.verifier, outcome.verify_s)
            self.metrics.verified(item.env, item.verifier, outcome.verify_s)
            self.metrics.estimate.labels(item.env).set(self.estimates.estimate(item.env, item.verifier))

    async def _reap_episodes(self) -> None:
        """Close the episodes idle past the TTL (their sandboxes with them), a few times per TTL."""
        loop = asyncio.get_running_loop()
        period = min(5.0, max(0.02, self.config.episode_ttl_s / 4))
        while True:
            await asyncio.sleep(period)
            try:
                expired = await loop.run_in_executor(self.episode_pool, self.episodes.reap)
            except Exception as exc:  # noqa: BLE001 - the reaper must outlive one bad close
                logs.event("episodes.reap_failed", logging.ERROR, error=repr(exc))
                continue
            if expired:
                logs.event("episodes.expired", episodes=len(expired), ttl_s=self.config.episode_ttl_s)

    def _gauges(self) -> None:
        self.metrics.queue_depth.set(self.scheduler.queued)
        self.metrics.running.set(self.scheduler.running)
        self.metrics.in_flight.set(self.counts["in_flight"])

    def state(self) -> dict[str, Any]:
        c = self.counts
        return {"status": "draining" if self.draining else "ok", "backend": self.backend.state(),
                "queue": {**self.scheduler.state(),
                          "retry_line": self.retry_line.state(asyncio.get_running_loop().time())},
                "requests": {**c, "lost": c["accepted"] - c["answered"] - c["disconnected"] - c["in_flight"]},
                "estimates": self.estimates.snapshot(), "episodes": self.episodes.state()}

