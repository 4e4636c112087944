"""verl 0.9's own ToolAgentLoop machinery (hub.trainers.verl_agent.RlhubToolAgentLoop, built the way
verl's AgentLoopWorker builds it: hydra.utils.instantiate from its registry) plays a 5-turn rlhub
tool episode on a CPU with a scripted server: the response tokens verl keeps for the model's turns
(response_mask 1) are the ids it generated, the rest is the template's `tool` messages, and the
sample's reward_score is the verdict's. And verl's BaseTool lifecycle over an rlhub episode."""

from __future__ import annotations

import asyncio
import json

import pytest
from openrlhf_harness import REPO, hermes_tokenizer

pytest.importorskip("verl.experimental.agent_loop.tool_agent_loop",
                    reason="needs verl: pip install --no-deps verl==0.9.1 tensordict==0.10.0 hydra-core==1.3.8 codetiming==1.4.0 cachetools")

from test_openrlhf_tool_episodes import LABEL, call, odd_ids, script_for  # noqa: E402

from hub.config.catalog import Catalog  # noqa: E402


class ScriptedServer:
    """verl's LLMServerClient.generate(request_id, prompt_ids, sampling_params, ...) -> TokenOutput."""

    def __init__(self, turns):
        self.turns, self.seen = list(turns), []

    async def generate(self, *, request_id, prompt_ids, sampling_params, **kwargs):
        from verl.workers.rollout.replica import TokenOutput

        self.seen.append(list(prompt_ids))
        return TokenOutput(token_ids=self.turns.pop(0), stop_reason="completed")


def make_loop(tok, server, response_length=4096):
    import hydra
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap, _agent_loop_registry
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from hub.trainers.verl_agent import AGENT_NAME

    config = OmegaConf.create({
        "actor_rollout_ref": {"rollout": {
            "prompt_length": 2048, "response_length": response_length, "full_determinism": False,
            "multi_turn": {"max_user_turns": 8, "max_assistant_turns": 8, "max_parallel_calls": 4,
                           "max_tool_response_length": 2048, "tool_response_truncate_side": "middle",
                           "format": "hermes"}}},
        "data": {"apply_chat_template_kwargs": {}, "mm_processor_kwargs": {}},
    })
    return hydra.utils.instantiate(config=_agent_loop_registry[AGENT_NAME], trainer_config=DictConfigWrap(config),
                                   server_manager=server, tokenizer=tok, processor=None, hf_model_type=None,
                                   dataset_cls=RLHFDataset, data_config=DictConfigWrap(config.data),
                                   tools=ToolListWrap([]))


def play(tok, turns, label=LABEL, prompt=None, **kw):
    cat = Catalog.load(REPO / "registry.yaml")
    server = ScriptedServer(turns)

    async def go():
        loop = make_loop(tok, server, **kw)
        raw = [{"role": "user", "content": prompt or cat.task(label).prompt}]
        return await loop.run({"temperature": 1.0}, raw_prompt=raw, extra_info={"rlhub_label": label})

    return asyncio.run(go()), server


def model_spans(output):
    """The response's runs of mask-1 tokens: the model's turns, as verl will train on them."""
    spans, current = [], []
    for token, m in zip(output.response_ids, output.response_mask):
        if m:
            current.append(token)
        elif current:
            spans, current = spans + [current], []
    return spans + ([current] if current else [])


def test_verl_loop_plays_five_tool_turns_without_drift():
    tok = hermes_tokenizer()
    cat = Catalog.load(REPO / "registry.yaml")
    target = int(cat.task(LABEL).hidden["answer"])
    turns = [odd_ids(tok, t) for t in script_for(target)]
    out, server = play(tok, turns)
    assert model_spans(out) == turns and not server.turns
    full = out.prompt_ids + out.response_ids
    assert all(full[:len(seen)] == seen for seen in server.seen)  # every turn continued the same tokens
    assert out.reward_score == 1.0 == cat.verify(LABEL, cat.task(LABEL).reference).reward
    info = out.extra_fields["reward_extra_info"]
    assert info["passed"] == 1.0 and info["tool_calls"] == 4.0 and info["tool_unreadable_turns"] == 1.0
    assert info["tool_error/bad_arguments"] == 1.0 and info["truncated"] == 0.0
    text = tok.decode(out.response_ids)
    assert f"<tool_response>\nno: the number is higher than {target - 1}\n</tool_response>" in text
    assert "a <tool_call> block is not JSON" in text  # the unreadable turn was told so
    prompt = tok.decode(out.prompt_ids)
    assert '"name": "guess"' in prompt and prompt.endswith("<|im_start|>assistant\n")  # the tools reached the prompt


def test_verl_loop_out_of_turns_and_bad_label():
    tok = hermes_tokenizer()
    wrong = [odd_ids(tok, call("guess", number=0))] * 8
    out, server = play(tok, wrong)
    assert out.reward_score == 0.0 and out.extra_fields["reward_extra_info"]["passed"] == 0.0
    assert len(model_spans(out)) == 8  # the episode's 8 turns; the last one graded by last_turn()
    bad, _ = play(tok, [odd_ids(tok, "42")], label='{"env": "nope/missing-v1", "seed": 1}', prompt="hi")
    assert bad.reward_score == 0.0 and bad.extra_fields["reward_extra_info"]["bad_label"] == 1.0
    assert set(bad.extra_fields["reward_extra_info"]) == set(out.extra_fields["reward_extra_info"])


def test_verl_base_tool_lifecycle_over_an_episode():
    from verl.tools.schemas import OpenAIFunctionToolSchema

    from hub.trainers.verl_agent import RlhubTool

    cat = Catalog.load(REPO / "registry.yaml")
    target = int(cat.task(LABEL).hidden["answer"])
    tool = RlhubTool({}, OpenAIFunctionToolSchema.model_validate(cat.tools(LABEL)[0]))

    async def go():
        a, _ = await tool.create(create_kwargs={"label": LABEL})
        b, _ = await tool.create(create_kwargs={"label": LABEL})
        low, _, _ = await tool.execute(a, {"number": target - 1})
        bad, _, metrics = await tool.execute(a, {"number": "x"})
        assert await tool.calc_reward(a) == 0.0
        right, _, _ = await tool.execute(a, {"number": target})
        rewards = await tool.calc_reward(a), await tool.calc_reward(b)
        await tool.release(a)
        await tool.release(b)
        gone, _, _ = await tool.execute(a, {"number": target})
        return low.text, bad.text, metrics, right.text, rewards, gone.text

    low, bad, metrics, right, rewards, gone = asyncio.run(go())
    assert low == f"no: the number is higher than {target - 1}" and right == f"{target} is right"
    assert bad.startswith("error: guess: number:") and metrics["rlhub/tool_error/bad_arguments"] == 1.0
    assert rewards == (1.0, 0.0)  # each instance its own episode
    assert "no episode" in gone and not RlhubTool._episodes
