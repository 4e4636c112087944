"""Named tables and the queries over them: the package's front door."""

from __future__ import annotations

from .csvio import read_csv, write_csv
from .errors import UnknownTable
from .functions import convert_column
from .parser import __parse_query__
from .planner import Result, execute, explain
from .table import __Table__

DEFAULT_TABLE = "__table__"


class __Database__:
    """Tables by name (any case), read from CSV text or given as tables."""

    def __init__(self, tables: dict[str, __Table__] | None = None) -> None:  #@if:bug.shared_tables: def __init__(self, tables: dict[str, __Table__] = {}) -> None:
        self.tables: dict[str, __Table__] = {}  #@if:bug.shared_tables: self.tables = tables
        for name, table in dict(tables or {}).items():
            self.add(name, table)

    def add(self, name: str, table: __Table__) -> __Table__:
        self.tables[name.lower()] = table
        return table

    def load(self, name: str, text: str, types: dict[str, str] | None = None) -> __Table__:
        """Read CSV text as table `name` (replacing one of that name)."""
        return self.add(name, read_csv(text, types, name=name))

    def names(self) -> list[str]:
        return sorted(self.tables)

    def table(self, name: str) -> __Table__:
        try:
            return self.tables[name.lower()]
        except KeyError:
            raise UnknownTable(name) from None

    def run(self, sql: str) -> Result:
        query = __parse_query__(sql)
        return execute(query, self.table(query.table))

    def query(self, sql: str) -> list[dict]:
        """The rows of a query's result, each a dict of output column -> value."""
        return self.run(sql).as_dicts()

    def explain(self, sql: str) -> list[str]:
        query = __parse_query__(sql)
        return explain(query, self.table(query.table))

    def to_csv(self, sql: str) -> str:
        """A query's result as CSV text (header included)."""
        result = self.run(sql)
        return write_csv(result.columns, result.rows)

    def convert(self, table: str, column: str, function: str, policy: str | None = None) -> tuple[list, dict]:
        """Column `column` of table `table` through conversion function `function`, with error
        policy `policy` ("raise", "skip" or "null"; the function's own by default): (the values,
        the summary: how many were converted, NULL, rejected; the least, greatest and total)."""
        return convert_column(function, self.table(table).column(column), policy)


def __run_query__(sql: str, text: str, types: dict[str, str] | None = None) -> list[dict]:
    """Run one query over one CSV text, whatever name its FROM gives the table."""
    query = __parse_query__(sql)
    database = __Database__()
    database.load(query.table or DEFAULT_TABLE, text, types)
    return execute(query, database.table(query.table)).as_dicts()
