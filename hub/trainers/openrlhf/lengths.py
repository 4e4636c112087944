"""Sequence limits from the mixture's measured prompt lengths, or a refusal with the numbers.

OpenRLHF 0.11 has two limits: `--data.max_len` (prompt plus everything generated; for a
multi-turn episode the whole transcript, and vLLM's max_model_len) and `--rollout.max_new_tokens`
(one generation). A prompt longer than max_len minus max_new_tokens is cut from the left without
an error (the start of a document or repository is lost, and the reward is noise), so the limits
are chosen to cover what the mixture holds, and a mixture that cannot fit the model is refused.

Measuring is cheap: up to SAMPLE_PER_ENV prompts of each environment, as the dataset is written,
with the run's tokenizer where it is on this machine, else estimated as characters / 4.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import UserError

SAMPLE_PER_ENV = 8
CHAR_BUDGET = 2_000_000  # per environment, when tokenizing: a 1M-token document is measured once, not 8 times
CHARS_PER_TOKEN = 4
ROUND_TO = 1024
DEFAULT_GENERATION = 1024  # the budget assumed when max_new_tokens is unset (OpenRLHF then fills max_len)
IMAGE_PATCH = 28  # Qwen2-VL / Qwen2.5-VL: one token per 28x28 pixels (14-pixel patches merged 2x2)
IMAGE_TOKENS_CAP = 16_384  # their processor's default max_pixels / 28^2
UNKNOWN_IMAGE_TOKENS = 1_024


def image_tokens(data: bytes) -> int:
    """A vision-language model's tokens for one image, estimated from its size in pixels."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return max(1, min(IMAGE_TOKENS_CAP, math.ceil(width / IMAGE_PATCH) * math.ceil(height / IMAGE_PATCH)))
    return UNKNOWN_IMAGE_TOKENS


@dataclass
class Meter:
    """Measures prompts as `hub.mixture.splits.write` makes the rows (call it from the row hook)."""

    tokenizer: Any
    turns: dict[str, int]  # env id -> its episodes' turn limit
    per_env: int = SAMPLE_PER_ENV
    tokens: dict[str, list[int]] = field(default_factory=dict)
    chars: dict[str, int] = field(default_factory=dict)
    rows: int = 0
    images: int = 0

    @property
    def method(self) -> str:
        return "tokenizer" if self.tokenizer is not None else f"characters / {CHARS_PER_TOKEN}"

    def add(self, row: dict[str, Any], task) -> None:
        self.rows += 1
        env = row["datasource"]
        seen = self.tokens.setdefault(env, [])
        if len(seen) >= self.per_env or (self.tokenizer is not None and seen and self.chars[env] >= CHAR_BUDGET):
            return
        text = self._text(row)
        self.chars[env] = self.chars.get(env, 0) + len(text)
        if self.tokenizer is not None:
            n = len(self.tokenizer(text, add_special_tokens=False)["input_ids"])
        else:
            n = math.ceil(len(text) / CHARS_PER_TOKEN)
        self.images += len(task.images)
        seen.append(n + sum(image_tokens(png) for png in task.images))

    def _text(self, row: dict[str, Any]) -> str:
        if row.get("prompt"):  # rendered here by the model's own template (tool prompts)
            return row["prompt"]
        if self.tokenizer is not None:  # what OpenRLHF's --data.apply_chat_template renders
            try:
                return self.tokenizer.apply_chat_template(row["input"], tokenize=False, add_generation_prompt=True)
            except Exception:  # no chat template: OpenRLHF would fail too; measure the text itself
                pass
        return "\n".join(m["content"] for m in row["input"])


