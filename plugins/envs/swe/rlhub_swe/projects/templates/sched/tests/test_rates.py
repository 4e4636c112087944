import math
import pytest
from __pkg__.errors import RateFormatError
from __pkg__.rates import Rate, format_duration, format_rate, parse_duration, __parse_rate__
#@test visible
def test_parse_simple_rates():
    for text, expected in (("10/s", (10, 1.0)), ("100/min", (100, 60.0)), ("5 per 2h", (5, 7200.0)),
                           (" 3 / 500ms ", (3, 0.5)), ("1/d", (1, 86400.0))):
        rate = __parse_rate__(text)
        assert (rate.count, rate.period) == expected, text
#@test visible
def test_rate_pace():
    rate = Rate(10, 2.0)
    assert rate.per_second == 5.0
    assert rate.interval == 0.2
    assert Rate(0, 1.0).interval == math.inf
    with pytest.raises(AttributeError):
        rate.count = 11
#@test
def test_parse_plural_and_long_units():
    for text, period in (("20 per minutes", 60.0), ("1/hours", 3600.0), ("2/day", 86400.0), ("7/secs", 1.0),
                         ("4/second", 1.0), ("9 per 1.5s", 1.5), ("6/2m", 120.0)):
        assert __parse_rate__(text).period == period, text
    assert __parse_rate__("20 per minutes").count == 20
#@test
def test_parse_rate_rejects_what_is_not_a_rate():
    for bad in ("", "10", "s/10", "ten/s", "10/fortnight", "10/0s", "-1/s", "10//s", "10/s/s"):
        with pytest.raises(RateFormatError):
            __parse_rate__(bad)
#@test
def test_format_rate_is_the_shortest_that_reads_back():
    for text, shown in (("10/s", "10/s"), ("100/60s", "100/min"), ("5/2h", "5/2h"), ("3/500ms", "3/500ms"),
                        ("7/90s", "7/90s"), ("1/d", "1/d"), ("2/120min", "2/2h"), ("4/48h", "4/2d")):
        rate = __parse_rate__(text)
        assert format_rate(rate) == shown, text
        again = __parse_rate__(shown)
        assert (again.count, again.period) == (rate.count, rate.period)
#@test visible
def test_durations():
    assert parse_duration("1m30s") == 90.0
    assert parse_duration("250ms") == 0.25
    assert parse_duration("2h") == 7200.0
    assert parse_duration(" 1.5 ") == 1.5
    assert parse_duration("1d2h") == 93600.0
#@test
def test_duration_errors():
    for bad in ("", "abc", "1x", "5m 3", "1.2.3", "inf", "nan", "m5", "-3s"):
        with pytest.raises(RateFormatError):
            parse_duration(bad)
#@test
def test_format_duration():
    assert [format_duration(s) for s in (90, 0.25, 7200, 0, 93784, 61.5, 1)] == [
        "1m30s", "250ms", "2h", "0s", "1d2h3m4s", "1m1.5s", "1s"]
    with pytest.raises(ValueError):
        format_duration(-1)
#@test
def test_rate_scaled():
    assert Rate(10, 1.0).scaled(0.5).count == 5
    assert Rate(10, 1.0).scaled(0.01).count == 1
    assert Rate(10, 3.0).scaled(3).period == 3.0
    assert Rate(10, 3.0).scaled(3).count == 30

