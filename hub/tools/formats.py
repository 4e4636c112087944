"""Tool-call formats: how a model writes a call in its text, read back (`parse`) and written
(`render`, for references and tests). Chosen per run (`tool_format`), as the turn format is, or
derived from a tokenizer's chat template (`format_from_tokenizer`).

- `hermes` (Hermes, Qwen2.5, Qwen3): `<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>`
- `qwen3_coder` (Qwen3-Coder): `<tool_call>\n<function=NAME>\n<parameter=ARG>\nVALUE\n</parameter>\n</function>\n</tool_call>`
- `llama3_json` (Llama 3.1/3.2): `{"name": ..., "parameters": {...}}` as the reply (after `<|python_tag|>`), ';' between
- `mistral`: `[TOOL_CALLS][{"name": ..., "arguments": {...}}]` or `[TOOL_CALLS]NAME[ARGS]{...}`
- `harmony` (gpt-oss): `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>`

No maintained parser runs here for these: vLLM's and SGLang's need the serving engine, and
`openai-harmony` downloads its vocabulary at load time. So each format is a small module
(hub/tools/dialects/) with conformance tests on its documented examples (tests/tools/).

Reasoning (`<think>...</think>`, harmony's analysis channel) never calls a tool. A call that
cannot be read is not dropped in silence: it is a `problem`, said back to the model with what to
write. Parsing never raises and stays linear in the text's length (no backtracking regex).
`render(calls, fmt)` and `parse` round-trip; a value a format cannot carry raises ToolFormatError.
`schemas` (the tools' OpenAI schemas) decide a raw value's type where the format writes raw text
(qwen3_coder); pass the same to both.
"""

from __future__ import annotations

from typing import Any

from ..core.response import strip_reasoning
from .dialects import harmony, hermes, llama3_json, mistral, qwen3_coder
from .dialects.common import MAX_CALLS_READ, ParsedTurn, ToolFormatError, number_calls
from .schema import ToolCall

MODULES = {"hermes": hermes, "qwen3_coder": qwen3_coder, "llama3_json": llama3_json, "mistral": mistral,
           "harmony": harmony}
DEFAULT_FORMAT = "hermes"

__all__ = ["DEFAULT_FORMAT", "MAX_CALLS_READ", "ParsedTurn", "ToolFormatError", "check_format",
           "format_from_tokenizer", "known_formats", "parse", "render"]


def known_formats() -> list[str]:
    return sorted(MODULES)


def check_format(name: str) -> str:
    if name not in MODULES:
        raise ValueError(f"tool-call format {name!r}: expected one of {', '.join(known_formats())}")
    return name


def parse(text: str, fmt: str = DEFAULT_FORMAT, schemas: list[dict[str, Any]] | None = None) -> ParsedTurn:
    """The calls in a model's text (outside its reasoning), in order."""
    module = MODULES[check_format(fmt)]
    return number_calls(module.parse(strip_reasoning(text if isinstance(text, str) else str(text)), schemas))


def render(calls: list[ToolCall], fmt: str = DEFAULT_FORMAT, text: str = "",
           schemas: list[dict[str, Any]] | None = None) -> str:
    """The text a model of this format writes for `calls` (after `text`); `parse` reads it back.
    ToolFormatError when the format cannot carry a name or value as it is."""
    return MODULES[check_format(fmt)].render(list(calls), text, schemas)


def format_from_tokenizer(tokenizer: Any) -> str:
    """The tool-call format a Hugging Face tokenizer's chat template writes (see detect.py)."""
    from .detect import format_from_tokenizer as derive

    return derive(tokenizer)
