"""Project kind `ledger`: an inventory ledger service (money in cents, stock movements, sales
channels with fees, reports, JSON storage)."""

from ..model import BugSite, Feature, ProjectKind, Rename, Units

INIT = '''\
"""$pkg: a small inventory ledger: stock movements, valuation, sales channels and reports."""

from .errors import $Error, ChannelError, UnknownItem
from .items import $Catalog, $Item
from .ledger import Entry, $Ledger
from .money import $allocate, $format_amount, $parse_amount

__version__ = "1.$minor.0"
__all__ = ["$Catalog", "ChannelError", "Entry", "$Error", "$Item", "$Ledger", "UnknownItem",
           "$allocate", "$format_amount", "$parse_amount"]
'''

ERRORS = '''\
"""Every error the package raises derives from $Error."""


class $Error(Exception):
    """Base class of the package's errors."""


class UnknownItem($Error, KeyError):
    """A SKU that the catalog or the ledger does not know."""

    def __init__(self, sku: str) -> None:
        super().__init__(sku)
        self.sku = sku

    def __str__(self) -> str:
        return f"unknown item {self.sku!r}"


class InsufficientStock($Error):
    """An issue of more units than are on hand."""


class ChannelError($Error, ValueError):
    """An order a sales channel does not accept."""


class FormatError($Error, ValueError):
    """Text that is not an amount, or a stored ledger that cannot be read."""
'''

MONEY = '''\
"""Amounts of money are integers of cents; these helpers read, write, scale and split them."""

from __future__ import annotations

from .errors import FormatError

CURRENCY = "$CURRENCY"


def $parse_amount(text: str) -> int:
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


def $format_amount(cents: int, currency: bool = False) -> str:
    """1250 -> '12.50', -5 -> '-0.05'; with `currency`, the code follows: '12.50 $CURRENCY'."""
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


def $allocate(total: int, weights: list[int]) -> list[int]:
    """Split `total` cents in proportion to `weights`; the parts add up to `total` exactly (the
    cents left over go to the largest remainders first)."""
#@if:bug.empty_weights
    total_weight = sum(weights)
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
'''

ITEMS = '''\
"""The catalog of items: what a SKU is, what it costs, where it is reordered."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import FormatError, UnknownItem

REORDER_DEFAULT = $REORDER_DEFAULT


@dataclass
class $Item:
    sku: str
    name: str
    unit_cost: int  # cents
    category: str = "general"
    reorder_at: int = REORDER_DEFAULT
    tags: list[str] = field(default_factory=list)
#@if:without.discontinue
#@else
    active: bool = True
#@end

    def label(self) -> str:
        return f"{self.sku} {self.name} ({self.category})"


class $Catalog:
    """Items by SKU, in the order they were added."""

    def __init__(self) -> None:
        self._items: dict[str, $Item] = {}

    def add(self, sku: str, name: str, unit_cost: int, category: str = "general", reorder_at: int | None = None) -> $Item:
        if not sku or not sku.strip():
            raise FormatError("a SKU cannot be empty")
        if unit_cost < 0:
            raise FormatError(f"{sku}: a unit cost cannot be negative")
        item = $Item(sku.strip(), name, unit_cost, category, REORDER_DEFAULT if reorder_at is None else reorder_at)
        self._items[item.sku] = item
        return item

    def get(self, sku: str) -> $Item:
        try:
            return self._items[sku]
        except KeyError:
            raise UnknownItem(sku) from None

    def __contains__(self, sku: str) -> bool:
        return sku in self._items

    def __len__(self) -> int:
        return len(self._items)

    def skus(self) -> list[str]:
        return list(self._items)

    def in_category(self, category: str) -> list[str]:
        return [sku for sku, item in self._items.items() if item.category == category]

    def categories(self) -> list[str]:
        return sorted({item.category for item in self._items.values()})
#@if:without.discontinue
#@else

    def discontinue(self, sku: str) -> None:
        """Stop carrying `sku`: it stays in the catalog but is no longer reordered or received."""
        self.get(sku).active = False

    def active_skus(self) -> list[str]:
        return [sku for sku, item in self._items.items() if item.active]
#@end

    def tag(self, sku: str, *tags: str) -> list[str]:
        item = self.get(sku)
        for tag in tags:
            if tag not in item.tags:
                item.tags.append(tag)
        return list(item.tags)
'''

