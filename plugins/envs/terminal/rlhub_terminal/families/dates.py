"""Date and time families."""

from __future__ import annotations

from datetime import date, timedelta

from ..family import family, function_spec


def _day(rng, lo=1995, hi=2030):
    return date(rng.randint(lo, hi), 1, 1) + timedelta(days=rng.randint(0, 364))


@family("dates", "date-diff-days")
def date_diff_days(rng):
    """Absolute days between two ISO dates."""
    cases = [(_day(rng).isoformat(), _day(rng).isoformat()) for _ in range(4)]
    cases += [("2024-03-01", "2024-02-28"), ("2023-03-01", "2023-02-28"), ("2030-01-01", "2000-01-01")]
    ref = '''
from datetime import date

def days_between(a, b):
    return abs((date.fromisoformat(b) - date.fromisoformat(a)).days)
'''
    wrong = ['''
def days_between(a, b):
    def days(s):
        y, m, d = map(int, s.split("-"))
        return y * 365 + (m - 1) * 30 + d
    return abs(days(b) - days(a))
''']
    return function_spec("Write `days_between(a, b)` returning the absolute number of days between two dates given as 'YYYY-MM-DD' strings.",
                         "days_between", ref, wrong, cases)


@family("dates", "business-days")
def business_days(rng):
    """Weekdays in [start, end) excluding holidays."""
    cases = []
    for _ in range(4):
        a = _day(rng, 2020, 2026)
        b = a + timedelta(days=rng.randint(0, 40))
        hol = [(a + timedelta(days=rng.randint(0, 40))).isoformat() for _ in range(2)]
        cases.append((a.isoformat(), b.isoformat(), hol))
    cases.append(("2024-06-03", "2024-06-10", ["2024-06-08", "2024-06-05"]))
    ref = '''
from datetime import date, timedelta

def business_days(start, end, holidays):
    d, stop, off, n = date.fromisoformat(start), date.fromisoformat(end), set(holidays), 0
    while d < stop:
        if d.weekday() < 5 and d.isoformat() not in off:
            n += 1
        d += timedelta(days=1)
    return n
'''
    wrong = ['''
from datetime import date, timedelta

def business_days(start, end, holidays):
    d, stop, n = date.fromisoformat(start), date.fromisoformat(end), 0
    while d <= stop:
        if d.weekday() < 5 and d.isoformat() not in holidays:
            n += 1
        d += timedelta(days=1)
    return n
''']
    return function_spec("Write `business_days(start, end, holidays)`: the number of Monday-Friday dates d with start <= d < end "
                         "(ISO 'YYYY-MM-DD' strings) that are not in the list `holidays` (ISO strings).",
                         "business_days", ref, wrong, cases)


@family("dates", "add-months")
def add_months(rng):
    """Add months clamping to the month's last day."""
    cases = [(_day(rng).isoformat(), rng.randint(-30, 30)) for _ in range(4)]
    cases += [("2024-01-31", 1), ("2023-01-31", 1), ("2024-03-31", -1), ("2024-12-15", 1)]
    ref = '''
import calendar
from datetime import date

def add_months(day, n):
    d = date.fromisoformat(day)
    months = d.year * 12 + d.month - 1 + n
    y, m = divmod(months, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1])).isoformat()
'''
    wrong = ['''
from datetime import date, timedelta

def add_months(day, n):
    return (date.fromisoformat(day) + timedelta(days=30 * n)).isoformat()
''']
    return function_spec("Write `add_months(day, n)`: the ISO date n calendar months after `day` (n may be negative); if the "
                         "day of month does not exist in the target month, use that month's last day (Jan 31 + 1 month -> Feb 28/29).",
                         "add_months", ref, wrong, cases)


@family("dates", "iso-week-label")
def iso_week_label(rng):
    """ISO-8601 week labels around year boundaries."""
    cases = [(_day(rng).isoformat(),) for _ in range(4)] + [("2021-01-03",), ("2024-12-30",), ("2026-01-01",)]
    ref = '''
from datetime import date

def week_label(day):
    y, w, _ = date.fromisoformat(day).isocalendar()
    return f"{y}-W{w:02d}"
'''
    wrong = ['''
from datetime import date

def week_label(day):
    d = date.fromisoformat(day)
    return f"{d.year}-W{int(d.strftime('%W')):02d}"
''']
    return function_spec("Write `week_label(day)` returning the ISO-8601 week of an ISO date as 'YYYY-Www' (ISO week-numbering year, two-digit week).",
                         "week_label", ref, wrong, cases)


