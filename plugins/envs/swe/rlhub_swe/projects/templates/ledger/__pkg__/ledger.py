"""The ledger: every stock movement, in order, and what follows from them."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import FormatError, InsufficientStock, UnknownItem

PAGE_SIZE = __PAGE_SIZE__
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


class __Ledger__:
    def __init__(self, allow_negative: bool = False) -> None:
        self.entries: list[Entry] = []
        self.allow_negative = allow_negative

    def __record__(self, sku: str, quantity: int, unit_cost: int = 0, kind: str = "in", note: str = "") -> Entry:
        """Record a movement: `quantity` units of `sku` coming in (kind "in"), going out ("out")
        or counted differently ("adjust", signed)."""
        if kind not in KINDS:
            raise FormatError(f"unknown kind of movement {kind!r}; expected one of {KINDS}")
        if kind != "adjust" and quantity <= 0:
            raise FormatError(f"{sku}: a quantity must be positive, got {quantity}")
        signed = -quantity if kind == "out" else quantity
        if signed < 0 and not self.allow_negative and self.__balance__(sku) + signed < 0:  #@if:bug.overdraw: if signed < 0 and self.allow_negative and self.__balance__(sku) + signed < 0:
            raise InsufficientStock(f"{sku}: {-signed} requested, {self.__balance__(sku)} on hand")
        entry = Entry(len(self.entries) + 1, sku, signed, unit_cost, kind, note)
        self.entries.append(entry)
        return entry

    def receive(self, sku: str, quantity: int, unit_cost: int, note: str = "") -> Entry:
        return self.__record__(sku, quantity, unit_cost, "in", note)

    def issue(self, sku: str, quantity: int, note: str = "") -> Entry:
        """Take `quantity` units out at the average cost of what is on hand."""
        return self.__record__(sku, quantity, self.average_cost(sku), "out", note)

    def __balance__(self, sku: str) -> int:
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
        return self.__balance__(sku) * self.average_cost(sku)

    def __history__(self, sku: str, page: int = 1, size: int = PAGE_SIZE) -> list[Entry]:
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
