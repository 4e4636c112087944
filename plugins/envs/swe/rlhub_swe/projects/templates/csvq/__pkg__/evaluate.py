"""Expressions evaluated against one row: arithmetic, comparisons, functions and three-valued
logic (NULL is "unknown": NULL AND FALSE is FALSE, NULL AND TRUE is NULL)."""

from __future__ import annotations

from . import scalars
from .coltypes import coerce_pair, format_value
from .errors import TypeMismatch, UnknownColumn
from .functions import call_function
from .nodes import Between, Binary, Call, Column, InList, IsNull, Like, Literal, Star, Unary


class Row:
    """One row of a table, its values found by column name through the table."""

    __slots__ = ("table", "values")

    def __init__(self, table, values: tuple) -> None:
        self.table, self.values = table, values

    def get(self, name: str):
        return self.values[self.table.__column_index__(name)]


def _lookup(row, name: str):
    if row is None:
        raise UnknownColumn(name)
    if isinstance(row, dict):
        for key, value in row.items():
            if key.lower() == name.lower():
                return value
        raise UnknownColumn(name)
    return row.get(name)


def truth(value):
    """A value as a condition: True, False or None (NULL); numbers are true unless zero."""
    if value is None or value is True or value is False:
        return value
    if isinstance(value, (int, float)):
        return value != 0
    raise TypeMismatch(f"{format_value(value)!r} is not a condition")


def logical_and(left, right):
    left, right = truth(left), truth(right)
    if left is False or right is False:  #@if:bug.and_null: if left is None or right is None:
        return False  #@if:bug.and_null: return None
    if left is None or right is None:  #@if:bug.and_null: if left is False or right is False:
        return None  #@if:bug.and_null: return False
    return True


def logical_or(left, right):
    left, right = truth(left), truth(right)
    if left is True or right is True:
        return True
    if left is None or right is None:
        return None
    return False


def logical_not(value):
    value = truth(value)
    return None if value is None else not value


def _number(op: str, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeMismatch(f"{op} needs numbers, got {format_value(value)!r}")
    return value


def compare(op: str, left, right):
    """`left op right` for two values (NULL if either is NULL)."""
    if left is None or right is None:
        return None
    left, right = coerce_pair(left, right)
    if op == "=":
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    if op == ">=":
        return left >= right
    raise ValueError(f"not a comparison: {op}")


def arithmetic(op: str, left, right):
    """`left op right` for + - * / % and || (NULL if either is NULL; NULL for a division by zero)."""
    if left is None or right is None:
        return None
    if op == "||":
        return format_value(left) + format_value(right)
    left, right = _number(op, left), _number(op, right)
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if right == 0:
        return None
    if op == "/":
        return left / right
    if op == "%":
        return left % right
    raise ValueError(f"not an arithmetic operator: {op}")


def evaluate(node, row=None, computed: dict | None = None):
    """The value of expression `node` for `row` (a Row or a dict of column -> value). `computed`:
    values already known for some nodes (the planner's aggregates)."""
    if computed and node in computed:
        return computed[node]
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Column):
        return _lookup(row, node.name)
    if isinstance(node, Binary):
        left = evaluate(node.left, row, computed)
        right = evaluate(node.right, row, computed)
        if node.op == "AND":
            return logical_and(left, right)
        if node.op == "OR":
            return logical_or(left, right)
        if node.op in ("=", "!=", "<", "<=", ">", ">="):
            return compare(node.op, left, right)
        return arithmetic(node.op, left, right)
    if isinstance(node, Unary):
        value = evaluate(node.operand, row, computed)
        if node.op == "NOT":
            return logical_not(value)
        return None if value is None else -_number("-", value)
    if isinstance(node, IsNull):
        return (evaluate(node.operand, row, computed) is None) != node.negated
    if isinstance(node, InList):
        value = evaluate(node.operand, row, computed)
        if value is None:
            return None
        items = [evaluate(item, row, computed) for item in node.items]
        if any(compare("=", value, item) for item in items if item is not None):
            return not node.negated
        return None if any(item is None for item in items) else node.negated
    if isinstance(node, Like):
        value, pattern = evaluate(node.operand, row, computed), evaluate(node.pattern, row, computed)
        matched = scalars.like(value, pattern)  #@if:bug.like_args: matched = scalars.like(pattern, value)
        return logical_not(matched) if node.negated else matched
    if isinstance(node, Between):
        value = evaluate(node.operand, row, computed)
        low, high = evaluate(node.low, row, computed), evaluate(node.high, row, computed)
        inside = logical_and(compare(">=", value, low), compare("<=", value, high))
        return logical_not(inside) if node.negated else inside
    if isinstance(node, Call):
        if node.star:
            raise TypeMismatch(f"{node.name}(*) is only allowed as COUNT(*)")
        args = [evaluate(arg, row, computed) for arg in node.args]
        if node.name in scalars.BUILTINS:
            return scalars.call_builtin(node.name, args)
        return call_function(node.name, args)
    if isinstance(node, Star):
        raise TypeMismatch("* is only allowed as SELECT * or COUNT(*)")
    raise TypeError(f"not an expression: {node!r}")


def evaluate_text(expression: str, row: dict | None = None):
    """Parse and evaluate an expression against a dict of column -> value."""
    from .parser import parse_expression

    return evaluate(parse_expression(expression), row)
