import pytest
from __pkg__ import __FakeClock__, SystemClock
#@test visible
def test_fake_clock_moves_only_when_told():
    clock = __FakeClock__(5)
    assert clock.now() == 5.0
    assert clock.advance(2.5) == 7.5
    clock.sleep(0.5)
    clock.sleep(0)
    assert clock.now() == 8.0
    assert clock.slept == [0.5, 0]
#@test
def test_fake_clock_never_goes_back():
    clock = __FakeClock__(5)
    with pytest.raises(ValueError):
        clock.advance(-1)
    with pytest.raises(ValueError):
        clock.set(4.5)
    clock.set(6)
    assert clock.now() == 6.0
#@test
def test_system_clock_is_monotonic():
    clock = SystemClock()
    first = clock.now()
    clock.sleep(0.001)
    assert clock.now() > first