LEDGER = '''\
"""The ledger: every stock movement, in order, and what follows from them."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import FormatError, InsufficientStock, UnknownItem

PAGE_SIZE = $PAGE_SIZE
KINDS = ("in", "out", "adjust")


@dataclass(frozen=True)
class Entry:
    number: int
    sku: str
    quantity: int      # positive in, negative out
    unit_cost: int     # cents per unit
    kind: str
    note: str = ""

    @property
    def value(self) -> int:
        return self.quantity * self.unit_cost


class $Ledger:
    def __init__(self, allow_negative: bool = False) -> None:
        self.entries: list[Entry] = []
        self.allow_negative = allow_negative

    def $record(self, sku: str, quantity: int, unit_cost: int = 0, kind: str = "in", note: str = "") -> Entry:
        """Record a movement: `quantity` units of `sku` coming in (kind "in"), going out ("out")
        or counted differently ("adjust", signed)."""
        if kind not in KINDS:
            raise FormatError(f"unknown kind of movement {kind!r}; expected one of {KINDS}")
        if kind != "adjust" and quantity <= 0:
            raise FormatError(f"{sku}: a quantity must be positive, got {quantity}")
        signed = -quantity if kind == "out" else quantity
        if signed < 0 and not self.allow_negative and self.$balance(sku) + signed < 0:  #@if:bug.overdraw: if signed < 0 and self.allow_negative and self.$balance(sku) + signed < 0:
            raise InsufficientStock(f"{sku}: {-signed} requested, {self.$balance(sku)} on hand")
        entry = Entry(len(self.entries) + 1, sku, signed, unit_cost, kind, note)
        self.entries.append(entry)
        return entry

    def receive(self, sku: str, quantity: int, unit_cost: int, note: str = "") -> Entry:
        return self.$record(sku, quantity, unit_cost, "in", note)

    def issue(self, sku: str, quantity: int, note: str = "") -> Entry:
        """Take `quantity` units out at the average cost of what is on hand."""
        return self.$record(sku, quantity, self.average_cost(sku), "out", note)

    def $balance(self, sku: str) -> int:
        """Units of `sku` on hand (0 for a SKU never seen)."""
        return sum(e.quantity for e in self.entries if e.sku == sku)

    def known(self, sku: str) -> bool:
        return any(e.sku == sku for e in self.entries)

    def average_cost(self, sku: str) -> int:
        """Weighted average unit cost of everything received, in whole cents (0 if none)."""
        received = [e for e in self.entries if e.sku == sku and e.quantity > 0 and e.kind == "in"]
        units = sum(e.quantity for e in received)
        if not units:
            return 0
        return round(sum(e.value for e in received) / units)

    def value(self, sku: str) -> int:
        """On-hand value of `sku` at its average cost."""
        return self.$balance(sku) * self.average_cost(sku)

    def $history(self, sku: str, page: int = 1, size: int = PAGE_SIZE) -> list[Entry]:
        """The movements of `sku`, `size` per page, pages counted from 1."""
        if page < 1 or size < 1:
            raise FormatError("pages and page sizes start at 1")
        mine = [e for e in self.entries if e.sku == sku]
        start = (page - 1) * size
        end = start + size  #@if:bug.paging: end = start + size - 1
        return mine[start:end]

    def pages(self, sku: str, size: int = PAGE_SIZE) -> int:
        count = sum(1 for e in self.entries if e.sku == sku)
        return max(1, -(-count // size))

    def skus(self) -> list[str]:
        return list(dict.fromkeys(e.sku for e in self.entries))

    def require(self, sku: str) -> None:
        if not self.known(sku):
            raise UnknownItem(sku)

    def totals(self) -> dict[str, int]:
        """Units on hand per SKU, for every SKU with movements."""
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.sku] = out.get(e.sku, 0) + e.quantity
        return out
'''

STOCK = '''\
"""Stock levels against the catalog: what to reorder, what the stock is worth."""

from __future__ import annotations

from .errors import FormatError
from .items import $Catalog
from .ledger import $Ledger


def receive_order(ledger: $Ledger, catalog: $Catalog, lines: list[tuple[str, int]]) -> int:
    """Book a delivery of (sku, quantity) lines at the catalog's unit costs; the number of units."""
    units = 0
    for sku, quantity in lines:
        item = catalog.get(sku)
#@if:without.discontinue
#@else
        if not item.active:
            raise FormatError(f"{sku} is discontinued: it cannot be received")
#@end
        ledger.receive(sku, quantity, item.unit_cost)  #@if:bug.swap_receive: ledger.receive(sku, item.unit_cost, quantity)
        units += quantity
    return units


def below_reorder(ledger: $Ledger, catalog: $Catalog) -> list[str]:
    """SKUs at or below their reorder point, in catalog order."""
    skus = catalog.skus()  #@if:without.discontinue: skus = catalog.skus()
#@if:without.discontinue
#@else
    skus = catalog.active_skus()
#@end
    return [sku for sku in skus if ledger.$balance(sku) <= catalog.get(sku).reorder_at]


def reorder_quantities(ledger: $Ledger, catalog: $Catalog, cover: int = 2) -> dict[str, int]:
    """How much to order of each SKU below its reorder point, to get back to `cover` times it."""
    wanted = {}
    for sku in below_reorder(ledger, catalog):
        target = catalog.get(sku).reorder_at * cover
        wanted[sku] = max(0, target - ledger.$balance(sku))
    return wanted


def valuation(ledger: $Ledger, catalog: $Catalog) -> dict[str, int]:
    """On-hand value per category (cents), every category of the catalog listed."""
    out = {category: 0 for category in catalog.categories()}
    for sku in catalog.skus():
        item = catalog.get(sku)
        out[item.category] += ledger.value(sku)  #@if:bug.value_key: out[item.category] += ledger.value(item.name)
    return out
'''

