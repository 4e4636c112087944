import pytest
from __pkg__ import RetryPolicy, backoff
#@test visible
def test_retry_policy_counts_attempts():
    policy = RetryPolicy(max_attempts=3)
    assert [policy.should_retry(n, ConnectionError("down")) for n in (1, 2, 3)] == [True, True, False]
    assert RetryPolicy(max_attempts=1).should_retry(1, ConnectionError()) is False
#@test visible
def test_retry_only_listed_errors():
    policy = RetryPolicy(max_attempts=5, retry_on=(ConnectionError, TimeoutError), give_up_on=(ConnectionRefusedError,))
    assert policy.should_retry(1, TimeoutError()) is True
    assert policy.should_retry(1, ConnectionResetError()) is True
    assert policy.should_retry(1, ValueError()) is False
    assert policy.should_retry(1, ConnectionRefusedError()) is False
#@test catches=swap_backoff
def test_retry_delays_grow_by_the_factor():
    assert RetryPolicy(max_attempts=5, base_delay=1.0, factor=2, max_delay=100.0).delays() == [1.0, 2.0, 4.0, 8.0]
    assert RetryPolicy(max_attempts=3, base_delay=0.5, factor=3).delays() == [0.5, 1.5]
#@test catches=swap_backoff
def test_retry_delay_is_capped():
    policy = RetryPolicy(max_attempts=10, base_delay=2.0, factor=2, max_delay=10.0)
    assert policy.delays() == [2.0, 4.0, 8.0] + [10.0] * 6
    assert policy.total_delay() == 74.0
    assert policy.delay(3) == 8.0
#@test catches=swap_backoff
def test_retry_jitter_is_drawn_from_the_seed():
    policy = RetryPolicy(max_attempts=3, base_delay=4.0, jitter=0.5)
    assert policy.delay(1, 11) == policy.delay(1, 11)
    values = [policy.delay(1, seed) for seed in range(50)]
    assert all(2.0 <= v <= 6.0 for v in values)
    assert len(set(values)) > 1
#@test
def test_retry_policy_refuses_nonsense():
    for kwargs in ({"max_attempts": 0}, {"base_delay": -1.0}, {"jitter": 1.5}, {"factor": 0.5}, {"max_delay": -2.0}):
        with pytest.raises(ValueError):
            RetryPolicy(**kwargs)
#@test catches=swap_backoff
def test_retry_describe():
    assert RetryPolicy(max_attempts=1).describe() == "up to 1 attempt(s), waits none"
    assert RetryPolicy(max_attempts=3, base_delay=0.5, factor=2).describe() == "up to 3 attempt(s), waits 500ms, 1s"

