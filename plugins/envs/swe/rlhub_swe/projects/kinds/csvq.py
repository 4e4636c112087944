"""Project kind `csvq`: a small query engine over CSV (a tokenizer and a recursive-descent parser of a
SELECT ... WHERE ... GROUP BY ... ORDER BY ... LIMIT language, typed columns, expression evaluation
with three-valued logic, aggregates, a planner, a CSV reader and writer, and conversion functions
usable in queries, one module each)."""

from ..model import BugSite, Feature, ProjectKind, Rename, Units

# The templates are raw strings: what is written is the generated source, backslashes included.

INIT = r'''"""$pkg: SQL-like queries over CSV text (SELECT ... WHERE ... GROUP BY ... ORDER BY ... LIMIT)."""

from .csvio import read_csv, write_csv
from .engine import $Database, $run_query
from .errors import (ConversionError, $Error, CsvFormatError, QuerySyntaxError, TypeMismatch, UnknownColumn,
                     UnknownFunction, UnknownTable)
from .parser import parse_expression, $parse_query
from .table import $Table

__version__ = "0.$minor.0"
__all__ = ["ConversionError", "CsvFormatError", "$Database", "$Error", "QuerySyntaxError", "$Table", "TypeMismatch", "UnknownColumn",
           "UnknownFunction", "UnknownTable", "parse_expression", "$parse_query", "read_csv", "$run_query",
           "write_csv"]
'''

MAIN = r'''"""`python -m $pkg QUERY FILE...`"""

from .cli import main

raise SystemExit(main())
'''

ERRORS = r'''"""The package's errors: every one derives from $Error."""


class $Error(Exception):
    """Base class of the package's errors."""


class QuerySyntaxError($Error, ValueError):
    """Query text that does not follow the grammar; says where (1-based column)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column


class CsvFormatError($Error, ValueError):
    """CSV text that cannot be read as a table; says which line (1-based: the header is line 1)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class UnknownColumn($Error, KeyError):
    """A column the table does not have."""

    def __str__(self) -> str:
        return f"no column {self.args[0]!r}"


class UnknownTable($Error, KeyError):
    """A table the database does not have."""

    def __str__(self) -> str:
        return f"no table {self.args[0]!r}"


class UnknownFunction($Error, KeyError):
    """A function name that is neither built in nor one of the conversion functions."""

    def __str__(self) -> str:
        return f"no function {self.args[0]!r}"


class TypeMismatch($Error, TypeError):
    """An operation on values of types it does not take, or a query that mixes them."""


class ConversionError(TypeMismatch):
    """A value a conversion function cannot take: says which function, the value and why (also
    as its args, so that a copy made from them, as pickle makes one, says the same)."""

    def __init__(self, function: str, value, reason: str) -> None:
        super().__init__(function, value, reason)
        self.function, self.value, self.reason = function, value, reason

    def __str__(self) -> str:
        return f"{self.function}() {self.reason}, got {self.value!r}"
'''

TOKENS = r'''"""Query text as tokens: keywords, names, numbers, strings and operators."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import QuerySyntaxError

KEYWORDS = frozenset({
    "SELECT", "DISTINCT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "ASC", "DESC", "LIMIT", "OFFSET", "AS",
    "AND", "OR", "NOT", "IS", "NULL", "IN", "LIKE", "BETWEEN", "TRUE", "FALSE",
})
# Longest first: "<=" must win over "<".
OPERATORS = ("<=", ">=", "<>", "!=", "||", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",")


@dataclass(frozen=True)
class Token:
    kind: str        # "keyword" | "name" | "number" | "string" | "op" | "end"
    text: str        # keywords upper-cased, "<>" written "!="
    column: int      # 1-based
    value: object = None


def tokenize(text: str) -> list[Token]:
    """Every token of `text`, then an "end" token (its column one past the last character)."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        start = i
        if ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            i = _number_end(text, i)
            word = text[start:i]
            value = float(word) if ("." in word or "e" in word.lower()) else int(word)
            tokens.append(Token("number", word, start + 1, value))
        elif ch.isalpha() or ch == "_":
            while i < n and (text[i].isalnum() or text[i] == "_"):
                i += 1
            word = text[start:i]
            if word.upper() in KEYWORDS:
                tokens.append(Token("keyword", word.upper(), start + 1))
            else:
                tokens.append(Token("name", word, start + 1, word))
        elif ch == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise QuerySyntaxError("a quoted name is not closed", start + 1)
            name = text[i + 1:end]
            if not name:
                raise QuerySyntaxError("a quoted name is empty", start + 1)
            tokens.append(Token("name", name, start + 1, name))
            i = end + 1
        elif ch == "'":
            value, i = _string(text, i)
            tokens.append(Token("string", text[start:i], start + 1, value))
        else:
            for op in OPERATORS:
                if text.startswith(op, i):
                    tokens.append(Token("op", "!=" if op == "<>" else op, start + 1))
                    i += len(op)
                    break
            else:
                raise QuerySyntaxError(f"unexpected character {ch!r}", start + 1)
    tokens.append(Token("end", "", n + 1))
    return tokens


def _number_end(text: str, i: int) -> int:
    """Where the number starting at `i` ends: digits, one dot, an optional exponent ('1e3', '2.5E-2')."""
    n = len(text)
    seen_dot = False
    while i < n and (text[i].isdigit() or (text[i] == "." and not seen_dot)):
        seen_dot = seen_dot or text[i] == "."
        i += 1
    if i + 1 < n and text[i] in "eE":
        if text[i + 1].isdigit():
            i += 1
        elif text[i + 1] in "+-" and i + 2 < n and text[i + 2].isdigit():
            i += 2
        else:
            return i
        while i < n and text[i].isdigit():
            i += 1
    return i


def _string(text: str, i: int) -> tuple[str, int]:
    """The string literal starting at `i` ('it''s': a doubled quote is a quote) and the index after it."""
    start = i
    out: list[str] = []
    i += 1
    while i < len(text):
        ch = text[i]
        if ch == "'":
            if text[i + 1:i + 2] == "'":
                out.append("'")
                i += 2
                continue
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    raise QuerySyntaxError("a string is not closed", start + 1)


def token_table(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, column) of every token: what the tokenizer saw, as plain values."""
    return [(t.kind, t.text, t.column) for t in tokenize(text)]


def token_pairs(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)]


def token_values(text: str) -> list[object]:
    """The values of the number, string and name tokens, in order."""
    return [t.value for t in tokenize(text) if t.kind in ("number", "string", "name")]
'''

NODES = r'''"""The syntax tree of a query: expressions and the SELECT statement, and their text."""

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
    parts = [f"SELECT {items} FROM {quote_name(query.table)}"]
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
'''

PARSER = r'''"""Query text -> Query: a recursive-descent parser of the SELECT language.

    query    := SELECT [DISTINCT] items FROM name [WHERE expr] [GROUP BY expr, ...]
                [ORDER BY expr [ASC | DESC], ...] [LIMIT int [OFFSET int]]
    items    := * | expr [[AS] name], ...
    expr     := and (OR and)*
    and      := not (AND not)*
    not      := NOT not | compare
    compare  := sum [(= | != | < | <= | > | >=) sum | IS [NOT] NULL | [NOT] IN (expr, ...)
                | [NOT] LIKE sum | [NOT] BETWEEN sum AND sum]
    sum      := product ((+ | - | ||) product)*
    product  := unary ((* | / | %) unary)*
    unary    := - unary | atom
    atom     := number | 'string' | TRUE | FALSE | NULL | name | name(args) | COUNT(*) | (expr)
"""

from __future__ import annotations

from .errors import QuerySyntaxError
from .nodes import (Between, Binary, Call, Column, InList, IsNull, Like, Literal, OrderItem, Query, SelectItem, Star,
                    Unary)
from .tokens import Token, tokenize

COMPARISONS = ("=", "!=", "<", "<=", ">", ">=")


def _describe(token: Token) -> str:
    return "the end of the query" if token.kind == "end" else repr(token.text)


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.pos = 0

    # -- looking at tokens ---------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.peek()
        if token.kind != "end":
            self.pos += 1
        return token

    def at(self, kind: str, text: str | None = None, ahead: int = 0) -> bool:
        token = self.peek(ahead)
        return token.kind == kind and (text is None or token.text == text)

    def accept(self, kind: str, text: str | None = None) -> Token | None:
        return self.advance() if self.at(kind, text) else None

    def expect(self, kind: str, text: str | None = None, what: str = "") -> Token:
        if self.at(kind, text):
            return self.advance()
        token = self.peek()
        raise QuerySyntaxError(f"expected {what or text or kind}, got {_describe(token)}", token.column)

    # -- the statement -------------------------------------------------------------------------------
    def query(self) -> Query:
        self.expect("keyword", "SELECT")
#@if:without.distinct
#@else
        distinct = self.accept("keyword", "DISTINCT") is not None
#@end
        items = self.select_items()
        self.expect("keyword", "FROM")
        table = self.expect("name", what="a table name").value
        where = self.expr() if self.accept("keyword", "WHERE") else None
        group_by = []
        if self.accept("keyword", "GROUP"):
            self.expect("keyword", "BY")
            group_by = self.expr_list()
        order_by = []
        if self.accept("keyword", "ORDER"):
            self.expect("keyword", "BY")
            order_by.append(self.order_item())
            while self.accept("op", ","):
                order_by.append(self.order_item())
        limit, offset = None, 0
        if self.accept("keyword", "LIMIT"):
            limit = self.whole_number("LIMIT")
            if self.accept("keyword", "OFFSET"):
                offset = self.whole_number("OFFSET")
        self.expect("end", what="the end of the query")
#@if:without.distinct
        return Query(items, table, where, group_by, order_by, limit, offset)
#@else
        return Query(items, table, where, group_by, order_by, limit, offset, distinct)
#@end

    def select_items(self) -> list[SelectItem]:
        if self.accept("op", "*"):
            return [SelectItem(Star())]
        items = [self.select_item()]
        while self.accept("op", ","):
            items.append(self.select_item())
        return items

    def select_item(self) -> SelectItem:
        expr = self.expr()
        if self.accept("keyword", "AS"):
            return SelectItem(expr, self.expect("name", what="a name after AS").value)
        if self.at("name"):
            return SelectItem(expr, self.advance().value)
        return SelectItem(expr)

    def order_item(self) -> OrderItem:
        expr = self.expr()
        if self.accept("keyword", "DESC"):
            return OrderItem(expr, True)
        self.accept("keyword", "ASC")
        return OrderItem(expr)

    def whole_number(self, clause: str) -> int:
        token = self.advance()
        if token.kind != "number" or not isinstance(token.value, int):
            raise QuerySyntaxError(f"{clause} needs a whole number, got {_describe(token)}", token.column)
        return token.value

    def expr_list(self) -> list:
        items = [self.expr()]
        while self.accept("op", ","):
            items.append(self.expr())
        return items

    # -- expressions, loosest first --------------------------------------------------------------------
    def expr(self):
        node = self.conjunction()
        while self.accept("keyword", "OR"):
            node = Binary("OR", node, self.conjunction())
        return node

    def conjunction(self):
        node = self.negation()
        while self.accept("keyword", "AND"):
            node = Binary("AND", node, self.negation())
        return node

    def negation(self):
        if self.accept("keyword", "NOT"):
            return Unary("NOT", self.negation())
        return self.comparison()

    def comparison(self):
        left = self.sum()
        token = self.peek()
        if token.kind == "op" and token.text in COMPARISONS:
            self.advance()
            return Binary(token.text, left, self.sum())
        if self.accept("keyword", "IS"):
            negated = self.accept("keyword", "NOT") is not None
            self.expect("keyword", "NULL", what="NULL after IS")
            return IsNull(left, negated)
        negated = False
        if self.at("keyword", "NOT") and self.peek(1).kind == "keyword" and self.peek(1).text in ("IN", "LIKE", "BETWEEN"):
            self.advance()
            negated = True
        if self.accept("keyword", "IN"):
            self.expect("op", "(")
            items = tuple(self.expr_list())
            self.expect("op", ")")
            return InList(left, items, negated)
        if self.accept("keyword", "LIKE"):
            return Like(left, self.sum(), negated)
        if self.accept("keyword", "BETWEEN"):
            low = self.sum()
            self.expect("keyword", "AND", what="AND in BETWEEN")
            return Between(left, low, self.sum(), negated)
        return left

    def sum(self):
        node = self.product()
        while self.peek().kind == "op" and self.peek().text in ("+", "-", "||"):
            op = self.advance().text
            node = Binary(op, node, self.product())
        return node

    def product(self):
        node = self.unary()
        while self.peek().kind == "op" and self.peek().text in ("*", "/", "%"):
            op = self.advance().text
            node = Binary(op, node, self.unary())
        return node

    def unary(self):
        if self.accept("op", "-"):
            operand = self.unary()
            if isinstance(operand, Literal) and isinstance(operand.value, (int, float)) and not isinstance(operand.value, bool):
                return Literal(-operand.value)
            return Unary("-", operand)
        return self.atom()

    def atom(self):
        token = self.peek()
        if token.kind in ("number", "string"):
            self.advance()
            return Literal(token.value)
        if token.kind == "keyword" and token.text in ("TRUE", "FALSE", "NULL"):
            self.advance()
            return Literal({"TRUE": True, "FALSE": False, "NULL": None}[token.text])
        if token.kind == "name":
            self.advance()
            if self.accept("op", "("):
                return self.call(token.value.upper())
            return Column(token.value)
        if self.accept("op", "("):
            node = self.expr()
            self.expect("op", ")")
            return node
        raise QuerySyntaxError(f"expected an expression, got {_describe(token)}", token.column)

    def call(self, name: str) -> Call:
        if self.accept("op", "*"):
            self.expect("op", ")")
            return Call(name, (), star=True)
        if self.accept("op", ")"):
            return Call(name, ())
        args = self.expr_list()
        self.expect("op", ")")
        return Call(name, tuple(args))


def $parse_query(text: str) -> Query:
    """Parse one SELECT statement; QuerySyntaxError (with the column) if it is not one."""
    return _Parser(text).query()


def parse_expression(text: str):
    """Parse an expression on its own (`price * qty > 10`)."""
    parser = _Parser(text)
    node = parser.expr()
    parser.expect("end", what="the end of the expression")
    return node


def normalized(text: str) -> str:
    """A query written the way the package writes queries (keywords upper-case, one space)."""
    from .nodes import to_sql

    return to_sql($parse_query(text))
'''

