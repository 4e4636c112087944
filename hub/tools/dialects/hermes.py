"""`hermes` (Hermes 2 Pro, Qwen2.5, Qwen3): each call a JSON object in its own block,

    <tool_call>
    {"name": "get_current_temperature", "arguments": {"location": "San Francisco, CA, USA"}}
    </tool_call>

The object is read as JSON first, so a `</tool_call>` inside one of its strings does not end it."""

from __future__ import annotations

from typing import Any

from ..schema import ToolCall
from .common import (ParsedTurn, Scanner, arguments_of, call_from_object, check_text, excerpt, json_text,
                     read_json, skip_space, too_many)

OPEN, CLOSE = "<tool_call>", "</tool_call>"
WRITE = 'write <tool_call>\n{"name": TOOL, "arguments": {...}}\n</tool_call>'


def parse(text: str, schemas: Any = None) -> ParsedTurn:
    turn, scan = ParsedTurn(), Scanner(text)
    pieces, pos = [], 0
    while (start := scan.find(OPEN, pos)) != -1:
        pieces.append(text[pos:start])
        if too_many(turn, f"{OPEN} blocks"):
            pos = len(text)
            break
        body = start + len(OPEN)
        obj, end, error = read_json(text, body)
        if not error:
            after = skip_space(text, end)
            if text.startswith(CLOSE, after) or after == len(text):
                call, wrong = call_from_object(obj)
                if call is not None:
                    turn.calls.append(call)
                else:
                    turn.problems.append(f"a {OPEN} block is not a call ({wrong}): {excerpt(text[body:end].strip())}; {WRITE}")
                pos = min(after + len(CLOSE), len(text))
                continue
            error = f"after the JSON object comes {excerpt(text[after:after + 40])} instead of {CLOSE}"
            end = after
        # unreadable: resume at the block's close, or at the next opening if that comes first
        close, reopen = scan.find(CLOSE, end), scan.find(OPEN, end)
        stop = close if close != -1 and (reopen == -1 or close < reopen) else reopen
        block_end = len(text) if stop == -1 else stop
        what = "is not JSON" if "instead of" not in error else "is not closed right"
        turn.problems.append(f"a {OPEN} block {what} ({error}): {excerpt(text[body:block_end].strip())}; {WRITE}")
        pos = block_end + (len(CLOSE) if stop == close and stop != -1 else 0)
    pieces.append(text[pos:])
    turn.text = "".join(pieces).strip()
    if CLOSE in turn.text:  # a call whose opening tag is missing or misspelt
        turn.problems.append(f"a {CLOSE} without its {OPEN}: the call before it was not read; {WRITE}")
    return turn


def render(calls: list[ToolCall], text: str = "", schemas: Any = None) -> str:
    check_text(text, "hermes", (OPEN, CLOSE))
    parts = [text] if text else []
    for call in calls:
        parts.append(f"{OPEN}\n{json_text({'name': call.name, 'arguments': arguments_of(call)})}\n{CLOSE}")
    return "\n".join(parts)
