"""Runner side: values and exceptions as text for a failure message, whatever they hold.

Describing a failure must never stop the run: `str()` of the model's `ValueError(10**100000)` or
`repr()` of a 100,000-digit int it returned raises in Python (its int-to-str limit,
`sys.get_int_max_str_digits()`, 4300 digits by default). Such a value is described instead, and
the limit is named on a line of its own (`rlhub limit: ...`, which the verdict lists)."""

from __future__ import annotations

import sys

from .codec import LIMIT


_LIMIT_ERROR = "for integer string conversion"  # in the message of the ValueError Python raises


def digit_limit_hit(err: BaseException) -> bool:
    return isinstance(err, ValueError) and _LIMIT_ERROR in str(err)


def limit_line() -> str:
    return (f"{LIMIT}: an int of more than {sys.get_int_max_str_digits()} digits cannot be printed "
            "(Python's int-to-str limit, as in any Python process): described, not shown")


def value_text(value: object, limit: int = 500) -> tuple[str, bool]:
    """(repr of `value`, cut to `limit` chars, or a description; whether the int limit was hit)."""
    try:
        return repr(value)[:limit], False
    except ValueError as err:
        if not digit_limit_hit(err):
            return f"<a {type(value).__name__} whose repr() failed: ValueError>", False
        if type(value) is int:
            return f"<an int of about {int(value.bit_length() * 0.30103) + 1} digits>", True
        return f"<a {type(value).__name__} that holds an int too long to print>", True
    except Exception as err:
        return f"<a {type(value).__name__} whose repr() failed: {type(err).__name__}>", False


def exception_text(exc: BaseException) -> tuple[str, bool]:
    """("Type: message" or "Type", whether the int limit was hit), for any exception: its message
    may be unprintable (a huge int in its args), or be itself the int limit's error (the tests'
    own formatting of a huge value)."""
    name = type(exc).__name__
    try:
        message = str(exc)
    except ValueError as err:
        if not digit_limit_hit(err):
            return f"{name} (its message cannot be printed: ValueError)", False
        return f"{name} (its message holds an int too long to print)", True
    except Exception as err:
        return f"{name} (its message cannot be printed: {type(err).__name__})", False
    # pytest's own assertion message describes such a value with the limit's error in it
    return (f"{name}: {message}" if message else name), digit_limit_hit(exc) or _LIMIT_ERROR in message
