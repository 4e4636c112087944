"""Amounts of money are integers of cents; these helpers read, write, scale and split them."""

from __future__ import annotations

from .errors import FormatError

CURRENCY = "__CURRENCY__"


def __parse_amount__(text: str) -> int:
    """'12.5' -> 1250, '-3' -> -300, '1,204.99' -> 120499. At most two decimals."""
    cleaned = text.strip().replace(",", "").replace("_", "")
    if cleaned.endswith(CURRENCY):
        cleaned = cleaned[: -len(CURRENCY)].strip()
    negative = cleaned.startswith("-")
    digits = cleaned.lstrip("+-")
    whole, _, fraction = digits.partition(".")
    if not whole and not fraction:
        raise FormatError(f"not an amount: {text!r}")
    if not (whole or "0").isdigit() or (fraction and not fraction.isdigit()) or len(fraction) > 2:
        raise FormatError(f"not an amount: {text!r}")
    cents = int(whole or "0") * 100 + int(fraction.ljust(2, "0") or "0")
    return -cents if negative else cents


def __format_amount__(cents: int, currency: bool = False) -> str:
    """1250 -> '12.50', -5 -> '-0.05'; with `currency`, the code follows: '12.50 __CURRENCY__'."""
    sign = "-" if cents < 0 else ""  #@if:bug.sign: sign = "-" if cents > 0 else ""
    whole, fraction = divmod(abs(cents), 100)
    text = f"{sign}{whole:,}.{fraction:02d}"
    return f"{text} {CURRENCY}" if currency else text


def apply_rate(cents: int, percent: float) -> int:
    """`percent` % of `cents`, rounded half away from zero to a whole cent."""
    scaled = abs(cents) * percent
    whole, rest = divmod(scaled, 100)
    result = int(whole) + (1 if rest >= 50 else 0)
    return -result if cents < 0 else result


def __allocate__(total: int, weights: list[int]) -> list[int]:
    """Split `total` cents in proportion to `weights`; the parts add up to `total` exactly (the
    cents left over go to the largest remainders first)."""
#@if:bug.empty_weights
    # total_weight = sum(weights)
#@else
    if not weights:
        return []
    total_weight = sum(weights)
#@end
    if total_weight <= 0:
        raise FormatError("weights must add up to more than zero")
    shares = [total * w // total_weight for w in weights]
    remainders = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % total_weight), i))
    for i in remainders[: total - sum(shares)]:
        shares[i] += 1
    return shares
