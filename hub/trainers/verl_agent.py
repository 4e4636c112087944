"""rlhub tool episodes in verl 0.9 (`verl.experimental.agent_loop`), on verl's own classes.

`RlhubToolAgentLoop` (registered as `rlhub_tool_agent`) is verl's ToolAgentLoop playing one rlhub
episode per sample: the label comes from the row (`extra_info.rlhub_label`, else
`reward_model.ground_truth`, as `trainer/verl_compute_score.py` reads it); the prompt gets the
episode's own tool schemas; verl generates and keeps the model's token ids (its Continuous Token
builder appends only the rendered `tool` messages, never re-tokenising a turn); each whole turn
(all its calls, read from the model's text in the run's tool-call format) is one `episode.step`;
a turn without calls is a turn too (the episode says what is missing); the verdict is the sample's
`reward_score` (verl then skips its reward function) and the flags go to `reward_extra_info`.

    actor_rollout_ref.rollout.multi_turn.enable=True  actor_rollout_ref.rollout.multi_turn.format=hermes
    actor_rollout_ref.rollout.agent.agent_loop_config_path=<a yaml: [{name: rlhub_tool_agent,
        _target_: hub.trainers.verl_agent.RlhubToolAgentLoop}]>   data rows with agent_name: rlhub_tool_agent

`RlhubTool` is a verl BaseTool over one rlhub tool, with an episode per instance id
(create(create_kwargs={"label": ...}) / execute / calc_reward / release), for rollouts that keep a
tool instance for a whole trajectory.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import register
from verl.experimental.agent_loop.tool_agent_loop import AgentState, ToolAgentLoop
from verl.tools.base_tool import BaseTool
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

from ..rewards import sample_logs
from ..tools import formats
from ..tools.schema import ToolCall
from .openrlhf.reward import catalog, policy
from .tool_play import TOOL_FORMAT_ENV, is_tool_episode, prepare_episode, tool_format_from_env, tool_logs

AGENT_NAME = "rlhub_tool_agent"


def label_of(kwargs: dict[str, Any]) -> str:
    extra = kwargs.get("extra_info") or {}
    label = extra.get("rlhub_label") or (kwargs.get("reward_model") or {}).get("ground_truth")
    if not label:
        raise ValueError("an rlhub row needs extra_info.rlhub_label or reward_model.ground_truth (the rlhub label)")
    return label if isinstance(label, str) else json.dumps(label)


def _schema(schema: dict[str, Any]) -> OpenAIFunctionToolSchema:
    try:
        return OpenAIFunctionToolSchema.model_validate(schema)
    except Exception:  # a schema richer than verl's model (anyOf, nested objects): kept as it is
        return OpenAIFunctionToolSchema.model_construct(**schema)


class _EpisodeTool(BaseTool):
    """One of an episode's tools as verl's loop lists them (its schema; the calls run in the episode)."""

    def __init__(self, schema: dict[str, Any]) -> None:  # BaseTool's own __init__ prints the schema
        self.config, self.tool_schema = {}, _schema(schema)
        self.name = schema["function"]["name"]


def _tool_format(rollout_format: str) -> str:
    import os

    if os.environ.get(TOOL_FORMAT_ENV):
        return tool_format_from_env()
    return rollout_format if rollout_format in formats.known_formats() else formats.DEFAULT_FORMAT


@register(AGENT_NAME)
class RlhubToolAgentLoop(ToolAgentLoop):
    """verl's tool agent loop over one rlhub episode (a new instance per sample, as verl makes them)."""

    async def run(self, sampling_params: dict[str, Any], **kwargs) -> Any:
        self.episode, self.kind, self.verdict, self.pending = None, "ok", None, False
        try:
            episode = await asyncio.to_thread(catalog().episode, label_of(kwargs))
            prepare_episode(episode, _tool_format(self.tool_parser_name))
            await asyncio.to_thread(episode.reset)
            self.episode = episode
        except Exception as exc:  # the label names no task, or the task could not be built: no verdict
            from ..core.errors import UserError

            self.kind = "bad_label" if isinstance(exc, (UserError, ValueError)) else "no_verdict"
        schemas = self.episode.tool_schemas() if is_tool_episode(self.episode) else []
        self.tools = {s["function"]["name"]: _EpisodeTool(s) for s in schemas}
        self.tool_schemas = schemas  # rlhub's own schemas, exactly, for the chat template
        try:
            output = await super().run(sampling_params, **kwargs)
            if self.pending and self.verdict is None and self.episode is not None:
                await self._step(self.last_text)  # the budget ended after a turn: it still counts
        finally:
            episode, self.episode = self.episode, None
            logs = tool_logs(episode)
            if episode is not None:
                await asyncio.to_thread(episode.close)
        if self.verdict is not None and (self.verdict.error or self.verdict.reward is None):
            self.kind = "no_verdict"
        # Out of tokens or turns before a verdict: the model's doing, graded 0 (not substituted).
        truncated = self.kind == "ok" and self.verdict is None
        passed = self.verdict is not None and self.kind == "ok" and bool(self.verdict.passed)
        if self.kind != "ok":
            output.reward_score = policy().substitute(self.kind)
        else:
            output.reward_score = 0.0 if truncated else float(self.verdict.reward)
        info = {k.split("/", 1)[1]: v for k, v in {**sample_logs(self.kind, passed), **logs}.items()}
        info["truncated"] = float(truncated)
        output.extra_fields["reward_extra_info"] = info  # the same keys for every sample
        return output

    def _budget_spent(self, agent_data) -> bool:
        return (len(agent_data.response_mask) >= self.response_length
                or bool(self.max_assistant_turns and agent_data.assistant_turns >= self.max_assistant_turns)
                or bool(self.max_user_turns and agent_data.user_turns >= self.max_user_turns))

    async def _handle_generating_state(self, agent_data, sampling_params, ignore_termination: bool = False):
        state = await super()._handle_generating_state(agent_data, sampling_params, ignore_termination)
        self.last_text = self.tokenizer.decode(agent_data.response_ids, skip_special_tokens=True)
        self.pending = True
        if self.episode is None:
            return AgentState.TERMINATED
        if state == AgentState.TERMINATED and not self._budget_spent(agent_data):
            return AgentState.PROCESSING_TOOLS  # no call: still a turn of the episode
        return state

    async def _step(self, text: str):
        self.pending = False
        try:
            step = await asyncio.to_thread(self.episode.step, text)
        except Exception:
            self.kind = "no_verdict"
            return None
        if step.done:
            self.verdict = step.verdict
        return step

    async def _handle_processing_tools_state(self, agent_data) -> AgentState:
        """One episode step for the whole turn; its results appended as `tool` messages (and its
        notes as a user turn) through verl's own token merge."""
        text = self.last_text
        step = await self._step(text)
        if step is None or step.done:
            return AgentState.TERMINATED
        turn = self.episode.read(text)  # the assistant message as rlhub read it (the template renders it)
        agent_data.messages[-1] = {"role": "assistant", "content": turn.text,
                                   **({"tool_calls": [c.to_openai() for c in turn.calls]} if turn.calls else {})}
        previous = list(agent_data.messages)
        added = [{"role": "tool", "content": r.content, **({"tool_call_id": r.call_id} if r.call_id else {})}
                 for r in step.tool_results]
        if step.notes or not added:
            added.append({"role": "user", "content": "\n\n".join(step.notes) or step.observation})
        agent_data.messages.extend(added)
        merged, mask, logprobs = await self.ct_merge_context_msg(
            previous, agent_data.messages, agent_data.prompt_ids, agent_data.response_mask,
            agent_data.response_logprobs or None, tools=self.tool_schemas)
        if len(mask) >= self.response_length:
            return AgentState.TERMINATED
        agent_data.prompt_ids, agent_data.response_mask = merged.token_ids, mask
        if agent_data.response_logprobs:
            agent_data.response_logprobs = logprobs or []
        agent_data.user_turns += 1
        return AgentState.GENERATING


