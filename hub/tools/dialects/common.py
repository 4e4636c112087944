"""What every tool-call format shares: the parsed turn, the refusal a renderer raises for a value
its format cannot carry, JSON written so that no markup inside a string can be read as structure,
and a scanner whose searches stay linear on hostile input (each marker's next position is found
once and reused until the reading passes it: no quadratic rescans, no backtracking regex)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..schema import ToolCall

MAX_CALLS_READ = 1000  # a turn's calls read at most (the toolbox runs fewer); the rest is a problem
EXCERPT = 120


@dataclass
class ParsedTurn:
    calls: list[ToolCall] = field(default_factory=list)
    text: str = ""  # the turn's text outside the calls
    problems: list[str] = field(default_factory=list)  # calls that could not be read, said to the model


class ToolFormatError(ValueError):
    """A renderer was asked to write what its format cannot carry (it would read back otherwise)."""


# Markup a JSON string must not show as is: tags (`<tool_call>`, `</think>`, `<|call|>`, `</s>`) and
# Mistral's control words. JSON escapes their first character (`\u003c`): the same value, no markup.
_MARKUP_IN_JSON = re.compile(r"<(?=[A-Za-z/|!?])|\[(?=(?:TOOL_CALLS|ARGS|CALL_ID|TOOL_RESULTS|/TOOL_RESULTS)\])")


def json_text(value: Any) -> str:
    """`value` as JSON (unicode kept) with no markup inside its strings."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ToolFormatError(f"the arguments are not JSON values ({exc})") from None
    return _MARKUP_IN_JSON.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def excerpt(text: str) -> str:
    return repr(text[:EXCERPT] + ("..." if len(text) > EXCERPT else ""))


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


def skip_space(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()


def read_json(text: str, pos: int) -> tuple[Any, int, str]:
    """(the JSON value starting at `pos` after blanks, where it ends, "") or (None, where reading
    failed, what was wrong). Never raises: deep nesting and huge numbers are errors like others.

    Read through a window that doubles while the value may run past it: the decoder's error
    counts the lines before its position, which on the whole text would be quadratic."""
    pos = skip_space(text, pos)
    window = 4096
    while True:
        chunk = text[pos:pos + window]
        whole = pos + window >= len(text)
        try:
            value, end = _DECODER.raw_decode(chunk)
        except json.JSONDecodeError as exc:
            if not whole and (exc.pos >= len(chunk) - 1 or exc.msg.startswith("Unterminated string")):
                window *= 4
                continue
            return None, pos + max(exc.pos, 1), f"{exc.msg} at character {exc.pos}"
        except RecursionError:
            return None, pos + 1, "nested too deeply"
        except ValueError as exc:  # e.g. an integer of more digits than Python converts
            return None, pos + 1, str(exc)[:100]
        if end == len(chunk) and not whole:  # a number may go on past the window
            window *= 4
            continue
        return value, pos + end, ""


def call_from_object(obj: Any, args_keys: tuple[str, ...] = ("arguments", "parameters")) -> tuple[ToolCall | None, str]:
    """A call from `{"name": ..., "arguments": {...}}` (arguments may be a JSON string), or what is wrong."""
    from ..schema import decode_arguments

    if not isinstance(obj, dict):
        return None, f"a call is a JSON object, not {type(obj).__name__}"
    if not isinstance(obj.get("name"), str):
        return None, 'a call needs a string "name"'
    key = next((k for k in args_keys if k in obj), None)
    args = decode_arguments(obj[key]) if key else {}
    return ToolCall(name=obj["name"], arguments=args, id=str(obj.get("id") or "")), ""


def arguments_of(call: ToolCall) -> dict[str, Any] | str:
    from ..schema import decode_arguments

    return call.arguments if isinstance(call.arguments, dict) else decode_arguments(call.arguments)


def check_text(text: str, fmt: str, markers: tuple[str, ...]) -> None:
    """A turn's free text must hold none of the format's markers (nor reasoning tags)."""
    low = text.lower()
    for marker in (*markers, "<think>", "</think>"):
        if marker.lower() in low:
            raise ToolFormatError(f"{fmt}: the turn's text holds {marker!r}, which this format reads as structure")


def number_calls(turn: ParsedTurn) -> ParsedTurn:
    """Give calls without an id one by their order (call_0, call_1, ...)."""
    turn.calls = [c if c.id else ToolCall(c.name, c.arguments, f"call_{i}") for i, c in enumerate(turn.calls)]
    return turn


class Scanner:
    """`find(marker, pos)` over one text, amortised linear: a marker's next position is kept and
    reused while the reading has not passed it (a marker absent after p is absent after any q > p)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._next: dict[str, int] = {}

    def find(self, marker: str, pos: int) -> int:
        known = self._next.get(marker)
        if known is not None and (known == -1 or known >= pos):
            return known
        found = self.text.find(marker, pos)
        self._next[marker] = found
        return found

    def first(self, markers: tuple[str, ...], pos: int) -> tuple[int, str]:
        """The earliest of `markers` at or after `pos`: (position, marker), or (-1, "")."""
        best, which = -1, ""
        for m in markers:
            at = self.find(m, pos)
            if at != -1 and (best == -1 or at < best):
                best, which = at, m
        return best, which


def too_many(turn: ParsedTurn, what: str) -> bool:
    """True (and said once) when the turn already holds MAX_CALLS_READ calls."""
    if len(turn.calls) >= MAX_CALLS_READ:
        note = f"more than {MAX_CALLS_READ} {what}: the rest were not read"
        if note not in turn.problems:
            turn.problems.append(note)
        return True
    return False