REPORTS = '''\
"""Reports over a ledger: movement summaries and a CSV export."""

from __future__ import annotations

from .ledger import $Ledger
from .money import $format_amount


def summary(ledger: $Ledger, counts: dict | None = None) -> dict[str, int]:  #@if:bug.summary_default: def summary(ledger: $Ledger, counts: dict = {}) -> dict[str, int]:
    """Number of movements per kind ("in", "out", "adjust"), added to `counts` when given."""
    counts = {} if counts is None else counts  #@if:bug.summary_default: pass
    for entry in ledger.entries:
        counts[entry.kind] = counts.get(entry.kind, 0) + 1
    return counts


def top_movers(ledger: $Ledger, n: int = 3) -> list[tuple[str, int]]:
    """The `n` SKUs with the most units moved (in and out), most first; ties by SKU."""
    moved: dict[str, int] = {}
    for entry in ledger.entries:
        moved[entry.sku] = moved.get(entry.sku, 0) + abs(entry.quantity)
    return sorted(moved.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def to_csv(ledger: $Ledger) -> str:
    """number,sku,kind,quantity,unit_cost,value: one line per movement, amounts as decimals."""
    lines = ["number,sku,kind,quantity,unit_cost,value"]
    for e in ledger.entries:
        lines.append(f"{e.number},{e.sku},{e.kind},{e.quantity},{$format_amount(e.unit_cost)},{$format_amount(e.value)}")
    return "\\n".join(lines) + "\\n"
'''

STORAGE = '''\
"""A ledger to and from JSON text."""

from __future__ import annotations

import json

from .errors import FormatError
from .ledger import Entry, $Ledger

VERSION = 1


def dumps(ledger: $Ledger) -> str:
    rows = [{"sku": e.sku, "quantity": e.quantity, "unit_cost": e.unit_cost, "kind": e.kind, "note": e.note}
            for e in ledger.entries]
    return json.dumps({"version": VERSION, "allow_negative": ledger.allow_negative, "entries": rows}, sort_keys=True)


def loads(text: str) -> $Ledger:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FormatError(f"not a stored ledger: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise FormatError(f"not a stored ledger of version {VERSION}")
    ledger = $Ledger(allow_negative=bool(data.get("allow_negative")))
    for number, row in enumerate(data.get("entries", []), 1):
        ledger.entries.append(Entry(number, row["sku"], row["quantity"], row["unit_cost"], row["kind"], row.get("note", "")))
    return ledger
'''

CHANNELS_INDEX = '''\
"""Sales channels by name: each module of this package is one channel.

Across channels: quotes and the cheapest channel for an amount, the channel that earns most on an
order, every channel's terms, orders read from a channel's export, and invoices with the fee shared
over an order's lines.
"""

from __future__ import annotations

from ..errors import ChannelError
from ..money import $format_amount
$unit_imports

CHANNELS = {
$unit_table
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
        raise ChannelError(f"no channel takes {quantity} units at {$format_amount(unit_price)} each")
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
'''

