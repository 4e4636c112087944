"""Parsing numbers as people write them in financial and technical answers.

Accepted: currency symbols and codes ($, €, £, ¥, USD...), thousands separators, parentheses
or any dash for negatives, scale words and suffixes (thousand/k, million/m/mn, billion/bn/b,
trillion/tn), percent (%, percent, pct), and a few small number words. Each parse remembers the
precision the writer committed to (the unit of the last digit, after scaling), which is what
rounding-aware matching needs.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_SCALES = {
    "thousand": 3, "thousands": 3, "k": 3,
    "million": 6, "millions": 6, "mn": 6, "mm": 6, "m": 6, "mio": 6,
    "billion": 9, "billions": 9, "bn": 9, "b": 9,
    "trillion": 12, "trillions": 12, "tn": 12, "t": 12,
}
_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "none": 0,
}
_CURRENCY = re.compile(r"(?i)(?:us\$|a\$|c\$|[$€£¥₹]|\b(?:usd|eur|gbp|jpy|chf|cad|aud|dollars?|euros?|pounds?)\b)")
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u00a0": " ", "\u202f": " "})
_NUMBER = re.compile(
    r"""^(?P<sign>[-+])?\s*
        (?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)
        (?:\s*(?!percent|per\s*cent|pct)(?P<scale>[a-z]+))?
        \s*(?P<pct>%|percent|per\s*cent|pct)?$""",
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True)
class ParsedNumber:
    value: float
    ulp: float  # the unit of the last digit written, after scaling ("1.23 million" -> 10,000)
    sig_digits: int  # significant digits written
    percent: bool


def parse_number(text: str) -> ParsedNumber | None:
    """The number `text` states, or None when it is not exactly one number."""
    if not isinstance(text, str) or len(text) > 100:
        return None
    s = text.translate(_DASHES).strip().rstrip(".").strip()
    s = re.sub(r"(?i)^(?:approximately|approx\.?|about|around|~|≈)\s*", "", s)
    negative = False
    if s.startswith("(") and s.endswith(")"):  # accounting negative: (1,234)
        negative, s = True, s[1:-1].strip()
    s = _CURRENCY.sub(" ", s).strip()
    if s.startswith("(") and s.endswith(")"):  # $(1,234)
        negative, s = True, s[1:-1].strip()
    s = re.sub(r"^([-+])\s+", r"\1", s)
    word = _WORDS.get(s.lower())
    if word is not None:
        return ParsedNumber(float(word), 1.0, max(1, len(str(word))), False)
    m = _NUMBER.match(s)
    if not m:
        return None
    scale_word = (m.group("scale") or "").lower()
    if scale_word and scale_word not in _SCALES:
        return None
    num = m.group("num").replace(",", "")
    try:
        dec = Decimal(num)
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        return None
    exponent = _SCALES.get(scale_word, 0)
    value = float(dec.scaleb(exponent))
    if m.group("sign") == "-":
        negative = not negative if negative else True
    if negative:
        value = -value
    digits = dec.as_tuple()
    ulp = 10.0 ** (digits.exponent + exponent)
    sig = len(num.replace(".", "").lstrip("0")) or 1
    if not math.isfinite(value):
        return None
    return ParsedNumber(value, ulp, sig, bool(m.group("pct")))


def gold_number(gold: object) -> float | None:
    """A gold answer as a float (golds may be numbers or strings in any accepted format)."""
    if isinstance(gold, bool):
        return None
    if isinstance(gold, (int, float)):
        return float(gold) if math.isfinite(gold) else None
    if isinstance(gold, str):
        parsed = parse_number(gold)
        return parsed.value if parsed else None
    return None


def numbers_match(got: ParsedNumber, want: float, rel_tol: float, abs_tol: float, min_sig_digits: int) -> bool:
    """Equal within tolerance, or equal to `want` correctly rounded to the precision written.

    Rounding is honoured only when the response keeps `min_sig_digits` significant digits (or as
    many as the gold needs), so "1 million" does not pass for 1,400,000.
    """
    diff = abs(got.value - want)
    if diff <= max(rel_tol * abs(want), abs_tol):
        return True
    if math.copysign(1.0, got.value) != math.copysign(1.0, want) and got.value != 0 and want != 0:
        return False
    needed = min(min_sig_digits, _sig_digits_needed(want))
    return got.sig_digits >= needed and diff <= got.ulp / 2 * (1 + 1e-9)


def _sig_digits_needed(x: float) -> int:
    """Significant digits of x as written at up to 12 digits (1200 needs 2, 1234.5 needs 5)."""
    if x == 0:
        return 1
    text = f"{abs(x):.12g}"
    mantissa = text.split("e")[0].replace(".", "").strip("0")
    return max(1, len(mantissa))
