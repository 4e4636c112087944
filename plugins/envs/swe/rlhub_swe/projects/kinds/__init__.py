"""The project kinds, by name."""

from __future__ import annotations

import importlib

NAMES = ("ledger", "conf", "plugreg", "sched", "cli", "csvq")


def kind(name: str):
    return importlib.import_module(f"{__name__}.{name}").KIND


def all_kinds():
    return [kind(n) for n in NAMES]