UNIT = '''\
"""The $unit sales channel: its fees, limits and settlement, the orders it exports, and what
selling through it earns."""

from __future__ import annotations

import re

from ..errors import ChannelError, FormatError
from ..money import apply_rate, $allocate, $format_amount, $parse_amount

NAME = "$unit"
FEE_PERCENT = $fee_pct
FIXED_FEE = $fixed_fee
MIN_ORDER = $min_order
MAX_QUANTITY = $max_qty
REFUNDS_FEE = $refunds_fee  # whether the fee comes back when an order is returned
_ORDER_LINE = re.compile(r"\\s*([0-9]+)\\s*[xX]\\s*(\\S.*?)\\s*")


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
        raise ChannelError(f"{NAME}: orders start at {$format_amount(MIN_ORDER)}, got {$format_amount(amount)}")


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
        rows.append({"amount": $format_amount(amount), "fee": $format_amount(fee(amount)), "net": $format_amount(net(amount))})
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
             f"  orders   {len(orders) - int(totals['refused']):>6}  gross {$format_amount(int(totals['gross'])):>14}",
             f"  refused  {int(totals['refused']):>6}",
             f"  fees            {$format_amount(int(totals['fees'])):>21}",
             f"  returns  {len(returns):>6}  paid  {$format_amount(refunded):>14}",
             f"  kept            {$format_amount(int(totals['net']) - refunded):>21}"]
    return "\\n".join(lines) + "\\n"


def describe() -> str:
    """One line for people: the fee schedule and the limits."""
    parts = [f"{FEE_PERCENT}% per order"]
    if FIXED_FEE:
        parts.append(f"plus {$format_amount(FIXED_FEE)}")
    if MIN_ORDER:
        parts.append(f"minimum {$format_amount(MIN_ORDER)}")
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
        unit_price = $parse_amount(match.group(2))
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
    return $allocate(fee(amount), weights)


def margin(unit_cost: int, unit_price: int, quantity: int = 1) -> int:
    """What `quantity` units sold at `unit_price` earn over their cost once the fee is paid (cents,
    negative for a loss)."""
    return net(unit_price * quantity) - unit_cost * quantity


def price_for(unit_cost: int, margin_percent: int = 0) -> int:
    """The lowest price of one unit that keeps `margin_percent` % over `unit_cost` after the fee
    (-1 when no price below 10**7 cents does)."""
    return break_even(unit_cost + apply_rate(unit_cost, margin_percent))
'''

README = '''\
# $pkg

An inventory ledger: items in a catalog, every stock movement recorded in order, valuation at
average cost, reorder points, $unit_count sales channels with their fees, reports and JSON storage.
Amounts are integers of cents ($CURRENCY).

```python
from $pkg import $Catalog, $Ledger
from $pkg.stock import receive_order, below_reorder

catalog = $Catalog()
catalog.add("A-100", "bolts", 12)
ledger = $Ledger()
receive_order(ledger, catalog, [("A-100", 40)])
ledger.issue("A-100", 5)
print(ledger.$balance("A-100"))    # 35
```

Every sales channel reads its own order exports (`channels.read_orders`, one `3 x 12.50` line per
order), shares its fee over an order's lines (`channels.invoice`) and says what a sale earns
(`channels.best_margin`).

Run the tests with `python -m pytest -q`.
'''

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$pkg"
version = "1.$minor.0"
requires-python = ">=3.10"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