class RlhubTool(BaseTool):
    """A verl BaseTool over one rlhub tool: `create(create_kwargs={"label": ...})` opens an episode
    for the instance, `execute` runs one call in it, `calc_reward` is its verdict's reward (0 until
    the episode ends), `release` closes it. Tool config: {"label_key": "label"} (optional)."""

    _episodes: dict[str, Any] = {}  # instance id -> episode, shared by the tools of one process

    def __init__(self, config: dict, tool_schema: OpenAIFunctionToolSchema | None = None) -> None:
        self.config, self.tool_schema = config or {}, tool_schema
        self.name = tool_schema.function.name

    async def create(self, instance_id: str | None = None, **kwargs) -> tuple[str, ToolResponse]:
        instance_id = instance_id or str(uuid4())
        if instance_id not in self._episodes:
            label = (kwargs.get("create_kwargs") or kwargs).get(self.config.get("label_key", "label"))
            episode = await asyncio.to_thread(catalog().episode, label)
            prepare_episode(episode, tool_format_from_env())
            await asyncio.to_thread(episode.reset)
            self._episodes[instance_id] = episode
        return instance_id, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs) -> tuple[ToolResponse, float, dict]:
        episode = self._episodes.get(instance_id)
        if episode is None:
            return ToolResponse(text=f"error: no episode for instance {instance_id!r} (create it first)"), 0.0, {}
        step = await asyncio.to_thread(episode.step, [ToolCall(self.name, parameters if isinstance(parameters, dict) else str(parameters))])
        text = "\n\n".join([r.content for r in step.tool_results] + list(step.notes)) or step.observation
        return ToolResponse(text=text), 0.0, tool_logs(episode)

    async def calc_reward(self, instance_id: str, **kwargs) -> float:
        episode = self._episodes.get(instance_id)
        final = getattr(episode, "final", None)
        verdict = final.verdict if final is not None else None
        return float(verdict.reward) if verdict is not None and not verdict.error else 0.0

    async def release(self, instance_id: str, **kwargs) -> None:
        episode = self._episodes.pop(instance_id, None)
        if episode is not None:
            await asyncio.to_thread(episode.close)
