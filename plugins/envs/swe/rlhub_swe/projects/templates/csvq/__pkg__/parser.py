"""Query text -> Query: a recursive-descent parser of the SELECT language.

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
        # return Query(items, table, where, group_by, order_by, limit, offset)
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


def __parse_query__(text: str) -> Query:
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

    return to_sql(__parse_query__(text))
