import pytest
from __pkg__ import __FakeClock__, RetryPolicy, __Scheduler__
from __pkg__.bucket import TokenBucket
from __pkg__.errors import __Error__, UnknownJob
from __pkg__.leaky import LeakyBucket
from __pkg__.rates import Rate
#@test visible
def test_jobs_run_in_priority_order_when_due():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    order = []
    s.__submit__("low", lambda: order.append("low"), priority=9)
    s.__submit__("high", lambda: order.append("high"), priority=1)
    s.__submit__("later", lambda: order.append("later"), priority=0, delay=5)
    assert len(s.run_pending()) == 2
    assert order == ["high", "low"]
    s.run_until(10)
    assert order == ["high", "low", "later"]
    assert clock.now() == 10.0
#@test visible
def test_results_and_states():
    s = __Scheduler__(__FakeClock__())
    job_id = s.__submit__("answer", lambda: 42)
    assert s.state(job_id) == "waiting"
    assert s.run_pending() == [job_id]
    job = s.job(job_id)
    assert (job.result, job.state, job.attempts) == (42, "done", 1)
    with pytest.raises(UnknownJob):
        s.job("nope")
#@test visible
def test_deadlines_expire_jobs_that_could_not_run():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    ran = []
    on_time = s.__submit__("on-time", lambda: ran.append("on-time"), delay=3, deadline=3)
    s.run_until(3)
    late = s.__submit__("late", lambda: ran.append("late"), delay=1, deadline=2)
    clock.advance(5)
    s.run_pending()
    assert ran == ["on-time"]
    assert (s.state(on_time), s.state(late)) == ("done", "expired")
#@test
def test_job_ids_and_validation():
    s = __Scheduler__(__FakeClock__())
    assert [s.__submit__("ping"), s.__submit__("ping")] == ["ping#1", "ping#2"]
    assert s.pending() == ["ping#1", "ping#2"]
    with pytest.raises(ValueError):
        s.__submit__("bad", delay=-1)
    with pytest.raises(ValueError):
        s.__submit__("bad", delay=5, deadline=2)
    with pytest.raises(__Error__):
        s.add(s.job("ping#1"))
#@test catches=retry_branch
def test_failed_jobs_are_retried_after_a_backoff():
    clock = __FakeClock__()
    s = __Scheduler__(clock, retry=RetryPolicy(max_attempts=3, base_delay=1.0, factor=2))
    calls = []

    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionError("down")
        return "ok"

    job_id = s.__submit__("flaky", flaky)
    s.run_until(100)
    job = s.job(job_id)
    assert (job.state, job.attempts, job.result) == ("done", 3, "ok")
    assert job.times("attempt") == [0.0, 1.0, 3.0]
#@test catches=retry_branch
def test_permanent_errors_are_not_retried():
    s = __Scheduler__(__FakeClock__(), retry=RetryPolicy(max_attempts=5, retry_on=(ConnectionError,)))

    def broken():
        raise ValueError("bad input")

    job_id = s.__submit__("broken", broken)
    s.run_until(100)
    job = s.job(job_id)
    assert (job.state, job.attempts, job.error) == ("failed", 1, "ValueError: bad input")
    assert [j.id for j in s.dead] == [job_id]
#@test catches=retry_branch,swap_backoff
def test_retries_stop_at_max_attempts():
    s = __Scheduler__(__FakeClock__(), retry=RetryPolicy(max_attempts=4, base_delay=0.5))

    def down():
        raise ConnectionError("still down")

    job_id = s.__submit__("down", down)
    s.run_until(1000)
    assert (s.state(job_id), s.job(job_id).attempts) == ("failed", 4)
    assert s.stats.summary()["retries"] == 3
#@test catches=retry_branch
def test_retry_past_the_deadline_expires():
    s = __Scheduler__(__FakeClock__(), retry=RetryPolicy(max_attempts=10, base_delay=1.0, factor=2))

    def down():
        raise TimeoutError("slow")

    job_id = s.__submit__("down", down, deadline=2.5)
    s.run_until(100)
    job = s.job(job_id)
    assert (job.state, job.attempts) == ("expired", 2)
    assert job.times("attempt") == [0.0, 1.0]
