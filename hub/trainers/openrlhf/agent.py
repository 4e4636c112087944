"""rlhub episodes driven by OpenRLHF's own multi-turn loop (`--train.agent_func_path`).

`RlhubAgent` is an OpenRLHF `AgentInstanceBase`: `reset` opens the episode the prompt's label
names, `step` plays the model's action in it and returns the observation as feedback text in
the model's chat format, and the verifier's reward when the episode ends. Both run on the vLLM
actor's event loop, so every call into the environment (which may run a sandbox) goes to a
thread with a deadline: a slow or hung verifier costs that one sample a defined reward, never
the loop.
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from ...rewards import FLAGS, PROMPT_MISMATCH, cut_response, log_key
from .reward import catalog, env_float, policy
from ..turn_format import TURN_FORMAT_ENV, TurnFormat

STEP_TIMEOUT_ENV = "RLHUB_STEP_TIMEOUT_S"  # seconds one environment step may take
WORKERS_ENV = "RLHUB_AGENT_WORKERS"  # threads for environment calls in this process

# Every step reports the same keys (the reward file's flags, plus turns): OpenRLHF turns each into
# a per-sample tensor and stacks them.
# The same keys as the reward file's replies (OpenRLHF averages each): prompt_mismatch stays 0
# here, as an agent's actions come without their prompt.
LOG_KEYS = tuple(log_key(k) for k in ("passed", *FLAGS, PROMPT_MISMATCH, "turns"))

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=int(env_float(WORKERS_ENV, 32)), thread_name_prefix="rlhub-env")
        return _pool


async def _off_loop(fn, *args, timeout: float):
    """Run a blocking call in a worker thread; raises asyncio.TimeoutError past `timeout`."""
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(_executor(), fn, *args), timeout)


class RlhubAgent(AgentInstanceBase):
    """One episode of one rlhub environment, for one prompt of a rollout."""

    def __init__(self, *args, **kwargs) -> None:
        self.episode = None
        self.turns = 0
        self.problem: str | None = None  # "bad_label": the episode could not be opened
        self.format = TurnFormat.parse(os.environ.get(TURN_FORMAT_ENV) or "chatml")
        self.timeout = env_float(STEP_TIMEOUT_ENV, 120.0)
        self.policy = policy()

    async def reset(self, states: dict, **kwargs) -> dict:
        try:
            self.episode = await _off_loop(catalog().episode, states["label"], timeout=self.timeout)
            await _off_loop(self.episode.reset, timeout=self.timeout)
        except Exception:  # a bad label, or a task that cannot be built: reported at the first step
            self.problem = "bad_label"
        # The dataset's prompt (already in the chat template) stays the first observation.
        return {"observation": states["observation"]}

    async def step(self, states: dict, **kwargs) -> dict:
        self.turns += 1
        action_text = states["action_text"]
        logs = dict.fromkeys(LOG_KEYS, 0.0)
        logs[log_key("turns")] = float(self.turns)
        if self.problem:
            return self._failed(self.problem, logs, states)
        try:
            result = await _off_loop(self.episode.step, cut_response(action_text, ""), timeout=self.timeout)
        except asyncio.TimeoutError:
            return self._failed("timeout", logs, states)
        except Exception:
            return self._failed("no_verdict", logs, states)
        if not result.done:
            return self._result(0.0, self.format.feedback(action_text, result.observation), False, logs, states)
        verdict = result.verdict
        if verdict is None or verdict.error:
            return self._failed("no_verdict", logs, states)
        logs[log_key("passed")] = float(verdict.passed)
        return self._result(float(verdict.reward), "", True, logs, states)

    def _failed(self, kind: str, logs: dict, states: dict) -> dict:
        """No verdict: the shared policy's substitute reward, and the kind's flag."""
        logs[log_key(kind)] = 1.0
        return self._result(self.policy.substitute(kind), "", True, logs, states)

    def _result(self, reward: float, feedback: str, done: bool, logs: dict, states: dict) -> dict:
        if done:
            self.close()
        # Intermediate steps earn 0, so OpenRLHF's sum over steps is the final verdict's reward.
        value = torch.tensor(reward, dtype=torch.float32)
        return {"rewards": value, "scores": value, "environment_feedback": feedback, "done": done,
                "sampling_params": states.get("sampling_params"), "extra_logs": logs}


    def close(self) -> None:
        """Release the episode (a terminal session holds a sandbox) without blocking the loop."""
        episode, self.episode = self.episode, None
        if episode is not None:
            _executor().submit(episode.close)

    def __del__(self) -> None:
        # OpenRLHF has no end-of-episode hook: a rollout cut off by its token budget before `done`
        # just drops this instance, so the episode is closed when the instance goes.
        try:
            self.close()
        except Exception:  # interpreter shutdown: the sandbox's own clean-up takes over
            pass


class RlhubAgentExecutor(MultiTurnAgentExecutor):
    """OpenRLHF's multi-turn executor over rlhub episodes. Loads the registry up front, so a bad
    registry fails the actor's start with its own error instead of every rollout later."""

    def __init__(self) -> None:
        catalog()
        TurnFormat.parse(os.environ.get(TURN_FORMAT_ENV) or "chatml")
        super().__init__(RlhubAgent)
