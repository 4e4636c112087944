"""A table: named, typed columns and rows of values (tuples, in column order)."""

from __future__ import annotations

from .coltypes import TYPES, type_of_value
from .errors import __Error__, TypeMismatch, UnknownColumn


class __Table__:
    def __init__(self, columns: list[str], types: list[str] | None = None, rows: list | None = None,
                 name: str = "") -> None:
        lowered = [c.lower() for c in columns]
        for column in columns:
            if lowered.count(column.lower()) > 1:
                raise __Error__(f"column {column!r} appears twice")
        self.name = name
        self.columns = list(columns)
        self.types = list(types) if types is not None else ["str"] * len(columns)
        if len(self.types) != len(self.columns):
            raise __Error__(f"{len(self.columns)} columns but {len(self.types)} types")
        for kind in self.types:
            if kind not in TYPES:
                raise TypeMismatch(f"unknown type {kind!r}")
        self._index = {c: i for i, c in enumerate(lowered)}
        self.rows: list[tuple] = []
        for row in rows or ():
            self.add_row(row)

    def __column_index__(self, name: str) -> int:
        """The position of a column, by name, in any case; UnknownColumn if there is none."""
        try:
            return self._index[name.lower()]
        except KeyError:
            raise UnknownColumn(name) from None

    def has_column(self, name: str) -> bool:
        return name.lower() in self._index

    def column_type(self, name: str) -> str:
        return self.types[self.__column_index__(name)]

    def column(self, name: str) -> list:
        """Every value of one column, in row order."""
        i = self.__column_index__(name)
        return [row[i] for row in self.rows]

    def add_row(self, values) -> None:
        """Append a row (a sequence in column order); each value NULL or of its column's type
        (an int is accepted in a float column)."""
        row = tuple(values)
        if len(row) != len(self.columns):
            raise __Error__(f"a row of {len(row)} values for {len(self.columns)} columns")
        for value, column, kind in zip(row, self.columns, self.types):
            got = type_of_value(value)
            if got not in ("null", kind) and not (kind == "float" and got == "int"):
                raise TypeMismatch(f"column {column!r} holds {kind} values, got {got} {value!r}")
        self.rows.append(row)

    def __len__(self) -> int:
        return len(self.rows)

    def schema(self) -> list[tuple[str, str]]:
        """(column, type) pairs."""
        return list(zip(self.columns, self.types))

    def row_dicts(self) -> list[dict]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def head(self, count: int = 5) -> "__Table__":
        return __Table__(self.columns, self.types, self.rows[:count], self.name)

    def summary(self) -> dict[str, dict]:
        """Per column: its type, how many NULLs and how many distinct other values."""
        out = {}
        for i, column in enumerate(self.columns):
            values = [row[i] for row in self.rows]
            present = [v for v in values if v is not None]
            out[column] = {"type": self.types[i], "nulls": len(values) - len(present), "distinct": len(set(present))}
        return out
