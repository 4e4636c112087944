"""The syntax tree of a query: expressions and the SELECT statement, and their text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .tokens import KEYWORDS

_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Literal:
    value: object


@dataclass(frozen=True)
class Column:
    name: str


@dataclass(frozen=True)
class Star:
    """`*`: every column (SELECT *) or every row (COUNT(*))."""


@dataclass(frozen=True)
class Unary:
    op: str          # "-" | "NOT"
    operand: object


@dataclass(frozen=True)
class Binary:
    op: str          # arithmetic, "||", comparisons, "AND", "OR"
    left: object
    right: object


@dataclass(frozen=True)
class Call:
    name: str        # upper-case
    args: tuple = ()
    star: bool = False   # COUNT(*)


@dataclass(frozen=True)
class IsNull:
    operand: object
    negated: bool = False


@dataclass(frozen=True)
class InList:
    operand: object
    items: tuple
    negated: bool = False


@dataclass(frozen=True)
class Like:
    operand: object
    pattern: object
    negated: bool = False


@dataclass(frozen=True)
class Between:
    operand: object
    low: object
    high: object
    negated: bool = False


@dataclass(frozen=True)
class SelectItem:
    expr: object
    alias: str | None = None


@dataclass(frozen=True)
class OrderItem:
    expr: object
    descending: bool = False


@dataclass
class Query:
    items: list[SelectItem]
    table: str
    where: object | None = None
    group_by: list = field(default_factory=list)
    order_by: list[OrderItem] = field(default_factory=list)
    limit: int | None = None
    offset: int = 0
#@if:without.distinct
#@else
    distinct: bool = False
#@end


def walk(node):
    """The node and every node inside it, parents first."""
    yield node
    if isinstance(node, Unary):
        yield from walk(node.operand)
    elif isinstance(node, Binary):
        yield from walk(node.left)
        yield from walk(node.right)
    elif isinstance(node, Call):
        for arg in node.args:
            yield from walk(arg)
    elif isinstance(node, IsNull):
        yield from walk(node.operand)
    elif isinstance(node, InList):
        yield from walk(node.operand)
        for item in node.items:
            yield from walk(item)
    elif isinstance(node, Like):
        yield from walk(node.operand)
        yield from walk(node.pattern)
    elif isinstance(node, Between):
        yield from walk(node.operand)
        yield from walk(node.low)
        yield from walk(node.high)


def columns_used(node) -> list[str]:
    """The column names an expression reads, in order of first use."""
    seen: dict[str, None] = {}
    for sub in walk(node):
        if isinstance(sub, Column):
            seen.setdefault(sub.name, None)
    return list(seen)


def quote_name(name: str) -> str:
    return name if _PLAIN_NAME.fullmatch(name) and name.upper() not in KEYWORDS else f'"{name}"'


def literal_sql(value) -> str:
    if value is None:
        return "NULL"
    if value is True or value is False:
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def _wrap(node) -> str:
    text = to_sql(node)
    return f"({text})" if isinstance(node, (Binary, IsNull, InList, Like, Between, Unary)) and not (
        isinstance(node, Unary) and node.op == "-") else text


def to_sql(node) -> str:
    """A node (or a whole Query) written back as query text; nested operations in parentheses."""
    if isinstance(node, Query):
        return query_sql(node)
    if isinstance(node, Literal):
        return literal_sql(node.value)
    if isinstance(node, Column):
        return quote_name(node.name)
    if isinstance(node, Star):
        return "*"
    if isinstance(node, Unary):
        return f"-{_wrap(node.operand)}" if node.op == "-" else f"NOT {_wrap(node.operand)}"
    if isinstance(node, Binary):
        return f"{_wrap(node.left)} {node.op} {_wrap(node.right)}"
    if isinstance(node, Call):
        return f"{node.name}(*)" if node.star else f"{node.name}({', '.join(to_sql(a) for a in node.args)})"
    not_ = "NOT " if getattr(node, "negated", False) else ""
    if isinstance(node, IsNull):
        return f"{_wrap(node.operand)} IS {not_}NULL"
    if isinstance(node, InList):
        return f"{_wrap(node.operand)} {not_}IN ({', '.join(to_sql(i) for i in node.items)})"
    if isinstance(node, Like):
        return f"{_wrap(node.operand)} {not_}LIKE {_wrap(node.pattern)}"
    if isinstance(node, Between):
        return f"{_wrap(node.operand)} {not_}BETWEEN {_wrap(node.low)} AND {_wrap(node.high)}"
    raise TypeError(f"not a query node: {node!r}")


def label(item: SelectItem) -> str:
    """The name of an output column: its alias, else its expression's text."""
    return item.alias if item.alias is not None else to_sql(item.expr)


def query_sql(query: Query) -> str:
    items = ", ".join(to_sql(i.expr) + (f" AS {quote_name(i.alias)}" if i.alias is not None else "") for i in query.items)
#@if:without.distinct
    # parts = [f"SELECT {items} FROM {quote_name(query.table)}"]
#@else
    parts = [f"SELECT {'DISTINCT ' if query.distinct else ''}{items} FROM {quote_name(query.table)}"]
#@end
    if query.where is not None:
        parts.append(f"WHERE {to_sql(query.where)}")
    if query.group_by:
        parts.append("GROUP BY " + ", ".join(to_sql(g) for g in query.group_by))
    if query.order_by:
        parts.append("ORDER BY " + ", ".join(to_sql(o.expr) + (" DESC" if o.descending else "") for o in query.order_by))
    if query.limit is not None:
        parts.append(f"LIMIT {query.limit}")
    if query.offset:
        parts.append(f"OFFSET {query.offset}")
    return " ".join(parts)
