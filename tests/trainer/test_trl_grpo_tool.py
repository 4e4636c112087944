"""TRL 1.16's real GRPOTrainer trains one step on an rlhub tool environment, on a CPU, no download.

A random 2-layer Llama and a locally built byte-level tokenizer with Qwen2.5's chat template (TRL's
own copy, so TRL sets its Qwen response parser itself). The model generates through transformers'
`generate`, with a logits processor that forces a scripted play: per rollout a `guess` tool call,
then a closing text turn. The forced ids are a non-canonical tokenisation (one byte a token where
the tokenizer merges "guess", "tool_call", ...), so a re-tokenisation anywhere shows in the ids TRL
trains on. Of the three rollouts of the prompt one guesses right (reward 1), one guesses low and one
sends a string for the integer (TRL passes it through; rlhub answers with an error message), both 0,
so the advantages are non-zero and the step has a gradient.
"""

from __future__ import annotations

import json
import math
from functools import partial

import pytest
from openrlhf_harness import REPO, hermes_tokenizer

try:  # installed by scripts/setup.sh: a missing TRL is a broken setup, not a skip
    import torch
    import trl
    from datasets import Dataset
    from transformers import LlamaConfig, LlamaForCausalLM, LogitsProcessor, LogitsProcessorList
    from trl import GRPOConfig, GRPOTrainer
    from trl.chat_template_utils import qwen2_5_chat_template
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(f"this test needs trl==1.16.0 with transformers and torch (scripts/setup.sh): {e}") from e

from hub.config.catalog import Catalog
from hub.trainers.trl_env import trl_environments

ENV = "arith/guess-tools-v1"
LABEL = json.dumps({"env": ENV, "seed": 11})
CLOSING = "done"


def tool_call_text(number: object) -> str:
    """A guess as the model writes it after Qwen2.5's generation prompt (`<|im_start|>assistant\\n`)."""
    return f'<tool_call>\n{{"name": "guess", "arguments": {{"number": {json.dumps(number)}}}}}\n</tool_call>'


def byte_ids(tokenizer, text: str) -> list[int]:
    """One token a character: decodes to `text`, but not the tokenizer's own (merged) encoding."""
    (ids,) = zip(*(tokenizer.encode(ch) for ch in text), strict=True)  # each an ASCII character, one byte
    return list(ids)


class ScriptedPlay(LogitsProcessor):
    """Forces each row's next token from its script: turn 1 of rollout i is `first_turns[i]`, and
    after a tool response the closing turn. The turn is read off the row's own ids, so TRL's
    re-generation after the tool results (a sub-batch of the rows that called a tool) is followed."""

    def __init__(self, tokenizer, first_turns: list[list[int]], closing: list[int]):
        self.header = [tokenizer.convert_tokens_to_ids("<|im_start|>")] + tokenizer.encode("assistant\n")
        self.tokenizer, self.first_turns, self.closing = tokenizer, first_turns, closing

    def _turn_start(self, ids: list[int]) -> int:
        h = len(self.header)
        return max(i + h for i in range(len(ids) - h + 1) if ids[i:i + h] == self.header)

    def __call__(self, input_ids, scores):
        forced = torch.full_like(scores, float("-inf"))
        for b, row in enumerate(input_ids.tolist()):
            start = self._turn_start(row)
            context, generated = row[:start], row[start:]
            answered = "<tool_response>" in self.tokenizer.decode(context)
            script = self.closing if answered else self.first_turns[b]
            forced[b, script[len(generated)] if len(generated) < len(script) else self.tokenizer.eos_token_id] = 0.0
        return forced


class RecordingGRPOTrainer(GRPOTrainer):
    """Keeps the batch GRPO trains on (prompt and completion ids, masks, advantages)."""

    batches: list[dict]

    def _generate_and_score_completions(self, inputs):
        out = super()._generate_and_score_completions(inputs)
        self.batches = [*getattr(self, "batches", []), out]
        return out


