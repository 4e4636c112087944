"""Stock levels against the catalog: what to reorder, what the stock is worth."""

from __future__ import annotations

from .errors import FormatError
from .items import __Catalog__
from .ledger import __Ledger__


def receive_order(ledger: __Ledger__, catalog: __Catalog__, lines: list[tuple[str, int]]) -> int:
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


def below_reorder(ledger: __Ledger__, catalog: __Catalog__) -> list[str]:
    """SKUs at or below their reorder point, in catalog order."""
    skus = catalog.skus()  #@if:without.discontinue: skus = catalog.skus()
#@if:without.discontinue
#@else
    skus = catalog.active_skus()
#@end
    return [sku for sku in skus if ledger.__balance__(sku) <= catalog.get(sku).reorder_at]


def reorder_quantities(ledger: __Ledger__, catalog: __Catalog__, cover: int = 2) -> dict[str, int]:
    """How much to order of each SKU below its reorder point, to get back to `cover` times it."""
    wanted = {}
    for sku in below_reorder(ledger, catalog):
        target = catalog.get(sku).reorder_at * cover
        wanted[sku] = max(0, target - ledger.__balance__(sku))
    return wanted


def valuation(ledger: __Ledger__, catalog: __Catalog__) -> dict[str, int]:
    """On-hand value per category (cents), every category of the catalog listed."""
    out = {category: 0 for category in catalog.categories()}
    for sku in catalog.skus():
        item = catalog.get(sku)
        out[item.category] += ledger.value(sku)  #@if:bug.value_key: out[item.category] += ledger.value(item.name)
    return out
