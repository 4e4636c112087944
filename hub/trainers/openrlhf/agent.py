"""rlhub episodes driven by OpenRLHF's own multi-turn loop (`--train.agent_func_path`).

`RlhubAgent` is an OpenRLHF `AgentInstanceBase`: `reset` opens the episode the prompt's label
names, `step` plays the model's action in it and returns the observation as feedback text in
the model's chat format, and the verifier's reward when the episode ends. Both run on the vLLM
actor's event loop, so every call into the environment (which may run a sandbox) goes to a
thread, under two bounds that keep samples from costing each other anything:
- a slot: at most $RLHUB_AGENT_WORKERS environment calls run at once. Waiting for one is not the
  sample's doing: past `QUEUE_FACTOR` step deadlines it ends the sample as `timeout` (never
  `bad_label`, which means the label names no task);
- the step deadline ($RLHUB_STEP_TIMEOUT_S), counted from when the call starts running. Past it
  the sample ends as `timeout`, its slot is free at once, and the episode is closed: its sandbox
  is killed, which ends the step's commands and returns its thread (a step busy grading in a
  sandbox of its own returns when that run's wall clock ends; it holds no slot meanwhile).
A terminal episode also gets a turn budget (`TURN_SHARE` of the deadline): a turn whose own
commands run longer is cut and told so, so a slow turn is the model's observation, not a timeout.
Every outcome without a verdict earns the shared policy's substitute (0) and is flagged.

A tool episode (hub.tools.ToolEpisode) reads the model's calls from its raw text in the run's
tool-call format ($RLHUB_TOOL_FORMAT), and its results go back as `tool` messages in the chat
template (hub.trainers.tool_play.tool_feedback); its tool counters are in every step's logs.
"""

from __future__ import annotations

import asyncio
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from ... import tracing
from ...core.errors import UserError
from ...core.task import Label
from ...rewards import PROMPT_MISMATCH, cut_response, log_key, sample_logs, score
from .reward import catalog, env_float, policy
from ..tool_play import TOOL_LOG_KEYS, is_tool_episode, prepare_episode, tool_feedback, tool_format_from_env, tool_logs
from ..turn_format import TURN_FORMAT_ENV, TurnFormat

STEP_TIMEOUT_ENV = "RLHUB_STEP_TIMEOUT_S"  # seconds one environment step may run
WORKERS_ENV = "RLHUB_AGENT_WORKERS"  # environment calls running at once in this process
QUEUE_FACTOR = 4.0  # a call waits at most this many step deadlines for a slot
TURN_SHARE = 0.5  # of the step deadline, what a turn's own commands may use (the rest: reading, grading)
CLOSE_WAIT_S = 30.0  # closing kills the sandbox at once; this only bounds a wedged close

# Every step reports the same keys (the reward file's flags, turns, the tool counters): OpenRLHF
# turns each into a per-sample tensor and stacks them. prompt_mismatch stays 0 here: an agent's
# actions come without their prompt.
LOG_KEYS = (*sample_logs("ok", False), log_key("turns"), *TOOL_LOG_KEYS)
assert log_key(PROMPT_MISMATCH) in LOG_KEYS

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_slots: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = weakref.WeakKeyDictionary()


def workers() -> int:
    return max(1, int(env_float(WORKERS_ENV, 32)))


