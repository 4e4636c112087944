"""`mistral` (Mistral's tokenizers): calls after the `[TOOL_CALLS]` control token, as a JSON list
(tokenizer v3, Mistral 7B Instruct v0.3, Nemo)

    [TOOL_CALLS] [{"name": "get_current_weather", "arguments": {"location": "Paris, France", "format": "celsius"}}]

or, from tokenizer v11 on (Mistral Small 3.2, Magistral, Devstral), one call per token:

    [TOOL_CALLS]get_current_weather[ARGS]{"location": "Paris, France", "format": "celsius"}

(`[CALL_ID]id` may come between the name and `[ARGS]`). Both are read; the list form is written.
Text before the first `[TOOL_CALLS]` is the turn's text."""

from __future__ import annotations

import re
from typing import Any

from ..schema import ToolCall, decode_arguments
from .common import (ParsedTurn, Scanner, arguments_of, call_from_object, check_text, excerpt, json_text,
                     read_json, skip_space, too_many)

TOOL_CALLS, ARGS, CALL_ID, EOS = "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "</s>"
WRITE = 'write [TOOL_CALLS][{"name": TOOL, "arguments": {...}}] (or [TOOL_CALLS]TOOL[ARGS]{...})'
_NAME = re.compile(r"[^\s\[\]{}]{1,200}")


def parse(text: str, schemas: Any = None) -> ParsedTurn:
    turn, scan = ParsedTurn(), Scanner(text)
    first = scan.find(TOOL_CALLS, 0)
    if first == -1:
        turn.text = _strip_eos(text)
        if re.search(r'\{\s*"name"\s*:', text) or "[ARGS]" in text:
            turn.problems.append(f"the reply holds what looks like a call without {TOOL_CALLS} before it, which is "
                                 f"not read; {WRITE}")
        return turn
    turn.text = text[:first].strip()
    pos = first
    while pos < len(text) and text.startswith(TOOL_CALLS, pos):
        if too_many(turn, "calls"):
            break
        pos = skip_space(text, pos + len(TOOL_CALLS))
        if text.startswith(("[", "{"), pos):
            pos = _json_calls(text, pos, turn)
        else:
            pos = _named_call(text, scan, pos, turn)
        if pos < 0:
            break
        pos = skip_space(text, pos)
        if text.startswith(EOS, pos):
            pos = skip_space(text, pos + len(EOS))
    else:
        rest = text[pos:].strip() if pos >= 0 else ""
        if rest:
            turn.problems.append(f"after the calls comes {excerpt(rest)}, which was not read; {WRITE}")
    return turn


def _strip_eos(text: str) -> str:
    text = text.strip()
    return text[:-len(EOS)].rstrip() if text.endswith(EOS) else text


def _json_calls(text: str, pos: int, turn: ParsedTurn) -> int:
    obj, end, error = read_json(text, pos)
    if error:
        turn.problems.append(f"the calls after {TOOL_CALLS} are not JSON ({error}): {excerpt(text[pos:])}; {WRITE}")
        return -1
    for item in obj if isinstance(obj, list) else [obj]:
        call, wrong = call_from_object(item)
        if call is None:
            turn.problems.append(f"not a call ({wrong}): {excerpt(str(item))}; {WRITE}")
        elif not too_many(turn, "calls"):
            turn.calls.append(call)
    return end


def _named_call(text: str, scan: Scanner, pos: int, turn: ParsedTurn) -> int:
    args_at = scan.find(ARGS, pos)
    head = text[pos:args_at] if args_at != -1 else ""
    call_id = ""
    if CALL_ID in head:
        head, call_id = head.split(CALL_ID, 1)
    name = head.strip()
    if args_at == -1 or not _NAME.fullmatch(name):
        turn.problems.append(f"after {TOOL_CALLS} comes neither a JSON list nor TOOL{ARGS}{{...}}: "
                             f"{excerpt(text[pos:])}; {WRITE}")
        return -1
    start = args_at + len(ARGS)
    obj, end, error = read_json(text, start)
    if error:  # the tool is known: its arguments go to it as the text they are, and its error says so
        stop, _ = scan.first((TOOL_CALLS, EOS), start)
        stop = len(text) if stop == -1 else stop
        turn.calls.append(ToolCall(name=name, arguments=text[start:stop].strip(), id=call_id.strip()))
        return stop
    turn.calls.append(ToolCall(name=name, arguments=decode_arguments(obj) if isinstance(obj, (dict, str)) else
                               text[start:end], id=call_id.strip()))
    return end


def render(calls: list[ToolCall], text: str = "", schemas: Any = None) -> str:
    check_text(text, "mistral", (TOOL_CALLS, ARGS, CALL_ID, EOS))
    if not calls:
        return text
    body = json_text([{"name": c.name, "arguments": arguments_of(c)} for c in calls])
    return f"{text}{TOOL_CALLS}{body}"
