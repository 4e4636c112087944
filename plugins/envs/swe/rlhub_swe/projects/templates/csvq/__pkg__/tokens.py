"""Query text as tokens: keywords, names, numbers, strings and operators."""

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
