"""`__unit__(x)`: x converted to __unit__, with factor __factor__ and offset __offset__, rounded to __digits__ digits.

Queries call it by name, in any case (`SELECT __unit__(price) FROM ...`); the command line lists and
explains it (`--functions`, `--describe __unit__`); a database's `convert` runs it over a whole
column through a `Stream`. NULL in gives NULL out.
"""

from __future__ import annotations

import math

from ..coltypes import is_null, kind_of
from ..errors import ConversionError, TypeMismatch

NAME = "__unit__"
FACTOR = __factor__
OFFSET = __offset__
DIGITS = __digits__
ALLOW_NEGATIVE = __negative__
LIMIT = __limit__  # the largest size of a value it takes, either sign
POLICIES = ("raise", "skip", "null")
POLICY = "__policy__"  # what a Stream does by default with a value it cannot take


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConversionError(NAME, value, "needs a number")
    return value


def problems(value) -> list[str]:
    """Why `value` cannot be converted, one reason each ([] when it can; NULL always can)."""
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ["needs a number"]
    if isinstance(value, float) and not math.isfinite(value):
        return ["needs a finite number"]
    found = []
    if value < 0 and not ALLOW_NEGATIVE:
        found.append("takes no negative values")
    if abs(value) > LIMIT:
        found.append(f"takes values up to {LIMIT:,} in size")
    return found


def convert(value):
    """The converted value; NULL stays NULL; ConversionError with the first problem, if any."""
    if value is None:
        return None
    found = problems(value)
    if found:
        raise ConversionError(NAME, value, found[0])
    return round(value * FACTOR + OFFSET, DIGITS)


def inverse(value):
    """The value `convert` was given, from what it returned (up to its rounding)."""
    if value is None:
        return None
    return round((_number(value) - OFFSET) / FACTOR, DIGITS + 2)


def apply(args: list):
    """The function as a query calls it: one argument."""
    if len(args) != 1:
        raise TypeMismatch(f"{NAME}() takes 1 argument, got {len(args)}")
    return convert(args[0])


def describe() -> str:
    sign = "-" if OFFSET < 0 else "+"
    return f"{NAME}(x) = x * {FACTOR} {sign} {abs(OFFSET)}, rounded to {DIGITS} digits"


def explain() -> list[str]:
    """`describe`, what the function takes and gives, its inverse, its policy and examples."""
    low = convert(-LIMIT if ALLOW_NEGATIVE else 0)
    back = f"(y {'+' if OFFSET < 0 else '-'} {abs(OFFSET)}) / {FACTOR}"
    return [describe(), f"takes: {'any number' if ALLOW_NEGATIVE else 'numbers from 0'} up to {LIMIT:,} in size",
            f"gives: {show(low)} to {show(convert(LIMIT))}", f"inverse: {back}",
            f"a column's values it cannot take: {POLICY} (policy)"] + [f"  {NAME}({x}) = {show(convert(x))}"
                                                                        for x in (0, 1, 10)]


def show(value) -> str:
    """A converted value written for people: all its digits and the unit ('NULL' for NULL)."""
    return "NULL" if value is None else f"{_number(value):.{DIGITS}f} {NAME}"


def read(text: str):
    """A value as `show` writes it ('12.50 __unit__', or the number alone) read back; NULL for an
    empty or NULL cell."""
    if not isinstance(text, str):
        raise ConversionError(NAME, text, "reads text")
    if is_null(text) or text.strip() == "NULL":
        return None
    number, _, unit = text.strip().partition(" ")
    if unit.strip() and unit.strip().lower() != NAME:
        raise ConversionError(NAME, text, f"reads values in {NAME}")
    kind = kind_of(number)
    if kind not in ("int", "float"):
        raise ConversionError(NAME, text, "needs a number")
    return int(number) if kind == "int" else float(number)


def spec() -> dict:
    """The function as data (`functions.specs()`)."""
    return {"name": NAME, "factor": FACTOR, "offset": OFFSET, "digits": DIGITS, "allow_negative": ALLOW_NEGATIVE,
            "limit": LIMIT}


class Stream:
    """A column converted one value at a time: "open" until `close`, then "closed" (feeding it
    then is an error; closing again gives the same summary). `policy`: what a value it cannot
    take does: "raise" (ConversionError naming its position, from 1), "skip" (left out) or
    "null" (NULL in its place); the last two count it in `rejected`."""

    def __init__(self, policy: str | None = None) -> None:
        self.policy = POLICY if policy is None else policy
        if self.policy not in POLICIES:
            raise TypeMismatch(f"{NAME}: no error policy {self.policy!r} (one of {', '.join(POLICIES)})")
        self.state, self.position, self.nulls = "open", 0, 0
        self.output: list = []
        self.rejected: list[tuple[int, str]] = []

    def feed(self, value):
        """Convert the next value; what it became (None for NULL and for a value left out)."""
        if self.state != "open":
            raise ConversionError(NAME, value, "cannot convert more: the stream is closed")
        self.position += 1
        found = problems(value)
        if not found:
            self.nulls += value is None
            self.output.append(convert(value))
            return self.output[-1]
        if self.policy == "raise":
            raise ConversionError(NAME, value, f"{found[0]} (value {self.position})")
        self.rejected.append((self.position, found[0]))
        if self.policy == "null":
            self.output.append(None)
        return None

    def close(self) -> dict:
        """What the stream did: values fed, converted, NULL, rejected; the least, greatest and total."""
        self.state = "closed"
        done = [value for value in self.output if value is not None]
        return {"function": NAME, "policy": self.policy, "values": self.position, "converted": len(done),
                "nulls": self.nulls, "rejected": len(self.rejected), "low": min(done, default=None),
                "high": max(done, default=None), "total": round(sum(done), DIGITS) if done else None}