COLTYPES = r'''"""Column types: what a CSV cell holds (int, float, bool, date or str), how cells are read as values
of a type, how values are written back, and which values can be compared."""

from __future__ import annotations

import datetime
import re

from .errors import TypeMismatch

TYPES = ("int", "float", "bool", "date", "str")
NULL_WORDS = ("", "$null_word")
TRUE_WORDS = ("true", "yes")
FALSE_WORDS = ("false", "no")
FLOAT_DIGITS = $float_digits
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_NULLS = {word.lower() for word in NULL_WORDS}


def is_null(cell: str) -> bool:
    """An empty cell, or one of NULL_WORDS (any case)."""
    return cell.strip().lower() in _NULLS


def kind_of(cell: str) -> str | None:
    """The narrowest type of one cell (None for a NULL cell)."""
    if is_null(cell):
        return None
    text = cell.strip()
    if _INT.fullmatch(text):
        return "int"
    if _FLOAT.fullmatch(text):
        return "float"
    if text.lower() in TRUE_WORDS or text.lower() in FALSE_WORDS:
        return "bool"
    if _DATE.fullmatch(text):
        try:
            datetime.date.fromisoformat(text)
        except ValueError:
            return "str"
        return "date"
    return "str"


def infer_type(cells: list[str]) -> str:
    """The type of a column: the narrowest one every non-NULL cell reads as (ints and floats
    together are floats); "str" when the cells disagree or all are NULL."""
    kinds = {kind_of(c) for c in cells} - {None}
    if not kinds:
        return "str"
    if kinds == {"int"}:
        return "int"
    if kinds <= {"int", "float"}:
        return "float"
    if len(kinds) == 1:
        return kinds.pop()
    return "str"


def convert(cell: str, kind: str):
    """The value of a cell read as `kind`; None for a NULL cell; TypeMismatch if it is not one."""
    if kind not in TYPES:
        raise TypeMismatch(f"unknown type {kind!r} (one of {', '.join(TYPES)})")
    if is_null(cell):
        return None
    if kind == "str":
        return cell
    text = cell.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            if text.lower() in TRUE_WORDS:
                return True
            if text.lower() in FALSE_WORDS:
                return False
            raise ValueError(text)
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise TypeMismatch(f"{cell!r} is not a {kind}") from None


def format_value(value) -> str:
    """A value as a CSV cell: NULL empty, booleans 'true'/'false', floats to FLOAT_DIGITS digits
    at most (no trailing zeros past the first), dates ISO."""
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        text = f"{value:.{FLOAT_DIGITS}f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def type_of_value(value) -> str:
    """The type name of a value ("null" for None)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, datetime.date):
        return "date"
    return "str"


def coerce_pair(left, right) -> tuple:
    """Two non-NULL values made comparable: a date and a string (read as a date) become two dates,
    ints and floats compare as numbers; TypeMismatch for anything else of different types."""
    lt, rt = type_of_value(left), type_of_value(right)
    if lt == rt:
        return left, right
    if {lt, rt} == {"int", "float"}:
        return left, right
    if lt == "date" and rt == "str":
        return left, convert(right, "date")
    if lt == "str" and rt == "date":
        return convert(left, "date"), right
    raise TypeMismatch(f"cannot compare {lt} {format_value(left)!r} with {rt} {format_value(right)!r}")
'''

TABLE = r'''"""A table: named, typed columns and rows of values (tuples, in column order)."""

from __future__ import annotations

from .coltypes import TYPES, type_of_value
from .errors import $Error, TypeMismatch, UnknownColumn


class $Table:
    def __init__(self, columns: list[str], types: list[str] | None = None, rows: list | None = None,
                 name: str = "") -> None:
        lowered = [c.lower() for c in columns]
        for column in columns:
            if lowered.count(column.lower()) > 1:
                raise $Error(f"column {column!r} appears twice")
        self.name = name
        self.columns = list(columns)
        self.types = list(types) if types is not None else ["str"] * len(columns)
        if len(self.types) != len(self.columns):
            raise $Error(f"{len(self.columns)} columns but {len(self.types)} types")
        for kind in self.types:
            if kind not in TYPES:
                raise TypeMismatch(f"unknown type {kind!r}")
        self._index = {c: i for i, c in enumerate(lowered)}
        self.rows: list[tuple] = []
        for row in rows or ():
            self.add_row(row)

    def $column_index(self, name: str) -> int:
        """The position of a column, by name, in any case; UnknownColumn if there is none."""
        try:
            return self._index[name.lower()]
        except KeyError:
            raise UnknownColumn(name) from None

    def has_column(self, name: str) -> bool:
        return name.lower() in self._index

    def column_type(self, name: str) -> str:
        return self.types[self.$column_index(name)]

    def column(self, name: str) -> list:
        """Every value of one column, in row order."""
        i = self.$column_index(name)
        return [row[i] for row in self.rows]

    def add_row(self, values) -> None:
        """Append a row (a sequence in column order); each value NULL or of its column's type
        (an int is accepted in a float column)."""
        row = tuple(values)
        if len(row) != len(self.columns):
            raise $Error(f"a row of {len(row)} values for {len(self.columns)} columns")
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

    def head(self, count: int = 5) -> "$Table":
        return $Table(self.columns, self.types, self.rows[:count], self.name)

    def summary(self) -> dict[str, dict]:
        """Per column: its type, how many NULLs and how many distinct other values."""
        out = {}
        for i, column in enumerate(self.columns):
            values = [row[i] for row in self.rows]
            present = [v for v in values if v is not None]
            out[column] = {"type": self.types[i], "nulls": len(values) - len(present), "distinct": len(set(present))}
        return out
'''

CSVIO = r'''"""CSV text <-> tables, with the standard `csv` module: a header line, then one row a line; the
column types are inferred from the cells unless they are given."""

from __future__ import annotations

import csv
import io

from .coltypes import TYPES, convert, format_value, infer_type
from .errors import CsvFormatError, TypeMismatch
from .table import $Table

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


def read_csv(text: str, types: dict[str, str] | None = None, delimiter: str = DELIMITER, name: str = "") -> $Table:
    """A table from CSV text. `types` names the type of some columns ({"zip": "str"}); the others
    are inferred from their cells. A cell that is not of its column's type is a CsvFormatError."""
    header, records = read_records(text, delimiter)
    given = {key.lower(): kind for key, kind in (types or {}).items()}
    for key, kind in given.items():
        if kind not in TYPES:
            raise TypeMismatch(f"unknown type {kind!r} for column {key!r} (one of {', '.join(TYPES)})")
    kinds = [given.get(column.lower()) or infer_type([cells[i] for _, cells in records])
             for i, column in enumerate(header)]
    table = $Table(header, kinds, name=name)
    for line, cells in records:
        try:
            table.add_row([convert(cell, kind) for cell, kind in zip(cells, kinds)])
        except TypeMismatch as exc:
            raise CsvFormatError(str(exc), line) from None
    return table


def read_file(path: str, types: dict[str, str] | None = None, delimiter: str = DELIMITER) -> $Table:
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


def table_to_csv(table: $Table, delimiter: str = DELIMITER) -> str:
    return write_csv(table.columns, table.rows, delimiter)
'''

