"""What every trainer's glue shares to play an rlhub tool episode from a model's raw text.

- the run's tool-call format (`RLHUB_TOOL_FORMAT`, else derived from the tokenizer's chat template);
- `tool_feedback`: a turn's tool results (and notes) as the text the chat template would append
  after the model's turn: each result a `tool` message, then the next assistant turn opened;
- `tool_logs`: the episode's tool counters under fixed keys (OpenRLHF stacks extra_logs per key,
  so every step of every sample, text episodes included, reports the same ones).
- `tools_system_prompt`: the tools block a hermes template puts in the system turn, for prompts
  rendered without the model's tokenizer.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..rewards import log_key
from ..tools import formats
from ..tools.episode import ToolEpisode
from .turn_format import TurnFormat

TOOL_FORMAT_ENV = "RLHUB_TOOL_FORMAT"  # hermes | ... (hub.tools.formats.known_formats())

# The error kinds hub.tools.schema.ToolBox counts; a kind it adds later is logged as `other`.
TOOL_ERROR_KINDS = ("unknown_tool", "malformed_arguments", "bad_arguments", "tool_refused", "too_many_calls",
                    "after_end")
TOOL_LOG_KEYS = (log_key("tool_calls"), log_key("tool_errors"), *(log_key(f"tool_error/{k}") for k in TOOL_ERROR_KINDS),
                 log_key("tool_error/other"), log_key("tool_unreadable_turns"))


def tool_format_from_env(default: str = formats.DEFAULT_FORMAT) -> str:
    return formats.check_format(os.environ.get(TOOL_FORMAT_ENV) or default)


def tool_format_of(tokenizer) -> str | None:
    """The tool-call format a tokenizer's chat template writes, or None when it shows none.
    (Switch to hub.tools.formats' own detection once it has one.)"""
    detect = getattr(formats, "detect", None)
    if detect is not None:
        return detect(tokenizer)
    template = getattr(tokenizer, "chat_template", None) or ""
    template = template if isinstance(template, str) else json.dumps(template)
    return "hermes" if "<tool_call>" in template else None


def is_tool_episode(episode: Any) -> bool:
    return isinstance(episode, ToolEpisode)


def prepare_episode(episode: Any, tool_format: str) -> Any:
    """Read the episode's calls in the run's format (a text episode is left as it is)."""
    if is_tool_episode(episode):
        episode.tool_format = tool_format
    return episode


def tool_logs(episode: Any) -> dict[str, float]:
    """The episode's tool counters so far (zeros for a text episode or none)."""
    logs = dict.fromkeys(TOOL_LOG_KEYS, 0.0)
    if not is_tool_episode(episode):
        return logs
    counts = episode.tool_counts()
    errors = counts.get("errors", {})
    logs[log_key("tool_calls")] = float(counts.get("calls", 0))
    logs[log_key("tool_errors")] = float(sum(errors.values()))
    for kind, n in errors.items():
        key = log_key(f"tool_error/{kind}") if kind in TOOL_ERROR_KINDS else log_key("tool_error/other")
        logs[key] += float(n)
    logs[log_key("tool_unreadable_turns")] = float(counts.get("unreadable_turns", 0))
    return logs


def tool_feedback(turn_format: TurnFormat, action_text: str, results: list[Any], notes: list[str]) -> str:
    """The text to append after the model's turn: the turn closed, the results as the template
    renders `tool` messages (hermes/chatml: `<|im_start|>user\n<tool_response>\n...\n</tool_response>
    <|im_end|>\n`), the notes (calls that could not be read, no call made) as a user turn, and the
    next assistant turn opened (`TurnFormat.tool_feedback`, which every trainer calls through here).
    Result text stays data: its markup is neutralised, so it neither closes the turn nor reads as a call."""
    return turn_format.tool_feedback(action_text, results, notes)


def tools_system_prompt(schemas: list[dict[str, Any]], system: str = "") -> str:
    """The system turn a hermes/Qwen2.5 template writes for `tools` (without a tokenizer at hand,
    a prompt carries its tools this way: the same text such a template renders)."""
    listed = "".join("\n" + json.dumps(s, ensure_ascii=False) for s in schemas)
    head = system or "You are a helpful assistant."
    return (f"{head}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            f"You are provided with function signatures within <tools></tools> XML tags:\n<tools>{listed}\n</tools>\n\n"
            "For each function call, return a json object with function name and arguments within "
            "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": "
            "<args-json-object>}\n</tool_call>")
