"""OpenRLHF's own executors, driven with rlhub's reward and agent files.

The rewards that come out of OpenRLHF's loop must be the verifiers' verdicts: a wrong attempt
earns what the verifier gives it, the reference earns full reward.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from openrlhf_harness import REPO, ScriptedEngine, sampling_params

from hub.config.catalog import Catalog
from hub.trainers.turn_format import PRESETS

SINGLE = [json.dumps({"env": e, "seed": s}) for e, s in [("arith/add-v1", 3), ("arith/mul-v1", 5), ("arith/sum-list-v1", 7)]]


def templated(tokenizer, text: str) -> str:
    return tokenizer.apply_chat_template([{"role": "user", "content": text}], tokenize=False, add_generation_prompt=True)


def run(coro):
    return asyncio.run(coro)


def test_single_turn_executor_rewards_are_the_verdicts(tokenizer):
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    cat = Catalog.load(REPO / "registry.yaml")
    executor = SingleTurnAgentExecutor(remote_rm_url=str(REPO / "trainer" / "reward_func.py"))
    assert executor.reward_func is not None  # OpenRLHF loaded our file, not an HTTP endpoint
    for label in SINGLE:
        task = cat.task(label)
        wrong = cat.get(task.env_id).env.wrong_responses(task)[0]
        for attempt in (wrong, task.reference):
            engine = ScriptedEngine(tokenizer, {task.prompt_text(): [attempt]})
            out = run(executor.execute(templated(tokenizer, task.prompt_text()), label, sampling_params(64),
                                       4096, tokenizer, engine))
            verdict = cat.verify(label, attempt)
            assert out["reward"] == [verdict.reward] and out["scores"] == [verdict.reward]
            assert out["extra_logs"]["rlhub/passed"] == [float(verdict.passed)]
        assert verdict.passed and verdict.reward == 1.0  # the last attempt was the reference


def test_single_turn_bad_label_gets_a_number_and_a_flag(tokenizer):
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    executor = SingleTurnAgentExecutor(remote_rm_url=str(REPO / "trainer" / "reward_func.py"))
    engine = ScriptedEngine(tokenizer, {"Compute": ["42"]})
    out = run(executor.execute(templated(tokenizer, "Compute"), '{"env": "nope/missing-v1", "seed": 1}',
                               sampling_params(16), 512, tokenizer, engine))
    assert out["reward"] == [0.0] and out["extra_logs"]["rlhub/bad_label"] == [1.0]


def load_agent_executor():
    """Exactly what OpenRLHF's vLLM actor does with --train.agent_func_path (vllm_engine.py)."""
    import importlib.util

    from openrlhf.utils.agent import AgentExecutorBase

    spec = importlib.util.spec_from_file_location("agent_module", REPO / "trainer" / "agent_func.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert issubclass(module.AgentExecutor, AgentExecutorBase)
    return module.AgentExecutor()


def test_multi_turn_wrong_guess_then_reference(tokenizer):
    cat = Catalog.load(REPO / "registry.yaml")
    executor = load_agent_executor()
    label = '{"env": "arith/guess-v1", "seed": 11}'
    task = cat.task(label)
    wrong = cat.get("arith/guess-v1").env.wrong_responses(task)[0]
    engine = ScriptedEngine(tokenizer, {task.prompt_text(): [wrong, task.reference]})
    prompt = templated(tokenizer, task.prompt_text())
    out = run(executor.execute(prompt, label, sampling_params(), 4096, tokenizer, engine))

    # What the environment said after the wrong guess, as the episode itself says it.
    episode = cat.episode(label)
    episode.reset()
    hint = episode.step(wrong).observation
    final = episode.step(task.reference)
    assert final.done and final.verdict.passed
    assert out["reward"] == final.verdict.reward == 1.0
    assert out["extra_logs"]["rlhub/passed"] == 1.0 and out["extra_logs"]["rlhub/turns"] == 2.0
    assert len(out["action_ranges"]) == 2 and engine.calls == [wrong + "<|im_end|>", task.reference + "<|im_end|>"]
    transcript = tokenizer.decode(out["observation_tokens"], skip_special_tokens=False)
    # The feedback sits in a proper ChatML user turn, and the model was asked for its next turn.
    assert transcript == (prompt + wrong + "<|im_end|>\n<|im_start|>user\n" + hint
                          + "<|im_end|>\n<|im_start|>assistant\n" + task.reference + "<|im_end|>")
    # The action ranges cover exactly the model's tokens.
    (s0, e0), (s1, e1) = out["action_ranges"]
    assert tokenizer.decode(out["observation_tokens"][s1:e1], skip_special_tokens=False) == task.reference + "<|im_end|>"


def test_multi_turn_never_right_earns_the_verdict_of_the_last_guess(tokenizer):
    cat = Catalog.load(REPO / "registry.yaml")
    executor = load_agent_executor()
    label = '{"env": "arith/guess-v1", "seed": 4}'
    task = cat.task(label)
    wrong = cat.get("arith/guess-v1").env.wrong_responses(task)[0]
    engine = ScriptedEngine(tokenizer, {task.prompt_text(): [wrong]})
    out = run(executor.execute(templated(tokenizer, task.prompt_text()), label, sampling_params(), 8192,
                               tokenizer, engine))
    max_turns = cat.get("arith/guess-v1").max_turns
    assert len(out["action_ranges"]) == max_turns
    assert out["reward"] == cat.verify(label, wrong).reward == 0.0
    assert out["extra_logs"]["rlhub/turns"] == float(max_turns) and out["extra_logs"]["rlhub/passed"] == 0.0


def test_agent_runs_single_turn_envs_too(tokenizer):
    cat = Catalog.load(REPO / "registry.yaml")
    executor = load_agent_executor()
    label = SINGLE[0]
    task = cat.task(label)
    engine = ScriptedEngine(tokenizer, {task.prompt_text(): [task.reference]})
    out = run(executor.execute(templated(tokenizer, task.prompt_text()), label, sampling_params(), 1024, tokenizer, engine))
    assert out["reward"] == 1.0 and len(out["action_ranges"]) == 1


def test_agent_bad_label_ends_with_a_defined_reward(tokenizer):
    executor = load_agent_executor()
    engine = ScriptedEngine(tokenizer, {"hello": ["1"]})
    out = run(executor.execute(templated(tokenizer, "hello"), "not json", sampling_params(), 512, tokenizer, engine))
    assert out["reward"] == 0.0 and out["extra_logs"]["rlhub/bad_label"] == 1.0 and len(out["action_ranges"]) == 1


def test_feedback_follows_the_turn_format_when_the_model_was_cut_off():
    chatml = PRESETS["chatml"]
    assert chatml.feedback("12<|im_end|>", "lower") == "\n<|im_start|>user\nlower<|im_end|>\n<|im_start|>assistant\n"
    # Truncated: no end-of-turn token yet, so the feedback closes the turn itself.
    assert chatml.feedback("12", "lower").startswith("<|im_end|>\n<|im_start|>user\n")


def _children() -> int:
    import os
    import subprocess

    return len(subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout.split())


def test_agent_releases_a_terminal_session_when_done_or_dropped():
    """OpenRLHF has no end-of-episode hook: an agent dropped mid-episode must still free its sandbox."""
    import gc

    from hub.trainers.openrlhf.agent import RlhubAgent, _executor

    cat = Catalog.load(REPO / "registry.yaml")
    sessions = [e.id for e in cat.select("terminal/session-*") if "tools" not in e.tags]  # text sessions
    if not sessions:
        pytest.skip("rlhub-terminal is not installed")
    label = json.dumps({"env": sessions[0], "seed": 1})
    before = _children()

    async def play(actions: list[str]) -> RlhubAgent:
        agent = RlhubAgent()
        await agent.reset({"observation": "prompt", "label": label})
        for action in actions:
            out = await agent.step({"action_text": action})
        return agent, out

    agent, out = run(play(["```bash\necho hi\n```"]))
    assert not out["done"] and _children() == before + 1  # the episode's persistent sandbox
    del agent
    gc.collect()
    _executor().submit(lambda: None).result()  # the close was queued on the same pool
    deadline = time.monotonic() + 10
    while _children() != before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _children() == before

    agent, out = run(play(["```bash\necho hi\n```\nSUBMIT"]))
    assert out["done"] and agent.episode is None
    deadline = time.monotonic() + 10
    while _children() != before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _children() == before
