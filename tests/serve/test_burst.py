"""Peak shaving through OpenRLHF's own HTTP client: a burst far above the service's throughput
overflows the bounded queue, the overflow is refused with 503 and retried by the client, and in
the end every sample is graded exactly once, none lost, the queue drained by duration estimates.

Scaled down (2 workers, verifications of 5 and 30 ms, 160 samples at once against a 64-sample
queue: a few seconds); benchmarks/bench_burst.py runs the full-size version and prints figures.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

import pytest

from hub.serve.local_backend import LocalBackend

from .helpers import batch, metric, post, queue_state

pytest.importorskip("openrlhf.utils.agent")
from openrlhf.utils.agent import SingleTurnAgentExecutor

FAST, MEDIUM = "synthetic/fast-v1", "synthetic/medium-v1"


class RecordingBackend(LocalBackend):
    """The real local backend; notes each sample as it starts (in the order the scheduler took them)."""

    def __init__(self, catalog, config) -> None:
        super().__init__(catalog, config.workers, config.policy())
        self.started: list = []

    async def run(self, item):
        self.started.append(item)
        return await super().run(item)


class CountTries(logging.Handler):
    """OpenRLHF's client logs each failed try ("Request error ...") before it sleeps 1 s and retries."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = 0

    def emit(self, record) -> None:
        self.failed += "error" in record.getMessage()


def test_a_burst_is_shaved_by_503_and_retries_nothing_lost_nothing_graded_twice(serve):
    server = serve({FAST: {"seconds": 0.005}, MEDIUM: {"seconds": 0.03}}, backend=RecordingBackend,
                   workers=2, queue_limit=64, prior_s=0.01)
    post(server, batch(server, [(FAST, 10**6), (MEDIUM, 10**6)]))  # learn both durations first
    recorder = server.service.backend
    recorder.started.clear()

    per_request, n_requests = 4, 40  # 160 samples at once: 2.5 queues' worth
    bodies = []
    for r in range(n_requests):
        pairs = [((FAST, MEDIUM)[(r + i) % 2], r * per_request + i) for i in range(per_request)]
        body = batch(server, pairs, correct=r % 3 != 0)
        bodies.append((body, [1.0 if r % 3 else 0.0] * per_request))
    client = SingleTurnAgentExecutor(remote_rm_url=server.url + "/get_reward")
    tries = CountTries()
    openrlhf_log = logging.getLogger("openrlhf.utils.agent")
    openrlhf_log.addHandler(tries)

    async def one(body):
        try:
            return await client._fetch_rewards_via_http(body["query"], body["prompts"], body["labels"])
        except RuntimeError:  # the client gave up after its 5 tries: the sample is lost to training
            return None

    async def burst():
        return await asyncio.gather(*(one(body) for body, _ in bodies))

    try:
        replies = asyncio.run(burst())
    finally:
        openrlhf_log.removeHandler(tries)

    # nothing lost, every verdict right, each arriving once, under its own request id
    assert all(r is not None for r in replies), "a request was given up by OpenRLHF's client"
    for (body, expected), reply in zip(bodies, replies):
        assert len(reply) == 1 and reply[0]["rewards"] == expected
    ids = [reply[0]["request_id"] for reply in replies]
    assert len(set(ids)) == n_requests
    # the queue overflowed: refused tries were 503s, and every one of them was retried
    rejected = metric(server, "rlhub_serve_requests_total", outcome="rejected_busy")
    assert rejected > 0 and tries.failed == rejected
    req = queue_state(server)["requests"]
    assert req["accepted"] == req["answered"] == n_requests + 1 and req["lost"] == 0 and req["late_results"] == 0
    # graded exactly once: each sample ran once, and the service answered 160 samples, no more
    runs = Counter((it.label.env, it.label.index) for it in recorder.started)
    assert len(runs) == n_requests * per_request and max(runs.values()) == 1
    assert metric(server, "rlhub_serve_samples_total") == n_requests * per_request + 2

    # drained by the duration estimates: a sample never ran after one queued later with a larger key...
    order = recorder.started
    for pos, a in enumerate(order):
        for b in order[pos + 1:]:
            assert not (b.enqueued_at <= a.enqueued_at and b.key < a.key), (a, b)
    # ...and short samples overtook long ones queued before them
    overtakes = sum(1 for pos, a in enumerate(order) for b in order[pos + 1:]
                    if a.env == FAST and b.env == MEDIUM and b.enqueued_at < a.enqueued_at)
    assert overtakes > 0