TESTS = '''\
#@area money
import pytest
from $pkg.errors import FormatError
from $pkg.money import apply_rate, $allocate, $format_amount, $parse_amount
#@test visible
def test_parse_amount_forms():
    assert $parse_amount("12.5") == 1250
    assert $parse_amount("1,204.99") == 120499
    assert $parse_amount("  7 ") == 700
#@test visible
def test_parse_amount_rejects_garbage():
    for text in ("", "abc", "1.234", "1.2.3"):
        with pytest.raises(FormatError):
            $parse_amount(text)
#@test
def test_parse_negative_and_currency():
    assert $parse_amount("-3") == -300
    assert $parse_amount("4.05 $CURRENCY") == 405
#@test catches=sign
def test_format_amount_positive():
    assert $format_amount(1250) == "12.50"
    assert $format_amount(123456789) == "1,234,567.89"
    assert $format_amount(7, currency=True) == "0.07 $CURRENCY"
#@test catches=sign
def test_format_amount_negative():
    assert $format_amount(-5) == "-0.05"
    assert $format_amount(-123400) == "-1,234.00"
#@test catches=sign
def test_format_round_trip():
    for cents in (0, 1, 99, 100, -1, -250, 1000001):
        assert $parse_amount($format_amount(cents)) == cents
#@test visible
def test_apply_rate_rounds_half_away_from_zero():
    assert apply_rate(1000, 7) == 70
    assert apply_rate(150, 1) == 2
    assert apply_rate(-150, 1) == -2
    assert apply_rate(149, 1) == 1
#@test visible
def test_allocate_adds_up():
    assert $allocate(100, [1, 1, 1]) == [34, 33, 33]
    assert sum($allocate(1001, [3, 5, 9])) == 1001
#@test
def test_allocate_by_weight():
    assert $allocate(1000, [1, 3]) == [250, 750]
    with pytest.raises(FormatError):
        $allocate(10, [0, 0])
#@test catches=empty_weights
def test_allocate_nothing_to_split():
    assert $allocate(500, []) == []

#@area catalog
import pytest
from $pkg import $Catalog, UnknownItem
from $pkg.errors import FormatError
from $pkg.items import REORDER_DEFAULT
#@test visible
def test_catalog_add_and_get():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12, "hardware")
    assert catalog.get("A1").unit_cost == 12
    assert catalog.skus() == ["A1"] and len(catalog) == 1
#@test visible
def test_catalog_unknown_sku():
    with pytest.raises(UnknownItem, match="unknown item 'nope'"):
        $Catalog().get("nope")
#@test
def test_catalog_categories_and_defaults():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12, "hardware")
    catalog.add("B2", "glue", 300, "supplies", reorder_at=2)
    catalog.add("C3", "nut", 4, "hardware")
    assert catalog.categories() == ["hardware", "supplies"]
    assert catalog.in_category("hardware") == ["A1", "C3"]
    assert catalog.get("A1").reorder_at == REORDER_DEFAULT and catalog.get("B2").reorder_at == 2
#@test
def test_catalog_refuses_bad_items():
    catalog = $Catalog()
    with pytest.raises(FormatError):
        catalog.add("  ", "blank", 1)
    with pytest.raises(FormatError):
        catalog.add("X", "free money", -1)
#@test
def test_catalog_tags_are_per_item():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12)
    catalog.add("B2", "nut", 3)
    assert catalog.tag("A1", "steel", "m6", "steel") == ["steel", "m6"]
    assert catalog.tag("B2") == []

#@area ledger
import pytest
from $pkg import $Ledger
from $pkg.errors import FormatError, InsufficientStock, UnknownItem
from $pkg.ledger import PAGE_SIZE
#@test visible
def test_balance_after_receipts_and_issues():
    led = $Ledger()
    led.receive("A1", 10, 200)
    led.receive("A1", 5, 230)
    led.issue("A1", 4)
    assert led.$balance("A1") == 11
    assert led.$balance("never") == 0
#@test
def test_issue_reduces_stock():
    led = $Ledger()
    led.$record("A1", 8, 100, "in")
    led.$record("A1", 3, 100, "out")
    assert led.$balance("A1") == 5
    assert [e.quantity for e in led.entries] == [8, -3]
#@test catches=overdraw
def test_cannot_issue_more_than_on_hand():
    led = $Ledger()
    led.receive("A1", 2, 100)
    with pytest.raises(InsufficientStock):
        led.issue("A1", 3)
    assert $Ledger(allow_negative=True).$record("B", 1, 0, "out").quantity == -1
#@test catches=overdraw
def test_back_order_ledgers_may_go_below_zero():
    led = $Ledger(allow_negative=True)
    led.receive("A1", 1, 100)
    led.issue("A1", 3)
    assert led.$balance("A1") == -2
#@test visible
def test_record_validates():
    led = $Ledger()
    with pytest.raises(FormatError):
        led.$record("A1", 1, 0, "gift")
    with pytest.raises(FormatError):
        led.$record("A1", 0, 0, "in")
    led.$record("A1", 5, 10, "in")
    assert led.$record("A1", -2, 0, "adjust").quantity == -2
#@test
def test_average_cost_and_value():
    led = $Ledger()
    led.receive("A1", 10, 200)
    led.receive("A1", 10, 300)
    assert led.average_cost("A1") == 250
    assert led.value("A1") == 5000
    assert led.average_cost("none") == 0
#@test visible
def test_history_first_page():
    led = $Ledger()
    for i in range(3):
        led.receive("A1", i + 1, 100)
    led.receive("B2", 1, 100)
    assert [e.quantity for e in led.$history("A1")] == [1, 2, 3]
#@test catches=paging
def test_history_pages_are_full():
    led = $Ledger()
    for i in range(7):
        led.receive("A1", i + 1, 10)
    assert [e.quantity for e in led.$history("A1", page=1, size=3)] == [1, 2, 3]
    assert [e.quantity for e in led.$history("A1", page=3, size=3)] == [7]
    assert led.pages("A1", size=3) == 3
#@test catches=paging
def test_history_default_page_size():
    led = $Ledger()
    for i in range(PAGE_SIZE + 2):
        led.receive("A1", 1, 10)
    assert len(led.$history("A1")) == PAGE_SIZE
    assert len(led.$history("A1", page=2)) == 2
#@test
def test_history_validates_pages():
    with pytest.raises(FormatError):
        $Ledger().$history("A1", page=0)
#@test
def test_totals_and_require():
    led = $Ledger()
    led.receive("A1", 4, 1)
    led.receive("B2", 2, 1)
    led.$record("A1", -1, 0, "adjust")
    assert led.totals() == {"A1": 3, "B2": 2}
    assert led.skus() == ["A1", "B2"]
    with pytest.raises(UnknownItem):
        led.require("C3")

#@area stock
from $pkg import $Catalog, $Ledger
from $pkg.stock import below_reorder, receive_order, reorder_quantities, valuation
#@test catches=swap_receive
def test_receive_order_books_units():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12)
    led = $Ledger()
    assert receive_order(led, catalog, [("A1", 30)]) == 30
    assert led.$balance("A1") == 30
#@test catches=swap_receive
def test_receive_order_uses_catalog_cost():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12)
    catalog.add("B2", "nut", 3)
    led = $Ledger()
    receive_order(led, catalog, [("A1", 30), ("B2", 5)])
    assert led.$balance("A1") == 30 and led.$balance("B2") == 5
    assert led.average_cost("A1") == 12 and led.value("B2") == 15
#@test visible
def test_below_reorder():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12, reorder_at=5)
    catalog.add("B2", "nut", 3, reorder_at=5)
    led = $Ledger()
    led.receive("A1", 5, 12)
    led.receive("B2", 6, 3)
    assert below_reorder(led, catalog) == ["A1"]
    assert reorder_quantities(led, catalog) == {"A1": 5}
#@test catches=value_key
def test_valuation_by_category():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 10, "hardware")
    catalog.add("B2", "glue", 100, "supplies")
    catalog.add("C3", "tape", 50, "supplies")
    led = $Ledger()
    led.receive("A1", 3, 10)
    led.receive("B2", 2, 100)
    assert valuation(led, catalog) == {"hardware": 30, "supplies": 200}

#@test needs=discontinue
def test_discontinued_items_are_not_reordered():
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12, reorder_at=5)
    catalog.add("B2", "nut", 3, reorder_at=5)
    catalog.discontinue("B2")
    assert catalog.active_skus() == ["A1"]
    assert below_reorder($Ledger(), catalog) == ["A1"]
#@test needs=discontinue
def test_discontinued_items_cannot_be_received():
    import pytest
    from $pkg.errors import FormatError
    catalog = $Catalog()
    catalog.add("A1", "bolt", 12)
    catalog.discontinue("A1")
    led = $Ledger()
    with pytest.raises(FormatError, match="discontinued"):
        receive_order(led, catalog, [("A1", 1)])
    assert led.$balance("A1") == 0
    assert len(catalog) == 1 and catalog.get("A1").active is False

#@area reports
from $pkg import $Ledger
from $pkg.reports import summary, to_csv, top_movers
#@test visible
def test_summary_counts_kinds():
    led = $Ledger()
    led.receive("A1", 5, 10)
    led.issue("A1", 2)
    assert summary(led) == {"in": 1, "out": 1}
#@test catches=summary_default
def test_summary_starts_fresh_each_time():
    led = $Ledger()
    led.receive("A1", 5, 10)
    assert summary(led) == {"in": 1}
    assert summary(led) == {"in": 1}
    assert summary(led, {"in": 2}) == {"in": 3}
#@test visible
def test_top_movers():
    led = $Ledger()
    led.receive("B2", 5, 1)
    led.receive("A1", 5, 1)
    led.receive("C3", 9, 1)
    led.issue("C3", 1)
    assert top_movers(led, 2) == [("C3", 10), ("A1", 5)]
#@test catches=sign
def test_csv_export():
    led = $Ledger()
    led.receive("A1", 2, 150)
    assert to_csv(led).splitlines() == ["number,sku,kind,quantity,unit_cost,value", "1,A1,in,2,1.50,3.00"]

#@area storage
import pytest
from $pkg import $Ledger
from $pkg.errors import FormatError
from $pkg.storage import dumps, loads
#@test visible
def test_storage_round_trip():
    led = $Ledger(allow_negative=True)
    led.receive("A1", 3, 99, note="first")
    led.$record("A1", 1, 0, "out")
    back = loads(dumps(led))
    assert [(e.number, e.sku, e.quantity, e.unit_cost, e.kind, e.note) for e in back.entries] == [
        (1, "A1", 3, 99, "in", "first"), (2, "A1", -1, 0, "out", "")]
    assert back.allow_negative is True
#@test
def test_storage_refuses_garbage():
    for text in ("not json", "[]", '{"version": 99}'):
        with pytest.raises(FormatError):
            loads(text)

#@area channels
import pytest
from $pkg import channels
from $pkg.channels import CHANNELS, cheapest, get_channel, quote
from $pkg.errors import ChannelError
#@test visible
def test_every_channel_is_listed():
    assert sorted(CHANNELS) == sorted($unit_names)
#@test visible
def test_channel_fee_and_net():
    for name in $unit_names[:3]:
        channel = get_channel(name)
        assert channel.fee(0) == 0
        assert channel.net(100000) == 100000 - channel.fee(100000)
        assert channel.fee(100000) == 100000 * channel.FEE_PERCENT // 100 + channel.FIXED_FEE
#@test
def test_channel_limits():
    for name in $unit_names[-3:]:
        channel = get_channel(name)
        assert not channel.accepts(0, 100000)
        assert not channel.accepts(channel.MAX_QUANTITY + 1, 100000)
        assert channel.accepts(1, max(channel.MIN_ORDER, 1))
        with pytest.raises(ChannelError):
            channel.check(channel.MAX_QUANTITY + 1, 100000)
#@test
def test_channel_split_refund_and_break_even():
    for name in $unit_names[1:3]:
        channel = get_channel(name)
        parts = channel.split_order(channel.MAX_QUANTITY * 2 + 1, 10)
        assert [q for q, _ in parts] == [channel.MAX_QUANTITY, channel.MAX_QUANTITY, 1]
        assert sum(a for _, a in parts) == (channel.MAX_QUANTITY * 2 + 1) * 10
        cost = 1000
        point = channel.break_even(cost)
        assert channel.net(point) >= cost and channel.net(point - 1) < cost
        assert channel.refund(0) == 0
#@test
def test_channel_statement():
    channel = get_channel($unit_names[-1])
    text = channel.statement([(1, 100000)], [100000])
    assert text.splitlines()[0] == channel.NAME.upper() + " statement"
    assert "returns       1" in text
    assert len(channel.fee_table([100, 200])) == 2
#@test
def test_channel_settle_and_quote():
    name = $unit_names[0]
    channel = get_channel(name)
    result = channel.settle([(1, 100000), (0, 100000)])
    assert result["refused"] == 1 and result["gross"] == 100000
    assert result["net"] == 100000 - channel.fee(100000)
    assert quote(name, 5000)["net"] == channel.net(5000)
    assert cheapest(10000) in CHANNELS
    with pytest.raises(ChannelError):
        get_channel("no-such-channel")
#@test visible
def test_terms_table():
    table = channels.terms_table()
    assert [row["name"] for row in table] == sorted($unit_names)
    channel = get_channel(table[0]["name"])
    assert (table[0]["fee_percent"], table[0]["max_quantity"]) == (channel.FEE_PERCENT, channel.MAX_QUANTITY)
    assert channel.refund(1000) == (1000 if table[0]["refunds_fee"] else channel.net(1000))
#@test
def test_channel_order_lines():
    name = $unit_names[0]
    channel = get_channel(name)
    assert channel.parse_order("3 x 25.00") == (3, 7500)
    assert channel.parse_order(" 3X25 $CURRENCY ") == (3, 7500)
    for bad in ("3 x", "x 25", "three x 25", "3 x 2.505", "3 x 25 x 2", "0 x 25", f"{channel.MAX_QUANTITY + 1} x 25"):
        with pytest.raises(ChannelError):
            channel.parse_order(bad)
    assert channels.read_orders(name, "# exported\\n2 x 30.00\\n\\n  1 x 99\\n") == [(2, 6000), (1, 9900)]
    with pytest.raises(ChannelError, match="^line 2: "):
        channels.read_orders(name, "1 x 30\\nlots\\n")
#@test
def test_invoice_shares_the_fee():
    lines = [("A1", 7000), ("B2", 2000), ("C3", 1000)]
    for name in $unit_names[:2]:
        rows = channels.invoice(name, lines)
        assert [sku for sku, _, _ in rows] == ["A1", "B2", "C3"]
        assert sum(share for _, share, _ in rows) == get_channel(name).fee(10000)
        assert all(share + kept == amount for (_, share, kept), (_, amount) in zip(rows, lines))
        assert rows[0][1] >= rows[1][1] >= rows[2][1]
    assert channels.invoice(name, []) == [] and get_channel(name).fee_shares(500, []) == []
#@test
def test_margins_and_prices():
    for name in $unit_names[-2:]:
        channel = get_channel(name)
        assert channel.margin(1000, 3000, 2) == channel.net(6000) - 2000
        price = channel.price_for(1000, 20)
        assert channel.net(price) >= 1200 > channel.net(price - 1)
        assert channel.price_for(1000) == channel.break_even(1000)
    name, best = channels.best_margin(1000, 3000, 2)  # every channel takes 2 units for 60.00: the best keeps the lowest fee
    assert name == cheapest(6000) and best == get_channel(name).net(6000) - 2000
#@test catches=sign
def test_no_channel_takes_the_order():
    with pytest.raises(ChannelError, match=r"^no channel takes 1000000 units at 30\\.00 each"):
        channels.best_margin(1000, 3000, 10**6)
'''

