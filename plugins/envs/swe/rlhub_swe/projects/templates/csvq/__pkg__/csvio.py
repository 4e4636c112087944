"""CSV text <-> tables, with the standard `csv` module: a header line, then one row a line; the
column types are inferred from the cells unless they are given."""

from __future__ import annotations

import csv
import io

from .coltypes import TYPES, convert, format_value, infer_type
from .errors import CsvFormatError, TypeMismatch
from .table import __Table__

DELIMITER = ","


def read_records(text: str, delimiter: str = DELIMITER) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """(header, [(line number, cells), ...]); blank lines are skipped; the header is line 1."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise CsvFormatError("the text is empty: the first line must name the columns", 1)
        header = [cell.strip() for cell in header]
        seen: set[str] = set()
        for position, name in enumerate(header, 1):
            if not name:
                raise CsvFormatError(f"column {position} of the header has no name", 1)
            if name.lower() in seen:
                raise CsvFormatError(f"column {name!r} appears twice in the header", 1)
            seen.add(name.lower())
        records = []
        for line, cells in enumerate(reader, 2):  #@if:bug.line_number: for line, cells in enumerate(reader, 1):
            if not cells:
                continue
            if len(cells) != len(header):
                raise CsvFormatError(f"{len(cells)} fields, but the header names {len(header)} columns", line)
            records.append((line, cells))
    except csv.Error as exc:
        raise CsvFormatError(str(exc), reader.line_num) from None
    return header, records


def read_csv(text: str, types: dict[str, str] | None = None, delimiter: str = DELIMITER, name: str = "") -> __Table__:
    """A table from CSV text. `types` names the type of some columns ({"zip": "str"}); the others
    are inferred from their cells. A cell that is not of its column's type is a CsvFormatError."""
    header, records = read_records(text, delimiter)
    given = {key.lower(): kind for key, kind in (types or {}).items()}
    for key, kind in given.items():
        if kind not in TYPES:
            raise TypeMismatch(f"unknown type {kind!r} for column {key!r} (one of {', '.join(TYPES)})")
    kinds = [given.get(column.lower()) or infer_type([cells[i] for _, cells in records])
             for i, column in enumerate(header)]
    table = __Table__(header, kinds, name=name)
    for line, cells in records:
        try:
            table.add_row([convert(cell, kind) for cell, kind in zip(cells, kinds)])
        except TypeMismatch as exc:
            raise CsvFormatError(str(exc), line) from None
    return table


def read_file(path: str, types: dict[str, str] | None = None, delimiter: str = DELIMITER) -> __Table__:
    with open(path, encoding="utf-8", newline="") as f:
        return read_csv(f.read(), types, delimiter)


def write_csv(columns: list[str], rows: list, delimiter: str = DELIMITER) -> str:
    """CSV text of a header and rows (NULL as an empty cell); read_csv reads it back."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([format_value(v) for v in row])
    return out.getvalue()


def table_to_csv(table: __Table__, delimiter: str = DELIMITER) -> str:
    return write_csv(table.columns, table.rows, delimiter)
