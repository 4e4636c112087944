"""A slow verifier costs one sample a defined reward and a flag, and never blocks the event loop."""

from __future__ import annotations

import asyncio
import json
import math
import time

from openrlhf_harness import ScriptedEngine, sampling_params

from hub import Environment, Task, Verdict, Verifier, VerifierConfig, hookimpl
from hub.trainers.openrlhf import reward as openrlhf_reward
from hub.config.catalog import Catalog
from hub.plugins.manager import collect
from hub.config.registry import load as load_registry


class SlowMatch(Verifier):
    """Exact match that takes `delay` seconds, like a sandbox that takes its time."""

    name = "slow_match"
    Config = VerifierConfig

    def verify(self, task, response, ctx) -> Verdict:
        time.sleep(float(task.hidden["delay"]))
        ok = response.strip() == task.hidden["answer"]
        return Verdict(reward=float(ok), passed=ok)


class Slow(Environment):
    def generate(self, rng, index):
        return Task(prompt=f"Slow task {index}: reply 7.", hidden={"answer": "7", "delay": index / 10}, reference="7")


class SlowPlugin:
    @hookimpl
    def rlhub_register_envs(self, register):
        register("slow/sleep-v1", Slow, verifier="slow_match")

    @hookimpl
    def rlhub_register_verifiers(self, register):
        register(SlowMatch)


def slow_catalog(tmp_path):
    reg = tmp_path / "registry.yaml"
    reg.write_text("version: 1\nenvironments:\n  - id: 'slow/*'\n")
    return Catalog(load_registry(reg), collect([("slow", SlowPlugin())]))


def test_step_past_its_deadline_gets_zero_and_a_timeout_flag_without_blocking_the_loop(tmp_path, tokenizer, monkeypatch):
    from test_openrlhf_executors import load_agent_executor, templated

    monkeypatch.setenv("RLHUB_STEP_TIMEOUT_S", "0.5")
    openrlhf_reward._state["catalog"] = slow_catalog(tmp_path)
    executor = load_agent_executor()
    fast, slow = json.dumps({"env": "slow/sleep-v1", "seed": 1}), json.dumps({"env": "slow/sleep-v1", "seed": 30})
    engine = ScriptedEngine(tokenizer, {"Slow task 1:": ["7"], "Slow task 30:": ["7"]})

    async def main():
        ticks = 0

        async def heartbeat():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        beat = asyncio.create_task(heartbeat())
        start = time.perf_counter()
        outs = await asyncio.gather(*(executor.execute(templated(tokenizer, f"Slow task {i}: reply 7."), label,
                                                       sampling_params(), 512, tokenizer, engine)
                                      for i, label in ((1, fast), (30, slow))))
        beat.cancel()
        return outs, time.perf_counter() - start, ticks

    (fast_out, slow_out), elapsed, ticks = asyncio.run(main())
    assert fast_out["reward"] == 1.0 and fast_out["extra_logs"]["rlhub/timeout"] == 0.0
    assert slow_out["reward"] == 0.0 and slow_out["extra_logs"]["rlhub/timeout"] == 1.0
    assert elapsed < 2.5  # the 3 s step was abandoned at its 0.5 s deadline
    assert ticks >= 20  # the loop kept running while the environment slept in its thread


def test_reward_file_past_its_deadline_returns_numbers_in_time(tmp_path, monkeypatch):
    monkeypatch.setenv("RLHUB_REWARD_DEADLINE_S", "0.5")
    openrlhf_reward._state["catalog"] = slow_catalog(tmp_path)
    labels = [json.dumps({"env": "slow/sleep-v1", "seed": s}) for s in (1, 30)]
    start = time.perf_counter()
    out = openrlhf_reward.reward_func(["q7", "q7"], ["q", "q"], labels)
    assert time.perf_counter() - start < 2.5  # the 3 s verification was abandoned at the deadline
    assert out["rewards"] == [1.0, 0.0] and out["scores"][0] == 1.0 and math.isnan(out["scores"][1])  # NaN: a filter drops it
    assert out["extra_logs"]["rlhub/timeout"] == [0.0, 1.0] and out["extra_logs"]["rlhub/passed"] == [1.0, 0.0]
