"""One sample's result on the reward path: a verdict's reward, or the kind of failure."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .. import tracing
from ..core.errors import UserError
from ..core.task import Label
from .policy import FLAGS, PROMPT_MISMATCH, Kind, RewardPolicy


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

    def span_attributes(self, flags: bool = True) -> dict[str, Any]:
        """The verdict as span attributes: kind, reward, passed, and (`flags`) the flags the reply
        logs for it. Few on purpose: each costs the reward path a few microseconds."""
        attrs: dict[str, Any] = {"rlhub.kind": self.kind, "rlhub.reward": float(self.reward),
                                 "rlhub.passed": bool(self.passed)}
        if flags:
            attrs["rlhub.flags"] = [f for f in FLAGS if self.kind == f] + (["substituted"] if self.kind != "ok" else []) \
                + ([PROMPT_MISMATCH] if self.prompt_mismatch else [])
        if self.error:
            attrs["rlhub.error"] = self.error[:500]
        return attrs

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


def verify_one(catalog: Any, label: Label, response: str, policy: RewardPolicy, worker: str = "",
               attributes: dict[str, Any] | None = None) -> Outcome:
    """Grade one response. Never raises: an unknown task, a crash, a sandbox failure each get a kind.
    Its span (`rlhub.verify`) carries `attributes` besides the verdict's and the verifier's."""
    with tracing.span("rlhub.verify", {"rlhub.env": label.env, "rlhub.worker": worker, **(attributes or {})}) as span:
        outcome = _verify(catalog, label, response, policy, worker, span)
        if span.is_recording():  # the flags are the sample's (they depend on more than this attempt)
            span.set_attributes(outcome.span_attributes(flags=False))
        return outcome


def _verify(catalog: Any, label: Label, response: str, policy: RewardPolicy, worker: str, span: Any) -> Outcome:
    start = time.perf_counter()

    def took() -> float:
        return time.perf_counter() - start

    try:
        renv = catalog.get(label.env)
        if span.is_recording():
            span.set_attributes(tracing.verifier_attributes(renv.identity))
        if renv.env.is_tool_env:
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
