"""OpenRLHF's own MultiTurnAgentExecutor plays an rlhub tool episode (arith/guess-tools-v1) with
token ids the model "generated": the ids the trainer gets back for the model's turns are exactly
those (never a re-tokenisation of their text), the feedback between turns is what the chat
template renders for the `tool` messages, and the reward is the verdict's."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from openrlhf_harness import REPO, hermes_tokenizer, sampling_params

from hub.config.catalog import Catalog
from hub.trainers.tool_play import TOOL_LOG_KEYS, tools_system_prompt

LABEL = json.dumps({"env": "arith/guess-tools-v1", "seed": 11})


def call(name: str, **arguments) -> str:
    return f'<tool_call>\n{json.dumps({"name": name, "arguments": arguments})}\n</tool_call>'


def script_for(target: int) -> list[str]:
    """Five turns: an unreadable call, a mistyped argument, too low, too high, right."""
    return ['Let me start.\n<tool_call>\n{"name": "guess", "arguments": {"number": 5}\n</tool_call>',
            call("guess", number="five"), call("guess", number=target - 1), call("guess", number=target + 1),
            call("guess", number=target)]


def odd_ids(tok, text: str) -> list[int]:
    """`text` as one token per character, plus the end-of-turn token: ids that decode to the text
    but are not its canonical tokenisation (the tokenizer merges "guess", "number"...)."""
    return [tok.convert_tokens_to_ids(t) for ch in text for t in tok.tokenize(ch)] + [tok.eos_token_id]


class TokenEngine:
    """vLLM's generate(token_ids, sampling_params): answers with scripted token ids, turn by turn."""

    def __init__(self, tok, turns: list[list[int]]):
        self.tok, self.turns, self.seen = tok, list(turns), []

    async def generate(self, token_ids, sampling_params, multi_modal_data=None):
        self.seen.append(list(token_ids))
        ids = self.turns.pop(0)
        await asyncio.sleep(0)
        return SimpleNamespace(outputs=[SimpleNamespace(token_ids=ids, text=self.tok.decode(ids), finish_reason="stop",
                                                        logprobs=None)])


