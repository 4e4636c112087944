import pytest
from __pkg__ import __FakeClock__
from __pkg__.errors import CapacityError
from __pkg__.leaky import LeakyBucket
from __pkg__.rates import Rate
#@test visible
def test_leaky_spaces_requests_evenly():
    bucket = LeakyBucket(Rate(4, 1.0), capacity=3, clock=__FakeClock__())
    decisions = [bucket.check() for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert [d.delay for d in decisions[:3]] == [0.0, 0.25, 0.5]
    assert decisions[3].retry_after == pytest.approx(0.25)
#@test
def test_leaky_drains_over_time():
    clock = __FakeClock__()
    bucket = LeakyBucket(Rate(4, 1.0), capacity=3, clock=clock)
    for _ in range(3):
        bucket.check()
    clock.advance(0.5)
    assert bucket.queued() == pytest.approx(1.0)
    decision = bucket.check()
    assert (decision.allowed, decision.delay) == (True, pytest.approx(0.25))
    with pytest.raises(CapacityError):
        bucket.check(4)
#@test
def test_leaky_wait_sleeps_for_its_turn():
    clock = __FakeClock__()
    bucket = LeakyBucket(Rate(4, 1.0), capacity=2, clock=clock)
    assert [bucket.wait() for _ in range(3)] == [0.0, 0.25, 0.25]
    assert clock.now() == 0.5
#@test
def test_leaky_refund():
    clock = __FakeClock__()
    bucket = LeakyBucket(Rate(4, 1.0), capacity=2, clock=clock)
    bucket.check()
    bucket.check()
    bucket.refund()
    assert bucket.check().delay == 0.25
    assert bucket.check().allowed is False

