"""The built-in scalar functions of queries (ABS, ROUND, LENGTH, UPPER, LOWER, TRIM, SUBSTR,
COALESCE, CONCAT) and LIKE matching. NULL in gives NULL out, except for COALESCE and CONCAT."""

from __future__ import annotations

import functools
import re

from .coltypes import format_value
from .errors import TypeMismatch


def _number(name: str, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeMismatch(f"{name} needs a number, got {value!r}")
    return value


def _text(name: str, value) -> str:
    if not isinstance(value, str):
        raise TypeMismatch(f"{name} needs text, got {value!r}")
    return value


def abs_(value):
    return None if value is None else abs(_number("ABS", value))


def round_(value, digits=0):
    if value is None or digits is None:
        return None
    digits = _number("ROUND", digits)
    if not isinstance(digits, int):
        raise TypeMismatch(f"ROUND needs a whole number of digits, got {digits!r}")
    value = _number("ROUND", value)
    return round(value) if digits == 0 else round(value, digits)


def length(value):
    return None if value is None else len(_text("LENGTH", value))


def upper(value):
    return None if value is None else _text("UPPER", value).upper()


def lower(value):
    return None if value is None else _text("LOWER", value).lower()


def trim(value):
    return None if value is None else _text("TRIM", value).strip()


def substr(value, start, count=None):
    """SUBSTR('abcdef', 2, 3) = 'bcd': `start` counts from 1; without `count`, to the end."""
    if value is None or start is None:
        return None
    text = _text("SUBSTR", value)
    begin = max(_number("SUBSTR", start), 1) - 1
    if count is None:
        return text[begin:]
    return text[begin:begin + max(_number("SUBSTR", count), 0)]


def coalesce(*values):
    """The first value that is not NULL."""
    return next((v for v in values if v is not None), None)


def concat(*values) -> str:
    """The values written one after the other, NULLs left out."""
    return "".join(format_value(v) for v in values if v is not None)


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern:
    parts = []
    for ch in pattern:
        if ch == "%":
            parts.append(".*")
        elif ch == "_":
            parts.append(".")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts), re.S)


def like(text, pattern):
    """`text LIKE pattern`: '%' matches any run of characters, '_' one character, the rest itself
    (case matters); NULL if either is NULL."""
    if text is None or pattern is None:
        return None
    return _pattern(_text("LIKE", pattern)).fullmatch(_text("LIKE", text)) is not None


BUILTINS = {"ABS": abs_, "ROUND": round_, "LENGTH": length, "UPPER": upper, "LOWER": lower, "TRIM": trim,
            "SUBSTR": substr, "COALESCE": coalesce, "CONCAT": concat}
ARITY = {"ABS": (1, 1), "ROUND": (1, 2), "LENGTH": (1, 1), "UPPER": (1, 1), "LOWER": (1, 1), "TRIM": (1, 1),
         "SUBSTR": (2, 3), "COALESCE": (1, None), "CONCAT": (1, None)}


def call_builtin(name: str, args: list):
    low, high = ARITY[name]
    if len(args) < low or (high is not None and len(args) > high):
        allowed = f"{low}" if low == high else f"{low} or more" if high is None else f"{low} to {high}"
        raise TypeMismatch(f"{name} takes {allowed} arguments, got {len(args)}")
    return BUILTINS[name](*args)