SCALARS = r'''"""The built-in scalar functions of queries (ABS, ROUND, LENGTH, UPPER, LOWER, TRIM, SUBSTR,
COALESCE, CONCAT) and LIKE matching. NULL in gives NULL out, except for COALESCE and CONCAT."""

from __future__ import annotations

import functools
import re

from .coltypes import format_value
from .errors import TypeMismatch


def _number(name: str, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeMismatch(f"{name} needs a number, got {value!r}")
    return value


def _text(name: str, value) -> str:
    if not isinstance(value, str):
        raise TypeMismatch(f"{name} needs text, got {value!r}")
    return value


def abs_(value):
    return None if value is None else abs(_number("ABS", value))


def round_(value, digits=0):
    if value is None or digits is None:
        return None
    digits = _number("ROUND", digits)
    if not isinstance(digits, int):
        raise TypeMismatch(f"ROUND needs a whole number of digits, got {digits!r}")
    value = _number("ROUND", value)
    return round(value) if digits == 0 else round(value, digits)


def length(value):
    return None if value is None else len(_text("LENGTH", value))


def upper(value):
    return None if value is None else _text("UPPER", value).upper()


def lower(value):
    return None if value is None else _text("LOWER", value).lower()


def trim(value):
    return None if value is None else _text("TRIM", value).strip()


def substr(value, start, count=None):
    """SUBSTR('abcdef', 2, 3) = 'bcd': `start` counts from 1; without `count`, to the end."""
    if value is None or start is None:
        return None
    text = _text("SUBSTR", value)
    begin = max(_number("SUBSTR", start), 1) - 1
    if count is None:
        return text[begin:]
    return text[begin:begin + max(_number("SUBSTR", count), 0)]


def coalesce(*values):
    """The first value that is not NULL."""
    return next((v for v in values if v is not None), None)


def concat(*values) -> str:
    """The values written one after the other, NULLs left out."""
    return "".join(format_value(v) for v in values if v is not None)


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern:
    parts = []
    for ch in pattern:
        if ch == "%":
            parts.append(".*")
        elif ch == "_":
            parts.append(".")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts), re.S)


def like(text, pattern):
    """`text LIKE pattern`: '%' matches any run of characters, '_' one character, the rest itself
    (case matters); NULL if either is NULL."""
    if text is None or pattern is None:
        return None
    return _pattern(_text("LIKE", pattern)).fullmatch(_text("LIKE", text)) is not None


BUILTINS = {"ABS": abs_, "ROUND": round_, "LENGTH": length, "UPPER": upper, "LOWER": lower, "TRIM": trim,
            "SUBSTR": substr, "COALESCE": coalesce, "CONCAT": concat}
ARITY = {"ABS": (1, 1), "ROUND": (1, 2), "LENGTH": (1, 1), "UPPER": (1, 1), "LOWER": (1, 1), "TRIM": (1, 1),
         "SUBSTR": (2, 3), "COALESCE": (1, None), "CONCAT": (1, None)}


def call_builtin(name: str, args: list):
    low, high = ARITY[name]
    if len(args) < low or (high is not None and len(args) > high):
        allowed = f"{low}" if low == high else f"{low} or more" if high is None else f"{low} to {high}"
        raise TypeMismatch(f"{name} takes {allowed} arguments, got {len(args)}")
    return BUILTINS[name](*args)
'''

EVALUATE = r'''"""Expressions evaluated against one row: arithmetic, comparisons, functions and three-valued
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
        return self.values[self.table.$column_index(name)]


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
'''

AGGREGATES = r'''"""Aggregate functions over groups of rows: COUNT, SUM, AVG, MIN and MAX. NULLs are skipped
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
'''

PLANNER = r'''"""A query over a table, as steps: scan, filter, group and aggregate (or project), distinct, order,
offset and limit. `explain` lists the steps, `execute` runs them."""

from __future__ import annotations

from dataclasses import dataclass

from .aggregates import Accumulator, aggregate_calls, is_aggregate
from .errors import TypeMismatch, UnknownColumn
from .evaluate import Row, evaluate, truth
from .nodes import Column, Literal, Query, SelectItem, Star, columns_used, label, to_sql
from .table import $Table


@dataclass
class Result:
    columns: list[str]
    rows: list[tuple]

    def as_dicts(self) -> list[dict]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def column(self, name: str) -> list:
        i = self.columns.index(name)
        return [row[i] for row in self.rows]


def output_items(query: Query, table: $Table) -> list[SelectItem]:
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


def check_columns(query: Query, items: list[SelectItem], table: $Table) -> None:
    """UnknownColumn for the first column the query names that the table does not have (ORDER BY
    may also name an output column by its alias)."""
    aliases = _aliases(items)
    exprs = [i.expr for i in items] + ([query.where] if query.where is not None else []) + list(query.group_by)
    for expr in exprs:
        for name in columns_used(expr):
            table.$column_index(name)
    for order in query.order_by:
        for name in columns_used(order.expr):
            if name.lower() not in aliases:
                table.$column_index(name)


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


def execute(query: Query, table: $Table) -> Result:
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


def explain(query: Query, table: $Table) -> list[str]:
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
'''

ENGINE = r'''"""Named tables and the queries over them: the package's front door."""

from __future__ import annotations

from .csvio import read_csv, write_csv
from .errors import UnknownTable
from .functions import convert_column
from .parser import $parse_query
from .planner import Result, execute, explain
from .table import $Table

DEFAULT_TABLE = "$table"


class $Database:
    """Tables by name (any case), read from CSV text or given as tables."""

    def __init__(self, tables: dict[str, $Table] | None = None) -> None:  #@if:bug.shared_tables: def __init__(self, tables: dict[str, $Table] = {}) -> None:
        self.tables: dict[str, $Table] = {}  #@if:bug.shared_tables: self.tables = tables
        for name, table in dict(tables or {}).items():
            self.add(name, table)

    def add(self, name: str, table: $Table) -> $Table:
        self.tables[name.lower()] = table
        return table

    def load(self, name: str, text: str, types: dict[str, str] | None = None) -> $Table:
        """Read CSV text as table `name` (replacing one of that name)."""
        return self.add(name, read_csv(text, types, name=name))

    def names(self) -> list[str]:
        return sorted(self.tables)

    def table(self, name: str) -> $Table:
        try:
            return self.tables[name.lower()]
        except KeyError:
            raise UnknownTable(name) from None

    def run(self, sql: str) -> Result:
        query = $parse_query(sql)
        return execute(query, self.table(query.table))

    def query(self, sql: str) -> list[dict]:
        """The rows of a query's result, each a dict of output column -> value."""
        return self.run(sql).as_dicts()

    def explain(self, sql: str) -> list[str]:
        query = $parse_query(sql)
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


def $run_query(sql: str, text: str, types: dict[str, str] | None = None) -> list[dict]:
    """Run one query over one CSV text, whatever name its FROM gives the table."""
    query = $parse_query(sql)
    database = $Database()
    database.load(query.table or DEFAULT_TABLE, text, types)
    return execute(query, database.table(query.table)).as_dicts()
'''

CLI = r'''"""The command line: run a query over CSV files and print the result as a table or as CSV."""

from __future__ import annotations

import argparse
import io
import os
import sys

from .coltypes import format_value
from .engine import $Database, $run_query
from .errors import $Error
from .functions import catalog, explain

EXAMPLES = """examples:
  python -m $pkg "SELECT region, SUM(price) AS total FROM sales GROUP BY region" sales.csv
  python -m $pkg --csv "SELECT * FROM s WHERE qty > 2 ORDER BY qty DESC LIMIT 5" s.csv
  python -m $pkg --explain "SELECT item FROM s WHERE price > 2" s.csv
  python -m $pkg --functions
  python -m $pkg --describe NAME
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="$pkg", description="Run a SELECT query over CSV files. Each file is a table named after the file "
        "(sales.csv is `sales`); with one file, any table name in FROM reads it.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("query", nargs="?", help="the SELECT statement (quote it for the shell)")
    parser.add_argument("files", nargs="*", help="CSV files with a header line")
    parser.add_argument("--csv", action="store_true", help="print the result as CSV instead of a table")
    parser.add_argument("--explain", action="store_true", help="print the plan's steps instead of running it")
    parser.add_argument("--functions", action="store_true", help="list the conversion functions and exit")
    parser.add_argument("--describe", metavar="NAME", help="explain one conversion function (its formula, what it "
                        "takes and gives, examples) and exit")
    return parser


def format_table(columns: list[str], rows: list) -> str:
    """An aligned text table: a header, a rule, the rows (NULL written as NULL)."""
    cells = [[("NULL" if v is None else format_value(v)) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    lines = [" | ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(),
             "-+-".join("-" * w for w in widths)]
    lines += [" | ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines)


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    if args.functions:
        print("\n".join(catalog()), file=out)
        return 0
    if args.describe:
        try:
            print("\n".join(explain(args.describe)), file=out)
        except $Error as exc:
            print(f"error: {exc}", file=out)
            return 1
        return 0
    if not args.query or not args.files:
        print("error: a query and at least one CSV file are needed (see --help)", file=out)
        return 2
    try:
        texts = {}
        for path in args.files:
            with open(path, encoding="utf-8", newline="") as f:
                texts[os.path.splitext(os.path.basename(path))[0]] = f.read()
        database = $Database()
        for name, text in texts.items():
            database.load(name, text)
        if args.explain:
            print("\n".join(database.explain(args.query)), file=out)
            return 0
        if len(texts) == 1 and not args.csv:
            rows = $run_query(args.query, next(iter(texts.values())))
            columns = list(rows[0]) if rows else []
            print(format_table(columns, [list(r.values()) for r in rows]) if rows else "(no rows)", file=out)
            return 0
        result = database.run(args.query)
        print(database.to_csv(args.query) if args.csv else format_table(result.columns, result.rows), file=out, end="" if args.csv else "\n")
        return 0
    except ($Error, OSError) as exc:
        print(f"error: {exc}", file=out)
        return 1


def run_cli(argv: list[str]) -> tuple[int, str]:
    """(exit status, what was printed) of one command line."""
    buffer = io.StringIO()
    status = main(argv, buffer)
    return status, buffer.getvalue()
'''

