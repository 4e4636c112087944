import random
import pytest
from __pkg__ import backoff
#@test visible
def test_constant_and_linear():
    assert backoff.constant(5, 2.0) == 2.0
    assert backoff.constant(1, 2.0, cap=1.5) == 1.5
    assert [backoff.linear(n, 1.0) for n in (1, 2, 3)] == [1.0, 2.0, 3.0]
    assert backoff.linear(3, 1.0, step=0.5) == 2.0
    assert backoff.linear(10_000, 1.0) == backoff.MAX_DELAY
#@test visible
def test_exponential_grows_by_the_factor():
    assert backoff.exponential(1, 0.5) == 0.5
    assert backoff.exponential(2, 0.5) == 0.5 * backoff.FACTOR
    assert backoff.exponential(3, 0.5) == 0.5 * backoff.FACTOR ** 2
    assert backoff.exponential(4, 1.0, factor=2, cap=5.0) == 5.0
    assert backoff.exponential(3, 1.0, factor=2, cap=5.0) == 4.0
    assert backoff.exponential(3, 1.0, factor=1, cap=5.0) == 1.0
#@test
def test_backoff_attempts_start_at_one():
    for strategy in (backoff.constant, backoff.linear, backoff.exponential):
        with pytest.raises(ValueError):
            strategy(0, 1.0)
    assert backoff.exponential(10, 0.0) == 0.0
    assert backoff.exponential(2, 1.0, cap=0.0) == 0.0
    assert backoff.exponential(2, 1.0, cap=0.5) == 0.5
    assert backoff.exponential(60, 1.0) == __max_delay__
    assert backoff.exponential(2, 1.0) == __factor__
#@test catches=huge_attempt
def test_exponential_far_past_the_cap():
    assert backoff.exponential(5000, 0.25) == backoff.MAX_DELAY
    assert backoff.exponential(1100, 1.0, factor=3, cap=60.0) == 60.0
    assert backoff.exponential(2000, 1.0, factor=2, cap=7.0) == 7.0
    assert backoff.series("exponential", 1200, 2.0, cap=9.0)[-1] == 9.0
#@test
def test_jitter_stays_within_its_spread():
    values = [backoff.jittered(10.0, 0.2, seed) for seed in range(200)]
    assert all(8.0 <= v <= 12.0 for v in values)
    assert min(values) < 9.0 and max(values) > 11.0
    assert backoff.jittered(10.0, 0.2, 3) == 10.0 + random.Random(3).uniform(-2.0, 2.0)
    assert backoff.jittered(10.0, 0.0, 3) == 10.0
    for fraction in (-0.1, 1.5):
        with pytest.raises(ValueError):
            backoff.jittered(1.0, fraction, 0)
#@test
def test_full_jitter():
    values = [backoff.full_jitter(4.0, seed) for seed in range(200)]
    assert all(0.0 <= v <= 4.0 for v in values)
    assert min(values) < 0.5 and max(values) > 3.5
#@test
def test_backoff_series():
    assert backoff.series("constant", 3, 2.0) == [2.0, 2.0, 2.0]
    assert backoff.series("linear", 3, 1.5) == [1.5, 3.0, 4.5]
    assert backoff.series("exponential", 4, 1.0, cap=5.0) == [min(5.0, backoff.FACTOR ** n) for n in range(4)]
    assert backoff.series("linear", 0, 1.0) == []
    with pytest.raises(ValueError):
        backoff.series("fibonacci", 3, 1.0)

