"""`llama3_json` (Llama 3.1 / 3.2 JSON tool calling): the reply is the call,

    {"name": "get_current_conditions", "parameters": {"location": "San Francisco, CA", "unit": "Fahrenheit"}}

optionally after `<|python_tag|>`, several separated by ';'. Text before `<|python_tag|>` is the
turn's text (our convention for a reply with both: the template itself drops the text); a reply
that starts with neither is text. `arguments` is read as `parameters` too."""

from __future__ import annotations

from typing import Any

from ..schema import ToolCall
from .common import (ParsedTurn, ToolFormatError, arguments_of, call_from_object, check_text, excerpt, json_text, read_json,
                     skip_space, too_many)

TAG = "<|python_tag|>"
ENDS = ("<|eom_id|>", "<|eot_id|>")
WRITE = 'write the call as the whole reply: {"name": TOOL, "parameters": {...}} (several: separated by ";")'


def parse(text: str, schemas: Any = None) -> ParsedTurn:
    turn = ParsedTurn()
    tag = text.find(TAG)
    if tag != -1:
        before, pos = text[:tag], tag + len(TAG)
    elif text.lstrip().startswith(("{", "[")):
        before, pos = "", 0
    else:
        turn.text = text.strip()
        if '"name"' in text and "{" in text:
            turn.problems.append(f"the reply looks like it holds a call after other text, which is not read; {WRITE} "
                                 f"(or after {TAG})")
        return turn
    turn.text = before.strip()
    while True:
        pos = skip_space(text, pos)
        if pos >= len(text) or any(text.startswith(e, pos) for e in ENDS):
            break
        if too_many(turn, "calls"):
            break
        obj, end, error = read_json(text, pos)
        if error:
            turn.problems.append(f"a call is not JSON ({error}): {excerpt(text[pos:])}; {WRITE}")
            break
        for item in obj if isinstance(obj, list) else [obj]:
            call, wrong = call_from_object(item, ("parameters", "arguments"))
            if call is None:
                turn.problems.append(f"not a call ({wrong}): {excerpt(text[pos:end])}; {WRITE}")
            elif not too_many(turn, "calls"):
                turn.calls.append(call)
        pos = skip_space(text, end)
        if text.startswith(";", pos):
            pos += 1
        elif pos < len(text) and not any(text.startswith(e, pos) for e in ENDS):
            turn.problems.append(f"after a call comes {excerpt(text[pos:pos + 60])}: separate calls with ';' and "
                                 f"write nothing after them; {WRITE}")
            break
    return turn


def render(calls: list[ToolCall], text: str = "", schemas: Any = None) -> str:
    check_text(text, "llama3_json", (TAG, *ENDS))
    if text.lstrip().startswith(("{", "[")) and not calls:
        raise ToolFormatError("llama3_json reads a reply that starts with '{' or '[' as calls: the text cannot")
    body = "; ".join(json_text({"name": c.name, "parameters": arguments_of(c)}) for c in calls)
    if text:
        return f"{text}{TAG}{body}" if calls else text
    return body
