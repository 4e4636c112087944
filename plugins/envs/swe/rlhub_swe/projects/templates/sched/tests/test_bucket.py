import pytest
from __pkg__ import __FakeClock__
from __pkg__.bucket import TokenBucket
from __pkg__.errors import CapacityError, RateLimited
from __pkg__.rates import Rate
#@test visible
def test_bucket_allows_a_burst_then_refuses():
    bucket = TokenBucket(Rate(5, 1.0), clock=__FakeClock__())
    assert [bucket.try_acquire() for _ in range(6)] == [True] * 5 + [False]
#@test visible
def test_bucket_refills_at_its_rate():
    clock = __FakeClock__()
    bucket = TokenBucket(Rate(2, 1.0), burst=4, clock=clock)
    assert bucket.check(4).allowed is True
    clock.advance(0.5)
    assert bucket.available() == 1.0
    assert [bucket.try_acquire(), bucket.try_acquire()] == [True, False]
    clock.advance(10)
    assert bucket.available() == 4.0
#@test
def test_bucket_says_when_to_retry():
    clock = __FakeClock__()
    bucket = TokenBucket(Rate(4, 1.0), burst=2, clock=clock)
    first = bucket.check(2)
    assert (first.allowed, first.retry_after, first.remaining) == (True, 0.0, 0.0)
    refused = bucket.check(1)
    assert refused.allowed is False
    assert refused.retry_after == pytest.approx(0.25)
    clock.advance(0.25)
    assert bucket.check(1).allowed is True
    clock.advance(0.1)
    assert bucket.check(2).retry_after == pytest.approx(0.4)
#@test
def test_bucket_refuses_impossible_requests():
    bucket = TokenBucket(Rate(1, 1.0), burst=2, clock=__FakeClock__())
    with pytest.raises(CapacityError):
        bucket.check(3)
    with pytest.raises(ValueError):
        bucket.check(0)
    with pytest.raises(CapacityError):
        TokenBucket(Rate(0, 1.0))
    with pytest.raises(CapacityError):
        TokenBucket(Rate(1, 1.0), burst=0)
#@test
def test_bucket_acquire_and_wait():
    clock = __FakeClock__()
    bucket = TokenBucket(Rate(2, 1.0), burst=1, clock=clock)
    assert bucket.acquire().allowed is True
    with pytest.raises(RateLimited):
        bucket.acquire(key="client-7")
    assert bucket.wait() == pytest.approx(0.5)
    assert clock.now() == pytest.approx(0.5)
    assert bucket.wait() == pytest.approx(0.5)
    assert clock.now() == pytest.approx(1.0)
#@test
def test_bucket_refund_and_time_until_full():
    clock = __FakeClock__()
    bucket = TokenBucket(Rate(10, 1.0), burst=5, clock=clock)
    assert bucket.check(3).remaining == 2.0
    assert bucket.time_until_full() == pytest.approx(0.3)
    bucket.refund(2)
    assert bucket.available() == 4.0
    bucket.refund(10)
    assert bucket.available() == 5.0
    assert bucket.time_until_full() == 0.0
#@test
def test_bucket_size_and_description():
    bucket = TokenBucket(Rate(3, 1.0), clock=__FakeClock__())
    assert (bucket.capacity, bucket.name) == (3, "token")
    assert "bursts of up to 7" in TokenBucket(Rate(3, 1.0), burst=7).describe()
    assert bucket.check().remaining == 2.0
    bucket.refund()
    assert bucket.available() == 3.0