def _executor() -> ThreadPoolExecutor:
    """The threads environment calls run in. More than there are slots: a call abandoned at its
    deadline keeps its thread until its sandbox is killed (or its grading run ends), never a slot."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=8 * workers(), thread_name_prefix="rlhub-env")
        return _pool


def _slot_semaphore() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    with _lock:
        if loop not in _slots:
            _slots[loop] = asyncio.Semaphore(workers())
        return _slots[loop]


class QueueTimeout(Exception):
    """No slot came free in time: the machine is busy, the sample did nothing wrong."""


async def _off_loop(fn, *args, timeout: float):
    """`fn(*args)` in a worker thread, holding one slot while it runs. QueueTimeout when no slot
    comes free within QUEUE_FACTOR x `timeout`; asyncio.TimeoutError when it runs past `timeout`
    (the slot is released then; the thread is the caller's to end, by closing the episode)."""
    slots = _slot_semaphore()
    wait = QUEUE_FACTOR * timeout
    try:
        await asyncio.wait_for(slots.acquire(), wait)
    except asyncio.TimeoutError:
        raise QueueTimeout(f"no environment slot came free within {wait:g} s ({workers()} slots, all busy)") from None
    try:
        return await asyncio.wait_for(asyncio.wrap_future(_executor().submit(tracing.carry(fn), *args)), timeout)
    finally:
        slots.release()


class RlhubAgent(AgentInstanceBase):
    """One episode of one rlhub environment, for one prompt of a rollout."""

    def __init__(self, *args, **kwargs) -> None:
        self.episode = None
        self.turns = 0
        self.problem: str | None = None  # the kind that ends the sample at its first step
        self.error: str | None = None
        self.format = TurnFormat.parse(os.environ.get(TURN_FORMAT_ENV) or "chatml")
        self.tool_format = tool_format_from_env()
        self.tool_logs = tool_logs(None)  # kept past the episode's close, for the last step's logs
        self.timeout = env_float(STEP_TIMEOUT_ENV, 120.0)
        self.policy = policy()
        self.span = None  # the episode's span: reset to the last step

    async def reset(self, states: dict, **kwargs) -> dict:
        self.span = tracing.start("rlhub.episode", attributes={"rlhub.label": str(states.get("label", ""))[:200]})
        with tracing.use(self.span):
            await self._reset(states)
        # The dataset's prompt (already in the chat template) stays the first observation.
        return {"observation": states["observation"]}

    async def _reset(self, states: dict) -> None:
        try:
            self.episode = prepare_episode(await _off_loop(catalog().episode, states["label"], timeout=self.timeout),
                                           self.tool_format)
            if TURN_SHARE and hasattr(self.episode, "turn_budget_s"):
                self.episode.turn_budget_s = self.timeout * TURN_SHARE
            await _off_loop(self.episode.reset, timeout=self.timeout)
        except UserError as exc:  # the label names no task (unknown environment, bad JSON, index out of range)
            self.problem, self.error = "bad_label", str(exc)
        except (QueueTimeout, asyncio.TimeoutError) as exc:
            self.problem, self.error = "timeout", str(exc) or f"opening the episode took over {self.timeout:g} s"
        except Exception as exc:  # the task could not be built: the environment's fault, not the label's
            self.problem, self.error = "no_verdict", f"{type(exc).__name__}: {exc}"
        if self.episode is not None and self.span.is_recording():
            self.span.set_attributes({"rlhub.env": Label.parse(states["label"]).env,
                                      **tracing.verifier_attributes(getattr(self.episode, "identity", None))})

    async def step(self, states: dict, **kwargs) -> dict:
        self.turns += 1
        with tracing.use(self.span), tracing.span("rlhub.agent.step", {"rlhub.turn": self.turns}):
            return await self._step(states)

    async def _step(self, states: dict) -> dict:
        action_text = states["action_text"]
        if self.problem:
            return await self._failed(self.problem, states)
        try:
            result = await _off_loop(self.episode.step, cut_response(action_text, ""), timeout=self.timeout)
        except (QueueTimeout, asyncio.TimeoutError):
            return await self._failed("timeout", states)
        except Exception:
            return await self._failed("no_verdict", states)
        self.tool_logs = tool_logs(self.episode)
        if not result.done:
            if is_tool_episode(self.episode):
                feedback = tool_feedback(self.format, action_text, result.tool_results, result.notes)
            else:
                feedback = self.format.feedback(action_text, result.observation)
            return self._result("ok", 0.0, False, feedback, False, states)
        verdict = result.verdict
        if verdict is None or verdict.error:
            return await self._failed("no_verdict", states)
        return self._result("ok", float(verdict.reward), bool(verdict.passed), "", True, states)

    async def _failed(self, kind: str, states: dict) -> dict:
        """No verdict: the shared policy's substitute reward and the kind's flags. The episode is
        closed before the sample ends: a step still running in it is killed, its thread returns."""
        await self._close_now()
        return self._result(kind, self.policy.substitute(kind), False, "", True, states)

    async def _close_now(self) -> None:
        episode, self.episode = self.episode, None
        if episode is not None:
            loop = asyncio.get_running_loop()
            try:
                await asyncio.wait_for(loop.run_in_executor(_executor(), episode.close), CLOSE_WAIT_S)
            except Exception:  # closing is best effort here; the sandbox's own teardown is the backstop
                pass

    def _result(self, kind: str, reward: float, passed: bool, feedback: str, done: bool, states: dict) -> dict:
        if done:
            self.close()
            self._end_span(kind, reward, passed)
        logs = {**sample_logs(kind, passed), log_key("turns"): float(self.turns), **self.tool_logs}
        # Intermediate steps earn 0, so OpenRLHF's sum over steps is the final verdict's reward; the
        # final step's score is what OpenRLHF's dynamic filtering reads (NaN: substituted).
        value = torch.tensor(reward, dtype=torch.float32)
        scored = torch.tensor(score(kind, reward), dtype=torch.float32) if done else value
        return {"rewards": value, "scores": scored, "environment_feedback": feedback, "done": done,
                "sampling_params": states.get("sampling_params"), "extra_logs": logs}

    def close(self) -> None:
        """Release the episode (a terminal session holds a sandbox) without blocking the loop."""
        episode, self.episode = self.episode, None
        if episode is not None:
            _executor().submit(episode.close)

    def _end_span(self, kind: str, reward: float, passed: bool) -> None:
        span, self.span = self.span, None
        if span is not None and span.is_recording():
            flags = [kind] if kind != "ok" else []
            attrs = {"rlhub.kind": kind, "rlhub.reward": float(reward), "rlhub.passed": passed,
                     "rlhub.flags": flags + (["substituted"] if flags else []), "rlhub.turns": self.turns}
            if self.error:
                attrs["rlhub.error"] = self.error[:500]
            tracing.end(span, **attrs)

    def __del__(self) -> None:
        # OpenRLHF has no end-of-episode hook: a rollout cut off by its token budget before `done`
        # just drops this instance, so the episode is closed when the instance goes.
        try:
            self.close()
            tracing.end(self.span, **{"rlhub.cut_off": True})  # a rollout cut off before `done`
        except Exception:  # interpreter shutdown: the sandbox's own clean-up takes over
            pass


class RlhubAgentExecutor(MultiTurnAgentExecutor):
    """OpenRLHF's multi-turn executor over rlhub episodes. Loads the registry up front, so a bad
    registry fails the actor's start with its own error instead of every rollout later."""

    def __init__(self) -> None:
        tracing.setup("rlhub-agent")  # exports only if OTEL_EXPORTER_OTLP_ENDPOINT is set
        catalog()
        TurnFormat.parse(os.environ.get(TURN_FORMAT_ENV) or "chatml")
        tool_format_from_env()
        super().__init__(RlhubAgent)
