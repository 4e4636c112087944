import pytest
from __pkg__.stats import Stats, percentile
#@test visible
def test_percentile_nearest_rank():
    values = [5, 1, 4, 2, 3]
    assert [percentile(values, p) for p in (0, 20, 50, 90, 100)] == [1, 1, 3, 5, 5]
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)
#@test visible
def test_outcomes_by_policy():
    stats = Stats()
    for policy, outcome in (("api", "done"), ("api", "done"), ("api", "failed"), ("mail", "done")):
        stats.record(policy, outcome)
    assert (stats.count("done"), stats.count("done", "api"), stats.count("failed", "mail")) == (3, 2, 0)
    assert stats.success_rate("api") == pytest.approx(2 / 3)
    assert stats.success_rate("nobody") is None
    with pytest.raises(ValueError):
        stats.record("api", "exploded")
#@test catches=shared_waits
def test_new_stats_start_empty():
    first = Stats()
    first.waited(2.0)
    second = Stats()
    assert second.waits == []
    assert second.summary()["p95_wait"] is None
#@test
def test_waits_carried_over():
    summary = Stats([1.0, 3.0, 2.0]).summary()
    assert (summary["p50_wait"], summary["p95_wait"], summary["max_wait"]) == (2.0, 3.0, 3.0)
    assert sorted(summary) == sorted(["done", "failed", "expired", "cancelled", "attempts", "retries", "throttled",
                                      "p50_wait", "p95_wait", "max_wait"])
#@test
def test_stats_table():
    stats = Stats()
    stats.record("webhooks", "done")
    stats.record("api", "expired")
    lines = stats.table().splitlines()
    assert lines[0].split() == ["policy", "done", "failed", "expired", "cancelled"]
    assert [line.split() for line in lines[1:]] == [["api", "0", "0", "1", "0"], ["webhooks", "1", "0", "0", "0"]]

