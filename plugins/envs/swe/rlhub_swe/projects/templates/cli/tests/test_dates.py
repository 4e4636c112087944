import pytest
from datetime import date
from __pkg__ import dates
from __pkg__.dates import __parse_date__
from __pkg__.errors import UsageError
TODAY = date(2024, 3, 15)
#@test visible
def test_parse_iso_dates_and_words():
    assert __parse_date__("2024-04-01", TODAY) == date(2024, 4, 1)
    assert __parse_date__(" Today ", TODAY) == TODAY
    assert __parse_date__("tomorrow", TODAY) == date(2024, 3, 16)
    assert __parse_date__("yesterday", TODAY) == date(2024, 3, 14)
#@test visible
def test_parse_offsets():
    assert __parse_date__("+3d", TODAY) == date(2024, 3, 18)
    assert __parse_date__("+10", TODAY) == date(2024, 3, 25)
    assert __parse_date__("-2w", TODAY) == date(2024, 3, 1)
    assert __parse_date__("+1m", TODAY) == date(2024, 4, 15)
#@test
def test_parse_offsets_both_ways():
    assert __parse_date__("-3d", TODAY) == date(2024, 3, 12)
    assert __parse_date__("+2w", TODAY) == date(2024, 3, 29)
    assert __parse_date__("-1m", TODAY) == date(2024, 2, 15)
    assert __parse_date__("+0d", TODAY) == TODAY
    assert __parse_date__("+12m", TODAY) == date(2025, 3, 15)
#@test
def test_months_stay_in_the_month():
    assert dates.add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert dates.add_months(date(2023, 1, 31), 1) == date(2023, 2, 28)
    assert dates.add_months(date(2024, 11, 30), 3) == date(2025, 2, 28)
    assert dates.add_months(date(2024, 3, 31), -1) == date(2024, 2, 29)
    assert dates.add_months(date(2024, 1, 15), -1) == date(2023, 12, 15)
    assert dates.add_months(date(2024, 12, 1), 1) == date(2025, 1, 1)
#@test visible
def test_weekdays_are_the_next_one():
    assert __parse_date__("mon", TODAY) == date(2024, 3, 18)
    assert __parse_date__("saturday", TODAY) == date(2024, 3, 16)
#@test
def test_weekday_of_today_is_a_week_ahead():
    assert __parse_date__("fri", TODAY) == date(2024, 3, 22)
    assert __parse_date__("Thu", TODAY) == date(2024, 3, 21)
    assert __parse_date__("sun", TODAY) == date(2024, 3, 17)
    assert dates.weekday_index("mo") is None
    assert dates.weekday_index("wed") == 2
    assert dates.weekday_index("monday") == 0
    assert dates.next_weekday(date(2024, 3, 18), 0) == date(2024, 3, 25)
#@test
def test_parse_rejects_what_is_not_a_date():
    for text in ("", "  ", "soon", "+d", "2024-13-01", "3x", "++3d"):
        with pytest.raises(UsageError):
            __parse_date__(text, TODAY)
#@test
def test_parse_error_says_what_was_given():
    with pytest.raises(UsageError) as info:
        __parse_date__("someday", TODAY)
    assert "'someday'" in str(info.value)
    assert "YYYY-MM-DD" in str(info.value)
#@test visible
def test_relative_near_days():
    assert dates.relative(TODAY, TODAY) == "today"
    assert dates.relative(date(2024, 3, 16), TODAY) == "tomorrow"
    assert dates.relative(date(2024, 3, 14), TODAY) == "yesterday"
#@test catches=relative
def test_relative_future_and_past():
    assert dates.relative(date(2024, 3, 18), TODAY) == "in 3 days"
    assert dates.relative(date(2024, 3, 13), TODAY) == "2 days ago"
    assert dates.relative(date(2024, 3, 28), TODAY) == "in 13 days"
#@test catches=relative
def test_relative_weeks():
    assert dates.relative(date(2024, 3, 29), TODAY) == "in 2 weeks"
    assert dates.relative(date(2024, 4, 4), TODAY) == "in 2 weeks"
    assert dates.relative(date(2024, 2, 23), TODAY) == "3 weeks ago"
    assert dates.relative(date(2024, 3, 2), TODAY) == "13 days ago"
#@test
def test_week_bounds_and_days_between():
    assert dates.week_bounds(TODAY) == (date(2024, 3, 11), date(2024, 3, 17))
    assert dates.week_bounds(date(2024, 3, 11)) == (date(2024, 3, 11), date(2024, 3, 17))
    assert dates.week_bounds(date(2024, 3, 17)) == (date(2024, 3, 11), date(2024, 3, 17))
    assert dates.days_between(TODAY, date(2024, 3, 20)) == 5
    assert dates.days_between(date(2024, 3, 20), TODAY) == -5
#@test visible
def test_iso_text():
    assert dates.format_date(date(2024, 5, 1)) == "2024-05-01"
    assert dates.format_date(None) == "-"
    assert dates.from_iso("2024-05-01") == date(2024, 5, 1)
    assert dates.from_iso("") is None and dates.from_iso(None) is None
#@test needs=recur
def test_parse_interval():
    assert [dates.parse_interval(t) for t in ("3d", "1d", "2w", "5", "daily", "weekly", "fortnightly")] == [3, 1, 14, 5, 1, 7, 14]
    for bad in ("0d", "0", "x", "3 months", ""):
        with pytest.raises(UsageError):
            dates.parse_interval(bad)