def _percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def _round_up(n: int) -> int:
    return -(-n // ROUND_TO) * ROUND_TO


def choose(meter: Meter, algo, facts, model: str) -> dict[str, Any]:
    """The limits for the run, the numbers behind them and why; UserError when they cannot fit.
    `algo` is the run file's algorithm block, `facts` the model's (model_facts.ModelFacts)."""
    gen = algo.max_new_tokens or DEFAULT_GENERATION
    per_turn = gen + algo.feedback_tokens
    rows = []
    for env, tokens in meter.tokens.items():
        if not tokens:
            continue
        prompt, turns = max(tokens), meter.turns.get(env, 1)
        need = prompt + (gen if turns == 1 else turns * per_turn)
        rows.append({"env": env, "prompt": prompt, "turns": turns, "first": prompt + gen, "need": need})
    every = [n for tokens in meter.tokens.values() for n in tokens]
    if not rows:
        raise UserError("the mixture wrote no prompts to measure")
    longest = max(rows, key=lambda r: r["prompt"])
    neediest = max(rows, key=lambda r: r["need"])
    context = facts.context
    budget = (f"prompt + {gen:,} generated" + ("" if algo.max_new_tokens else " (max_new_tokens unset: assumed)")
              + (f"; a session: prompt + turns x ({gen:,} + {algo.feedback_tokens:,} feedback)"
                 if any(r["turns"] > 1 for r in rows) else ""))
    if algo.max_len is not None:
        max_len, source = algo.max_len, "algorithm.max_len"
        reason = "set in the run file (algorithm.max_len)"
        if context is not None and max_len > context:
            raise UserError(f"algorithm.max_len {max_len:,} exceeds {model}'s context of {context:,} tokens "
                            f"({facts.context_from}): vLLM would refuse it; lower it, or leave it out to have it chosen")
    else:
        source = "chosen"
        want = _round_up(neediest["need"])
        reason = (f"covers the longest sampled need ({neediest['env']}: {neediest['prompt']:,} prompt tokens"
                  + (f" + {neediest['turns']} turns x {per_turn:,}" if neediest["turns"] > 1 else f" + {gen:,} generated")
                  + f" = {neediest['need']:,}), rounded up to a multiple of {ROUND_TO}")
        max_len = want
        if context is not None and want > context:
            max_len = context
            reason += f", capped at the model's context {context:,}"
    cut = sorted((r for r in rows if r["first"] > max_len), key=lambda r: -r["prompt"])
    if cut:
        where = (f"{model}'s context of {context:,} tokens ({facts.context_from})" if source == "chosen"
                 else f"algorithm.max_len {max_len:,}")
        listed = ", ".join(f"{r['env']} ({r['prompt']:,})" for r in cut[:6]) + (f" and {len(cut) - 6} more" if len(cut) > 6 else "")
        fix = ("leave them out (mixture.exclude: [" + ", ".join(r["env"] for r in cut) + "]) or use a model with a longer context"
               if source == "chosen" else
               f"raise algorithm.max_len to at least {_round_up(max(r['first'] for r in cut)):,}"
               + (f" (the model's context is {context:,})" if context else "") + ", or leave them out (mixture.exclude)")
        raise UserError(f"the mixture cannot fit {where}: {len(cut)} environment(s) have prompts longer than "
                        f"{max_len:,} - {gen:,} generated tokens = {max_len - gen:,} (measured by {meter.method}; "
                        f"OpenRLHF would cut them from the left): {listed}; {fix}")
    warnings = []
    short = [r for r in rows if r["turns"] > 1 and r["need"] > max_len]
    if short:
        worst = max(short, key=lambda r: r["need"])
        fit = max(1, (max_len - worst["prompt"]) // per_turn)
        warnings.append(f"lengths: {len(short)} multi-turn environment(s) may run out of tokens before their turn "
                        f"limit: {worst['env']} needs up to {worst['need']:,} ({worst['turns']} turns), about {fit} "
                        f"turns fit in --data.max_len {max_len}; an episode that runs out ends without a verdict")
    if context is None:
        warnings.append(f"lengths: --data.max_len {max_len} is not checked against the model's context ({facts.context_from}); "
                        "state context_len in the run file to have it checked")
    if meter.tokenizer is None:
        warnings.append(f"lengths: prompt tokens are estimated as characters / {CHARS_PER_TOKEN} ({model}'s tokenizer "
                        "is not on this machine); run where it is for measured lengths")
    sampled = len(every)
    top = sorted(rows, key=lambda r: -r["prompt"])[:3]
    lines = [
        f"--data.max_len {max_len}, --rollout.max_new_tokens {algo.max_new_tokens or 'unset'}: {reason}",
        f"prompt tokens ({'measured with the tokenizer of ' + model if meter.tokenizer is not None else f'estimated as characters / {CHARS_PER_TOKEN}'}) "
        f"on {sampled} prompts (up to {meter.per_env} per environment, {len(rows)} environments, of {meter.rows} rows): "
        f"p50 {_percentile(every, 50):,}, p95 {_percentile(every, 95):,}, max {longest['prompt']:,} ({longest['env']})",
        "longest: " + ", ".join(f"{r['env']} {r['prompt']:,}" for r in top) + f"; budget: {budget}",
        f"model context: {f'{context:,} ({facts.context_from})' if context is not None else facts.context_from}",
    ]
    if meter.images:
        lines.append(f"images: {meter.images} in the sample, each counted as ceil(w/{IMAGE_PATCH}) x ceil(h/{IMAGE_PATCH}) "
                     "tokens (Qwen2-VL's patching; an estimate)")
    return {"max_len": max_len, "max_new_tokens": algo.max_new_tokens, "source": source, "reason": reason,
            "method": meter.method, "sampled": sampled, "per_env": meter.per_env, "environments": len(rows),
            "rows": meter.rows, "prompt_tokens": {"p50": _percentile(every, 50), "p95": _percentile(every, 95),
                                                  "max": longest["prompt"], "max_env": longest["env"]},
            "need": {"max": neediest["need"], "env": neediest["env"]}, "context": context,
            "context_from": facts.context_from, "lines": lines, "warnings": warnings}