FUNCTIONS_INDEX = r'''"""Conversion functions usable in queries, one module each: `SELECT name(column) FROM ...`."""

from __future__ import annotations

from ..errors import UnknownFunction
$unit_imports

FUNCTIONS = {
$unit_table
}


def function(name: str):
    """The module of a conversion function, by name in any case."""
    try:
        return FUNCTIONS[name.lower()]
    except KeyError:
        raise UnknownFunction(name) from None


def call_function(name: str, args: list):
    return function(name).apply(args)


def catalog() -> list[str]:
    """One line per function: what it computes."""
    return [module.describe() for _, module in sorted(FUNCTIONS.items())]


def convert_all(name: str, values: list) -> list:
    module = function(name)
    return [module.convert(v) for v in values]


def explain(name: str) -> list[str]:
    """What a function does, several lines (`--describe`)."""
    return function(name).explain()


def specs() -> list[dict]:
    """Every function as data ({"name", "factor", "offset", "digits", ...}), by name."""
    return [module.spec() for _, module in sorted(FUNCTIONS.items())]


def convert_column(name: str, values, policy: str | None = None) -> tuple[list, dict]:
    """A column's values through function `name`'s Stream with error policy `policy` (the
    function's own by default): (the output, the stream's summary)."""
    stream = function(name).Stream(policy)
    for value in values:
        stream.feed(value)
    return stream.output, stream.close()
'''

UNIT = r'''"""`$unit(x)`: x converted to $unit, with factor $factor and offset $offset, rounded to $digits digits.

Queries call it by name, in any case (`SELECT $unit(price) FROM ...`); the command line lists and
explains it (`--functions`, `--describe $unit`); a database's `convert` runs it over a whole
column through a `Stream`. NULL in gives NULL out.
"""

from __future__ import annotations

import math

from ..coltypes import is_null, kind_of
from ..errors import ConversionError, TypeMismatch

NAME = "$unit"
FACTOR = $factor
OFFSET = $offset
DIGITS = $digits
ALLOW_NEGATIVE = $negative
LIMIT = $limit  # the largest size of a value it takes, either sign
POLICIES = ("raise", "skip", "null")
POLICY = "$policy"  # what a Stream does by default with a value it cannot take


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConversionError(NAME, value, "needs a number")
    return value


def problems(value) -> list[str]:
    """Why `value` cannot be converted, one reason each ([] when it can; NULL always can)."""
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ["needs a number"]
    if isinstance(value, float) and not math.isfinite(value):
        return ["needs a finite number"]
    found = []
    if value < 0 and not ALLOW_NEGATIVE:
        found.append("takes no negative values")
    if abs(value) > LIMIT:
        found.append(f"takes values up to {LIMIT:,} in size")
    return found


def convert(value):
    """The converted value; NULL stays NULL; ConversionError with the first problem, if any."""
    if value is None:
        return None
    found = problems(value)
    if found:
        raise ConversionError(NAME, value, found[0])
    return round(value * FACTOR + OFFSET, DIGITS)


def inverse(value):
    """The value `convert` was given, from what it returned (up to its rounding)."""
    if value is None:
        return None
    return round((_number(value) - OFFSET) / FACTOR, DIGITS + 2)


def apply(args: list):
    """The function as a query calls it: one argument."""
    if len(args) != 1:
        raise TypeMismatch(f"{NAME}() takes 1 argument, got {len(args)}")
    return convert(args[0])


def describe() -> str:
    sign = "-" if OFFSET < 0 else "+"
    return f"{NAME}(x) = x * {FACTOR} {sign} {abs(OFFSET)}, rounded to {DIGITS} digits"


def explain() -> list[str]:
    """`describe`, what the function takes and gives, its inverse, its policy and examples."""
    low = convert(-LIMIT if ALLOW_NEGATIVE else 0)
    back = f"(y {'+' if OFFSET < 0 else '-'} {abs(OFFSET)}) / {FACTOR}"
    return [describe(), f"takes: {'any number' if ALLOW_NEGATIVE else 'numbers from 0'} up to {LIMIT:,} in size",
            f"gives: {show(low)} to {show(convert(LIMIT))}", f"inverse: {back}",
            f"a column's values it cannot take: {POLICY} (policy)"] + [f"  {NAME}({x}) = {show(convert(x))}"
                                                                        for x in (0, 1, 10)]


def show(value) -> str:
    """A converted value written for people: all its digits and the unit ('NULL' for NULL)."""
    return "NULL" if value is None else f"{_number(value):.{DIGITS}f} {NAME}"


def read(text: str):
    """A value as `show` writes it ('12.50 $unit', or the number alone) read back; NULL for an
    empty or NULL cell."""
    if not isinstance(text, str):
        raise ConversionError(NAME, text, "reads text")
    if is_null(text) or text.strip() == "NULL":
        return None
    number, _, unit = text.strip().partition(" ")
    if unit.strip() and unit.strip().lower() != NAME:
        raise ConversionError(NAME, text, f"reads values in {NAME}")
    kind = kind_of(number)
    if kind not in ("int", "float"):
        raise ConversionError(NAME, text, "needs a number")
    return int(number) if kind == "int" else float(number)


def spec() -> dict:
    """The function as data (`functions.specs()`)."""
    return {"name": NAME, "factor": FACTOR, "offset": OFFSET, "digits": DIGITS, "allow_negative": ALLOW_NEGATIVE,
            "limit": LIMIT}


class Stream:
    """A column converted one value at a time: "open" until `close`, then "closed" (feeding it
    then is an error; closing again gives the same summary). `policy`: what a value it cannot
    take does: "raise" (ConversionError naming its position, from 1), "skip" (left out) or
    "null" (NULL in its place); the last two count it in `rejected`."""

    def __init__(self, policy: str | None = None) -> None:
        self.policy = POLICY if policy is None else policy
        if self.policy not in POLICIES:
            raise TypeMismatch(f"{NAME}: no error policy {self.policy!r} (one of {', '.join(POLICIES)})")
        self.state, self.position, self.nulls = "open", 0, 0
        self.output: list = []
        self.rejected: list[tuple[int, str]] = []

    def feed(self, value):
        """Convert the next value; what it became (None for NULL and for a value left out)."""
        if self.state != "open":
            raise ConversionError(NAME, value, "cannot convert more: the stream is closed")
        self.position += 1
        found = problems(value)
        if not found:
            self.nulls += value is None
            self.output.append(convert(value))
            return self.output[-1]
        if self.policy == "raise":
            raise ConversionError(NAME, value, f"{found[0]} (value {self.position})")
        self.rejected.append((self.position, found[0]))
        if self.policy == "null":
            self.output.append(None)
        return None

    def close(self) -> dict:
        """What the stream did: values fed, converted, NULL, rejected; the least, greatest and total."""
        self.state = "closed"
        done = [value for value in self.output if value is not None]
        return {"function": NAME, "policy": self.policy, "values": self.position, "converted": len(done),
                "nulls": self.nulls, "rejected": len(self.rejected), "low": min(done, default=None),
                "high": max(done, default=None), "total": round(sum(done), DIGITS) if done else None}
'''

README = r'''# $pkg

Runs SQL-like queries over CSV text: a tokenizer and a recursive-descent parser for a small
SELECT language, typed columns (int, float, bool, date, str, inferred from the cells), expression
evaluation with SQL's three-valued logic, aggregates (COUNT, SUM, AVG, MIN, MAX) with GROUP BY,
ORDER BY, LIMIT/OFFSET, a CSV reader and writer, and $unit_count conversion functions.

```python
from $pkg import $Database, $run_query

rows = $run_query("SELECT item, price FROM $table WHERE price > 2 ORDER BY price DESC",
                  "item,price\napple,1.5\nfig,4.5\n")
print(rows)   # [{'item': 'fig', 'price': 4.5}]

db = $Database()
db.load("sales", open("sales.csv").read())
print(db.query("SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY n DESC LIMIT 3"))
```

The grammar (see `$pkg/parser.py`):

    SELECT [DISTINCT] items FROM table [WHERE cond] [GROUP BY expr, ...]
        [ORDER BY expr [ASC|DESC], ...] [LIMIT n [OFFSET m]]

Modules: `tokens` (query text to tokens), `parser` and `nodes` (the syntax tree), `coltypes`
(cell types), `table`, `csvio`, `evaluate` and `scalars` (expressions and built-in functions),
`aggregates`, `planner` (the steps of a query), `engine` (`$Database`, `$run_query`), `cli`, and
`functions/` (one conversion function a module).

Conversion functions are called like built-in ones (`SELECT name(column) FROM t`). Each
checks what it is given (a number, finite, not negative unless it allows that, within its limit)
and raises `ConversionError` (a `TypeMismatch`) naming the function, the value and the reason. A
whole column can be converted with an error policy, keeping count of what was left out:

```python
from $pkg.functions import FUNCTIONS

name = sorted(FUNCTIONS)[0]
values, summary = db.convert("sales", "qty", name, policy="skip")   # or "raise", "null"
print(summary)   # {'function': ..., 'values': 6, 'converted': 5, 'nulls': 1, 'rejected': 0, ...}
```

Command line: `python -m $pkg "SELECT ..." file.csv` (`--help` for more; `--functions` lists the
conversion functions, `--describe NAME` explains one).

Run the tests with `python -m pytest -q`.
'''

PYPROJECT = r'''[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$pkg"
version = "0.$minor.0"
requires-python = ">=3.10"

[project.scripts]
$pkg = "$pkg.cli:main"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

TESTS = r'''#@area tokens
import pytest
from $pkg.errors import QuerySyntaxError
from $pkg.tokens import token_pairs, token_table, token_values
#@test visible
def test_keywords_names_and_operators():
    assert token_pairs("select a, b FROM t where a <= 3") == [
        ("keyword", "SELECT"), ("name", "a"), ("op", ","), ("name", "b"), ("keyword", "FROM"), ("name", "t"),
        ("keyword", "WHERE"), ("name", "a"), ("op", "<="), ("number", "3"), ("end", "")]
#@test visible
def test_numbers():
    values = token_values("1 2.5 .5 1e3 7. 2E-2 3e+1")
    assert values == [1, 2.5, 0.5, 1000.0, 7.0, 0.02, 30.0]
    assert [type(v).__name__ for v in values] == ["int", "float", "float", "float", "float", "float", "float"]
#@test
def test_exponent_needs_digits():
    assert token_pairs("4e x1") == [("number", "4"), ("name", "e"), ("name", "x1"), ("end", "")]
    assert token_pairs("5e+") == [("number", "5"), ("name", "e"), ("op", "+"), ("end", "")]
    assert token_values("12.5.1") == [12.5, 0.1]
#@test
def test_strings_with_doubled_quotes():
    assert token_values("'it''s' '' 'a b'") == ["it's", "", "a b"]
    assert token_table("x = 'q'")[2] == ("string", "'q'", 5)
#@test
def test_quoted_names():
    assert token_pairs('"unit price" "select" _x') == [("name", "unit price"), ("name", "select"), ("name", "_x"),
                                                          ("end", "")]
