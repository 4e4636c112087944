"""Dates normalised to ISO 8601 (YYYY-MM-DD) with python-dateutil.

A response must name a full date: "March 2024" is not 2024-03-15. Missing components are caught
by parsing twice with two different defaults: any field that changes was never written.
"""

from __future__ import annotations

import datetime as dt
import re

from dateutil import parser as date_parser

_DEFAULTS = (dt.datetime(1900, 1, 1), dt.datetime(1904, 12, 28))
_WEEKDAY = re.compile(r"(?i)\s*\((?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\)\s*$")


def parse_date(text: str, dayfirst: bool = False) -> dt.date | None:
    """The full calendar date `text` names, or None (partial, ambiguous to parse, or not a date)."""
    if not isinstance(text, str) or not text.strip() or len(text) > 80:
        return None
    text = _WEEKDAY.sub("", text)  # "2022-11-10 (Thursday)"
    if isinstance(text, str) and _looks_iso(text.strip()):
        dayfirst = False  # 2024-03-05 is always March 5th
    try:
        a, b = (date_parser.parse(text, default=d, dayfirst=dayfirst, fuzzy=False) for d in _DEFAULTS)
    except (ValueError, OverflowError, TypeError):  # dateutil's ParserError is a ValueError
        return None
    if a != b or a.time() != dt.time(0) or b.time() != dt.time(0):
        return None
    return a.date()


def _looks_iso(text: str) -> bool:
    return len(text) == 10 and text[4] == "-" and text[7] == "-" and text[:4].isdigit()


def iso(value: object, dayfirst: bool = False) -> str | None:
    """A gold (date, datetime or string) as an ISO date string."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    parsed = parse_date(value, dayfirst) if isinstance(value, str) else None
    return parsed.isoformat() if parsed else None
