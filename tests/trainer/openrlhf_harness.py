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