#@test
def test_operators_longest_first():
    assert token_pairs("a>=b||c<d>e<>f!=g") == [
        ("name", "a"), ("op", ">="), ("name", "b"), ("op", "||"), ("name", "c"), ("op", "<"), ("name", "d"),
        ("op", ">"), ("name", "e"), ("op", "!="), ("name", "f"), ("op", "!="), ("name", "g"), ("end", "")]
    assert [kind for kind, _ in token_pairs("(a+b)*c/d%e-f")] == ["op", "name", "op", "name", "op", "op", "name", "op",
                                                                 "name", "op", "name", "op", "name", "end"]
#@test
def test_columns_are_one_based():
    assert token_table("  ab  1 'x'") == [("name", "ab", 3), ("number", "1", 7), ("string", "'x'", 9), ("end", "", 12)]
    assert token_table("") == [("end", "", 1)]
    assert token_table('a >= "b c"') == [("name", "a", 1), ("op", ">=", 3), ("name", "b c", 6), ("end", "", 11)]
#@test
def test_tokenizer_errors():
    with pytest.raises(QuerySyntaxError, match="column 3: unexpected character '@'"):
        token_pairs("a @ b")
    with pytest.raises(QuerySyntaxError, match="column 5: a string is not closed"):
        token_pairs("a = 'abc")
    with pytest.raises(QuerySyntaxError, match="column 1: a quoted name is not closed"):
        token_pairs('"abc')
    with pytest.raises(QuerySyntaxError, match="empty"):
        token_pairs('a ""')

#@area parser
import pytest
from $pkg.errors import QuerySyntaxError
from $pkg.nodes import to_sql
from $pkg.parser import normalized, parse_expression, $parse_query
#@test visible
def test_query_round_trip():
    text = "select region as r, count(*) from sales where price > 1 group by region order by r desc limit 5 offset 2"
    assert normalized(text) == ("SELECT region AS r, COUNT(*) FROM sales WHERE price > 1 GROUP BY region "
                                "ORDER BY r DESC LIMIT 5 OFFSET 2")
#@test visible
def test_precedence():
    assert to_sql(parse_expression("1 + 2 * 3")) == "1 + (2 * 3)"
    assert to_sql(parse_expression("a OR b AND c")) == "a OR (b AND c)"
    assert to_sql(parse_expression("NOT a = 1 AND b")) == "(NOT (a = 1)) AND b"
#@test
def test_left_associative():
    assert to_sql(parse_expression("10 - 4 - 3")) == "(10 - 4) - 3"
    assert to_sql(parse_expression("a / b * c % d")) == "((a / b) * c) % d"
    assert to_sql(parse_expression("x || 'y' || z")) == "(x || 'y') || z"
#@test
def test_predicates():
    for text in ("a IS NOT NULL", "a IS NULL", "a NOT IN (1, 2)", "name NOT LIKE 'x%'", "a BETWEEN 1 AND 5",
                 "a NOT BETWEEN b AND (c + 1)", "a IN ('x')"):
        assert to_sql(parse_expression(text)) == text
    assert to_sql(parse_expression("not a in (1)")) == "NOT (a IN (1))"
#@test
def test_select_star_and_aliases():
    assert normalized("select * from t") == "SELECT * FROM t"
    assert normalized("select price*qty total, -price from t") == "SELECT price * qty AS total, -price FROM t"
    assert normalized('select "unit price" from "my table" order by 1 asc') == 'SELECT "unit price" FROM "my table" ORDER BY 1'
#@test
def test_literals_round_trip():
    for text, back in (("'it''s'", "'it''s'"), ("TRUE", "TRUE"), ("false", "FALSE"), ("null", "NULL"),
                       ("-2.5", "-2.5"), ("1e3", "1000.0"), ("- -4", "4")):
        assert to_sql(parse_expression(text)) == back
#@test
def test_function_calls():
    assert to_sql(parse_expression("round(price, 1)")) == "ROUND(price, 1)"
    assert to_sql(parse_expression("count(*)")) == "COUNT(*)"
    assert to_sql(parse_expression("now()")) == "NOW()"
#@test
def test_syntax_error_positions():
    with pytest.raises(QuerySyntaxError, match="column 8: expected an expression, got 'FROM'"):
        $parse_query("SELECT FROM t")
    with pytest.raises(QuerySyntaxError, match="column 14: expected a table name, got the end of the query"):
        $parse_query("SELECT a FROM")
    with pytest.raises(QuerySyntaxError, match="column 11: expected [)]"):
        $parse_query("SELECT (a FROM t")
#@test
def test_limit_needs_a_whole_number():
    with pytest.raises(QuerySyntaxError, match="LIMIT needs a whole number, got '2.5'"):
        $parse_query("SELECT a FROM t LIMIT 2.5")
    with pytest.raises(QuerySyntaxError, match="LIMIT needs a whole number"):
        $parse_query("SELECT a FROM t LIMIT -1")
    with pytest.raises(QuerySyntaxError, match="OFFSET needs a whole number"):
        $parse_query("SELECT a FROM t LIMIT 1 OFFSET x")
#@test
def test_trailing_text_is_an_error():
    with pytest.raises(QuerySyntaxError, match="column 17: expected the end of the query, got 'extra'"):
        $parse_query("SELECT a FROM t extra")
    with pytest.raises(QuerySyntaxError, match="got the end of the query"):
        $parse_query("SELECT a FROM t WHERE")
    with pytest.raises(QuerySyntaxError, match="NULL after IS"):
        parse_expression("a IS 1")
#@test needs=distinct
def test_distinct_is_parsed():
    assert normalized("select distinct region from t") == "SELECT DISTINCT region FROM t"
    assert normalized("select region from t") == "SELECT region FROM t"

#@area coltypes
import datetime
import pytest
from $pkg import coltypes
from $pkg.errors import TypeMismatch
#@test visible
def test_kind_of_cells():
    cells = ("12", "-3", "1.5", ".5", "2e3", "true", "No", "2024-02-29", "2023-02-29", "abc", "", "$null_word", " 7 ")
    assert [coltypes.kind_of(c) for c in cells] == ["int", "int", "float", "float", "float", "bool", "bool", "date",
                                                    "str", "str", None, None, "int"]
#@test visible
def test_infer_type():
    assert coltypes.infer_type(["1", "2", ""]) == "int"
    assert coltypes.infer_type(["1", "2.5"]) == "float"
    assert coltypes.infer_type(["yes", "no", "$null_word"]) == "bool"
    assert coltypes.infer_type(["2024-01-01", ""]) == "date"
    assert coltypes.infer_type(["1", "x"]) == "str"
    assert coltypes.infer_type(["true", "1"]) == "str"
    assert coltypes.infer_type([]) == "str"
    assert coltypes.infer_type(["", "$null_word"]) == "str"
#@test
def test_convert():
    assert coltypes.convert(" 42 ", "int") == 42
    assert coltypes.convert("2.5", "float") == 2.5
    assert coltypes.convert("YES", "bool") is True
    assert coltypes.convert("no", "bool") is False
    assert coltypes.convert("2024-03-01", "date") == datetime.date(2024, 3, 1)
    assert coltypes.convert("", "int") is None
    assert coltypes.convert("$null_word".lower(), "date") is None
    assert coltypes.convert(" a ", "str") == " a "
#@test
def test_convert_rejects():
    for cell, kind in (("x", "int"), ("1.5", "int"), ("maybe", "bool"), ("2024-13-01", "date"), ("one", "float")):
        with pytest.raises(TypeMismatch, match="is not a"):
            coltypes.convert(cell, kind)
    with pytest.raises(TypeMismatch, match="unknown type"):
        coltypes.convert("1", "complex")
#@test
def test_format_value():
    assert coltypes.format_value(None) == ""
    assert coltypes.format_value(True) == "true"
    assert coltypes.format_value(False) == "false"
    assert coltypes.format_value(3) == "3"
    assert coltypes.format_value(2.5) == "2.5"
    assert coltypes.format_value(3.0) == "3.0"
    assert coltypes.format_value(1 / 3) == "0." + "3" * $float_digits
    assert coltypes.format_value(datetime.date(2024, 1, 2)) == "2024-01-02"
    assert coltypes.format_value("x") == "x"
#@test
def test_type_of_value():
    values = (None, True, 1, 1.0, datetime.date(2024, 1, 1), "s")
    assert [coltypes.type_of_value(v) for v in values] == ["null", "bool", "int", "float", "date", "str"]
#@test
def test_coerce_pair():
    day = datetime.date(2024, 1, 2)
    assert coltypes.coerce_pair(1, 2.5) == (1, 2.5)
    assert coltypes.coerce_pair(day, "2024-01-03") == (day, datetime.date(2024, 1, 3))
    assert coltypes.coerce_pair("2024-01-03", day) == (datetime.date(2024, 1, 3), day)
    assert coltypes.coerce_pair("a", "b") == ("a", "b")
    for left, right in (("a", 1), (True, 1), (day, 3)):
        with pytest.raises(TypeMismatch, match="cannot compare"):
            coltypes.coerce_pair(left, right)
#@test
def test_is_null():
    assert coltypes.is_null("  ") is True
    assert coltypes.is_null("$null_word".lower()) is True
    assert coltypes.is_null("0") is False

#@area csvio
import datetime
import pytest
from $pkg.csvio import read_csv, write_csv
from $pkg.errors import CsvFormatError
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,$null_word\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_read_infers_types():
    assert read_csv(SALES).schema() == [("region", "str"), ("item", "str"), ("qty", "int"), ("price", "float"),
                                        ("day", "date"), ("paid", "bool")]
#@test visible
def test_rows_hold_typed_values():
    rows = read_csv(SALES).row_dicts()
    assert len(rows) == 6
    assert rows[1] == {"region": "south", "item": "pear", "qty": None, "price": 2.25,
                       "day": datetime.date(2024, 1, 3), "paid": False}
    assert rows[3]["paid"] is None
#@test
def test_given_types_override():
    assert read_csv("code,n\n007,1\n", types={"CODE": "str"}).row_dicts() == [{"code": "007", "n": 1}]
    with pytest.raises(CsvFormatError, match="'x' is not a int"):
        read_csv("n\n1\nx\n", types={"n": "int"})
#@test
def test_quoted_fields():
    text = 'name,note\n"Smith, J","said ""hi"""\nplain,"two\nlines"\n'
    assert read_csv(text).row_dicts() == [{"name": "Smith, J", "note": 'said "hi"'},
                                          {"name": "plain", "note": "two\nlines"}]
#@test catches=line_number
def test_errors_name_the_line():
    with pytest.raises(CsvFormatError, match="line 3: 1 fields, but the header names 2 columns"):
        read_csv("a,b\n1,2\n3\n")
    with pytest.raises(CsvFormatError, match="line 4:"):
        read_csv("a\n1\n2\nx\n", types={"a": "int"})
