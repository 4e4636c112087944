"""Peak shaving through OpenRLHF's own HTTP client: a burst far above the service's throughput
overflows the bounded queue, the overflow is refused with 503 and retried by the client, and in
the end every sample is graded exactly once, none lost, the queue drained by duration estimates.

Scaled down (2 workers, verifications of 5 and 30 ms, 160 samples at once against a 64-sample
queue: a few seconds); benchmarks/bench_burst.py runs the full-size version and prints figures.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter

import pytest

from hub.serve.local_backend import LocalBackend
from hub.serve.retry_line import RetryLine, body_key

from .helpers import batch, metric, post, queue_state, wait_for

pytest.importorskip("openrlhf.utils.agent")
from openrlhf.utils.agent import SingleTurnAgentExecutor
from hub.testing.retries import CountTries

FAST, MEDIUM, SLOW = "synthetic/fast-v1", "synthetic/medium-v1", "synthetic/slow-v1"


class RecordingBackend(LocalBackend):
    """The real local backend; notes each sample as it starts (in the order the scheduler took them)."""

    def __init__(self, catalog, config) -> None:
        super().__init__(catalog, config.workers, config.policy())
        self.started: list = []

    async def run(self, item):
        self.started.append(item)
        return await super().run(item)


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


def test_room_that_frees_goes_to_the_request_refused_first(serve):
    server = serve({SLOW: {"seconds": 1.0}}, workers=1, queue_limit=2)  # 1 s: room for a slow machine to act
    results: dict = {}
    threads = []

    def send(name, body):
        threads.append(threading.Thread(target=lambda: results.setdefault(name, post(server, body))))
        threads[-1].start()
    send("running", batch(server, [(SLOW, 1)]))
    wait_for(lambda: queue_state(server)["queue"]["running"] == 1)
    send("waiting", batch(server, [(SLOW, 2), (SLOW, 3)]))
    wait_for(lambda: queue_state(server)["queue"]["queued"] == 2)  # the queue is full
    first = batch(server, [(SLOW, 10)])
    assert post(server, first).status_code == 503  # refused: it keeps a place in the line
    wait_for(lambda: queue_state(server)["queue"]["queued"] == 1)  # room for one frees...
    newcomer = post(server, batch(server, [(SLOW, 20)]))
    assert newcomer.status_code == 503 and "held for requests refused earlier" in newcomer.json()["error"]
    line = queue_state(server)["queue"]["retry_line"]
    assert line["requests"] == 2 and line["samples"] == 2
    send("first", first)  # its retry: the room was held for it
    for t in threads:
        t.join(10)
    assert results["first"].status_code == 200 and results["first"].json()["rewards"] == [1.0]
    assert results["running"].json()["rewards"] == [1.0] and results["waiting"].json()["rewards"] == [1.0] * 2


def test_a_place_in_the_retry_line_lapses_when_its_request_does_not_come_back():
    line = RetryLine(window_s=2.0, client_tries=5)
    a, b, c = body_key(b"a"), body_key(b"b"), body_key(b"c")
    line.refused(a, 5, now=0.0)
    line.refused(b, 2, now=0.5)
    assert line.held_for_others(None, now=1.0) == 7   # a newcomer waits behind both
    assert line.held_for_others(a, now=1.0) == 0      # the first refused goes first
    assert line.held_for_others(b, now=1.0) == 5
    line.refused(b, 2, now=1.5)                       # b retried (still no room); a did not
    assert line.held_for_others(b, now=2.1) == 0      # a's place lapsed 2 s after it was last seen
    line.admitted(b)
    for t in range(5):                                # refused at each of OpenRLHF's 5 tries:
        line.refused(c, 1, now=3.0 + t)               # the client gives up, so does its place
    assert line.state(now=7.0) == {"requests": 0, "samples": 0, "oldest_s": 0.0}
