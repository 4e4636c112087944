"""Tool-call formats: how a model writes a call in its text, read back (`parse`) and written
(`render`, for references and tests). Chosen per run, as the turn format is.

- `hermes` (Hermes, Qwen2.5, Qwen3): `<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>`

Reasoning (`<think>...</think>`) never calls a tool. A call that cannot be read is not dropped in
silence: it is a `problem`, said back to the model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..core.response import strip_reasoning
from .schema import ToolCall, decode_arguments

MAX_CALLS_READ = 1000  # a turn's calls read at most (the toolbox runs fewer); the rest is a problem


@dataclass
class ParsedTurn:
    calls: list[ToolCall] = field(default_factory=list)
    text: str = ""  # the turn's text outside the calls
    problems: list[str] = field(default_factory=list)  # calls that could not be read, said to the model


_HERMES = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)


def _hermes_parse(text: str) -> ParsedTurn:
    turn = ParsedTurn()
    pieces, last = [], 0
    for i, m in enumerate(_HERMES.finditer(text)):
        pieces.append(text[last:m.start()])
        last = m.end()
        if i >= MAX_CALLS_READ:
            turn.problems.append(f"more than {MAX_CALLS_READ} <tool_call> blocks: the rest were not read")
            break
        body = m.group(1).strip()
        try:
            obj = json.loads(body)
        except ValueError as exc:
            turn.problems.append(f"a <tool_call> block is not JSON ({exc.msg} at character {exc.pos}): "
                                 f"{body[:120]!r}; write {{\"name\": ..., \"arguments\": {{...}}}}")
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
            turn.problems.append(f"a <tool_call> block is not an object with a string \"name\": {body[:120]!r}")
            continue
        turn.calls.append(ToolCall(name=obj["name"], arguments=decode_arguments(obj.get("arguments", {})),
                                   id=f"call_{len(turn.calls)}"))
    pieces.append(text[last:])
    turn.text = "".join(pieces).strip()
    return turn


def _hermes_render(calls: list[ToolCall], text: str = "") -> str:
    parts = [text] if text else []
    for call in calls:
        args = call.arguments if isinstance(call.arguments, dict) else decode_arguments(call.arguments)
        parts.append("<tool_call>\n" + json.dumps({"name": call.name, "arguments": args}, ensure_ascii=False)
                     + "\n</tool_call>")
    return "\n".join(parts)


PARSERS = {"hermes": _hermes_parse}
RENDERERS = {"hermes": _hermes_render}
DEFAULT_FORMAT = "hermes"


def known_formats() -> list[str]:
    return sorted(PARSERS)


def check_format(name: str) -> str:
    if name not in PARSERS:
        raise ValueError(f"tool-call format {name!r}: expected one of {', '.join(known_formats())}")
    return name


def parse(text: str, fmt: str = DEFAULT_FORMAT) -> ParsedTurn:
    """The calls in a model's text (outside its reasoning), in order."""
    return PARSERS[check_format(fmt)](strip_reasoning(text))


def render(calls: list[ToolCall], fmt: str = DEFAULT_FORMAT, text: str = "") -> str:
    """The text a model of this format writes for `calls` (after `text`); `parse` reads it back."""
    return RENDERERS[check_format(fmt)](calls, text)