#@test
def test_header_problems():
    with pytest.raises(CsvFormatError, match="line 1: the text is empty"):
        read_csv("")
    with pytest.raises(CsvFormatError, match="appears twice"):
        read_csv("a,A\n1,2\n")
    with pytest.raises(CsvFormatError, match="column 2 of the header has no name"):
        read_csv("a,,b\n")
    with pytest.raises(CsvFormatError):
        read_csv('a\n"x"y\n')
#@test
def test_blank_lines_are_skipped():
    assert read_csv("a\n1\n\n2\n").column("a") == [1, 2]
    assert read_csv("a;b\n1;x\n", delimiter=";").row_dicts() == [{"a": 1, "b": "x"}]
#@test visible
def test_write_round_trip():
    text = write_csv(["a", "b"], [(1, "x,y"), (None, 'q"')])
    assert text == 'a,b\n1,"x,y"\n,"q"""\n'
    assert read_csv(text).row_dicts() == [{"a": 1, "b": "x,y"}, {"a": None, "b": 'q"'}]
#@test
def test_write_then_read_keeps_the_table():
    table = read_csv(SALES)
    again = read_csv(write_csv(table.columns, table.rows))
    assert again.schema() == table.schema()
    assert again.row_dicts() == table.row_dicts()

#@area evaluate
import datetime
import pytest
from $pkg.errors import TypeMismatch, UnknownColumn, UnknownFunction
from $pkg.evaluate import evaluate_text
#@test visible
def test_arithmetic():
    assert evaluate_text("1 + 2 * 3") == 7
    assert evaluate_text("7 / 2") == 3.5
    assert evaluate_text("7 % 3") == 1
    assert evaluate_text("-(2 - 5)") == 3
    assert evaluate_text("'a' || 'b' || 1") == "ab1"
#@test visible
def test_columns_from_a_row():
    assert evaluate_text("price * qty", {"Price": 2.5, "qty": 4}) == 10.0
    assert evaluate_text("name = 'x'", {"name": "x"}) is True
#@test
def test_null_propagates():
    assert evaluate_text("NULL + 1") is None
    assert evaluate_text("x > 1", {"x": None}) is None
    assert evaluate_text("1 / 0") is None
    assert evaluate_text("5 % 0") is None
    assert evaluate_text("NULL || 'a'") is None
    assert evaluate_text("-x", {"x": None}) is None
#@test
def test_three_valued_or_and_not():
    assert evaluate_text("NULL OR TRUE") is True
    assert evaluate_text("NULL OR FALSE") is None
    assert evaluate_text("FALSE OR FALSE") is False
    assert evaluate_text("NOT NULL") is None
    assert evaluate_text("NOT 0") is True
    assert evaluate_text("TRUE AND NULL") is None
    assert evaluate_text("TRUE AND 2") is True
    assert evaluate_text("FALSE AND FALSE") is False
#@test catches=and_null
def test_false_and_null_is_false():
    assert evaluate_text("NULL AND FALSE") is False
    assert evaluate_text("FALSE AND NULL") is False
    assert evaluate_text("NOT (x AND y)", {"x": None, "y": False}) is True
#@test
def test_comparisons():
    assert evaluate_text("2 >= 2") is True
    assert evaluate_text("2 > 2") is False
    assert evaluate_text("2 <= 1") is False
    assert evaluate_text("1 < 2") is True
    assert evaluate_text("'b' < 'a'") is False
    assert evaluate_text("1 = 1.0") is True
    assert evaluate_text("1 != 2") is True
    assert evaluate_text("d = '2024-01-02'", {"d": datetime.date(2024, 1, 2)}) is True
#@test
def test_type_errors():
    for text in ("'a' + 1", "'a' < 1", "TRUE + 1", "'a' AND TRUE"):
        with pytest.raises(TypeMismatch):
            evaluate_text(text)
#@test
def test_unknown_column():
    with pytest.raises(UnknownColumn, match="nope"):
        evaluate_text("nope + 1", {"x": 1})
#@test
def test_in_and_between():
    assert evaluate_text("3 IN (1, 2, 3)") is True
    assert evaluate_text("3 NOT IN (1, 2)") is True
    assert evaluate_text("NULL IN (1)") is None
    assert evaluate_text("4 IN (1, NULL)") is None
    assert evaluate_text("2 BETWEEN 1 AND 3") is True
    assert evaluate_text("0 BETWEEN 1 AND 3") is False
    assert evaluate_text("5 NOT BETWEEN 1 AND 3") is True
    assert evaluate_text("x IS NULL", {"x": None}) is True
    assert evaluate_text("x IS NOT NULL", {"x": 0}) is True
#@test catches=like_args
def test_like_patterns():
    assert evaluate_text("'Alice' LIKE 'A%'") is True
    assert evaluate_text("'Bob' LIKE 'A%'") is False
    assert evaluate_text("'cat' LIKE 'c_t'") is True
    assert evaluate_text("'ct' LIKE 'c_t'") is False
    assert evaluate_text("name NOT LIKE '%e'", {"name": "Alice"}) is False
    assert evaluate_text("name LIKE '%'", {"name": None}) is None
#@test
def test_builtin_functions():
    assert evaluate_text("ROUND(2.567, 2)") == 2.57
    assert evaluate_text("round(3.7)") == 4
    assert evaluate_text("UPPER('ab') || lower('CD') || TRIM('  x ')") == "ABcdx"
    assert evaluate_text("LENGTH('abc')") == 3
    assert evaluate_text("SUBSTR('abcdef', 2, 3)") == "bcd"
    assert evaluate_text("SUBSTR('abcdef', 4)") == "def"
    assert evaluate_text("COALESCE(NULL, 2)") == 2
    assert evaluate_text("CONCAT('a', NULL, 1)") == "a1"
    assert evaluate_text("ABS(-3)") == 3
#@test
def test_function_errors():
    with pytest.raises(TypeMismatch, match="ABS takes 1 arguments, got 2"):
        evaluate_text("ABS(1, 2)")
    with pytest.raises(TypeMismatch, match="SUBSTR takes 2 to 3 arguments"):
        evaluate_text("SUBSTR('abc')")
    with pytest.raises(TypeMismatch, match="needs a number"):
        evaluate_text("ABS('x')")
    with pytest.raises(UnknownFunction, match="no function .NOSUCH."):
        evaluate_text("nosuch(1)")

#@area aggregates
import pytest
from $pkg.aggregates import aggregate, aggregate_labels
from $pkg.errors import TypeMismatch, UnknownFunction
#@test visible
def test_count_and_sum():
    assert aggregate("COUNT", [1, None, 3]) == 2
    assert aggregate("count", [1, None, 3], star=True) == 3
    assert aggregate("SUM", [1, None, 3]) == 4
    assert aggregate("SUM", [1.5, 2]) == 3.5
#@test visible
def test_min_and_max():
    assert aggregate("MIN", [3, None, 1, 2]) == 1
    assert aggregate("MAX", [3, None, 1, 2]) == 3
    assert aggregate("MAX", ["b", "a"]) == "b"
    assert aggregate("MIN", [-1, -5]) == -5
#@test
def test_average():
    assert aggregate("AVG", [1, 2]) == 1.5
    assert aggregate("AVG", [4]) == 4
    assert aggregate("AVG", []) is None
#@test catches=avg_key
def test_average_skips_nulls():
    assert aggregate("AVG", [2, None, 4]) == 3.0
    assert aggregate("AVG", [None, None]) is None
    assert aggregate("AVG", [None, 5]) == 5
#@test
def test_aggregates_of_nothing():
    assert aggregate("SUM", []) is None
    assert aggregate("SUM", [None]) is None
    assert aggregate("MIN", []) is None
    assert aggregate("MAX", [None]) is None
    assert aggregate("COUNT", []) == 0
    assert aggregate("COUNT", [None, None]) == 0
    assert aggregate("COUNT", [None, None], star=True) == 2
    assert aggregate("SUM", [0]) == 0
#@test
def test_aggregates_check_their_values():
    for name, values in (("SUM", ["a"]), ("AVG", [True]), ("MIN", ["a", 1]), ("MAX", [1, "a"])):
        with pytest.raises(TypeMismatch):
            aggregate(name, values)
    with pytest.raises(UnknownFunction, match="MEDIAN"):
        aggregate("MEDIAN", [1])
    with pytest.raises(TypeMismatch, match="only COUNT"):
        aggregate("SUM", [1], star=True)
#@test
def test_aggregate_calls_in_expressions():
    assert aggregate_labels("SUM(a) + COUNT(*) * 2 - SUM(a)") == ["SUM(a)", "COUNT(*)"]
    assert aggregate_labels("a + ROUND(b, 1)") == []
    assert aggregate_labels("MAX(a) - MIN(a)") == ["MAX(a)", "MIN(a)"]
    with pytest.raises(TypeMismatch, match="inside another"):
        aggregate_labels("SUM(MAX(a))")
    with pytest.raises(TypeMismatch, match="one argument"):
        aggregate_labels("COUNT(a, b)")

#@area planner
import pytest
from $pkg.csvio import read_csv
from $pkg.engine import $run_query
from $pkg.errors import TypeMismatch, UnknownColumn
from $pkg.parser import $parse_query
from $pkg.planner import explain
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,$null_word\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_select_where_order():
    rows = $run_query("SELECT item, price FROM $table WHERE region = 'north' ORDER BY price DESC", SALES)
    assert rows == [{"item": "fig", "price": 4.5}, {"item": "pear", "price": 2.0}, {"item": "apple", "price": 1.5}]
#@test visible
def test_star_and_expressions():
    first = $run_query("SELECT * FROM $table LIMIT 1", SALES)
    assert [list(row) for row in first] == [["region", "item", "qty", "price", "day", "paid"]]
    rows = $run_query("SELECT item, price * 2 AS twice FROM $table WHERE day >= '2024-01-06' ORDER BY item", SALES)
    assert rows == [{"item": "apple", "twice": 2.5}, {"item": "fig", "twice": 9.0}]
#@test visible
def test_group_by_with_aggregates():
    rows = $run_query("SELECT region, COUNT(*) AS n, SUM(price) AS total FROM $table GROUP BY region ORDER BY region",
                      SALES)
    assert rows == [{"region": "east", "n": 1, "total": 3.75}, {"region": "north", "n": 3, "total": 8.0},
                    {"region": "south", "n": 2, "total": 3.5}]
#@test
def test_count_column_skips_nulls():
    rows = $run_query("SELECT COUNT(*) AS n, COUNT(qty) AS known, SUM(qty) AS qty, MAX(day) AS last FROM $table", SALES)
    assert [(r["n"], r["known"], r["qty"], str(r["last"])) for r in rows] == [(6, 5, 15, "2024-01-07")]
