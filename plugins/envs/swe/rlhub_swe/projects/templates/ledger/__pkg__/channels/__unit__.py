"""The __unit__ sales channel: its fees, limits and settlement, the orders it exports, and what
selling through it earns."""

from __future__ import annotations

import re

from ..errors import ChannelError, FormatError
from ..money import apply_rate, __allocate__, __format_amount__, __parse_amount__

NAME = "__unit__"
FEE_PERCENT = __fee_pct__
FIXED_FEE = __fixed_fee__
MIN_ORDER = __min_order__
MAX_QUANTITY = __max_qty__
REFUNDS_FEE = __refunds_fee__  # whether the fee comes back when an order is returned
_ORDER_LINE = re.compile(r"\s*([0-9]+)\s*[xX]\s*(\S.*?)\s*")


def fee(amount: int) -> int:
    """The channel's fee on an order of `amount` cents: a percentage plus a fixed part."""
    if amount <= 0:
        return 0
    return apply_rate(amount, FEE_PERCENT) + FIXED_FEE


def net(amount: int) -> int:
    """What the seller keeps of an order of `amount` cents."""
    return amount - fee(amount)


def accepts(quantity: int, amount: int) -> bool:
    """Whether the channel takes an order of `quantity` units worth `amount` cents."""
    return 0 < quantity <= MAX_QUANTITY and amount >= MIN_ORDER


def check(quantity: int, amount: int) -> None:
    """Raise ChannelError, saying why, for an order the channel does not take."""
    if quantity <= 0:
        raise ChannelError(f"{NAME}: quantity must be positive, got {quantity}")
    if quantity > MAX_QUANTITY:
        raise ChannelError(f"{NAME}: at most {MAX_QUANTITY} units per order, got {quantity}")
    if amount < MIN_ORDER:
        raise ChannelError(f"{NAME}: orders start at {__format_amount__(MIN_ORDER)}, got {__format_amount__(amount)}")


def settle(orders: list[tuple[int, int]]) -> dict[str, object]:
    """Totals of (quantity, amount) orders: gross, fees, net and how many were refused."""
    gross = fees = refused = 0
    for quantity, amount in orders:
        if not accepts(quantity, amount):
            refused += 1
            continue
        gross += amount
        fees += fee(amount)
    return {"channel": NAME, "gross": gross, "fees": fees, "net": gross - fees, "refused": refused}


def refund(amount: int, fee_refunded: bool = REFUNDS_FEE) -> int:
    """What the seller pays back on a returned order of `amount` cents (the fee comes back too
    when the channel refunds it)."""
    if amount <= 0:
        return 0
    return amount - (0 if fee_refunded else fee(amount))


def split_order(quantity: int, unit_price: int) -> list[tuple[int, int]]:
    """An order too large for one shipment, as (quantity, amount) parts of at most MAX_QUANTITY units."""
    if quantity <= 0:
        raise ChannelError(f"{NAME}: quantity must be positive, got {quantity}")
    parts = []
    left = quantity
    while left > 0:
        take = min(left, MAX_QUANTITY)
        parts.append((take, take * unit_price))
        left -= take
    return parts


def fee_table(amounts: list[int]) -> list[dict[str, object]]:
    """The fee and net of each amount, for a price list: one row per amount, as text."""
    rows = []
    for amount in amounts:
        rows.append({"amount": __format_amount__(amount), "fee": __format_amount__(fee(amount)), "net": __format_amount__(net(amount))})
    return rows


def break_even(unit_cost: int) -> int:
    """The lowest order amount (cents) whose net covers `unit_cost`, or -1 if none below 10**7 does."""
    low, high = 0, 10**7
    if net(high) < unit_cost:
        return -1
    while low < high:
        middle = (low + high) // 2
        if net(middle) >= unit_cost:
            high = middle
        else:
            low = middle + 1
    return low


def statement(orders: list[tuple[int, int]], returns: list[int] = ()) -> str:
    """A plain-text statement of a period: orders taken, returns, and what the seller keeps."""
    totals = settle(orders)
    refunded = sum(refund(amount) for amount in returns)
    lines = [f"{NAME.upper()} statement",
             f"  orders   {len(orders) - int(totals['refused']):>6}  gross {__format_amount__(int(totals['gross'])):>14}",
             f"  refused  {int(totals['refused']):>6}",
             f"  fees            {__format_amount__(int(totals['fees'])):>21}",
             f"  returns  {len(returns):>6}  paid  {__format_amount__(refunded):>14}",
             f"  kept            {__format_amount__(int(totals['net']) - refunded):>21}"]
    return "\n".join(lines) + "\n"


def describe() -> str:
    """One line for people: the fee schedule and the limits."""
    parts = [f"{FEE_PERCENT}% per order"]
    if FIXED_FEE:
        parts.append(f"plus {__format_amount__(FIXED_FEE)}")
    if MIN_ORDER:
        parts.append(f"minimum {__format_amount__(MIN_ORDER)}")
    return f"{NAME}: " + ", ".join(parts) + f", up to {MAX_QUANTITY} units"


def terms() -> dict[str, object]:
    """The channel's terms as data."""
    return {"name": NAME, "fee_percent": FEE_PERCENT, "fixed_fee": FIXED_FEE, "min_order": MIN_ORDER,
            "max_quantity": MAX_QUANTITY, "refunds_fee": REFUNDS_FEE}


def parse_order(text: str) -> tuple[int, int]:
    """'3 x 12.50' (units x unit price, a line of the channel's order export) -> (3, 3750), an
    order the channel takes; ChannelError says what is wrong with any other line."""
    match = _ORDER_LINE.fullmatch(text)
    if not match:
        raise ChannelError(f"{NAME}: expected 'QUANTITY x PRICE', got {text!r}")
    try:
        unit_price = __parse_amount__(match.group(2))
    except FormatError:
        raise ChannelError(f"{NAME}: not a price: {match.group(2)!r}") from None
    quantity = int(match.group(1))
    check(quantity, quantity * unit_price)
    return quantity, quantity * unit_price


def fee_shares(amount: int, weights: list[int]) -> list[int]:
    """The fee on an order of `amount` cents shared over its lines in proportion to `weights` (each
    line's amount, say): the shares add up to the fee exactly. No lines, no shares."""
    if not weights:
        return []
    return __allocate__(fee(amount), weights)


def margin(unit_cost: int, unit_price: int, quantity: int = 1) -> int:
    """What `quantity` units sold at `unit_price` earn over their cost once the fee is paid (cents,
    negative for a loss)."""
    return net(unit_price * quantity) - unit_cost * quantity


def price_for(unit_cost: int, margin_percent: int = 0) -> int:
    """The lowest price of one unit that keeps `margin_percent` % over `unit_cost` after the fee
    (-1 when no price below 10**7 cents does)."""
    return break_even(unit_cost + apply_rate(unit_cost, margin_percent))
