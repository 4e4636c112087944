"""`length_penalty`: how far a response stays within a length budget, for rubrics.

Alone it is a reward for brevity; in a rubric, with a negative weight, a penalty for rambling:

    - {verifier: length_penalty, weight: -0.05, config: {max_tokens: 2048}}

Tokens are counted without a tokenizer (none is downloaded at run time): every run of word
characters and every other non-space character is one token, which tracks BPE counts of prose and
code within a small factor. Reward: 1 up to `max_tokens`, then falling linearly to 0 at
`(1 + slack) * max_tokens`: `max(0, 1 - (tokens - max_tokens) / (slack * max_tokens))`.
"""

from __future__ import annotations

import re

from pydantic import Field

from ..hookspecs import hookimpl
from ...core.response import read
from ...core.verifier import Verdict, Verifier, VerifierConfig

_TOKEN = re.compile(r"\w+|[^\w\s]")


class LengthConfig(VerifierConfig):
    max_tokens: int = Field(2048, gt=0, description="tokens allowed at no cost")
    slack: float = Field(1.0, gt=0, description="the reward reaches 0 at (1 + slack) * max_tokens")
    count_reasoning: bool = Field(True, description="count <think> reasoning too (it costs generation time)")


def count_tokens(text: str) -> int:
    return sum(1 for _ in _TOKEN.finditer(text))


class LengthPenalty(Verifier):
    name = "length_penalty"
    Config = LengthConfig

    def verify(self, task, response, ctx) -> Verdict:
        text = response if self.config.count_reasoning else read(response).visible
        tokens = count_tokens(text)
        limit = self.config.max_tokens
        reward = max(0.0, 1.0 - max(0, tokens - limit) / (self.config.slack * limit))
        return Verdict(reward, tokens <= limit, components={"length": reward},
                       details={"tokens": tokens, "max_tokens": limit})


@hookimpl
def rlhub_register_verifiers(register):
    register(LengthPenalty)
