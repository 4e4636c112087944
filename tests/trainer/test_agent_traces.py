"""The agent file's spans, through OpenRLHF's own multi-turn executor, decoded by an OTLP receiver."""

from __future__ import annotations

import asyncio

import pytest
from openrlhf_harness import ScriptedEngine, sampling_params
from test_openrlhf_executors import load_agent_executor, templated

pytest.importorskip("opentelemetry.sdk")

from hub import tracing  # noqa: E402
from hub.trainers.openrlhf.reward import catalog  # noqa: E402
from hub.testing.otlp import OTLPReceiver  # noqa: E402


def test_an_episode_is_a_span_with_a_step_span_per_turn(tokenizer, monkeypatch):
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "50")
    executor = load_agent_executor()
    cat = catalog()  # the one the executor loaded
    label = '{"env": "arith/guess-v1", "seed": 11}'
    task = cat.task(label)
    wrong = cat.get("arith/guess-v1").env.wrong_responses(task)[0]
    engine = ScriptedEngine(tokenizer, {task.prompt_text(): [wrong, task.reference]})
    with OTLPReceiver() as rx:
        tracing.enable("rlhub-test", rx.endpoint)
        try:
            async def rollout():
                with tracing.span("trainer.rollout") as outer:
                    out = await executor.execute(templated(tokenizer, task.prompt_text()), label, sampling_params(),
                                                 4096, tokenizer, engine)
                return out, outer

            out, outer = asyncio.run(rollout())
            spans = rx.wait_for(lambda s: any(x.name == "rlhub.episode" for x in s)
                                and any(x.name == "trainer.rollout" for x in s))
        finally:
            tracing.disable()
    assert out["reward"] == 1.0
    [episode] = [s for s in spans if s.name == "rlhub.episode"]
    assert episode.parent_id == format(outer.get_span_context().span_id, "016x")  # under the trainer's span
    assert episode.attributes["rlhub.env"] == "arith/guess-v1" and episode.attributes["rlhub.reward"] == 1.0
    assert episode.attributes["rlhub.turns"] == 2 and episode.attributes["rlhub.flags"] == []
    assert episode.attributes["rlhub.verifier"] == cat.get("arith/guess-v1").identity.name
    steps = sorted((s for s in spans if s.parent_id == episode.span_id), key=lambda s: s.start_ns)
    assert [(s.name, s.attributes["rlhub.turn"]) for s in steps] == [("rlhub.agent.step", 1), ("rlhub.agent.step", 2)]