def test_grpo_trainer_trains_a_step_on_an_rlhub_tool_episode(tmp_path, monkeypatch):
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    tokenizer = hermes_tokenizer(qwen2_5_chat_template)
    cat = Catalog.load(REPO / "registry.yaml")
    task = cat.task(LABEL)
    target = int(task.hidden["answer"])

    base = trl_environments([ENV])[ENV]
    resets, rewards = [], []

    class Recorded(base):  # the real rlhub environment, with what TRL did to it written down
        def reset(self, **row):
            resets.append(row)
            return super().reset(**row)

        def get_reward(self):
            rewards.append(super().get_reward())
            return rewards[-1]

    def verdict_reward(environments, **kwargs):  # a user's reward function over the environments
        return [env.get_reward() for env in environments]

    # each rollout's guess, what the rlhub episode answers it, and the verdict's reward
    plays = [(target, f"{target} is right", 1.0), (target - 1, f"no: the number is higher than {target - 1}", 0.0),
             ("nine", "error: guess: number: ", 0.0)]
    eos = tokenizer.eos_token_id
    first_turns = [byte_ids(tokenizer, tool_call_text(guess)) + [eos] for guess, _, _ in plays]
    closing = byte_ids(tokenizer, CLOSING) + [eos]
    assert first_turns[0][:-1] != tokenizer.encode(tool_call_text(target))  # so a re-tokenisation would show

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=2048,
                         eos_token_id=eos, pad_token_id=tokenizer.pad_token_id, bos_token_id=None)
    model = LlamaForCausalLM(config)
    script = ScriptedPlay(tokenizer, first_turns, closing)
    model.generate = partial(model.generate, logits_processor=LogitsProcessorList([script]))
    before = [p.detach().clone() for p in model.parameters()]

    row = {"prompt": [{"role": "user", "content": task.prompt}], "label": LABEL, "environment": ENV}
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=3, num_generations=3,
                      max_completion_length=256, learning_rate=1e-2, use_vllm=False, bf16=False, fp16=False,
                      use_cpu=True, report_to="none", save_strategy="no", logging_steps=1, seed=0,
                      dataloader_num_workers=0)
    trainer = RecordingGRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=[verdict_reward],
                                   train_dataset=Dataset.from_list([row]), args=args,
                                   environment_factory={ENV: Recorded})
    assert trl.__version__ == "1.16.0" and trainer.chat_template is None  # Qwen2.5's template kept as is
    assert trainer.reward_func_names == ["verdict_reward", "Recorded"]  # TRL adds get_reward as its own column
    trainer.train()

    # the environments were reset with the row (less TRL's `environment` routing column)
    assert [r["label"] for r in resets] == [LABEL] * 3 and all("environment" not in r for r in resets)
    (batch,) = trainer.batches
    prompt = tokenizer.decode(batch["prompt_ids"][0][batch["prompt_mask"][0].bool()])
    assert task.prompt in prompt and '"name": "guess"' in prompt  # the rlhub tool's schema, rendered by TRL

    # the ids trained on are the forced ones, the tool's answer between them is masked out of the loss
    for i, (_, answer, _) in enumerate(plays):
        mask = batch["completion_mask"][i].bool()
        first, tool, last = _runs(batch["completion_ids"][i][mask].tolist(), batch["tool_mask"][i][mask].tolist())
        assert first == first_turns[i] and last == closing
        assert f"<tool_response>\n{answer}" in tokenizer.decode(tool)

    # the reward is the verdict's, the same in TRL's column and the user's (get_reward read twice)
    assert rewards == [r for _, _, r in plays] * 2
    logged = trainer.state.log_history[0]
    assert logged["rewards/verdict_reward/mean"] == logged["rewards/Recorded/mean"] == pytest.approx(1 / 3)
    # every rollout called the tool once; the mistyped call was answered by rlhub, not raised to TRL
    assert logged["tools/call_frequency"] == 1.0 and logged["tools/failure_frequency"] == 0.0
    assert batch["advantages"][0] > 0 > batch["advantages"][1] == batch["advantages"][2]

    # and the step trained: a finite loss (GRPO's on-policy loss is about -mean advantage, so near 0; its
    # gradient is not), a gradient, changed weights
    assert math.isfinite(logged["loss"]) and logged["grad_norm"] > 0
    assert any(not torch.equal(a, b.detach()) for a, b in zip(before, model.parameters(), strict=True))


def _runs(ids: list[int], model_turn: list[int]) -> tuple[list[int], list[int], list[int]]:
    """Split a completion into model tokens, tool tokens, model tokens (it must be exactly that)."""
    cut1 = model_turn.index(0)
    cut2 = cut1 + model_turn[cut1:].index(1)
    assert all(model_turn[cut2:]) and not any(model_turn[cut1:cut2])
    return ids[:cut1], ids[cut1:cut2], ids[cut2:]