#@test catches=avg_key
def test_group_average_skips_missing_quantities():
    rows = $run_query("SELECT region, AVG(qty) AS q FROM $table GROUP BY region ORDER BY region", SALES)
    assert rows == [{"region": "east", "q": 2.0}, {"region": "north", "q": 3.0}, {"region": "south", "q": 4.0}]
#@test
def test_order_by_nulls_and_positions():
    rows = $run_query("SELECT item, qty FROM $table ORDER BY qty", SALES)
    assert [(r["item"], r["qty"]) for r in rows] == [("pear", None), ("fig", 1), ("plum", 2), ("apple", 3), ("apple", 4),
                                                     ("pear", 5)]
    rows = $run_query("SELECT item, qty FROM $table ORDER BY 2 DESC", SALES)
    assert [r["qty"] for r in rows] == [5, 4, 3, 2, 1, None]
#@test
def test_order_by_several_keys():
    rows = $run_query("SELECT region, item FROM $table ORDER BY region DESC, price", SALES)
    assert [(r["region"], r["item"]) for r in rows] == [("south", "apple"), ("south", "pear"), ("north", "apple"),
                                                        ("north", "pear"), ("north", "fig"), ("east", "plum")]
#@test
def test_limit_and_offset():
    rows = $run_query("SELECT item, price FROM $table ORDER BY price LIMIT 2 OFFSET 1", SALES)
    assert rows == [{"item": "apple", "price": 1.5}, {"item": "pear", "price": 2.0}]
    assert $run_query("SELECT item FROM $table ORDER BY price LIMIT 10 OFFSET 5", SALES) == [{"item": "fig"}]
#@test catches=limit_zero
def test_limit_zero_returns_no_rows():
    assert $run_query("SELECT item FROM $table LIMIT 0", SALES) == []
    assert $run_query("SELECT item FROM $table ORDER BY item LIMIT 0 OFFSET 2", SALES) == []
#@test
def test_aggregate_over_no_rows():
    rows = $run_query("SELECT COUNT(*) AS n, MAX(price) AS top FROM $table WHERE price > 100", SALES)
    assert rows == [{"n": 0, "top": None}]
    assert $run_query("SELECT region, COUNT(*) AS n FROM $table WHERE price > 100 GROUP BY region", SALES) == []
#@test
def test_bare_column_needs_group_by():
    with pytest.raises(TypeMismatch, match="item must be in GROUP BY"):
        $run_query("SELECT item, COUNT(*) FROM $table", SALES)
#@test
def test_unknown_columns_are_reported():
    for sql in ("SELECT colour FROM $table", "SELECT item FROM $table WHERE colour = 1",
                "SELECT item FROM $table ORDER BY colour"):
        with pytest.raises(UnknownColumn, match="colour"):
            $run_query(sql, SALES)
#@test
def test_explain():
    sql = "SELECT region, COUNT(*) AS n FROM $table WHERE price > 2 GROUP BY region ORDER BY n DESC LIMIT 2 OFFSET 1"
    assert explain($parse_query(sql), read_csv(SALES)) == [
        "scan $table (6 rows)", "filter price > 2", "aggregate COUNT(*) by region", "project region, n",
        "order by n DESC", "skip 1", "limit 2"]
#@test catches=and_null
def test_where_not_with_missing_values():
    rows = $run_query("SELECT item FROM $table WHERE NOT (qty > 2 AND paid) ORDER BY item", SALES)
    assert rows == [{"item": "fig"}, {"item": "pear"}, {"item": "plum"}]
#@test catches=like_args
def test_like_in_where():
    rows = $run_query("SELECT item FROM $table WHERE item LIKE 'p%' ORDER BY item", SALES)
    assert rows == [{"item": "pear"}, {"item": "pear"}, {"item": "plum"}]
    assert $run_query("SELECT item FROM $table WHERE item NOT LIKE '%e%'", SALES) == [{"item": "plum"}, {"item": "fig"}]
#@test needs=distinct
def test_select_distinct():
    rows = $run_query("SELECT DISTINCT region FROM $table ORDER BY region", SALES)
    assert rows == [{"region": "east"}, {"region": "north"}, {"region": "south"}]
    rows = $run_query("SELECT DISTINCT item, region = 'north' AS n FROM $table ORDER BY item, n", SALES)
    assert [(r["item"], r["n"]) for r in rows] == [("apple", False), ("apple", True), ("fig", True), ("pear", False),
                                                   ("pear", True), ("plum", False)]
#@test needs=distinct
def test_distinct_comes_before_limit():
    rows = $run_query("SELECT DISTINCT item FROM $table ORDER BY item LIMIT 3", SALES)
    assert rows == [{"item": "apple"}, {"item": "fig"}, {"item": "pear"}]
    steps = explain($parse_query("SELECT DISTINCT item FROM $table LIMIT 3"), read_csv(SALES))
    assert steps == ["scan $table (6 rows)", "project item", "distinct", "limit 3"]

#@area engine
import pytest
from $pkg import $Database, $run_query
from $pkg.errors import UnknownTable
from $pkg.errors import UnknownColumn, UnknownFunction
from $pkg.functions import FUNCTIONS
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,$null_word\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_run_query_over_csv_text():
    assert $run_query("SELECT item FROM anything WHERE price > 3 ORDER BY item", SALES) == [{"item": "fig"},
                                                                                             {"item": "plum"}]
#@test visible
def test_database_of_several_tables():
    db = $Database()
    db.load("sales", SALES)
    db.load("Regions", "region,manager\nnorth,Ann\nsouth,Bo\neast,Cy\n")
    assert db.query("SELECT manager FROM regions WHERE region != 'south' ORDER BY manager DESC") == [
        {"manager": "Cy"}, {"manager": "Ann"}]
    assert db.query("SELECT COUNT(*) AS n FROM SALES") == [{"n": 6}]
#@test catches=shared_tables
def test_databases_do_not_share_tables():
    first = $Database()
    first.load("a", "x\n1\n")
    second = $Database()
    assert second.names() == []
    with pytest.raises(UnknownTable, match="'a'"):
        second.query("SELECT x FROM a")
    assert first.names() == ["a"]
#@test
def test_unknown_table():
    with pytest.raises(UnknownTable, match="no table 'missing'"):
        $Database().query("SELECT a FROM missing")
#@test
def test_result_as_csv():
    db = $Database()
    db.load("s", SALES)
    text = db.to_csv("SELECT region, SUM(price) AS total FROM s GROUP BY region ORDER BY total DESC")
    assert text == "region,total\nnorth,8.0\neast,3.75\nsouth,3.5\n"
#@test
def test_empty_result_keeps_its_columns():
    db = $Database()
    db.load("s", SALES)
    result = db.run("SELECT item, price AS p FROM s WHERE price < 0")
    assert (result.columns, result.rows) == (["item", "p"], [])
    assert db.explain("SELECT item FROM s WHERE price < 0") == ["scan s (6 rows)", "filter price < 0", "project item"]
#@test
def test_types_given_when_loading():
    db = $Database()
    db.load("codes", "code,n\n007,1\n", types={"code": "str"})
    assert db.query("SELECT code, n + 1 AS m FROM codes") == [{"code": "007", "m": 2}]
#@test
def test_database_converts_a_column():
    name = $unit_names[0]
    module = FUNCTIONS[name]
    db = $Database()
    db.load("s", SALES)
    values, summary = db.convert("S", "QTY", name.upper(), policy="skip")
    expected = [module.convert(q) for q in (3, None, 5, 2, 4, 1)]
    assert values == expected
    done = [v for v in expected if v is not None]
    assert summary == {"function": name, "policy": "skip", "values": 6, "converted": 5, "nulls": 1, "rejected": 0,
                       "low": min(done), "high": max(done), "total": round(sum(done), module.DIGITS)}
    assert db.convert("s", "qty", name)[1]["policy"] == module.POLICY
    with pytest.raises(UnknownTable):
        db.convert("nope", "qty", name)
    with pytest.raises(UnknownColumn):
        db.convert("s", "nope", name)
    with pytest.raises(UnknownFunction):
        db.convert("s", "qty", "nope")

#@area functions
import pytest
from $pkg import $run_query, functions
from $pkg.errors import TypeMismatch, UnknownFunction
from $pkg.errors import ConversionError
from $pkg.functions import FUNCTIONS, call_function, catalog, function
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,$null_word\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_every_function_is_listed():
    assert sorted(FUNCTIONS) == sorted($unit_names)
#@test visible
def test_functions_convert():
    for name in $unit_names[:3]:
        module = function(name)
        assert module.convert(10) == round(10 * module.FACTOR + module.OFFSET, module.DIGITS)
        assert module.convert(None) is None
#@test
def test_functions_in_queries():
    name = $unit_names[0]
    module = function(name)
    rows = $run_query(f"SELECT {name}(price) AS v, {name.upper()}(qty) AS w FROM $table ORDER BY price LIMIT 2", SALES)
    assert rows == [{"v": module.convert(1.25), "w": module.convert(4)}, {"v": module.convert(1.5), "w": module.convert(3)}]
#@test
def test_function_arguments_are_checked():
    name = $unit_names[-1]
    assert call_function(name, [None]) is None
    with pytest.raises(TypeMismatch, match="takes 1 argument"):
        call_function(name, [1, 2])
    with pytest.raises(TypeMismatch, match="needs a number"):
        call_function(name.upper(), ["x"])
    with pytest.raises(UnknownFunction):
        call_function("no_such_function", [1])
#@test
def test_inverse_undoes_convert():
    for name in $unit_names[-2:]:
        module = function(name)
        bound = 10 ** -module.DIGITS / module.FACTOR + 10 ** -(module.DIGITS + 2)
        assert abs(module.inverse(module.convert(10)) - 10) <= bound
#@test
def test_catalog_describes_each_function():
    lines = catalog()
    assert len(lines) == $unit_count
    assert [line.split("(", 1)[0] for line in lines] == sorted($unit_names)
#@test visible
def test_show_and_read_back():
    for name in $unit_names[:2]:
        module = function(name)
        value = module.convert(12)
        assert module.show(value) == f"{value:.{module.DIGITS}f} {name}"
        assert module.read(module.show(value)) == value
        assert module.read("7") == 7 and module.read(f" 2.5 {name.upper()} ") == 2.5
        assert module.read("") is None and module.read("NULL") is None and module.show(None) == "NULL"
#@test
def test_problems_give_every_reason():
    for name in ($unit_names[0], $unit_names[-1]):
        module = function(name)
        limit = module.LIMIT
        assert module.problems(None) == module.problems(limit) == module.problems(0.5) == []
        assert module.problems("12") == module.problems(True) == ["needs a number"]
        assert module.problems(float("nan")) == module.problems(float("-inf")) == ["needs a finite number"]
        too_big = f"takes values up to {limit:,} in size"
        assert module.problems(limit + 1) == [too_big]
        negative = [] if module.ALLOW_NEGATIVE else ["takes no negative values"]
        assert module.problems(-1) == negative, name
        assert module.problems(-limit - 0.5) == negative + [too_big]
