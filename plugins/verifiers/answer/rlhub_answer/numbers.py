"""Numbers as people write them in financial and technical answers, read as quantities.

A written number is read as its value and what it names:
- thousands separators; parentheses or any dash for negatives; `approximately`, `~`, `≈`;
- scale words and suffixes (thousand/k, million/m/mn, billion/bn/b, trillion/tn): `0 trillion`
  is zero, nothing else;
- scientific notation: `6.746e6`, `6.746 × 10^6`, `6.746 \\times 10^{6}` (LaTeX is undone first);
- percent (%, percent, per cent, pct);
- a currency, as a symbol, code or name ($, US$, USD, US dollars, €, EUR, euros...), read as its
  ISO code;
- a trailing unit of up to three words (`1104 days`, `5 line items`) or one word that gives the
  direction of a change (`24.69% increase`, `3.1% decrease`).
What a caller accepts of the currency, unit and direction is its rule (`numbers_match` and the
matchers): the parse only says what was written. Each parse keeps the precision the writer
committed to (the unit of the last digit, after scaling and exponent).
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
# Currency as written -> ISO code: symbols anywhere, codes and names as whole words. Within a
# group the longer spelling comes first ("US dollars" is one currency, "A$" is not "$").
_CURRENCIES = {
    "AUD": (r"A\$", r"aud|australian\s+dollars?"), "CAD": (r"C\$", r"cad|canadian\s+dollars?"),
    "USD": (r"US\s?\$|\$", r"u\.s\.\s*dollars?|us\s+dollars?|usd|dollars?"), "EUR": (r"€", r"eur|euros?"),
    "GBP": (r"£", r"gbp|pounds?(?:\s+sterling)?"), "JPY": (r"¥", r"jpy|yen"), "INR": (r"₹", r"inr|rupees?"),
    "CHF": (r"(?!)", r"chf|swiss\s+francs?"),
}
_CURRENCY = re.compile("|".join(f"(?P<{code}>{symbol}|(?<![\\w.])(?:{name})(?![\\w]))"
                                for code, (symbol, name) in _CURRENCIES.items()), re.IGNORECASE)
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u00a0": " ", "\u202f": " ",
                         "\u2009": " ", "\u03bc": "µ"})  # Greek mu as the micro sign
_APPROX = re.compile(r"(?i)^(?:approximately|approx\.?|about|around|roughly|circa|ca\.|~|≈|∼)\s*")
# "an increase of 6.4%", "increased by 6.4%", "a 6.4% increase": the direction said in words first
_DIRECTION_FIRST = re.compile(r"(?i)^(?:an?\s+)?(increase|decrease|rise|decline|drop|fall|gain|growth)\s+of\s+"
                              r"|^(increased|decreased|rose|fell|grew|dropped|declined|gained)\s+(?:by\s+)?")
_ARTICLE = re.compile(r"(?i)^an?\s+(?=\d)")
_SPACED_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?: \d{3})+)(?![\d])")  # 5 594 000
_NUMBER = re.compile(
    r"""^(?P<sign>[-+])?\s*
        (?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)
        (?:\s*[eE](?P<exp>[-+]?\d{1,3})|\s*(?:×|x|\*|·)\s*10\s*\^\s*\(?(?P<exp10>[-+]?\d{1,3})\)?)?
        (?:\s*(?!percent|per\s*cent|pct)(?P<scale>[a-z]+)(?![a-z]))?
        \s*(?P<pct>%|percent|per\s*cent|pct)?
        (?P<rest>(?:\s*[a-zµ°³][a-z0-9µ°³-]*)?(?:\s+[a-zµ°³][a-z0-9µ°³-]*){0,2})$""",
    re.VERBOSE | re.IGNORECASE,
)
INCREASE = frozenset({"increase", "increased", "rise", "rose", "growth", "grew", "gain", "gained", "up", "higher"})
DECREASE = frozenset({"decrease", "decreased", "decline", "declined", "drop", "dropped", "fall", "fell", "down", "lower",
                      "reduction"})
# Units written more than one way: every spelling of a unit the gold names is that unit.
UNIT_SYNONYMS = [
    {"tonne", "t", "ton", "metric ton", "metric tonne"}, {"hour", "h", "hr", "hrs"}, {"ua", "µa", "microamp", "microampere"},
    {"m3", "m³", "cubic metre", "cubic meter"}, {"kg", "kilogram", "kgs"}, {"piece", "pc", "pcs"},
    {"day", "d"}, {"minute", "min", "mins"}, {"second", "s", "sec", "secs"}, {"unit", "unit"},
    {"%/v", "% per volt", "% per v", "percent per volt", "%/volt"}, {"c/w", "°c/w", "c per watt", "°c per watt"},
    {"khz", "kilohertz"}, {"v", "volt"}, {"a", "amp", "ampere"},
]


def unit_spellings(unit: str) -> set[str]:
    """Every spelling of `unit` (singular, lower case) that names it."""
    u = singular(unit)
    return next((group for group in UNIT_SYNONYMS if u in group), {u})


@dataclass(frozen=True)
class ParsedNumber:
    value: float
    ulp: float  # the unit of the last digit written, after scaling ("1.23 million" -> 10,000)
    sig_digits: int  # significant digits written
    percent: bool
    currency: str | None = None  # ISO code of the currency named, if any
    unit: str = ""  # trailing unit words, lower case, singular ("line item", "day")
    change: int = 0  # +1: an increase word gave the sign; -1: a decrease word; 0: none


def singular(words: str) -> str:
    """'line items' -> 'line item', 'entries' -> 'entry', 'days' -> 'day' (the last word only)."""
    words = " ".join(words.lower().split())
    head, _, last = words.rpartition(" ")
    if last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 2:
        last = last[:-1]
    return f"{head} {last}".strip()


def parse_number(text: str, units: tuple[str, ...] = ()) -> ParsedNumber | None:
    """The number `text` states, or None when it is not exactly one number. `units`: unit words
    the caller expects, read as a unit even where they could be a scale suffix ("5 m" of a
    length in m)."""
    if not isinstance(text, str) or len(text) > 100:
        return None
    s = text.translate(_DASHES).strip().rstrip(".").strip()
    s = _APPROX.sub("", s)
    said = _DIRECTION_FIRST.match(s)
    if said:  # "an increase of 6.4%" is "6.4% increase"
        s = s[said.end():] + " " + (said.group(1) or said.group(2)).lower()
    s = _ARTICLE.sub("", s)
    s = _SPACED_THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(" ", ","), s)
    negative = False
    if s.startswith("(") and s.endswith(")"):  # accounting negative: (1,234)
        negative, s = True, s[1:-1].strip()
    currencies: set[str] = set()
    s = _CURRENCY.sub(lambda m: currencies.add(m.lastgroup) or " ", s).strip()  # one pass: find and drop
    if len(currencies) > 1:
        return None  # two currencies in one answer
    s = re.sub(r"\(\s*\)", " ", s).strip()  # "4,640,000 (USD)": the code's parentheses
    if s.startswith("(") and s.endswith(")"):  # $(1,234)
        negative, s = True, s[1:-1].strip()
    s = re.sub(r"^([-+])\s+", r"\1", s)
    s = re.sub(r"\s+", " ", s)
    compound = next((spelling for u in units if ("/" in u or "." in u or u.startswith("%")) and len(u) > 1
                     for spelling in sorted(unit_spellings(u), key=len, reverse=True)
                     if s.lower().endswith(spelling.rstrip(".")) and s[:-len(spelling.rstrip("."))].strip()), None)
    if compound:  # "0.21 %/V", "31.5 C/W", "2.9% p.a.": a unit the number regex cannot spell (a ratio's % is no percentage)
        s = s[:-len(compound.rstrip("."))].strip()
    word = _WORDS.get(s.lower())
    if word is not None:
        return ParsedNumber(float(word), 1.0, max(1, len(str(word))), False, next(iter(currencies), None))
    m = _NUMBER.match(s)
    if not m:
        return None
    scale_word = (m.group("scale") or "").lower()
    rest = " ".join(m.group("rest").split()).lower()
    expected = {spelling for u in units for spelling in unit_spellings(u)}
    if scale_word and (singular(" ".join(filter(None, (scale_word, rest)))) in expected or scale_word not in _SCALES):
        # not a scale: the first word of the unit ("5 m" of metres, "1104 days")
        rest = " ".join(filter(None, (scale_word, rest))) if not m.group("pct") else None
        scale_word = ""
        if rest is None or len(rest.split()) > 3:
            return None
    num = m.group("num").replace(",", "")
    try:
        dec = Decimal(num)
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        return None
    exponent = _SCALES.get(scale_word, 0) + int(m.group("exp") or m.group("exp10") or 0)
    value = float(dec.scaleb(exponent))
    if m.group("sign") == "-":
        negative = not negative
    change = 0
    if rest in INCREASE or rest in DECREASE:
        if m.group("sign") or negative:
            return None  # "-3% decrease": the sign said twice, maybe two different ways
        change, rest = (1 if rest in INCREASE else -1), ""
        negative = change < 0
    if negative:
        value = -value
    digits = dec.as_tuple()
    zeros = len(num) - len(num.rstrip("0")) if "." not in num and num.strip("0") else 0
    ulp = 10.0 ** (digits.exponent + zeros + exponent)  # 2,370,000 is written to the 10,000 (3 digits)
    sig = len(num.replace(".", "").lstrip("0")) - zeros or 1
    if not math.isfinite(value) or not math.isfinite(ulp) or ulp == 0:
        return None
    if compound:
        if rest:
            return None
        rest = compound
    return ParsedNumber(value, ulp, sig, bool(m.group("pct")), next(iter(currencies), None),
                        singular(rest) if rest else "", change)


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


def allowed_ulp(want: float, min_sig_digits: int, decimals: int | None = None) -> float:
    """The coarsest rounding of `want` that still counts as right: `min_sig_digits` significant
    digits of the gold (1,234,567 -> 10,000 at 3), or the question's own rounding instruction
    (`decimals`: "round to 2 decimal places" -> 0.01), whichever is coarser. Zero: exact only."""
    coarsest = 0.0
    if want != 0:
        coarsest = 10.0 ** (math.floor(math.log10(abs(want))) - (min_sig_digits - 1))
    if decimals is not None:
        coarsest = max(coarsest, 10.0 ** -decimals)
    return coarsest


def numbers_match(got: ParsedNumber, want: float, rel_tol: float, abs_tol: float, min_sig_digits: int,
                  decimals: int | None = None) -> bool:
    """Equal within tolerance, or `want` correctly rounded at the precision written, where that
    precision is no coarser than `allowed_ulp` of the gold.

    The tolerance comes from the gold, never from the answer: "0 trillion" is 0, and 0 is not a
    rounding of 5 (its precision, 10^12, is far coarser than 5 allows). A sign that differs is
    always wrong.
    """
    diff = abs(got.value - want)
    if diff <= max(rel_tol * abs(want), abs_tol):
        return True
    if (got.value < 0) != (want < 0) or got.value == 0:
        return False
    coarsest = allowed_ulp(want, min_sig_digits, decimals)
    return got.ulp <= coarsest * (1 + 1e-9) and diff <= got.ulp / 2 * (1 + 1e-9)
