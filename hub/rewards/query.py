"""The model's response inside an OpenRLHF query (prompt + response, decoded with special tokens).

OpenRLHF sends the query and the prompt it was made from; the response is what follows the
prompt. A query that does not contain its prompt means the two were rendered differently (a
chat-template mismatch does it to every sample): grading the whole text would quietly score the
prompt as part of the answer. Such a sample is flagged (`rlhub/prompt_mismatch`, a warning, a
counter in the service) and graded on what follows the last assistant turn marker, if the
query has one. The reward file, the agent and the service all cut here.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass

log = logging.getLogger("rlhub.rewards")

# Trailing special tokens of common chat templates (Qwen, Llama 3, Mistral, Gemma, GPT-2...).
_TRAILING_SPECIAL = re.compile(
    r"(?:\s*(?:<\|(?:im_end|endoftext|eot_id|end_of_text|end|eom_id)\|>|</s>|<eos>|<end_of_turn>|<pad>|<\|pad\|>))+\s*$"
)
# Where an assistant turn starts, in the chat templates of common model families.
_ASSISTANT_TURN = re.compile(
    r"<\|im_start\|>assistant\s*\n"                                    # ChatML (Qwen, many others)
    r"|<\|start_header_id\|>assistant<\|end_header_id\|>\s*"            # Llama 3
    r"|\[/INST\]\s*"                                                     # Mistral, Llama 2
    r"|<start_of_turn>model\s*\n"                                        # Gemma
    r"|<\|assistant\|>\s*"                                               # Phi-3, Zephyr
    r"|<｜Assistant｜>"                                                    # DeepSeek
    r"|(?:^|\n)Assistant:[ \t]*"                                          # plain transcripts
)


@dataclass(frozen=True)
class Cut:
    """The response inside a query, and whether the query failed to contain its prompt."""

    response: str
    prompt_mismatch: bool = False


def cut(query: str, prompt: str) -> Cut:
    """The model's response inside `query`, for any chat template.

    The prompt is located in the query (a BOS token or a template may wrap it) and everything
    after it is the response, minus trailing end-of-turn and padding tokens. Without the prompt
    in the query: what follows the last assistant turn marker, else the whole query; flagged.
    """
    if not prompt:
        return Cut(_TRAILING_SPECIAL.sub("", query))
    at = query.find(prompt)  # the first occurrence: a response may quote its prompt
    if at >= 0:
        return Cut(_TRAILING_SPECIAL.sub("", query[at + len(prompt):]))
    starts = [m.end() for m in _ASSISTANT_TURN.finditer(query)]
    rest = query[starts[-1]:] if starts else query
    _warn_mismatch(bool(starts))
    return Cut(_TRAILING_SPECIAL.sub("", rest), prompt_mismatch=True)


def cut_response(query: str, prompt: str) -> str:
    """`cut(query, prompt).response`."""
    return cut(query, prompt).response


class Throttle:
    """Counts events and says which deserve a log line: the 1st, 10th, 100th... (a template
    mismatch hits every sample, and a line per sample would bury everything else)."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def tick(self) -> int | None:
        """The new count if this one should be logged, else None."""
        with self._lock:
            self.count += 1
            count = self.count
        return count if str(count).rstrip("0") == "1" else None


MISMATCHES = Throttle()  # this process's prompt mismatches


def _warn_mismatch(marker_found: bool) -> None:
    count = MISMATCHES.tick()
    if count is not None:
        graded = "what follows the last assistant turn marker" if marker_found else "the whole query (no assistant marker found)"
        log.warning("rlhub/prompt_mismatch: a query did not contain its prompt (%d so far in this process): the prompt "
                    "and the query were rendered differently, e.g. by another chat template; graded %s", count, graded)
