"""The tool-call format of a chat template: render a conversation in which the assistant calls a
probe tool (`apply_chat_template(messages, tools=..., tokenize=False)`) and see whose markers
the assistant's part shows."""

from __future__ import annotations

import re
from typing import Any

from ..core.errors import UserError

PROBE_TOOL = {"type": "function", "function": {
    "name": "rlhub_probe", "description": "A probe.",
    "parameters": {"type": "object", "properties": {"x": {"type": "string", "description": "a value"}},
                   "required": ["x"]}}}
PROMPT, VALUE = "rlhubPROMPT", "rlhubVALUE"
PROBE_MESSAGES = [
    {"role": "user", "content": PROMPT},
    {"role": "assistant", "content": "", "tool_calls": [{
        "id": "rlhub0001", "type": "function",  # 9 alphanumerics: Mistral's templates insist
        "function": {"name": "rlhub_probe", "arguments": {"x": VALUE}}}]},
]
# In order: the first whose markers the assistant's part shows (qwen3_coder before hermes: both use <tool_call>).
SIGNS = [
    ("qwen3_coder", re.compile(r"<function=rlhub_probe>\s*<parameter=x>")),
    ("hermes", re.compile(r"<tool_call>\s*\{\s*\"name\"\s*:\s*\"rlhub_probe\"")),
    ("mistral", re.compile(r"\[TOOL_CALLS\]")),
    ("harmony", re.compile(r"to=functions\.rlhub_probe")),
    ("llama3_json", re.compile(r"\{\s*\"name\"\s*:\s*\"rlhub_probe\"\s*,\s*\"parameters\"")),
]


def format_from_tokenizer(tokenizer: Any) -> str:
    from .formats import known_formats

    advice = f"set `tool_format` in the run file (one of {', '.join(known_formats())})"
    try:
        text = tokenizer.apply_chat_template(PROBE_MESSAGES, tools=[PROBE_TOOL], tokenize=False)
    except Exception as exc:  # a template's own raise_exception, a missing template
        raise UserError(f"the tokenizer's chat template cannot render a tool call ({type(exc).__name__}: "
                        f"{str(exc)[:200]}); {advice}") from None
    if not isinstance(text, str):
        raise UserError(f"the tokenizer's chat template rendered {type(text).__name__}, not text; {advice}")
    at = text.find(PROMPT)
    assistant = text[at + len(PROMPT):] if at != -1 else text
    if VALUE not in assistant:
        raise UserError(f"the tokenizer's chat template does not write an assistant's tool calls; {advice}")
    for name, sign in SIGNS:
        if sign.search(assistant):
            return name
    raise UserError("the tokenizer's chat template writes tool calls in a format rlhub does not read: "
                    f"{assistant[:160]!r}; {advice}")