@family("dates", "parse-duration")
def parse_duration(rng):
    """Durations like 1h30m15s to seconds."""
    def make():
        parts = [(rng.randint(0, 3), "d"), (rng.randint(0, 23), "h"), (rng.randint(0, 59), "m"), (rng.randint(0, 59), "s")]
        return "".join(f"{v}{u}" for v, u in parts if v or rng.random() < 0.2) or "0s"
    cases = [(make(),) for _ in range(5)] + [("90s",), ("1h",), ("2d3m",), ("",), ("5x",)]
    ref = '''
import re

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}

def to_seconds(text):
    if not re.fullmatch(r"(\\d+[dhms])+", text):
        return None
    return sum(int(n) * UNITS[u] for n, u in re.findall(r"(\\d+)([dhms])", text))
'''
    wrong = ['''
import re

def to_seconds(text):
    units = {"h": 3600, "m": 60, "s": 1}
    return sum(int(n) * units.get(u, 0) for n, u in re.findall(r"(\\d+)([a-z])", text))
''']
    return function_spec("Write `to_seconds(text)` for durations like '1h30m', '2d3m15s' or '90s' (units d, h, m, s, each "
                         "preceded by an integer): the total in seconds, or None if the text is not entirely such parts (empty included).",
                         "to_seconds", ref, wrong, cases)


@family("dates", "to-utc")
def to_utc(rng):
    """Convert timestamps with UTC offsets to UTC 'Z' form."""
    def stamp():
        off = rng.choice(["+05:30", "-08:00", "+00:00", "+09:00", "-03:30"])
        return f"{_day(rng).isoformat()}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}{off}"
    cases = [(stamp(),) for _ in range(5)] + [("2024-12-31T23:30:00-01:00",), ("2024-03-01T01:00:00+02:00",)]
    ref = '''
from datetime import datetime, timezone

def to_utc(stamp):
    return datetime.fromisoformat(stamp).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
'''
    wrong = ['''
from datetime import datetime

def to_utc(stamp):
    d = datetime.fromisoformat(stamp)
    return (d.replace(tzinfo=None) + d.utcoffset()).strftime("%Y-%m-%dT%H:%M:%SZ")
''']
    return function_spec("Write `to_utc(stamp)` converting an ISO timestamp with a UTC offset, e.g. '2024-05-01T10:00:00+02:00', "
                         "to UTC in the form 'YYYY-MM-DDTHH:MM:SSZ'.", "to_utc", ref, wrong, cases)


@family("dates", "age-on-date")
def age_on_date(rng):
    """Age in completed years, with leap-day birthdays."""
    cases = []
    for _ in range(4):
        b = _day(rng, 1950, 2010)
        cases.append((b.isoformat(), (b + timedelta(days=rng.randint(0, 20000))).isoformat()))
    cases += [("2000-02-29", "2023-02-28"), ("2000-02-29", "2023-03-01"), ("1990-06-15", "2020-06-14"),
              ("1990-06-15", "2020-06-15")]  # the birthday itself
    ref = '''
from datetime import date

def age(birth, on):
    b, d = date.fromisoformat(birth), date.fromisoformat(on)
    return d.year - b.year - ((d.month, d.day) < (b.month, b.day))
'''
    wrong = ['''
from datetime import date

def age(birth, on):
    return (date.fromisoformat(on) - date.fromisoformat(birth)).days // 365
''']
    return function_spec("Write `age(birth, on)`: completed years of age on date `on` for someone born on `birth` (ISO dates). "
                         "A 29 February birthday counts as reached on 1 March in non-leap years.", "age", ref, wrong, cases)


@family("dates", "free-slots")
def free_slots(rng):
    """Free time slots in a working day given overlapping busy intervals."""
    def hm(m):
        return f"{m // 60:02d}:{m % 60:02d}"
    cases = []
    for _ in range(4):
        busy = []
        for _ in range(rng.randint(1, 4)):
            s = rng.randrange(480, 1020, 15)
            busy.append([hm(s), hm(s + rng.choice([15, 30, 60, 90]))])
        cases.append((busy, "09:00", "17:00"))
    cases.append(([["09:30", "11:00"], ["10:00", "10:30"], ["12:00", "13:00"]], "09:00", "13:00"))
    ref = '''
def free_slots(busy, start, end):
    def mins(t):
        h, m = map(int, t.split(":"))
        return h * 60 + m
    def hm(m):
        return f"{m // 60:02d}:{m % 60:02d}"
    cur, lo_end, out = mins(start), mins(end), []
    for a, b in sorted((mins(a), mins(b)) for a, b in busy):
        a, b = max(a, mins(start)), min(b, lo_end)
        if a > cur:
            out.append([hm(cur), hm(a)])
        cur = max(cur, b)
    if cur < lo_end:
        out.append([hm(cur), hm(lo_end)])
    return out
'''
    wrong = ['''
def free_slots(busy, start, end):
    out, cur = [], start
    for a, b in sorted(busy):
        if a > cur:
            out.append([cur, a])
        cur = b
    if cur < end:
        out.append([cur, end])
    return out
''']
    return function_spec("Write `free_slots(busy, start, end)`: `busy` is a list of ['HH:MM', 'HH:MM'] intervals (may overlap, "
                         "any order, may extend past the day). Return the free intervals between `start` and `end` as "
                         "['HH:MM', 'HH:MM'] lists in time order (no empty intervals).", "free_slots", ref, wrong, cases)
