"""One sample's result on the reward path: a verdict's reward, or the kind of failure."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..core.errors import UserError
from ..core.task import Label
from .policy import Kind, RewardPolicy


@dataclass
class Outcome:
    kind: Kind
    reward: float
    passed: bool = False
    error: str | None = None
    verify_s: float = 0.0
    attempts: int = 1
    worker: str = ""  # where it ran (thread name or Ray node id), for logs
    prompt_mismatch: bool = False  # the query did not contain its prompt (see query.cut)

    def to_dict(self) -> dict[str, Any]:
        """For crossing a process boundary (a Ray actor's reply)."""
        return {"kind": self.kind, "reward": self.reward, "passed": self.passed, "error": self.error,
                "verify_s": self.verify_s, "worker": self.worker}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Outcome":
        return cls(kind=d["kind"], reward=d["reward"], passed=d["passed"], error=d["error"],
                   verify_s=d["verify_s"], worker=d.get("worker", ""))

    @classmethod
    def failed(cls, kind: Kind, error: str, policy: RewardPolicy, **fields: Any) -> "Outcome":
        """A sample without a verdict: the policy's substitute reward for its kind."""
        return cls(kind, policy.substitute(kind), error=error, **fields)


def parse_label(raw: Any, policy: RewardPolicy) -> Label | Outcome:
    """The label, parsed once where a sample enters the reward path; or its bad_label outcome."""
    try:
        return raw if isinstance(raw, Label) else Label.parse(raw)
    except UserError as exc:
        return Outcome.failed("bad_label", str(exc), policy)


def verify_one(catalog: Any, label: Label, response: str, policy: RewardPolicy, worker: str = "") -> Outcome:
    """Grade one response. Never raises: an unknown task, a crash, a sandbox failure each get a kind."""
    start = time.perf_counter()

    def took() -> float:
        return time.perf_counter() - start

    try:
        if catalog.get(label.env).env.is_tool_env:
            # A tool environment's reward is its episode's (the agent file, /episodes, MCP): graded as
            # one response it would pay the twin's answer for no tool work, and 0 for a transcript whose
            # tool results it cannot trust. The run put it on the wrong path: the data's fault.
            return Outcome.failed("bad_label", f"{label.env} is a tool environment: its reward comes from playing its "
                                  "episode (trainer/agent_func.py, POST /episodes, MCP), not from one response",
                                  policy, verify_s=took(), worker=worker)
        verdict = catalog.verify(label, response)
    except UserError as exc:  # unknown environment, index out of range
        return Outcome.failed("bad_label", str(exc), policy, verify_s=took(), worker=worker)
    except Exception as exc:  # catalog.verify does not raise for model output: this is ours
        return Outcome.failed("no_verdict", f"internal error: {type(exc).__name__}: {exc}", policy,
                              verify_s=took(), worker=worker)
    if verdict.error:
        return Outcome.failed("no_verdict", verdict.error, policy, verify_s=took(), worker=worker)
    return Outcome("ok", verdict.reward, passed=bool(verdict.passed), verify_s=took(), worker=worker)
