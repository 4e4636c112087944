"""Scheduling by learned durations, no starvation, bounded queue with push-back, deadlines."""

from __future__ import annotations

import asyncio
import json
import threading

from hub.serve.scheduler import BatchTooLarge, QueueFull, Scheduler
from hub.serve.work import WorkItem

from .helpers import batch, metric, post, queue_state, timer, wait_for

SLOW, FAST = "synthetic/slow-v1", "synthetic/fast-v1"


def _item(env: str, est: float, i: int = 0) -> WorkItem:
    return WorkItem(request_id="r", index=i, env=env, verifier="v", label="{}", response="", estimate_s=est,
                    deadline=1e9, future=None)


def test_scheduler_prefers_short_work_but_never_starves_long_work():
    async def main():
        s = Scheduler(capacity=1000, workers=1, long_worker_limit=1, long_task_s=1.0, ageing=2.0, max_delay_s=30)
        long_item = _item("long", 1.0)
        await s.admit([long_item], now=0.0)          # key 0 + 2 * 1.0 = 2.0
        order = []
        for step in range(1, 40):                     # a short item every 0.1 s, forever
            await s.admit([_item("short", 0.01, step)], now=step * 0.1)
            taken = await s.take()
            order.append((taken.env, taken.enqueued_at))
            await s.done(taken)
        position = [env for env, _ in order].index("long")
        # short items overtake the long one, but only those that arrived within its bounded delay
        assert 15 <= position <= 21, order
        assert all(at <= 2.0 for env, at in order[:position])
    asyncio.run(main())


def test_scheduler_refuses_a_batch_whole_when_full():
    async def main():
        s = Scheduler(capacity=3, workers=2, long_worker_limit=1, long_task_s=1.0, ageing=2.0, max_delay_s=30)
        await s.admit([_item("a", 2.0, 0), _item("a", 2.0, 1)], now=0.0)
        try:
            await s.admit([_item("a", 2.0, 2), _item("a", 2.0, 3)], now=0.0)
        except QueueFull as exc:
            assert exc.retry_after_s == 4  # (2 queued + 2 offered) x 2 s over 2 workers
        else:
            raise AssertionError("a batch that does not fit was accepted")
        assert s.queued == 2  # nothing of the refused batch got in
        try:
            await s.admit([_item("a", 0.1, i) for i in range(4)], now=0.0)
        except BatchTooLarge as exc:
            assert "exceeds the queue's capacity of 3" in str(exc)
        else:
            raise AssertionError("a batch larger than the queue was accepted")
    asyncio.run(main())


def test_long_work_leaves_a_worker_free_for_short_work():
    async def main():
        s = Scheduler(capacity=100, workers=2, long_worker_limit=1, long_task_s=1.0, ageing=2.0, max_delay_s=30)
        await s.admit([_item("long", 5.0, i) for i in range(3)], now=0.0)
        first = await s.take()
        assert first.long
        # the second worker may not take another long item...
        second = asyncio.ensure_future(s.take())
        await asyncio.sleep(0.01)
        assert not second.done()
        # ...so a short one arriving later starts at once
        await s.admit([_item("short", 0.01, 9)], now=1.0)
        assert (await asyncio.wait_for(second, 1)).env == "short"
    asyncio.run(main())


def _post_in_thread(server, body, results, key):
    def run():
        with timer() as t:
            r = post(server, body)
        results[key] = (r, t)
    th = threading.Thread(target=run)
    th.start()
    return th


def test_short_tasks_are_not_stuck_behind_long_ones(serve):
    # one worker: without scheduling by duration the short request would wait for all long ones
    server = serve({SLOW: {"seconds": 0.4}}, workers=1, long_task_s=0.3, prior_s=0.05)
    # history: the service learns how long each environment takes
    assert post(server, batch(server, [(SLOW, 0), (FAST, 0)])).status_code == 200
    est = queue_state(server)["estimates"]["environments"]
    assert 0.35 <= est[SLOW]["mean_s"] <= 1.0 and est[FAST]["mean_s"] < 0.05
    results = {}
    long_thread = _post_in_thread(server, batch(server, [(SLOW, i) for i in range(5)]), results, "long")
    wait_for(lambda: queue_state(server)["queue"]["running"] == 1)
    short_thread = _post_in_thread(server, batch(server, [(FAST, i) for i in range(5)]), results, "short")
    short_thread.join(10)
    long_thread.join(10)
    (short, t_short), (long, t_long) = results["short"], results["long"]
    assert short.json()["rewards"] == [1.0] * 5 and long.json()["rewards"] == [1.0] * 5
    assert t_short["s"] < 0.8, t_short       # behind at most the one long sample already running
    assert t_long["s"] >= 5 * 0.4 - 0.05     # the long ones all ran, one after another


def test_full_queue_pushes_back_with_retry_after(serve):
    server = serve({SLOW: {"seconds": 0.3}}, workers=1, queue_limit=4)
    post(server, batch(server, [(SLOW, 0)]))  # learn the slow environment's duration
    results = {}
    th = _post_in_thread(server, batch(server, [(SLOW, i) for i in range(4)]), results, "first")
    wait_for(lambda: queue_state(server)["queue"]["queued"] == 3)
    r = post(server, batch(server, [(FAST, 0), (FAST, 1)]))
    assert r.status_code == 503
    assert int(r.headers["Retry-After"]) >= 1
    assert "queue full" in r.json()["error"]
    state = queue_state(server)
    assert state["queue"]["queued_by_env"] == {SLOW: 3} and state["queue"]["capacity"] == 4
    too_big = post(server, batch(server, [(FAST, i) for i in range(5)]))
    assert too_big.status_code == 413
    th.join(10)
    assert results["first"][0].json()["rewards"] == [1.0] * 4
    assert post(server, batch(server, [(FAST, 0)])).status_code == 200  # drained: accepted again
    assert metric(server, "rlhub_serve_requests_total", outcome="rejected_busy") == 1


def test_overrun_gets_the_timeout_reward_and_frees_the_worker(serve):
    server = serve({SLOW: {"seconds": 3.0}}, workers=1, deadline_s=0.6)
    with timer() as t:
        r = post(server, batch(server, [(SLOW, 0)]))
    out = r.json()
    assert r.status_code == 200 and 0.55 <= t["s"] < 1.5
    assert out["extra_logs"]["rlhub/timeout"] == [1.0]
    assert out["rewards"] == [0.0] and out["extra_logs"]["rlhub/substituted"] == [1.0]
    assert "deadline" in out["errors"][0]
    # the overrunning verifier still holds a thread, but not the only worker slot
    with timer() as t:
        again = post(server, batch(server, [(FAST, 2)]))
    assert again.json()["rewards"] == [1.0] and t["s"] < 0.5
    assert metric(server, "rlhub_serve_timeouts_total", env=SLOW) == 1
    state = queue_state(server)["requests"]
    assert state["answered"] == 2 and state["lost"] == 0


def test_estimates_survive_a_restart(serve, tmp_path):
    path = tmp_path / "estimates.json"
    server = serve({SLOW: {"seconds": 0.2}}, estimates_file=str(path))
    post(server, batch(server, [(SLOW, 0), (SLOW, 1)]))
    server.stop()
    saved = json.loads(path.read_text())
    assert 0.15 <= saved["environments"][SLOW]["mean_s"] < 1.0 and saved["environments"][SLOW]["count"] == 2
    again = serve({SLOW: {"seconds": 0.2}}, estimates_file=str(path))
    assert queue_state(again)["estimates"]["environments"][SLOW]["count"] == 2
