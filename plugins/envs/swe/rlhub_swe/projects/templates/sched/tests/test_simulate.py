from __pkg__.simulate import burst, merge, replay, steady
#@test visible
def test_traces():
    assert steady(4, 1.0) == [0.0, 0.25, 0.5, 0.75]
    assert burst(3, at=2) == [2.0, 2.0, 2.0]
    assert merge([1.0, 3.0], [2.0], [0.5]) == [0.5, 1.0, 2.0, 3.0]
#@test visible
def test_replay_a_burst():
    summary = replay("token:2/s@4", burst(10)).summary()
    assert (summary["admitted"], summary["refused"], summary["admitted_share"]) == (4, 6, 0.4)
#@test
def test_replay_a_token_bucket_per_second():
    result = replay("token:2/s@2", steady(4, 3.0))
    assert result.admitted == [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5]
    assert result.per_window(1.0) == [3, 2, 2]
#@test catches=window_edge
def test_replay_a_sliding_window():
    result = replay("window:2/s", steady(4, 3.0))
    assert result.admitted == [0.0, 0.25, 1.0, 1.25, 2.0, 2.25]
    assert result.per_window(1.0) == [2, 2, 2]
#@test
def test_replay_a_leaky_bucket():
    result = replay("leaky:4/s@2", burst(3))
    assert result.delays == [0.0, 0.25]
    assert result.summary()["max_delay"] == 0.25
    assert replay("leaky:4/s", []).summary()["admitted_share"] is None