def load_agent_executor():
    import importlib.util

    spec = importlib.util.spec_from_file_location("agent_module", REPO / "trainer" / "agent_func.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.AgentExecutor()


def test_five_turn_tool_episode_keeps_the_generated_tokens(monkeypatch):
    monkeypatch.setenv("RLHUB_TURN_FORMAT", "chatml")
    monkeypatch.setenv("RLHUB_TOOL_FORMAT", "hermes")
    tok = hermes_tokenizer()
    cat = Catalog.load(REPO / "registry.yaml")
    task = cat.task(LABEL)
    schemas = cat.tools(LABEL)
    target = int(task.hidden["answer"])
    texts = script_for(target)
    turns = [odd_ids(tok, t) for t in texts]
    canonical = [tok(text=t + tok.eos_token, add_special_tokens=False)["input_ids"] for t in texts]
    assert all(a != c for a, c in zip(turns, canonical))  # a re-tokenisation would show
    prompt = tok.apply_chat_template([{"role": "user", "content": task.prompt}], tools=schemas, tokenize=False,
                                     add_generation_prompt=True)
    engine = TokenEngine(tok, turns)
    out = asyncio.run(load_agent_executor().execute(prompt, LABEL, sampling_params(), 8192, tok, engine))

    ids = out["observation_tokens"]
    assert [ids[a:b] for a, b in out["action_ranges"]] == turns  # the model's own ids, each turn
    assert len(out["action_ranges"]) == 5 and not engine.turns
    for (a, _), seen in zip(out["action_ranges"], engine.seen):  # each turn was generated from this very prefix
        assert seen == ids[:a]
    verdict_reward = cat.verify(LABEL, task.reference).reward
    assert out["reward"] == verdict_reward == 1.0 and out["scores"] == 1.0
    logs = out["extra_logs"]
    assert set(TOOL_LOG_KEYS) <= set(logs)
    assert logs["rlhub/passed"] == 1.0 and logs["rlhub/turns"] == 5.0
    assert logs["rlhub/tool_calls"] == 4.0 and logs["rlhub/tool_error/bad_arguments"] == 1.0
    assert logs["rlhub/tool_errors"] == 1.0 and logs["rlhub/tool_unreadable_turns"] == 1.0

    # Between the model's turns: exactly what the chat template renders for the turn's messages.
    gaps = [tok.decode(ids[b:a2]) for (_, b), (a2, _) in zip(out["action_ranges"], out["action_ranges"][1:])]
    # A note quotes the model's own text: its markup is neutralised like a tool result's.
    assert gaps[0].startswith("\n<|im_start|>user\na &lt;tool_call> block is not JSON")
    assert "<tool_response>\nerror: guess: number:" in gaps[1]
    assert gaps[2] == template_delta(tok, texts[2], [f"no: the number is higher than {target - 1}"], schemas)
    assert gaps[3] == template_delta(tok, texts[3], [f"no: the number is lower than {target + 1}"], schemas)


def template_delta(tok, action: str, results: list[str], schemas) -> str:
    """What the template appends after the assistant's tool-call turn for its `tool` messages."""
    body = json.loads(action.split("<tool_call>\n", 1)[1].split("\n</tool_call>")[0])
    chat = [{"role": "user", "content": "p"},
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": body}]}]
    before = tok.apply_chat_template(chat, tools=schemas, tokenize=False)
    after = tok.apply_chat_template(chat + [{"role": "tool", "content": r} for r in results], tools=schemas,
                                    tokenize=False, add_generation_prompt=True)
    assert after.startswith(before) and before.endswith("<|im_end|>\n")
    return "\n" + after[len(before):]  # the model emitted <|im_end|>; the template's newline follows it


def test_tools_system_prompt_is_the_templates_own_rendering():
    """Without a tokenizer, `rlhub train` puts the tools in a system turn: a hermes template
    renders the same text it would for tools=."""
    tok = hermes_tokenizer()
    schemas = Catalog.load(REPO / "registry.yaml").tools(LABEL)
    user = [{"role": "user", "content": "find it"}]
    with_tools = tok.apply_chat_template(user, tools=schemas, tokenize=False, add_generation_prompt=True)
    as_system = tok.apply_chat_template([{"role": "system", "content": tools_system_prompt(schemas)}, *user],
                                        tokenize=False, add_generation_prompt=True)
    assert with_tools == as_system


@pytest.mark.parametrize("turn_format", ["chatml", "llama3"])
def test_text_episodes_report_the_same_log_keys(monkeypatch, turn_format, tokenizer):
    """A mixture of text and tool episodes: every sample reports the same keys (OpenRLHF stacks them)."""
    from hub.trainers.openrlhf.agent import LOG_KEYS

    monkeypatch.setenv("RLHUB_TURN_FORMAT", turn_format)
    label = json.dumps({"env": "arith/guess-v1", "seed": 3})
    cat = Catalog.load(REPO / "registry.yaml")
    ref = cat.task(label).reference
    engine = TokenEngine(tokenizer, [tokenizer(text=ref, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]])
    out = asyncio.run(load_agent_executor().execute("prompt", label, sampling_params(), 512, tokenizer, engine))
    assert set(out["extra_logs"]) == set(LOG_KEYS) and out["extra_logs"]["rlhub/tool_calls"] == 0.0
    assert out["reward"] == 1.0


def dry_run_tools(tmp_path, capsys, model: str) -> dict:
    import yaml

    from hub.cli import main

    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump({"name": "tools", "model": model, "registry": str(REPO / "registry.yaml"),
                                    "output_dir": str(tmp_path / "runs"),
                                    "mixture": {"select": "arith/guess-tools-v1", "train_prompts": 8, "eval_prompts": 2}}))
    rc = main(["train", str(path), "--dry-run", "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return json.loads(out.out)


def openrlhf_prompts(argv: list[str], tok):
    """The prompts as OpenRLHF 0.11's own PromptDataset builds them under the run's --data.* flags."""
    from openrlhf.datasets.prompts_dataset import PromptDataset
    from openrlhf.datasets.utils import blending_datasets

    key = argv[argv.index("--data.input_key") + 1]
    data = SimpleNamespace(input_key=key, label_key="label", apply_chat_template="--data.apply_chat_template" in argv,
                           image_key="images")
    strategy = SimpleNamespace(args=SimpleNamespace(data=data), print=lambda *a, **k: None, is_rank_0=lambda: True)
    path = argv[argv.index("--data.prompt_dataset") + 1]
    return PromptDataset(blending_datasets(path, None, strategy), tok, strategy)


@pytest.mark.parametrize("local_tokenizer", [True, False])
def test_rlhub_train_prompts_carry_the_tools(tmp_path, capsys, monkeypatch, local_tokenizer):
    """`rlhub train --dry-run` on guess-tools: the prompts OpenRLHF builds are the model's template
    rendered with tools= (the tokenizer is here: a `prompt` column), or the same text from a
    system turn (it is not); the agent file pins the tool format and plays the reference."""
    tok = hermes_tokenizer()
    model = str(tmp_path / "model") if local_tokenizer else "some/model"
    if local_tokenizer:
        tok.save_pretrained(model)
    summary = dry_run_tools(tmp_path, capsys, model)
    argv = summary["argv"]
    assert summary["mode"] == "agent" and summary["env"]["RLHUB_TOOL_FORMAT"] == "hermes"
    assert ("--data.apply_chat_template" not in argv) == local_tokenizer
    assert argv[argv.index("--data.input_key") + 1] == ("prompt" if local_tokenizer else "input")
    assert any("tokenizer is not here" in w for w in summary["warnings"]) != local_tokenizer
    ds = openrlhf_prompts(argv, tok)
    cat = Catalog.load(REPO / "registry.yaml")
    for prompt, label in zip(ds.prompts, ds.labels):
        task = cat.task(label)
        expected = tok.apply_chat_template([{"role": "user", "content": task.prompt}], tools=cat.tools(label),
                                           tokenize=False, add_generation_prompt=True)
        assert prompt == expected and '"name": "guess"' in prompt

    import importlib.util
    import os

    spec = importlib.util.spec_from_file_location("run_agent", summary["files"]["agent_func"])
    module = importlib.util.module_from_spec(spec)
    for key in summary["env"]:  # the file's own pins apply (setdefault); monkeypatch restores them after
        monkeypatch.setenv(key, "")
        monkeypatch.delenv(key)
    spec.loader.exec_module(module)
    assert os.environ["RLHUB_TOOL_FORMAT"] == "hermes"
    label = ds.labels[0]
    reference = odd_ids(tok, call("guess", number=int(cat.task(label).hidden["answer"])))
    out = asyncio.run(module.AgentExecutor().execute(ds.prompts[0], label, sampling_params(), 4096, tok,
                                                     TokenEngine(tok, [reference])))
    assert out["reward"] == 1.0 and out["extra_logs"]["rlhub/tool_calls"] == 1.0