#@test catches=limit_key
def test_policy_limits_are_enforced():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    s.set_limit("api", TokenBucket(Rate(2, 1.0), clock=clock))
    ids = [s.__submit__("call", policy="api") for _ in range(5)]
    s.run_until(10)
    assert [s.job(i).times("attempt")[0] for i in ids] == [0.0, 0.0, 0.5, 1.0, 1.5]
    assert s.stats.summary()["throttled"] > 0
#@test catches=limit_key
def test_limits_apply_per_policy():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    s.set_limit("mail", TokenBucket(Rate(1, 2.0), clock=clock))
    mail = [s.__submit__("send", policy="mail") for _ in range(3)]
    other = [s.__submit__("send", policy="other") for _ in range(3)]
    s.run_until(10)
    assert [s.job(i).times("attempt")[0] for i in mail] == [0.0, 2.0, 4.0]
    assert [s.job(i).times("attempt")[0] for i in other] == [0.0, 0.0, 0.0]
#@test catches=limit_key
def test_a_leaky_limit_spaces_jobs_out():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    s.set_limit("sync", LeakyBucket(Rate(4, 1.0), capacity=10, clock=clock))
    ids = [s.__submit__(f"sync-{n}", policy="sync") for n in range(4)]
    s.run_until(5)
    assert [s.job(i).times("attempt")[0] for i in ids] == [0.0, 0.25, 0.5, 0.75]
#@test catches=retry_branch
def test_outcomes_are_counted():
    clock = __FakeClock__()
    s = __Scheduler__(clock, retry=RetryPolicy(max_attempts=1))

    def fails():
        raise RuntimeError("no")

    s.__submit__("ok", lambda: 1, policy="a")
    s.__submit__("ok", lambda: 2, policy="a")
    s.__submit__("bad", fails, policy="b")
    s.__submit__("late", lambda: 3, policy="b", delay=1, deadline=1)
    clock.advance(2)
    s.drain(limit=60)
    summary = s.stats.summary()
    assert (summary["done"], summary["failed"], summary["expired"], summary["attempts"]) == (2, 1, 1, 3)
    assert s.stats.count("done", "a") == 2
    assert s.stats.success_rate("b") == 0.0
    assert s.report().splitlines()[1].split() == ["a", "2", "0", "0", "0"]
#@test catches=shared_waits
def test_waits_are_measured_per_scheduler():
    clock = __FakeClock__()
    busy = __Scheduler__(clock)
    busy.set_limit("api", TokenBucket(Rate(2, 1.0), clock=clock))
    for _ in range(4):
        busy.__submit__("call", policy="api")
    busy.run_until(10)
    fresh = __Scheduler__(clock)
    assert fresh.stats.summary()["max_wait"] is None
    fresh.__submit__("quick")
    fresh.run_pending()
    assert fresh.stats.summary()["max_wait"] == 0.0
#@test
def test_drain_stops_when_nothing_is_left():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    for delay in (0, 7, 30):
        s.__submit__("tick", delay=delay)
    assert len(s.drain()) == 3
    assert clock.now() == 30.0
    assert s.pending() == []
#@test needs=cancel
def test_cancel_stops_a_waiting_job():
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    ran = []
    later = s.__submit__("later", lambda: ran.append("later"), delay=5)
    now = s.__submit__("now", lambda: ran.append("now"))
    assert s.cancel(later) is True
    s.run_until(10)
    assert ran == ["now"]
    assert (s.state(later), s.cancel(later), s.cancel(now)) == ("cancelled", False, False)
    with pytest.raises(UnknownJob):
        s.cancel("nope")
#@test needs=cancel
def test_cancelled_jobs_are_counted():
    s = __Scheduler__(__FakeClock__())
    ids = [s.__submit__("job", delay=1) for _ in range(3)]
    s.cancel(ids[0])
    s.cancel(ids[2])
    s.drain()
    summary = s.stats.summary()
    assert (summary["cancelled"], summary["done"]) == (2, 1)
    assert s.pending() == []

