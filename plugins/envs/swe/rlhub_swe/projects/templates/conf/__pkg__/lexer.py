"""Lines of a document as tokens: sections, entries, comments, blank lines, continuations."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ParseError

COMMENT_MARKS = ("#", ";")


@dataclass(frozen=True)
class Token:
    kind: str       # "section" | "entry" | "comment" | "blank" | "continuation"
    line: int
    name: str = ""
    value: str = ""


def tokenize(text: str) -> list[Token]:
    tokens = []
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped:
            tokens.append(Token("blank", number))
        elif stripped.startswith(COMMENT_MARKS):
            tokens.append(Token("comment", number, value=stripped[1:].strip()))
        elif raw[:1] in (" ", "\t") and tokens and tokens[-1].kind in ("entry", "continuation"):
            tokens.append(Token("continuation", number, value=stripped))
        elif stripped.startswith("["):
            if not stripped.endswith("]"):
                raise ParseError("a section header must end with ']'", number, len(raw.rstrip()) + 1)  #@if:bug.swap_position: raise ParseError("a section header must end with ']'", len(raw.rstrip()) + 1, number)
            name = stripped[1:-1].strip()
            if not name:
                raise ParseError("a section needs a name", number, raw.index("[") + 2)
            tokens.append(Token("section", number, name=name))
        elif "=" in stripped:
            key, value = stripped.split("=", 1)  #@if:bug.split_all: key, value = stripped.split("=")[:2]
            if not key.strip():
                raise ParseError("an entry needs a key before '='", number, raw.index("=") + 1)
            tokens.append(Token("entry", number, name=key.strip(), value=unquote(value.strip(), number)))
        else:
            column = len(raw) - len(raw.lstrip()) + 1  #@if:bug.column: column = len(raw) - len(raw.lstrip())
            raise ParseError(f"expected 'key = value' or '[section]', got {stripped[:20]!r}", number, column)
    return tokens


def unquote(value: str, line: int = 0) -> str:
    """A quoted value without its quotes, escapes resolved; an unquoted value as it is."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        body = value[1:-1]
        out, i = [], 0
        while i < len(body):
            ch = body[i]
            if ch == "\\" and i + 1 < len(body):
                nxt = body[i + 1]
                out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out)
    if value[:1] in "\"'" and value[-1:] != value[:1]:
        raise ParseError("a quoted value is not closed", line, 1)
    return value


def quote(value: str) -> str:
    """A value written so that it reads back as itself."""
    plain = value == value.strip() and not value.startswith(("\"", "'", "#", ";", "[")) and "\n" not in value
    if plain and value:
        return value
    escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'
