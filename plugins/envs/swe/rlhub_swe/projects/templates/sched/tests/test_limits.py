import pytest
from __pkg__ import __FakeClock__
from __pkg__.bucket import TokenBucket
from __pkg__.combined import AllOf
from __pkg__.errors import RateLimited, UnknownAlgorithm
from __pkg__.keyed import KeyedLimiter
from __pkg__.limits import make_limiter, parse_limits
from __pkg__.rates import Rate
from __pkg__.window import SlidingWindowLog
#@test visible
def test_limiters_by_algorithm_name():
    clock = __FakeClock__()
    for algorithm in ("token", "leaky", "window", "counter"):
        assert make_limiter(algorithm, "5/s", clock).name == algorithm
    with pytest.raises(UnknownAlgorithm):
        make_limiter("magic", "5/s")
#@test visible
def test_limit_specs():
    clock = __FakeClock__()
    assert parse_limits("token:10/s@20", clock).capacity == 20
    assert parse_limits("3/min", clock).name == "token"
    both = parse_limits("token:10/s + window:100/min", clock)
    assert (both.name, both.capacity) == ("all-of", 10)
#@test
def test_bad_limit_specs():
    for bad in ("", "token:10/s@x", "window:5/s@3", "bogus:1/s", "token:ten/s", "token:10/s + "):
        with pytest.raises(ValueError):
            parse_limits(bad)
#@test
def test_all_limiters_must_agree():
    clock = __FakeClock__()
    bucket = TokenBucket(Rate(10, 1.0), clock=clock)
    both = AllOf(bucket, SlidingWindowLog(Rate(3, 60.0), clock=clock))
    assert [both.try_acquire() for _ in range(4)] == [True, True, True, False]
    assert bucket.available() == 7.0
    clock.advance(30)
    assert both.check().retry_after == 30.0
    with pytest.raises(ValueError):
        AllOf(bucket)
#@test
def test_one_limiter_per_key():
    clock = __FakeClock__()
    limits = KeyedLimiter("token:2/s", clock)
    assert [limits.try_acquire("a") for _ in range(3)] == [True, True, False]
    assert limits.try_acquire("b") is True
    assert (limits.keys(), len(limits)) == (["a", "b"], 2)
    with pytest.raises(RateLimited) as info:
        limits.acquire("a")
    assert str(info.value).startswith("a: rate limited")
#@test
def test_idle_keys_are_forgotten():
    clock = __FakeClock__()
    limits = KeyedLimiter("window:1/min", clock, idle_after=60)
    limits.check("a")
    clock.advance(30)
    limits.check("b")
    clock.advance(40)
    assert limits.forget_idle() == ["a"]
    assert limits.keys() == ["b"]
    assert limits.try_acquire("a") is True
    with pytest.raises(ValueError):
        KeyedLimiter("token:ten/s")

