"""A query over a table, as steps: scan, filter, group and aggregate (or project), distinct, order,
offset and limit. `explain` lists the steps, `execute` runs them."""

from __future__ import annotations

from dataclasses import dataclass

from .aggregates import Accumulator, aggregate_calls, is_aggregate
from .errors import TypeMismatch, UnknownColumn
from .evaluate import Row, evaluate, truth
from .nodes import Column, Literal, Query, SelectItem, Star, columns_used, label, to_sql
from .table import __Table__


@dataclass
class Result:
    columns: list[str]
    rows: list[tuple]

    def as_dicts(self) -> list[dict]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def column(self, name: str) -> list:
        i = self.columns.index(name)
        return [row[i] for row in self.rows]


def output_items(query: Query, table: __Table__) -> list[SelectItem]:
    """The select list with `*` spelled out as the table's columns."""
    out = []
    for item in query.items:
        if isinstance(item.expr, Star):
            out += [SelectItem(Column(name)) for name in table.columns]
        else:
            out.append(item)
    return out


def _aliases(items: list[SelectItem]) -> dict[str, int]:
    return {item.alias.lower(): i for i, item in enumerate(items) if item.alias is not None}


def check_columns(query: Query, items: list[SelectItem], table: __Table__) -> None:
    """UnknownColumn for the first column the query names that the table does not have (ORDER BY
    may also name an output column by its alias)."""
    aliases = _aliases(items)
    exprs = [i.expr for i in items] + ([query.where] if query.where is not None else []) + list(query.group_by)
    for expr in exprs:
        for name in columns_used(expr):
            table.__column_index__(name)
    for order in query.order_by:
        for name in columns_used(order.expr):
            if name.lower() not in aliases:
                table.__column_index__(name)


def _grouped(query: Query, items: list[SelectItem]) -> bool:
    return bool(query.group_by) or any(is_aggregate(i.expr) for i in items)


def _check_grouping(query: Query, items: list[SelectItem]) -> None:
    keys = {to_sql(g) for g in query.group_by}
    key_columns = {name.lower() for g in query.group_by for name in columns_used(g)}
    for item in items:
        if is_aggregate(item.expr) or to_sql(item.expr) in keys:
            continue
        if not {name.lower() for name in columns_used(item.expr)} <= key_columns:
            raise TypeMismatch(f"{label(item)} must be in GROUP BY or inside an aggregate")


def _sort_key(value):
    """NULLs first, then the values in their order."""
    return (0, 0) if value is None else (1, value)


def _order_value(order, items, aliases, values, row, computed):
    expr = order.expr
    if isinstance(expr, Column) and expr.name.lower() in aliases:
        return values[aliases[expr.name.lower()]]
    if isinstance(expr, Literal) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        if not 1 <= expr.value <= len(items):
            raise TypeMismatch(f"ORDER BY {expr.value}: there are {len(items)} output columns")
        return values[expr.value - 1]
    return evaluate(expr, row, computed)


def execute(query: Query, table: __Table__) -> Result:
    items = output_items(query, table)
    check_columns(query, items, table)
    rows = [Row(table, values) for values in table.rows]
    if query.where is not None:
        rows = [row for row in rows if truth(evaluate(query.where, row)) is True]
    aliases = _aliases(items)
    produced = []   # (output values, a row of the group or the row, aggregate values)
    if _grouped(query, items):
        _check_grouping(query, items)
        calls = []
        for expr in [i.expr for i in items] + [o.expr for o in query.order_by]:
            calls += [c for c in aggregate_calls(expr) if c not in calls]
        groups: dict[tuple, list] = {}
        for row in rows:
            groups.setdefault(tuple(evaluate(g, row) for g in query.group_by), []).append(row)
        if not groups and not query.group_by:
            groups[()] = []
        for members in groups.values():
            computed = {}
            for call in calls:
                acc = Accumulator(call.name, call.star)
                for row in members:
                    acc.add(None if call.star else evaluate(call.args[0], row))
                computed[call] = acc.result()
            first = members[0] if members else None
            produced.append((tuple(evaluate(i.expr, first, computed) for i in items), first, computed))
    else:
        for row in rows:
            produced.append((tuple(evaluate(i.expr, row) for i in items), row, None))
#@if:without.distinct
#@else
    if query.distinct:
        seen: set = set()
        unique = []
        for entry in produced:
            if entry[0] not in seen:
                seen.add(entry[0])
                unique.append(entry)
        produced = unique
#@end
    for order in reversed(query.order_by):
        produced.sort(key=lambda e: _sort_key(_order_value(order, items, aliases, e[0], e[1], e[2])),
                      reverse=order.descending)
    if query.offset:
        produced = produced[query.offset:]
    if query.limit is not None:  #@if:bug.limit_zero: if query.limit:
        produced = produced[:query.limit]
    return Result([label(i) for i in items], [values for values, _, _ in produced])


def explain(query: Query, table: __Table__) -> list[str]:
    """The steps `execute` takes, one line each."""
    items = output_items(query, table)
    steps = [f"scan {query.table} ({len(table)} rows)"]
    if query.where is not None:
        steps.append(f"filter {to_sql(query.where)}")
    if _grouped(query, items):
        calls = []
        for item in items:
            calls += [to_sql(c) for c in aggregate_calls(item.expr) if to_sql(c) not in calls]
        by = f" by {', '.join(to_sql(g) for g in query.group_by)}" if query.group_by else ""
        steps.append(f"aggregate {', '.join(calls) or 'nothing'}{by}")
    steps.append(f"project {', '.join(label(i) for i in items)}")
#@if:without.distinct
#@else
    if query.distinct:
        steps.append("distinct")
#@end
    if query.order_by:
        steps.append("order by " + ", ".join(to_sql(o.expr) + (" DESC" if o.descending else "") for o in query.order_by))
    if query.offset:
        steps.append(f"skip {query.offset}")
    if query.limit is not None:
        steps.append(f"limit {query.limit}")
    return steps
