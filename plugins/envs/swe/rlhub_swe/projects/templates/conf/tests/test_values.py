import pytest
from __pkg__ import values
from __pkg__.errors import ValueFormatError
#@test needs=interpolation
def test_values_interpolate():
    found = {"s.root": "/srv", "paths.log": "/var/log", "a.b.c": "deep"}
    asked = []

    def lookup(path):
        asked.append(path)
        return found.get(path)

    assert values.interpolate("${root}/data", "s", lookup) == "/srv/data"
    assert values.interpolate("${paths.log}:${a.b.c}", "s", lookup) == "/var/log:deep"
    assert values.interpolate("${nothing} and ${x.nothing}", "s", lookup) == "${nothing} and ${x.nothing}"
    assert values.interpolate("no references", "s", lookup) == "no references"
    assert asked == ["s.root", "paths.log", "a.b.c", "s.nothing", "x.nothing"]
#@test visible
def test_booleans_true():
    assert [values.to_bool(v) for v in ("yes", "True", " YES ")] == [True, True, True]
#@test catches=bool_branch
def test_booleans_on_and_one():
    assert [values.to_bool(v) for v in (" on ", "1", "ON")] == [True, True, True]
#@test
def test_booleans_false():
    assert [values.to_bool(v) for v in ("no", "False", "off", "0")] == [False, False, False, False]
    assert values.to_bool("yes") is True and values.to_bool("true") is True
#@test
def test_booleans_reject():
    with pytest.raises(ValueFormatError):
        values.to_bool("maybe")
#@test visible
def test_integers():
    assert values.to_int("1_000") == 1000
    assert values.to_int("0x1f") == 31
    assert values.to_int(" -7 ") == -7
#@test visible
def test_lists():
    assert values.to_list("a__list_sep__ b__list_sep____list_sep__ c") == ["a", "b", "c"]
    assert values.to_list("one\n two\n\nthree") == ["one", "two", "three"]
#@test
def test_durations():
    assert values.to_seconds("1h30m") == 5400
    assert values.to_seconds("250ms") == 0.25
    assert values.to_seconds("45") == 45
    for bad in ("", "h", "10x", "5m 3"):
        with pytest.raises(ValueFormatError):
            values.to_seconds(bad)
#@test
def test_sizes():
    assert values.to_bytes("10KB") == 10000
    assert values.to_bytes("2 MiB") == 2097152
    with pytest.raises(ValueFormatError):
        values.to_bytes("3 parsecs")

