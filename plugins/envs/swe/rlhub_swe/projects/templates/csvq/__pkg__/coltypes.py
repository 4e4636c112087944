"""Column types: what a CSV cell holds (int, float, bool, date or str), how cells are read as values
of a type, how values are written back, and which values can be compared."""

from __future__ import annotations

import datetime
import re

from .errors import TypeMismatch

TYPES = ("int", "float", "bool", "date", "str")
NULL_WORDS = ("", "__null_word__")
TRUE_WORDS = ("true", "yes")
FALSE_WORDS = ("false", "no")
FLOAT_DIGITS = __float_digits__
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_NULLS = {word.lower() for word in NULL_WORDS}


def is_null(cell: str) -> bool:
    """An empty cell, or one of NULL_WORDS (any case)."""
    return cell.strip().lower() in _NULLS


def kind_of(cell: str) -> str | None:
    """The narrowest type of one cell (None for a NULL cell)."""
    if is_null(cell):
        return None
    text = cell.strip()
    if _INT.fullmatch(text):
        return "int"
    if _FLOAT.fullmatch(text):
        return "float"
    if text.lower() in TRUE_WORDS or text.lower() in FALSE_WORDS:
        return "bool"
    if _DATE.fullmatch(text):
        try:
            datetime.date.fromisoformat(text)
        except ValueError:
            return "str"
        return "date"
    return "str"


def infer_type(cells: list[str]) -> str:
    """The type of a column: the narrowest one every non-NULL cell reads as (ints and floats
    together are floats); "str" when the cells disagree or all are NULL."""
    kinds = {kind_of(c) for c in cells} - {None}
    if not kinds:
        return "str"
    if kinds == {"int"}:
        return "int"
    if kinds <= {"int", "float"}:
        return "float"
    if len(kinds) == 1:
        return kinds.pop()
    return "str"


def convert(cell: str, kind: str):
    """The value of a cell read as `kind`; None for a NULL cell; TypeMismatch if it is not one."""
    if kind not in TYPES:
        raise TypeMismatch(f"unknown type {kind!r} (one of {', '.join(TYPES)})")
    if is_null(cell):
        return None
    if kind == "str":
        return cell
    text = cell.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            if text.lower() in TRUE_WORDS:
                return True
            if text.lower() in FALSE_WORDS:
                return False
            raise ValueError(text)
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise TypeMismatch(f"{cell!r} is not a {kind}") from None


def format_value(value) -> str:
    """A value as a CSV cell: NULL empty, booleans 'true'/'false', floats to FLOAT_DIGITS digits
    at most (no trailing zeros past the first), dates ISO."""
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        text = f"{value:.{FLOAT_DIGITS}f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def type_of_value(value) -> str:
    """The type name of a value ("null" for None)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, datetime.date):
        return "date"
    return "str"


def coerce_pair(left, right) -> tuple:
    """Two non-NULL values made comparable: a date and a string (read as a date) become two dates,
    ints and floats compare as numbers; TypeMismatch for anything else of different types."""
    lt, rt = type_of_value(left), type_of_value(right)
    if lt == rt:
        return left, right
    if {lt, rt} == {"int", "float"}:
        return left, right
    if lt == "date" and rt == "str":
        return left, convert(right, "date")
    if lt == "str" and rt == "date":
        return convert(left, "date"), right
    raise TypeMismatch(f"cannot compare {lt} {format_value(left)!r} with {rt} {format_value(right)!r}")
