"""Aggregate functions over groups of rows: COUNT, SUM, AVG, MIN and MAX. NULLs are skipped
(COUNT(*) counts rows); over no values at all, COUNT is 0 and the others are NULL."""

from __future__ import annotations

from .errors import TypeMismatch, UnknownFunction
from .nodes import Call, to_sql, walk

AGGREGATES = ("COUNT", "SUM", "AVG", "MIN", "MAX")


class Accumulator:
    """One aggregate, fed values one at a time."""

    def __init__(self, name: str, star: bool = False) -> None:
        if name not in AGGREGATES:
            raise UnknownFunction(name)
        if star and name != "COUNT":
            raise TypeMismatch(f"{name}(*) is not allowed: only COUNT(*)")
        self.name, self.star = name, star
        self.state = {"rows": 0, "count": 0, "sum": 0, "low": None, "high": None}

    def add(self, value) -> None:
        state = self.state
        state["rows"] += 1
        if value is None:
            return
        if self.name in ("SUM", "AVG") and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeMismatch(f"{self.name} needs numbers, got {value!r}")
        state["count"] += 1
        state["sum"] += value if self.name in ("SUM", "AVG") else 0
        try:
            if state["low"] is None or value < state["low"]:
                state["low"] = value
            if state["high"] is None or value > state["high"]:
                state["high"] = value
        except TypeError:
            raise TypeMismatch(f"{self.name} over values of different types") from None

    def result(self):
        state = self.state
        if self.name == "COUNT":
            return state["rows"] if self.star else state["count"]
        if self.name == "SUM":
            return state["sum"] if state["count"] else None
        if self.name == "AVG":
            return state["sum"] / state["count"] if state["count"] else None  #@if:bug.avg_key: return state["sum"] / state["rows"] if state["rows"] else None
        if self.name == "MIN":
            return state["low"]
        return state["high"]


def aggregate(name: str, values: list, star: bool = False):
    """One aggregate over a list of values: aggregate("AVG", [1, None, 2]) == 1.5."""
    acc = Accumulator(name.upper(), star)
    for value in values:
        acc.add(value)
    return acc.result()


def is_aggregate(node) -> bool:
    """Whether an expression holds an aggregate call anywhere."""
    return any(isinstance(sub, Call) and sub.name in AGGREGATES for sub in walk(node))


def aggregate_calls(node) -> list[Call]:
    """The aggregate calls in an expression, each once, in order; an aggregate inside another is
    a TypeMismatch."""
    found: dict[Call, None] = {}
    for sub in walk(node):
        if isinstance(sub, Call) and sub.name in AGGREGATES:
            for arg in sub.args:
                if is_aggregate(arg):
                    raise TypeMismatch(f"an aggregate inside another: {to_sql(sub)}")
            if not sub.star and len(sub.args) != 1:
                raise TypeMismatch(f"{sub.name} takes one argument, got {len(sub.args)}")
            found.setdefault(sub, None)
    return list(found)


def aggregate_labels(expression: str) -> list[str]:
    """The aggregate calls of an expression's text, as text."""
    from .parser import parse_expression

    return [to_sql(call) for call in aggregate_calls(parse_expression(expression))]