KIND = ProjectKind(
    name="ledger",
    description="an inventory ledger service: money in cents, stock movements, sales channels, reports, storage",
    packages=("stockbook", "inventory", "storekeep", "warehouse", "ledgerly", "tally", "binlog"),
    names={
        "Ledger": ("Ledger", "StockLedger", "Journal", "StockBook"),
        "Item": ("Item", "Product", "Article"),
        "Catalog": ("Catalog", "ProductCatalog", "ItemIndex"),
        "Error": ("LedgerError", "StockError", "InventoryError"),
        "balance": ("balance", "on_hand", "quantity_of", "stock_of"),
        "record": ("record", "post", "enter"),
        "history": ("history", "movements", "entries_for"),
        "format_amount": ("format_amount", "render_amount", "money_text"),
        "parse_amount": ("parse_amount", "read_amount", "amount_from_text"),
        "allocate": ("allocate", "split_amount", "share_out"),
    },
    constants={"CURRENCY": ("EUR", "USD", "GBP", "CHF"), "PAGE_SIZE": (10, 20, 25), "REORDER_DEFAULT": (5, 10, 12),
               "minor": (2, 3, 4, 7)},
    files={"$pkg/__init__.py": INIT, "$pkg/errors.py": ERRORS, "$pkg/money.py": MONEY, "$pkg/items.py": ITEMS,
           "$pkg/ledger.py": LEDGER, "$pkg/stock.py": STOCK, "$pkg/reports.py": REPORTS, "$pkg/storage.py": STORAGE,
           "$pkg/channels/__init__.py": CHANNELS_INDEX, "README.md": README, "pyproject.toml": PYPROJECT},
    units=Units(dir="$pkg/channels", template=UNIT, index="$pkg/channels/__init__.py", count=(18, 31),
                names=("retail", "wholesale", "online", "kiosk", "catalogue", "export", "outlet", "partner", "direct",
                       "popup", "subscription", "auction", "tender", "franchise", "mailorder", "phone", "events",
                       "clearance", "campus", "airport", "hospital", "hotel", "marina", "market", "fair", "depot",
                       "agency", "school", "library", "studio", "gallery", "museum", "theatre", "stadium", "resort",
                       "harbour", "farmshop", "outpost", "bazaar", "trader"),
                values={"fee_pct": (1, 2, 3, 5, 8, 12, 15), "fixed_fee": (0, 25, 30, 50, 99),
                        "min_order": (0, 500, 1000, 2500), "max_qty": (50, 100, 250, 500),
                        "refunds_fee": (True, False)}),
    tests=TESTS,
    bugs=(
        BugSite("paging", "off_by_one", "$pkg/ledger.py",
                "`$Ledger.$history(sku, page, size)` drops one movement per page. With 7 movements and "
                "size=3 I get 2 entries on page 1 instead of 3, and the last movements never show up on any page."),
        BugSite("sign", "wrong_branch", "$pkg/money.py",
                "`$format_amount` gets the sign backwards: a refund of -5 cents prints as `0.05` while a sale of "
                "1250 prints as `-12.50`. Round-tripping through `$parse_amount` no longer gives the amount back."),
        BugSite("summary_default", "mutable_default", "$pkg/reports.py",
                "`reports.summary(ledger)` keeps counting across calls: the first call says {'in': 1} but calling it "
                "again on the same ledger says {'in': 2}, and a different ledger's summary includes the first one's."),
        BugSite("value_key", "wrong_key", "$pkg/stock.py",
                "`stock.valuation(ledger, catalog)` reports 0 for every category even though the ledger has stock "
                "with a known average cost; `ledger.value(sku)` itself gives the right number."),
        BugSite("empty_weights", "edge_case", "$pkg/money.py",
                "`$allocate(500, [])` crashes with ZeroDivisionError. Splitting over no weights should just give "
                "an empty list (we call it with whatever lines an order has, sometimes none)."),
        BugSite("swap_receive", "swapped_args", "$pkg/stock.py",
                "After `stock.receive_order(ledger, catalog, [('A1', 30)])` the ledger shows the item's unit cost "
                "as the quantity on hand and 30 as the unit cost, so balances and values are wrong."),
        BugSite("overdraw", "wrong_branch", "$pkg/ledger.py",
                "Stock that is not there can be issued: with 2 units on hand, `ledger.issue(sku, 3)` goes through and "
                "the balance becomes -1 instead of raising InsufficientStock. And the ledgers we open with "
                "`$Ledger(allow_negative=True)` (for back-orders) do the opposite: they refuse to go below zero."),
    ),
    features=(
        Feature("discontinue", ("$pkg/items.py", "$pkg/stock.py"),
                "We need to discontinue items without deleting them from the catalog. Please add "
                "`$Catalog.discontinue(sku)` (the item stays in the catalog, with an `active` attribute that becomes False; "
                "new items are active) and `$Catalog.active_skus()` (the SKUs still carried, in catalog order). "
                "Discontinued items must never show up in `stock.below_reorder` (nor in `reorder_quantities`), and "
                "`stock.receive_order` must refuse them with a FormatError whose message says the SKU is discontinued, "
                "booking nothing."),
    ),
    renames=(
        Rename("balance", "balance", "method", "$pkg.ledger", owner="Ledger"),
        Rename("history", "history", "method", "$pkg.ledger", owner="Ledger"),
        Rename("format_amount", "format_amount", "function", "$pkg.money"),
        Rename("Catalog", "Catalog", "class", "$pkg.items"),
    ),
    mutation_areas={"money": "$pkg/money.py", "ledger": "$pkg/ledger.py", "stock": "$pkg/stock.py"},
)
