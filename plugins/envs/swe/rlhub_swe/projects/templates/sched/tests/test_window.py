import pytest
from __pkg__ import __FakeClock__
from __pkg__.errors import CapacityError
from __pkg__.rates import Rate
from __pkg__.window import SlidingWindowCounter, SlidingWindowLog
#@test visible
def test_window_log_counts_the_last_period():
    clock = __FakeClock__()
    window = SlidingWindowLog(Rate(3, 1.0), clock=clock)
    assert [window.try_acquire() for _ in range(4)] == [True, True, True, False]
    clock.advance(0.5)
    assert window.try_acquire() is False
    clock.advance(1.0)
    assert [window.try_acquire() for _ in range(4)] == [True, True, True, False]
#@test catches=window_edge
def test_window_log_frees_a_slot_one_period_later():
    clock = __FakeClock__()
    window = SlidingWindowLog(Rate(3, 1.0), clock=clock)
    for _ in range(3):
        window.check()
    clock.advance(0.25)
    assert window.check().retry_after == 0.75
    clock.advance(0.75)
    assert window.try_acquire() is True
    assert window.in_window() == 1
#@test
def test_window_log_retry_after_for_larger_requests():
    clock = __FakeClock__()
    window = SlidingWindowLog(Rate(3, 1.0), clock=clock)
    for t in (0.0, 0.25, 0.5):
        clock.set(t)
        window.check()
    clock.set(0.75)
    assert window.check().retry_after == pytest.approx(0.25)
    clock.set(1.125)
    assert window.check(2).retry_after == pytest.approx(0.125)
    with pytest.raises(CapacityError):
        window.check(4)
#@test
def test_window_log_refund():
    window = SlidingWindowLog(Rate(2, 1.0), clock=__FakeClock__())
    window.check(2)
    window.refund()
    assert window.in_window() == 1
    assert window.try_acquire() is True
#@test visible
def test_window_counter_weights_the_previous_window():
    clock = __FakeClock__(0.5)
    counter = SlidingWindowCounter(Rate(10, 1.0), clock=clock)
    assert counter.check(10).allowed is True
    clock.set(1.5)
    assert counter.estimate() == 5.0
    assert [counter.try_acquire() for _ in range(6)] == [True] * 5 + [False]
#@test
def test_window_counter_says_when_to_retry():
    clock = __FakeClock__(0.5)
    counter = SlidingWindowCounter(Rate(10, 1.0), clock=clock)
    counter.check(10)
    clock.set(0.75)
    refused = counter.check()
    assert refused.retry_after == pytest.approx(0.35)
    clock.advance(refused.retry_after)
    assert counter.try_acquire() is True
    clock.set(1.5)
    for _ in range(4):
        counter.check()
    assert counter.check().allowed is False
#@test
def test_window_counter_forgets_after_two_periods():
    clock = __FakeClock__(0.5)
    counter = SlidingWindowCounter(Rate(10, 1.0), clock=clock)
    counter.check(10)
    clock.set(2.5)
    assert counter.estimate() == 0.0
    assert counter.check(10).allowed is True
    counter.refund(4)
    assert counter.estimate() == 6.0

