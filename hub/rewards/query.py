"""The model's response inside an OpenRLHF query (prompt + response, decoded with special tokens)."""

from __future__ import annotations

import re

# Trailing special tokens of common chat templates (Qwen, Llama 3, Mistral, Gemma, GPT-2...).
_TRAILING_SPECIAL = re.compile(
    r"(?:\s*(?:<\|(?:im_end|endoftext|eot_id|end_of_text|end|eom_id)\|>|</s>|<eos>|<end_of_turn>|<pad>|<\|pad\|>))+\s*$"
)


def cut_response(query: str, prompt: str) -> str:
    """The model's response inside `query`, for any chat template.

    The prompt is located in the query (a BOS token or a template may wrap it) and everything
    after it is the response, minus trailing end-of-turn and padding tokens.
    """
    if prompt:
        at = query.find(prompt)  # the first occurrence: a response may quote its prompt
        if at >= 0:
            query = query[at + len(prompt):]
    return _TRAILING_SPECIAL.sub("", query)
