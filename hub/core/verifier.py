"""Verifiers: reward functions with a typed config and a traceable identity."""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

if TYPE_CHECKING:
    from .variant import Variant
    from ..sandbox import Profile, Sandbox
    from .task import Task

from .errors import TaskError, VerifierError


class VerifierConfig(BaseModel):
    """Base of every verifier's config: unknown keys are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class HiddenData(BaseModel):
    """Base of the `task.hidden` a verifier reads: its contract with environments. Environments
    build it (or a dict of the same shape); unknown keys are errors, so a misspelt field is found
    when the task is generated, not when a model is graded. An environment's own data (wrong
    answers, secrets) belongs in `task.metadata`."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class VerifierIdentity:
    """Which code and which settings produced a reward, so it can be traced and re-scored."""

    name: str
    distribution: str
    version: str
    config_hash: str

    @staticmethod
    def hash_config(config: BaseModel) -> str:
        canonical = json.dumps(config.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@dataclass
class Verdict:
    """The outcome of grading one response.

    `error` set means *no verdict*: the verifier crashed or timed out. That is never a silent
    0: callers decide (the trainer gives a defined reward and flags it; the CLI exits 3).
    """

    reward: float
    passed: bool
    components: dict[str, float] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    verifier: VerifierIdentity | None = None
    error: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.reward, (int, float)) or math.isnan(self.reward):
            raise ValueError(f"reward must be a number, got {self.reward!r}")
        if not 0.0 <= self.reward <= 1.0:
            raise ValueError(f"reward must lie in [0, 1], got {self.reward}")
        self.reward = float(self.reward)

    @classmethod
    def no_verdict(cls, error: str, **details: Any) -> "Verdict":
        return cls(reward=0.0, passed=False, details=details, error=error)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reward": self.reward,
            "passed": self.passed,
            "components": self.components,
            "details": self.details,
            "verifier": asdict(self.verifier) if self.verifier else None,
        }
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class Drawing:
    """A picture a report shows beside a response (`Verifier.drawings`): PNG bytes and, for a
    picture drawn to scale, the length one pixel stands for (`per_px`, in `unit`). Pictures of one
    sample drawn at one scale carry the same `per_px`, so sizes compare by eye."""

    png: bytes
    per_px: float | None = None
    unit: str = "mm"


@dataclass
class VerifyContext:
    """What a verifier may use besides the task and response: the sandbox and its profile.

    The sandbox is created lazily, so verifiers that run no code (exact match) never start one.
    """

    profile: "Profile"
    _sandbox: "Sandbox | None" = None

    @property
    def sandbox(self) -> "Sandbox":
        if self._sandbox is None:
            from ..sandbox import get_sandbox

            self._sandbox = get_sandbox()
        return self._sandbox


class Verifier:
    """Base class of verifiers. Subclasses set `name`, `Config`, and implement `verify`.

    `verify` returns a Verdict for every response, however hostile; it raises `VerifierError`
    only when it cannot reach a verdict (which the caller turns into `Verdict.no_verdict`).
    """

    name: ClassVar[str] = ""
    Config: ClassVar[type[VerifierConfig]] = VerifierConfig
    Hidden: ClassVar[type[HiddenData] | None] = None  # the task.hidden it reads (None: unchecked)

    def __init__(self, config: VerifierConfig | None = None) -> None:
        self.config = config if config is not None else self.Config()

    def verify(self, task: "Task", response: str, ctx: VerifyContext) -> Verdict:  # pragma: no cover
        raise NotImplementedError

    def response_key(self, task: "Task", response: str) -> str | None:
        """What of `response` the verdict depends on (e.g. the extracted code), when the verifier
        can say cheaply; two responses with the same key get the same verdict. The checks use it
        to grade the reference's other forms without rebuilding the same part. None: the whole
        response matters."""
        return None

    # Optional: `render(task, response, path, ctx) -> Verdict` grades and also draws the verdict
    # to a PNG at `path` (`rlhub verify --render`); verifiers that can draw define it.
    render: ClassVar[Any] = None
    # Optional: `drawings(task, response, ctx) -> dict[str, Drawing]`: pictures of the verdict by
    # caption (e.g. "reference" and "candidate" at one scale) for `rlhub eval --report`; anything
    # built from the response is built in the sandbox.
    drawings: ClassVar[Any] = None

    def explain_reward(self, verdict: dict[str, Any]) -> str | None:
        """Why `verdict` (as `Verdict.to_dict()`, e.g. read back from a trajectory) earned its
        reward, in this verifier's terms: the rule its config chose and the figures it applied
        (`rlhub verify --explain`, the eval report). None: nothing to add to the verdict itself."""
        return None

    def hidden(self, task: "Task") -> Any:
        """`task.hidden` as this verifier's `Hidden` model; TaskError names every bad field."""
        if self.Hidden is None:
            return task.hidden
        if isinstance(task.hidden, self.Hidden):
            return task.hidden
        try:
            return self.Hidden.model_validate(task.hidden)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '(hidden)'}: "
                                 f"{'unknown field' if e['type'] == 'extra_forbidden' else e['msg']}" for e in exc.errors())
            where = task.label.env if task.label else "a task"
            raise TaskError(f"{where} made task.hidden that verifier {self.name!r} cannot use: {problems}") from None

    def hacks(self, task: "Task") -> list["Variant"]:
        """Reward hacks against this verifier, shaped for `task` (exit tricks, always-equal
        objects, patched test machinery...). The checks require each to earn at most its
        `max_reward` (normally 0) and never pass."""
        return []

    def right_forms(self, task: "Task") -> list[str]:
        """Other forms of `task.reference` that this verifier's own reading rules accept (unit_tests:
        the code followed by an example-usage block). The checks require each to earn exactly what
        the reference earns (`right_forms_pass`), with the generic forms of hub.checks.forms; keep
        them cheap: a form the verifier reads as the reference (same `response_key`) costs no run."""
        return []

    def cheap_policies(self, task: "Task") -> dict[str, list[str]]:
        """Answers that need no work, by policy name (a constant "0", "yes"...): each policy's
        responses for `task` (several: the policy picks one at random). The checks require each
        policy to earn at most 0.1 on average over many tasks (`cheap_policies_fail`)."""
        return {}


def grade(
    verifier: Verifier, identity: VerifierIdentity | None, task: "Task", response: str, ctx: VerifyContext,
    render_to: str | None = None,
) -> Verdict:
    """Run a verifier the safe way: its crash or timeout is *no verdict*, never the model's fault.
    `render_to`: also draw the verdict to that PNG (verifiers with `render`, e.g. mesh_iou)."""
    start = time.perf_counter()
    try:
        if render_to is not None:
            verdict = verifier.render(task, response, render_to, ctx)
        else:
            verdict = verifier.verify(task, response, ctx)
    except (VerifierError, TaskError) as exc:
        verdict = Verdict.no_verdict(str(exc))
    except Exception as exc:
        verdict = Verdict.no_verdict(f"verifier {verifier.name} crashed: {type(exc).__name__}: {exc}")
    verdict.verifier = identity
    verdict.details.setdefault("verify_s", round(time.perf_counter() - start, 4))
    return verdict
