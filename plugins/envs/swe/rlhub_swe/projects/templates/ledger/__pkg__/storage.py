"""A ledger to and from JSON text."""

from __future__ import annotations

import json

from .errors import FormatError
from .ledger import Entry, __Ledger__

VERSION = 1


def dumps(ledger: __Ledger__) -> str:
    rows = [{"sku": e.sku, "quantity": e.quantity, "unit_cost": e.unit_cost, "kind": e.kind, "note": e.note}
            for e in ledger.entries]
    return json.dumps({"version": VERSION, "allow_negative": ledger.allow_negative, "entries": rows}, sort_keys=True)


def loads(text: str) -> __Ledger__:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FormatError(f"not a stored ledger: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise FormatError(f"not a stored ledger of version {VERSION}")
    ledger = __Ledger__(allow_negative=bool(data.get("allow_negative")))
    for number, row in enumerate(data.get("entries", []), 1):
        ledger.entries.append(Entry(number, row["sku"], row["quantity"], row["unit_cost"], row["kind"], row.get("note", "")))
    return ledger
