"""Helpers for driving OpenRLHF's real agent executors on a CPU.

A byte-level tokenizer built locally with `tokenizers` (no download) wrapped in transformers'
PreTrainedTokenizerFast with a ChatML template, and a scripted engine with vLLM's
`generate(token_ids, sampling_params, multi_modal_data=)` interface that answers each task with
the scripted responses in turn.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("openrlhf.utils.agent", reason="needs OpenRLHF: pip install --no-deps openrlhf==0.11.2 "
                    "torch==2.13.0 transformers pylatexenc aiohttp")

REPO = Path(__file__).resolve().parents[2]
CHATML = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def chatml_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {ch: i for i, ch in enumerate(pre_tokenizers.ByteLevel.alphabet())}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    hf = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                 additional_special_tokens=["<|im_start|>"])
    hf.chat_template = CHATML
    return hf


@dataclass
class ScriptedEngine:
    """Replies to the task whose prompt appears in the transcript with its next scripted answer."""

    tokenizer: object
    script: dict[str, list[str]]  # task prompt -> responses, turn by turn
    end: str = "<|im_end|>"
    calls: list[str] = field(default_factory=list)

    async def generate(self, token_ids, sampling_params, multi_modal_data=None):
        text = self.tokenizer.decode(token_ids, skip_special_tokens=False)
        prompt = next(p for p in self.script if p in text)
        turn = text.count("<|im_start|>assistant") - 1
        answers = self.script[prompt]
        answer = answers[min(turn, len(answers) - 1)] + self.end
        self.calls.append(answer)
        ids = self.tokenizer(text=answer, add_special_tokens=False)["input_ids"]
        await asyncio.sleep(0)
        out = SimpleNamespace(token_ids=ids, text=answer, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[out])


def sampling_params(max_tokens=None):
    return SimpleNamespace(max_tokens=max_tokens, logprobs=None, temperature=1.0)


# Qwen2.5's tool-calling template, trimmed to what rlhub's prompts and turns use (system turn with
# the tools block, assistant tool calls, consecutive `tool` messages in one user turn).
HERMES = (
    "{% if tools %}<|im_start|>system\n"
    "{% if messages[0]['role'] == 'system' %}{{ messages[0]['content'] }}{% else %}You are a helpful assistant.{% endif %}"
    "{{ '\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with "
    "function signatures within <tools></tools> XML tags:\\n<tools>' }}"
    "{% for tool in tools %}{{ '\\n' }}{{ tool | tojson }}{% endfor %}"
    "{{ '\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\\n<tool_call>\\n{\"name\": <function-name>, \"arguments\": "
    "<args-json-object>}\\n</tool_call><|im_end|>\\n' }}"
    "{% elif messages[0]['role'] == 'system' %}<|im_start|>system\n{{ messages[0]['content'] }}<|im_end|>\n{% endif %}"
    "{% for m in messages %}"
    "{% if m.role == 'user' or (m.role == 'system' and not loop.first) or (m.role == 'assistant' and not m.tool_calls) %}"
    "<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n"
    "{% elif m.role == 'assistant' %}<|im_start|>assistant{% if m.content %}\n{{ m.content }}{% endif %}"
    "{% for c in m.tool_calls %}{% set f = c.function if c.function is defined else c %}"
    "\n<tool_call>\n{\"name\": \"{{ f.name }}\", \"arguments\": {{ f.arguments | tojson if f.arguments is not string else f.arguments }}}\n</tool_call>"
    "{% endfor %}<|im_end|>\n"
    "{% elif m.role == 'tool' %}"
    "{% if loop.index0 == 0 or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user{% endif %}"
    "\n<tool_response>\n{{ m.content }}\n</tool_response>"
    "{% if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>\n{% endif %}"
    "{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
HERMES = HERMES.replace("%}\n", "%}{{ '\\n' }}")  # HF's jinja drops a newline right after a block tag
MERGED_WORDS = ("guess", "number", "tool_call", "arguments")  # single tokens, so a re-tokenisation would show


def hermes_tokenizer(chat_template: str = HERMES):
    """A byte-level BPE with a few merges (so text has one canonical tokenisation and others that
    decode to the same text) and Qwen2.5's tool-calling chat template (trimmed, unless given another)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {ch: i for i, ch in enumerate(pre_tokenizers.ByteLevel.alphabet())}
    merges = []
    for word in MERGED_WORDS:
        for i in range(1, len(word)):
            left, right = word[:i], word[i]
            if left + right not in vocab:
                merges.append((left, right))
                vocab[left + right] = len(vocab)
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    hf = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                 additional_special_tokens=["<|im_start|>"])
    hf.chat_template = chat_template
    return hf
