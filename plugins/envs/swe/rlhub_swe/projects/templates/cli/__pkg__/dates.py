"""Dates as users type them (`2024-05-01`, `today`, `tomorrow`, `fri`, `+3d`, `-2w`, `+1m`) and
as the tool shows them (ISO dates, or `in 3 days` / `2 weeks ago`)."""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from .errors import UsageError

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WORDS = {"today": 0, "tomorrow": 1, "yesterday": -1}
WEEKS_FROM = 14  # from this many days on, `relative` counts whole weeks
_OFFSET = re.compile(r"([+-])(\d+)([dwm]?)")
#@if:without.recur
#@else
_INTERVAL = re.compile(r"(\d+)\s*([dw]?)")
INTERVAL_WORDS = {"daily": 1, "weekly": 7, "fortnightly": 14}
#@end


def __parse_date__(text: str, today: date) -> date:
    """The date `text` names, counted from `today`: an ISO date, today/tomorrow/yesterday, a
    weekday (the next one after today: on a Friday, `fri` is a week ahead), or an offset
    `+N`/`-N` in days (`d`, the default), weeks (`w`) or calendar months (`m`)."""
    word = text.strip().lower()
    if not word:
        raise UsageError("a date cannot be empty")
    if word in WORDS:
        return today + timedelta(days=WORDS[word])
    weekday = weekday_index(word)
    if weekday is not None:
        return next_weekday(today, weekday)
    match = _OFFSET.fullmatch(word)
    if match:
        sign = -1 if match.group(1) == "-" else 1
        count = sign * int(match.group(2))
        unit = match.group(3) or "d"
        if unit == "m":
            return add_months(today, count)
        return today + timedelta(days=count * (7 if unit == "w" else 1))
    try:
        return date.fromisoformat(word)
    except ValueError:
        raise UsageError(f"not a date: {text!r} (use YYYY-MM-DD, today, tomorrow, a weekday, or +3d / +2w / +1m)") from None


def weekday_index(word: str) -> int | None:
    """0 for 'mon'/'monday' ... 6 for 'sun'/'sunday'; None for anything else (at least 3 letters)."""
    if len(word) < 3:
        return None
    for index, name in enumerate(WEEKDAYS):
        if name.startswith(word):
            return index
    return None


def next_weekday(today: date, index: int) -> date:
    """The first day after `today` that falls on weekday `index` (1 to 7 days ahead)."""
    ahead = (index - today.weekday()) % 7
    return today + timedelta(days=ahead or 7)


def add_months(day: date, months: int) -> date:
    """`day` moved by whole calendar months, kept within the month: Jan 31 + 1 month is Feb 28 (29)."""
    years, month0 = divmod(day.month - 1 + months, 12)
    year, month = day.year + years, month0 + 1
    last = calendar.monthrange(year, month)[1]
    return day.replace(year=year, month=month, day=min(day.day, last))


def week_bounds(today: date) -> tuple[date, date]:
    """The Monday and the Sunday of `today`'s week."""
    monday = today - timedelta(days=today.weekday())
    return monday, monday + timedelta(days=6)


def days_between(start: date, end: date) -> int:
    """Whole days from `start` to `end` (negative when `end` comes first)."""
    return (end - start).days


def _span(days: int) -> str:
    if days < WEEKS_FROM:
        return f"{days} days"
    return f"{days // 7} weeks"


def relative(day: date, today: date) -> str:
    """`day` said from `today`: 'today', 'tomorrow', 'yesterday', 'in 3 days', '4 days ago',
    'in 2 weeks' (whole weeks, rounded down, from WEEKS_FROM days on)."""
    delta = days_between(today, day)
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    span = _span(abs(delta))
    if delta > 0:  #@if:bug.relative: if delta < 0:
        return f"in {span}"
    return f"{span} ago"


def format_date(day: date | None) -> str:
    """ISO text of a date, '-' for none."""
    return "-" if day is None else day.isoformat()


def from_iso(text: str | None) -> date | None:
    """A date stored as ISO text (None and '' stay None); ValueError for anything else."""
    if text in (None, ""):
        return None
    return date.fromisoformat(text)
#@if:without.recur
#@else


def parse_interval(text: str) -> int:
    """Days between occurrences of a recurring task: '3d' -> 3, '2w' -> 14, '5' -> 5, 'daily',
    'weekly', 'fortnightly'. At least one day."""
    word = text.strip().lower()
    if word in INTERVAL_WORDS:
        return INTERVAL_WORDS[word]
    match = _INTERVAL.fullmatch(word)
    if not match:
        raise UsageError(f"not an interval: {text!r} (use 3d, 2w, daily or weekly)")
    days = int(match.group(1)) * (7 if match.group(2) == "w" else 1)
    if days < 1:
        raise UsageError(f"an interval must be at least one day, got {text!r}")
    return days
#@end
