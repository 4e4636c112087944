"""`harmony` (gpt-oss): messages with headers; a call is a message on the commentary channel
addressed to `functions.NAME`, its content JSON, ended by `<|call|>`:

    <|channel|>analysis<|message|>Need to use function get_weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"San Francisco"}<|call|>

The recipient may sit in the role part of the header (`<|start|>assistant to=functions.x<|channel|>commentary`).
The analysis channel is reasoning: it never calls. Commentary without a recipient (a preamble) and
the final channel are the turn's text. A call's content is read as JSON first, so `<|call|>`
inside one of its strings does not end it; content that is not JSON goes to the tool as text (its
error says so)."""

from __future__ import annotations

import re
from typing import Any

from ..schema import ToolCall, decode_arguments
from .common import (ParsedTurn, Scanner, ToolFormatError, arguments_of, check_text, excerpt, json_text,
                     read_json, skip_space, too_many)

START, CHANNEL, MESSAGE, CONSTRAIN = "<|start|>", "<|channel|>", "<|message|>", "<|constrain|>"
ENDS = ("<|end|>", "<|call|>", "<|return|>")
MARKERS = (START, CHANNEL, MESSAGE, CONSTRAIN, *ENDS)
WRITE = "write <|channel|>commentary to=functions.TOOL <|constrain|>json<|message|>{...}<|call|>"
MAX_HEADER = 400
_RECIPIENT = re.compile(r"\bto=([^\s<]+)")
_NAME = re.compile(r"[^\s<|]{1,200}")


def parse(text: str, schemas: Any = None) -> ParsedTurn:
    turn, scan = ParsedTurn(), Scanner(text)
    shown: list[str] = []
    pos = 0
    while pos < len(text):
        head, which = scan.first((START, CHANNEL), pos)
        if head == -1:
            shown.append(text[pos:])
            break
        shown.append(text[pos:head])
        msg = scan.find(MESSAGE, head)
        if msg == -1:
            turn.problems.append(f"a message header without {MESSAGE}: {excerpt(text[head:])}; {WRITE}")
            break
        following, _ = scan.first((START,), head + 1)
        if (following != -1 and following < msg) or msg - head > MAX_HEADER:
            turn.problems.append(f"a message header that does not reach {MESSAGE}: {excerpt(text[head:head + 80])}; {WRITE}")
            pos = following if following != -1 and following < msg else msg
            continue
        header = text[head:msg]
        channel_part = header.partition(CHANNEL)[2]
        channel = channel_part.split(None, 1)[0] if channel_part.split() else ""
        found = _RECIPIENT.search(header)
        recipient = found.group(1) if found else ""
        body = msg + len(MESSAGE)
        if recipient:
            if too_many(turn, "calls"):
                break
            pos = _call(text, scan, body, recipient, channel, turn)
            continue
        end, which = scan.first((*ENDS, START), body)
        end = len(text) if end == -1 else end
        if channel != "analysis":  # reasoning is dropped; preambles and the final answer are text
            shown.append(text[body:end])
        pos = end + (len(which) if which in ENDS else 0)
    turn.text = "\n".join(s.strip() for s in shown if s.strip() and s.strip() != "assistant")
    return turn


def _call(text: str, scan: Scanner, body: int, recipient: str, channel: str, turn: ParsedTurn) -> int:
    obj, end, error = read_json(text, body)
    after = skip_space(text, end) if not error else end
    closed = next((e for e in ENDS if text.startswith(e, after)), "")
    if error or not (closed or after == len(text) or text.startswith(START, after)):
        stop, which = scan.first((*ENDS, START), body)
        stop = len(text) if stop == -1 else stop
        content, resume = text[body:stop].strip(), stop + (len(which) if which in ENDS else 0)
    else:
        content, resume = None, after + len(closed)
    if channel == "analysis":
        turn.problems.append(f"a call to {recipient[:80]!r} on the analysis channel (reasoning) was not run: "
                             f"calls go to the commentary channel; {WRITE}")
    elif not recipient.startswith("functions.") or not _NAME.fullmatch(recipient[len("functions."):]):
        turn.problems.append(f"a message to {recipient[:80]!r} was not run: the tools here are functions.TOOL; {WRITE}")
    else:
        name = recipient[len("functions."):]
        args = content if content is not None else decode_arguments(obj) if isinstance(obj, dict) else text[body:end].strip()
        turn.calls.append(ToolCall(name=name, arguments=args))
    return resume


def render(calls: list[ToolCall], text: str = "", schemas: Any = None) -> str:
    check_text(text, "harmony", MARKERS)
    messages = [f"{CHANNEL}commentary{MESSAGE}{text}{ENDS[0]}"] if text else []
    for call in calls:
        if not _NAME.fullmatch(call.name):
            raise ToolFormatError(f"harmony cannot carry the tool name {call.name!r} (no spaces, '<' or '|')")
        args = arguments_of(call)
        if isinstance(args, str):
            if any(m in args for m in MARKERS):
                raise ToolFormatError(f"harmony cannot carry {call.name}'s raw arguments: they hold a message marker")
            content = args
        else:
            content = json_text(args)
        messages.append(f"{CHANNEL}commentary to=functions.{call.name} {CONSTRAIN}json{MESSAGE}{content}<|call|>")
    return f"{START}assistant".join(messages)
