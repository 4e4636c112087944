"""Sales channels by name: each module of this package is one channel.

Across channels: quotes and the cheapest channel for an amount, the channel that earns most on an
order, every channel's terms, orders read from a channel's export, and invoices with the fee shared
over an order's lines.
"""

from __future__ import annotations

from ..errors import ChannelError
from ..money import __format_amount__
__unit_imports__

CHANNELS = {
__unit_table__
}


def get_channel(name: str):
    try:
        return CHANNELS[name]
    except KeyError:
        raise ChannelError(f"no sales channel {name!r}; there are {len(CHANNELS)}") from None


def quote(name: str, amount: int) -> dict[str, int]:
    """Fee and net of an order of `amount` cents on channel `name`."""
    channel = get_channel(name)
    return {"amount": amount, "fee": channel.fee(amount), "net": channel.net(amount)}


def cheapest(amount: int) -> str:
    """The channel that keeps the lowest fee on `amount` (ties: by name)."""
    return min(sorted(CHANNELS), key=lambda n: CHANNELS[n].fee(amount))


def best_margin(unit_cost: int, unit_price: int, quantity: int = 1) -> tuple[str, int]:
    """(channel, margin): the channel that earns most on `quantity` units sold at `unit_price` and
    bought at `unit_cost` (ties: by name), among the channels that take such an order."""
    amount = unit_price * quantity
    options = [(-CHANNELS[n].margin(unit_cost, unit_price, quantity), n) for n in CHANNELS
               if CHANNELS[n].accepts(quantity, amount)]
    if not options:
        raise ChannelError(f"no channel takes {quantity} units at {__format_amount__(unit_price)} each")
    loss, name = min(options)
    return name, -loss


def terms_table() -> list[dict[str, object]]:
    """Every channel's terms, by name."""
    return [CHANNELS[name].terms() for name in sorted(CHANNELS)]


def read_orders(name: str, text: str) -> list[tuple[int, int]]:
    """Channel `name`'s order export, a 'QUANTITY x PRICE' line per order (blank lines and '#'
    comments skipped), as (quantity, amount) orders; ChannelError names the line that is wrong."""
    channel = get_channel(name)
    orders = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            orders.append(channel.parse_order(line))
        except ChannelError as exc:
            raise ChannelError(f"line {number}: {exc}") from None
    return orders


def invoice(name: str, lines: list[tuple[str, int]]) -> list[tuple[str, int, int]]:
    """An order of (sku, amount) lines on channel `name`, line by line: (sku, share of the channel's
    fee, what the seller keeps); the shares add up to the fee on the whole order."""
    channel = get_channel(name)
    total = sum(amount for _, amount in lines)
    shares = channel.fee_shares(total, [amount for _, amount in lines])
    return [(sku, share, amount - share) for (sku, amount), share in zip(lines, shares, strict=True)]
