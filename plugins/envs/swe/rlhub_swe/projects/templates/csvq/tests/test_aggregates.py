import pytest
from __pkg__.aggregates import aggregate, aggregate_labels
from __pkg__.errors import TypeMismatch, UnknownFunction
#@test visible
def test_count_and_sum():
    assert aggregate("COUNT", [1, None, 3]) == 2
    assert aggregate("count", [1, None, 3], star=True) == 3
    assert aggregate("SUM", [1, None, 3]) == 4
    assert aggregate("SUM", [1.5, 2]) == 3.5
#@test visible
def test_min_and_max():
    assert aggregate("MIN", [3, None, 1, 2]) == 1
    assert aggregate("MAX", [3, None, 1, 2]) == 3
    assert aggregate("MAX", ["b", "a"]) == "b"
    assert aggregate("MIN", [-1, -5]) == -5
#@test
def test_average():
    assert aggregate("AVG", [1, 2]) == 1.5
    assert aggregate("AVG", [4]) == 4
    assert aggregate("AVG", []) is None
#@test catches=avg_key
def test_average_skips_nulls():
    assert aggregate("AVG", [2, None, 4]) == 3.0
    assert aggregate("AVG", [None, None]) is None
    assert aggregate("AVG", [None, 5]) == 5
#@test
def test_aggregates_of_nothing():
    assert aggregate("SUM", []) is None
    assert aggregate("SUM", [None]) is None
    assert aggregate("MIN", []) is None
    assert aggregate("MAX", [None]) is None
    assert aggregate("COUNT", []) == 0
    assert aggregate("COUNT", [None, None]) == 0
    assert aggregate("COUNT", [None, None], star=True) == 2
    assert aggregate("SUM", [0]) == 0
#@test
def test_aggregates_check_their_values():
    for name, values in (("SUM", ["a"]), ("AVG", [True]), ("MIN", ["a", 1]), ("MAX", [1, "a"])):
        with pytest.raises(TypeMismatch):
            aggregate(name, values)
    with pytest.raises(UnknownFunction, match="MEDIAN"):
        aggregate("MEDIAN", [1])
    with pytest.raises(TypeMismatch, match="only COUNT"):
        aggregate("SUM", [1], star=True)
#@test
def test_aggregate_calls_in_expressions():
    assert aggregate_labels("SUM(a) + COUNT(*) * 2 - SUM(a)") == ["SUM(a)", "COUNT(*)"]
    assert aggregate_labels("a + ROUND(b, 1)") == []
    assert aggregate_labels("MAX(a) - MIN(a)") == ["MAX(a)", "MIN(a)"]
    with pytest.raises(TypeMismatch, match="inside another"):
        aggregate_labels("SUM(MAX(a))")
    with pytest.raises(TypeMismatch, match="one argument"):
        aggregate_labels("COUNT(a, b)")

