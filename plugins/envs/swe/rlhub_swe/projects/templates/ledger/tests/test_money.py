import pytest
from __pkg__.errors import FormatError
from __pkg__.money import apply_rate, __allocate__, __format_amount__, __parse_amount__
#@test visible
def test_parse_amount_forms():
    assert __parse_amount__("12.5") == 1250
    assert __parse_amount__("1,204.99") == 120499
    assert __parse_amount__("  7 ") == 700
#@test visible
def test_parse_amount_rejects_garbage():
    for text in ("", "abc", "1.234", "1.2.3"):
        with pytest.raises(FormatError):
            __parse_amount__(text)
#@test
def test_parse_negative_and_currency():
    assert __parse_amount__("-3") == -300
    assert __parse_amount__("4.05 __CURRENCY__") == 405
#@test catches=sign
def test_format_amount_positive():
    assert __format_amount__(1250) == "12.50"
    assert __format_amount__(123456789) == "1,234,567.89"
    assert __format_amount__(7, currency=True) == "0.07 __CURRENCY__"
#@test catches=sign
def test_format_amount_negative():
    assert __format_amount__(-5) == "-0.05"
    assert __format_amount__(-123400) == "-1,234.00"
#@test catches=sign
def test_format_round_trip():
    for cents in (0, 1, 99, 100, -1, -250, 1000001):
        assert __parse_amount__(__format_amount__(cents)) == cents
#@test visible
def test_apply_rate_rounds_half_away_from_zero():
    assert apply_rate(1000, 7) == 70
    assert apply_rate(150, 1) == 2
    assert apply_rate(-150, 1) == -2
    assert apply_rate(149, 1) == 1
#@test visible
def test_allocate_adds_up():
    assert __allocate__(100, [1, 1, 1]) == [34, 33, 33]
    assert sum(__allocate__(1001, [3, 5, 9])) == 1001
#@test
def test_allocate_by_weight():
    assert __allocate__(1000, [1, 3]) == [250, 750]
    with pytest.raises(FormatError):
        __allocate__(10, [0, 0])
#@test catches=empty_weights
def test_allocate_nothing_to_split():
    assert __allocate__(500, []) == []

