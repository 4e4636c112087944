"""Reports over a ledger: movement summaries and a CSV export."""

from __future__ import annotations

from .ledger import __Ledger__
from .money import __format_amount__


def summary(ledger: __Ledger__, counts: dict | None = None) -> dict[str, int]:  #@if:bug.summary_default: def summary(ledger: __Ledger__, counts: dict = {}) -> dict[str, int]:
    """Number of movements per kind ("in", "out", "adjust"), added to `counts` when given."""
    counts = {} if counts is None else counts  #@if:bug.summary_default: pass
    for entry in ledger.entries:
        counts[entry.kind] = counts.get(entry.kind, 0) + 1
    return counts


def top_movers(ledger: __Ledger__, n: int = 3) -> list[tuple[str, int]]:
    """The `n` SKUs with the most units moved (in and out), most first; ties by SKU."""
    moved: dict[str, int] = {}
    for entry in ledger.entries:
        moved[entry.sku] = moved.get(entry.sku, 0) + abs(entry.quantity)
    return sorted(moved.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def to_csv(ledger: __Ledger__) -> str:
    """number,sku,kind,quantity,unit_cost,value: one line per movement, amounts as decimals."""
    lines = ["number,sku,kind,quantity,unit_cost,value"]
    for e in ledger.entries:
        lines.append(f"{e.number},{e.sku},{e.kind},{e.quantity},{__format_amount__(e.unit_cost)},{__format_amount__(e.value)}")
    return "\n".join(lines) + "\n"
