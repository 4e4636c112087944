"""The world model every document is rendered from and every question is a program over."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass
class Table:
    title: str
    row_header: str
    columns: list[str]
    rows: list[tuple[str, list[float | None]]]  # None: blank cell; values as displayed (money tables: in thousands)
    unit: str = "usd_k"  # "usd_k" (in thousands of US dollars), "usd", or a unit name ("hours", "%")
    decimals: int = 0
    periods: str = ""  # "year"/"quarter"/"month" when the columns are consecutive periods, in order
    totals: tuple[str, ...] = ()  # rows that are sums of others (not candidates for argmax/count)
    column_units: tuple[str, ...] = ()  # per-column units, where columns differ ("pieces", "kg")
    column_decimals: tuple[int, ...] = ()

    def unit_of(self, col: str) -> str:
        return self.column_units[self.columns.index(col)] if self.column_units else self.unit

    def decimals_of(self, col: str) -> int:
        return self.column_decimals[self.columns.index(col)] if self.column_decimals else self.decimals

    def scale_of(self, col: str) -> int:
        return 1000 if self.unit_of(col) == "usd_k" else 1

    def items(self) -> list[tuple[str, list[float]]]:
        return [(label, values) for label, values in self.rows if label not in self.totals]

    def value(self, row: str, col: str) -> float:
        return dict(self.rows)[row][self.columns.index(col)]


@dataclass
class World:
    kind: str
    entity: str
    title: str
    tables: list[Table]
    dates: list[tuple[str, dt.date]]  # labelled dates stated in the document
    durations: list[tuple[str, int, str]]  # (what, days, date it counts from), e.g. a notice period
    facts: list[tuple[str, str]] = field(default_factory=list)  # key terms stated in prose
    absent_rows: list[str] = field(default_factory=list)  # plausible items the document never states
    absent_in: tuple[int | None, ...] = ()  # the table each absent item would belong to (None: any)
    unprinted: list[tuple[str, int]] = field(default_factory=list)  # rows other documents of this kind print, this one not
    fixed_tables: frozenset[int] = frozenset()  # tables printed with the same rows in every document of this kind

    def ranked_tables(self) -> list[Table]:
        """The tables a ranking or a list may be asked of: those whose rows vary by document."""
        return [t for i, t in enumerate(self.tables) if i not in self.fixed_tables]

    def periods_table(self) -> Table | None:
        return next((t for t in self.tables if t.periods and len(t.columns) >= 3), None)
