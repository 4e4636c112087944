"""rlhub tool environments for TRL 1.16's GRPOTrainer (`environment_factory=`).

    from hub.trainers.trl_env import trl_environments
    envs = trl_environments(["arith/guess-tools-v1"])          # {env id: factory}
    GRPOTrainer(model=..., environment_factory=envs, train_dataset=ds, args=GRPOConfig(...))

TRL lists an environment's public methods (on its class) as the tools, renders their schemas with
transformers' get_json_schema (signature + Google docstring, which rlhub's @tool methods already
have), calls `reset(**row)` before each rollout, each tool as `method(**arguments)`, and
`get_reward()` once at the end. So each rlhub environment gets a class whose methods mirror its
episode's tools and run them in the episode the row's `label` opens; the dataset needs `prompt`,
`label` and `environment` (the env id) columns. TRL runs one call at a time, so a call is an
episode turn here (the episode's `max_turns` counts calls); TRL parses calls with the tokenizer's
own response schema and keeps the generated token ids itself.
"""

from __future__ import annotations

import inspect
import json
import typing
from typing import Any, Iterable

from ..tools.schema import ToolCall, tools_of
from .openrlhf.reward import catalog


class RlhubTrlEnvironment:
    """Base of the generated classes: one rlhub episode per rollout (TRL pools and resets them)."""

    env_id: str = ""

    def __init__(self) -> None:
        self._episode = None
        self._reward: float | None = None
        self.turn_errors = 0

    def reset(self, label: str = "", **row: Any) -> None:
        self._close()
        self._reward = None
        episode = catalog().episode(label)
        if type(episode).__name__ != self._episode_class:
            raise ValueError(f"label {label[:80]!r} is not an episode of {self.env_id} (its tools differ)")
        episode.reset()
        self._episode = episode
        return None  # the row's prompt is the observation

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._episode is None:
            return "error: the environment has not been reset"
        step = self._episode.step([ToolCall(name, arguments)])
        return "\n\n".join([r.content for r in step.tool_results] + list(step.notes)) or step.observation

    def get_reward(self) -> float:
        """The verdict's reward; an episode the model left unfinished is graded as it stands. The same
        on every call until the next reset: TRL calls it as a reward function of its own, and a user's
        reward function reading it would otherwise find the episode closed and read 0."""
        if self._reward is None:
            self._reward = self._grade()
        return self._reward

    def _grade(self) -> float:
        episode = self._episode
        if episode is None:
            return 0.0
        final = episode.final
        verdict = final.verdict if final is not None else episode.last_turn()
        self._close()
        return 0.0 if verdict is None or verdict.error or verdict.reward is None else float(verdict.reward)

    def _close(self) -> None:
        episode, self._episode = self._episode, None
        if episode is not None:
            episode.close()


def _forwarder(tool) -> Any:
    """A method with the rlhub tool's name, signature, types and docstring that runs it in the episode."""
    fn = getattr(tool.fn, "__func__", tool.fn)
    name = tool.name

    def method(self, **arguments):
        return self._call(name, arguments)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    method.__signature__ = inspect.signature(fn)
    method.__annotations__ = typing.get_type_hints(fn)  # resolved: the tool's module may defer annotations
    return method


def trl_environment(env_id: str) -> type[RlhubTrlEnvironment]:
    """The TRL environment class of one rlhub tool environment."""
    episode = catalog().episode(json.dumps({"env": env_id, "seed": 0}))  # for its class: the tools
    tools = tools_of(type(episode))
    if not tools:
        raise ValueError(f"{env_id} offers no tools (a text environment): train it with hub.trainers.adapters.trl_reward")
    body = {t.name: _forwarder(t) for t in tools}
    clash = set(body) & {"reset", "get_reward"}
    if clash:
        raise ValueError(f"{env_id}: a tool named {sorted(clash)} would shadow TRL's environment methods")
    body.update(env_id=env_id, _episode_class=type(episode).__name__)
    return type(f"Rlhub_{env_id.replace('/', '_').replace('-', '_')}", (RlhubTrlEnvironment,), body)


def trl_environments(env_ids: Iterable[str]) -> dict[str, type[RlhubTrlEnvironment]]:
    """`environment_factory` for GRPOTrainer: {env id: class} (a row's `environment` picks one)."""
    return {env_id: trl_environment(env_id) for env_id in env_ids}
