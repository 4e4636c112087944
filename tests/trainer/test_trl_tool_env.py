"""TRL 1.16's environment_factory contract, exercised as GRPOTrainer does (no model download):
the tool schemas TRL renders (transformers' get_json_schema over the class's public methods) are
rlhub's own, reset(**row) opens the row's episode, tools are called as method(**arguments), and
get_reward() is the verdict's reward."""

from __future__ import annotations

import inspect
import json

import pytest
from openrlhf_harness import REPO, hermes_tokenizer

pytest.importorskip("trl", reason="needs TRL: pip install trl==1.16.0")

from hub.config.catalog import Catalog  # noqa: E402

LABEL = json.dumps({"env": "arith/guess-tools-v1", "seed": 11})


def trl_tools(instance):
    """How GRPOTrainer lists an environment's tools (grpo_trainer.py, _generate_and_score_completions)."""
    return [getattr(instance, n) for n, _ in inspect.getmembers(type(instance), predicate=inspect.isfunction)
            if n not in ("reset", "get_reward") and not n.startswith("_")]


def test_trl_environment_plays_a_tool_episode_to_its_verdict():
    from transformers.utils import get_json_schema

    from hub.trainers.trl_env import trl_environments

    cat = Catalog.load(REPO / "registry.yaml")
    factories = trl_environments(["arith/guess-tools-v1"])
    env = factories["arith/guess-tools-v1"]()
    tools = trl_tools(env)
    # what TRL renders is rlhub's schema (transformers adds the return type; rlhub forbids extra arguments)
    for theirs, ours in zip([get_json_schema(t)["function"] for t in tools], [s["function"] for s in cat.tools(LABEL)],
                            strict=True):
        assert (theirs["name"], theirs["description"]) == (ours["name"], ours["description"])
        assert theirs["parameters"]["properties"] == ours["parameters"]["properties"]
        assert theirs["parameters"]["required"] == ours["parameters"]["required"]
    prompt = hermes_tokenizer().apply_chat_template([{"role": "user", "content": "p"}], tools=tools, tokenize=False)
    assert '"name": "guess"' in prompt

    target = int(cat.task(LABEL).hidden["answer"])
    row = {"prompt": [{"role": "user", "content": cat.task(LABEL).prompt}], "label": LABEL}
    assert env.reset(**row) is None
    guess = {t.__name__: t for t in tools}["guess"]
    assert guess(number=target - 1) == f"no: the number is higher than {target - 1}"
    assert guess(number="x").startswith("error: guess: number:")  # a mistyped call: a message, never raised
    assert guess(number=target + 1, extra=1).startswith("error: guess: extra: unknown argument")
    assert env.get_reward() == 0.0  # not found yet: graded as it stands
    env.reset(**row)
    assert guess(number=target) == f"{target} is right" and env.get_reward() == 1.0
    assert env.get_reward() == 1.0  # read again (TRL's own reward column and a user's): still the verdict's


def test_trl_environment_rejects_what_it_cannot_play():
    from hub.trainers.trl_env import trl_environment

    with pytest.raises(ValueError, match="offers no tools"):
        trl_environment("arith/guess-v1")
    env = trl_environment("arith/guess-tools-v1")()
    with pytest.raises(ValueError, match="not an episode of"):
        env.reset(label=json.dumps({"env": "arith/add-v1", "seed": 1}))
    assert env.get_reward() == 0.0 and env.guess(number=3) == "error: the environment has not been reset"
