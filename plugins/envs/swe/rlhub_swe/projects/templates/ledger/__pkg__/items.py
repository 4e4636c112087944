"""The catalog of items: what a SKU is, what it costs, where it is reordered."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import FormatError, UnknownItem

REORDER_DEFAULT = __REORDER_DEFAULT__


@dataclass
class __Item__:
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


class __Catalog__:
    """Items by SKU, in the order they were added."""

    def __init__(self) -> None:
        self._items: dict[str, __Item__] = {}

    def add(self, sku: str, name: str, unit_cost: int, category: str = "general", reorder_at: int | None = None) -> __Item__:
        if not sku or not sku.strip():
            raise FormatError("a SKU cannot be empty")
        if unit_cost < 0:
            raise FormatError(f"{sku}: a unit cost cannot be negative")
        item = __Item__(sku.strip(), name, unit_cost, category, REORDER_DEFAULT if reorder_at is None else reorder_at)
        self._items[item.sku] = item
        return item

    def get(self, sku: str) -> __Item__:
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