#@test
def test_conversion_errors_name_the_function_value_and_reason():
    name = $unit_names[0]
    module = function(name)
    value = module.LIMIT * 3
    with pytest.raises(ConversionError) as info:
        module.convert(value)
    error = info.value
    assert error.args == (name, value, f"takes values up to {module.LIMIT:,} in size")
    assert str(error) == f"{name}() takes values up to {module.LIMIT:,} in size, got {value!r}"
    assert isinstance(error, TypeMismatch)
    with pytest.raises(ConversionError, match="needs a number, got 'x'"):
        module.inverse("x")
#@test
def test_queries_refuse_values_a_function_cannot_take():
    name = $unit_names[-1]
    module = function(name)
    with pytest.raises(TypeMismatch, match=rf"{name}\(\) takes values up to"):
        $run_query(f"SELECT {name}(price * {module.LIMIT}) AS v FROM $table", SALES)
    rows = $run_query(f"SELECT {name}(price * {module.LIMIT}) AS v FROM $table WHERE price < 0", SALES)
    assert rows == []
#@test
def test_read_says_what_is_wrong():
    name = $unit_names[0]
    module = function(name)
    assert module.read("1e3") == 1000.0 and module.read("-4") == -4
    with pytest.raises(ConversionError, match=f"reads values in {name}, got '3 parsecs'"):
        module.read("3 parsecs")
    with pytest.raises(ConversionError, match="needs a number, got 'abc'"):
        module.read("abc")
    with pytest.raises(ConversionError, match="reads text, got 5"):
        module.read(5)
#@test
def test_streams_apply_their_error_policy():
    name = $unit_names[0]
    module = function(name)
    values = [1, None, module.LIMIT * 10, 2, "x"]
    one, two = module.convert(1), module.convert(2)
    skip = module.Stream("skip")
    assert [skip.feed(v) for v in values] == [one, None, None, two, None]
    assert skip.output == [one, None, two]
    assert skip.rejected == [(3, f"takes values up to {module.LIMIT:,} in size"), (5, "needs a number")]
    assert skip.close() == {"function": name, "policy": "skip", "values": 5, "converted": 2, "nulls": 1,
                            "rejected": 2, "low": min(one, two), "high": max(one, two),
                            "total": round(one + two, module.DIGITS)}
    with pytest.raises(ConversionError, match="the stream is closed"):
        skip.feed(1)
    null = module.Stream("null")
    for value in values:
        null.feed(value)
    assert null.output == [one, None, None, two, None]
    assert (null.close()["nulls"], null.state) == (1, "closed")
    strict = module.Stream("raise")
    with pytest.raises(ConversionError, match=r"in size \(value 3\)"):
        for value in values:
            strict.feed(value)
    assert strict.output == [one, None]
    with pytest.raises(TypeMismatch, match="no error policy 'ignore'"):
        module.Stream("ignore")
    assert module.Stream().policy == module.POLICY
#@test
def test_explain_and_specs():
    specs = functions.specs()
    assert [spec["name"] for spec in specs] == sorted($unit_names)
    for spec in specs[:3]:
        expected = [round(x * spec["factor"] + spec["offset"], spec["digits"]) for x in (0, 3, 7.5)]
        assert functions.convert_all(spec["name"], [0, 3, 7.5]) == expected
    module = function(specs[0]["name"])
    assert (specs[0]["limit"], specs[0]["allow_negative"]) == (module.LIMIT, module.ALLOW_NEGATIVE)
    name = $unit_names[0]
    module = function(name)
    lines = functions.explain(name.upper())
    assert lines[0] == module.describe()
    assert f"  {name}(10) = {module.show(module.convert(10))}" in lines
    low = module.convert(-module.LIMIT if module.ALLOW_NEGATIVE else 0)
    assert f"gives: {module.show(low)} to {module.show(module.convert(module.LIMIT))}" in lines

#@area cli
from $pkg.cli import format_table, run_cli
#@test visible
def test_format_table():
    assert format_table(["a", "bb"], [[1, None], [22, "x"]]) == "a  | bb\n---+-----\n1  | NULL\n22 | x"
#@test
def test_cli_lists_functions():
    status, text = run_cli(["--functions"])
    assert status == 0
    assert len(text.splitlines()) == $unit_count
#@test visible
def test_cli_describes_a_function():
    name = $unit_names[0]
    status, text = run_cli(["--describe", name])
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith(f"{name}(x) = x * ") and len(lines) == 8
    assert lines[-1].startswith(f"  {name}(10) = ")
    assert run_cli(["--describe", "no_such_function"]) == (1, "error: no function 'no_such_function'\n")
#@test
def test_cli_reports_problems():
    assert run_cli([]) == (2, "error: a query and at least one CSV file are needed (see --help)\n")
    status, text = run_cli(["SELECT a FROM t", "no-such-file.csv"])
    assert status == 1 and text.startswith("error:")
'''

KIND = ProjectKind(
    name="csvq",
    description="a query engine over CSV: tokenizer, parser, typed columns, evaluation, aggregates, planner",
    packages=("csvq", "tabquery", "csvsql", "rowsql", "querycsv", "minisql", "sheetql"),
    names={
        "Error": ("CsvqError", "QueryError", "EngineError", "TabularError"),
        "Table": ("Table", "Frame", "Relation", "Sheet"),
        "Database": ("Database", "Catalog", "Workspace", "TableSet"),
        "parse_query": ("parse_query", "parse_sql", "compile_query", "parse_select"),
        "run_query": ("run_query", "execute_query", "query_csv", "select_rows"),
        "column_index": ("column_index", "index_of", "position_of", "find_column"),
    },
    constants={"null_word": ("NA", "null", "N/A", "none"), "float_digits": (2, 3, 4), "table": ("data", "rows", "input", "t"),
               "minor": (3, 6, 8, 11)},
    files={"$pkg/__init__.py": INIT, "$pkg/__main__.py": MAIN, "$pkg/errors.py": ERRORS, "$pkg/tokens.py": TOKENS,
           "$pkg/nodes.py": NODES, "$pkg/parser.py": PARSER, "$pkg/coltypes.py": COLTYPES, "$pkg/table.py": TABLE,
           "$pkg/csvio.py": CSVIO, "$pkg/scalars.py": SCALARS, "$pkg/evaluate.py": EVALUATE,
           "$pkg/aggregates.py": AGGREGATES, "$pkg/planner.py": PLANNER, "$pkg/engine.py": ENGINE, "$pkg/cli.py": CLI,
           "$pkg/functions/__init__.py": FUNCTIONS_INDEX, "README.md": README, "pyproject.toml": PYPROJECT},
    units=Units(dir="$pkg/functions", template=UNIT, index="$pkg/functions/__init__.py", count=(10, 24),
                names=("miles", "feet", "inches", "yards", "pounds", "ounces", "grams", "liters", "gallons", "acres",
                       "hectares", "knots", "celsius", "fahrenheit", "kelvin", "minutes", "hours", "days", "weeks",
                       "kilobytes", "megabytes", "percent", "permille", "dozens", "cups", "pints", "meters", "tons",
                       "carats", "furlongs", "fathoms", "leagues"),
                values={"factor": (0.3048, 2.54, 1.609, 0.4536, 3.785, 1.8, 0.5, 12, 1000),
                        "offset": (0, 0, 32, -10, 273), "digits": (1, 2, 3), "negative": (True, False),
                        "limit": ("10 ** 6", "10 ** 9", "10 ** 12"), "policy": ("raise", "skip", "null")}),
    tests=TESTS,
    bugs=(
        BugSite("line_number", "off_by_one", "$pkg/csvio.py",
                "The line numbers in CSV errors are wrong. `read_csv('a,b\\n1,2\\n3\\n')` says `line 2: 1 fields, "
                "but the header names 2 columns`, but the short row is on line 3 of the file (the header is line 1, "
                "which is how my editor counts too). I keep looking at the wrong row."),
        BugSite("and_null", "wrong_branch", "$pkg/evaluate.py",
                "`WHERE NOT (qty > 2 AND paid)` drops rows it should keep. A row with an empty qty and paid = false "
                "should match: `qty > 2` is unknown but `paid` is false, so the AND is false and the NOT is true. "
                "Same for qty = 2 with an empty paid. Evaluating `NULL AND FALSE` gives NULL instead of FALSE."),
        BugSite("shared_tables", "mutable_default", "$pkg/engine.py",
                "A brand new `$Database()` already knows tables I loaded into a different database earlier: "
                "`$Database().names()` is not empty, and querying a table I never loaded into it works instead of "
                "raising UnknownTable."),
        BugSite("avg_key", "wrong_key", "$pkg/aggregates.py",
                "AVG counts empty cells. For a column with values 2, (empty), 4 `AVG` gives 2.0 instead of 3.0, and "
                "`SELECT region, AVG(qty) ... GROUP BY region` is too low for every region that has a missing qty. "
                "COUNT(qty) already skips them, AVG should agree with SUM(qty) / COUNT(qty)."),
        BugSite("limit_zero", "edge_case", "$pkg/planner.py",
                "`LIMIT 0` returns every row instead of none. I build queries with a page size that can be 0 and "
                "`SELECT item FROM $table LIMIT 0` gives me the whole table."),
        BugSite("like_args", "swapped_args", "$pkg/evaluate.py",
                "LIKE never matches anything with a wildcard: `WHERE item LIKE 'p%'` returns no rows even though "
                "there are items 'pear' and 'plum', and `'Alice' LIKE 'A%'` is false. The scalar function on its "
                "own seems fine."),
    ),
    features=(
        Feature("distinct", ("$pkg/nodes.py", "$pkg/parser.py", "$pkg/planner.py"),
                "Please support `SELECT DISTINCT ...`. Duplicate output rows (equal in every selected column) should "
                "be dropped, keeping the first, before ORDER BY's LIMIT/OFFSET are applied, so "
                "`SELECT DISTINCT item FROM t ORDER BY item LIMIT 3` gives three different items. The query should "
                "remember it (a `distinct` field on Query, False by default, written back as `SELECT DISTINCT` by "
                "`to_sql`), and `explain` should show a `distinct` step right after `project`."),
    ),
    renames=(
        Rename("parse_query", "parse_query", "function", "$pkg.parser"),
        Rename("run_query", "run_query", "function", "$pkg.engine"),
        Rename("Table", "Table", "class", "$pkg.table"),
        Rename("column_index", "column_index", "method", "$pkg.table", owner="Table"),
    ),
    mutation_areas={"tokens": "$pkg/tokens.py", "coltypes": "$pkg/coltypes.py", "aggregates": "$pkg/aggregates.py"},
)
