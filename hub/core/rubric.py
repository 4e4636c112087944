"""Rubrics: one reward composed of several verifiers.

    rubric:
      - {verifier: unit_tests, weight: 0.8}
      - {verifier: ruff, weight: 0.2, gate: unit_tests}     # counts only if unit_tests passed
      - {verifier: length_penalty, weight: -0.05, config: {max_tokens: 2048}}
    pass: unit_tests                                        # what `passed` means

How the reward is composed (each component's reward r is its verifier's, in [0, 1]):

    W      = the sum of the positive weights
    gain   = the sum, over counted components with weight w > 0, of   w * r
    loss   = the sum, over counted components with weight w < 0, of  |w| * (1 - r)
    reward = min(1, max(0, (gain - loss) / W))

A component *counts* when every component it is gated on ran and passed; one that does not count
is not run at all. A penalty (negative weight) costs its weight times how far its verifier's reward
falls short of 1, so a perfect answer earns exactly 1 and no answer earns less than 0 (the clamp
matters only when penalties outweigh the gains). `passed`: every component named in `pass` ran and
passed (default: every component with a positive weight). A counted component without a verdict
(its tool missing or crashed) makes the whole rubric *no verdict*, naming the component.

The verdict keeps each component's reward, details and identity (`details.parts`); the rubric's
identity hashes the parts' identities (distribution, version, config hash), weights, gates and
`pass`, so a change to any part changes it.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import TYPE_CHECKING, Annotated, Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from . import __version__
from .errors import close_matches
from .rubric_parts import Part, Skipped, run_parts
from .variant import Variant
from .verifier import Verdict, Verifier, VerifierIdentity

if TYPE_CHECKING:
    from .task import Task
    from .verifier import VerifyContext

# A weight is a finite number as written (no "0.5" strings, no booleans).
Weight = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Names = Union[str, list[str], None]
RUBRIC = "rubric"  # the composite's name in its identity


def _names(value: Names) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


class RubricComponent(BaseModel):
    """One `rubric:` entry."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verifier: str = Field(description="a registered verifier's name")
    name: Optional[str] = Field(None, description="the component's name (default: the verifier's); "
                                                  "needed when one verifier appears twice")
    weight: Weight = Field(1.0, description="its share of the reward; negative: a penalty")
    config: dict[str, Any] = Field(default_factory=dict, description="the verifier's config")
    gate: Names = Field(None, description="component(s) that must pass for this one to count")
    profile: Optional[str] = Field(None, description="sandbox profile (default: the environment's)")

    @property
    def key(self) -> str:
        return self.name or self.verifier

    @property
    def gates(self) -> tuple[str, ...]:
        return _names(self.gate)


class RubricSpec(BaseModel):
    """A rubric as written (registry entry or plugin): components and what `passed` means."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    components: list[RubricComponent] = Field(min_length=1)
    pass_: Names = Field(None, alias="pass", description="component(s) that must pass (default: the positive ones)")

    @property
    def passing(self) -> tuple[str, ...]:
        return _names(self.pass_) or tuple(c.key for c in self.components if c.weight > 0)

    def problems(self) -> list[tuple[tuple, str]]:
        """What is wrong with the rubric's structure, as (location, message): names used twice,
        gates or `pass` naming no component (with close matches), gate cycles, no positive weight.
        Locations are those of the registry (`("rubric", 2, "gate")`, `("pass",)`)."""
        out: list[tuple[tuple, str]] = []
        keys = [c.key for c in self.components]
        for j, c in enumerate(self.components):
            if keys.index(c.key) != j:
                out.append((("rubric", j), f"rubric[{j}]: a second component named {c.key!r}: give one of them a `name:`"))
            for g in c.gates:
                if g not in keys:
                    out.append((("rubric", j, "gate"), f"rubric[{j}].gate: {g!r} is not a component of this rubric "
                                                      f"(its components: {', '.join(keys)}){close_matches(g, keys)}"))
        for p in _names(self.pass_):
            if p not in keys:
                out.append((("pass",), f"pass: {p!r} is not a component of this rubric{close_matches(p, keys)}"))
        if not any(c.weight > 0 for c in self.components):
            out.append((("rubric",), "rubric: no component has a positive weight (the reward would have no scale)"))
        cycle = gate_cycle({c.key: c.gates for c in self.components})
        if cycle:
            j = keys.index(cycle[0])
            out.append((("rubric", j, "gate"), f"rubric[{j}].gate: the gates form a cycle: {' -> '.join(cycle)}"))
        return out


def gate_cycle(gates: dict[str, tuple[str, ...]]) -> list[str]:
    """A cycle among `name -> gates` (as a path that returns to its start), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for g in gates.get(node, ()):
            if state.get(g) == 1:
                return path[path.index(g):] + [g]
            if g in gates and g not in state:
                found = visit(g)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return []

    for node in gates:
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def ordered(parts: list[Part]) -> list[Part]:
    """Parts with every gate before the parts it gates, otherwise in the order written."""
    done: set[str] = set()
    out: list[Part] = []
    left = list(parts)
    while left:
        ready = next(p for p in left if all(g in done for g in p.gates))  # acyclic: checked at load
        left.remove(ready)
        out.append(ready)
        done.add(ready.name)
    return out


def rubric_identity(parts: list[Part], passing: tuple[str, ...]) -> VerifierIdentity:
    body = {"parts": [{"name": p.name, **p.describe()} for p in parts], "pass": list(passing)}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
    return VerifierIdentity(RUBRIC, "rlhub", __version__, digest)


class Rubric(Verifier):
    """The composite verifier a registry's `rubric:` resolves to."""

    name = RUBRIC
    Config = RubricSpec

    def __init__(self, spec: RubricSpec, parts: list[Part]) -> None:
        super().__init__(spec)
        self.parts = ordered(parts)
        self.passing = spec.passing
        self.identity = rubric_identity(parts, self.passing)
        self.scale = math.fsum(p.weight for p in parts if p.weight > 0)

    def hidden(self, task: "Task") -> Any:
        for part in self.parts:  # every component's contract with the environment holds
            part.verifier.hidden(task)
        return task.hidden

    def verify(self, task: "Task", response: str, ctx: "VerifyContext") -> Verdict:
        return self.compose(run_parts(self.parts, task, response, ctx))

    def verify_files(self, task: "Task", files: dict[str, str | bytes], ctx: "VerifyContext", response: str = "") -> Verdict:
        """Grade the files a session left in its work dir, as they are (bytes): each part that can
        grade files reads them (unit_tests' `verify_files`, an analyser's `tree_files`); any other
        part grades `response` (the session's text view of its answer)."""
        return self.compose(run_parts(self.parts, task, response, ctx, tree=files))

    def response_key(self, task: "Task", response: str) -> str | None:
        """Every part's key together: the verdict is composed from the parts' verdicts alone."""
        keys = [part.verifier.response_key(task, response) for part in self.parts]
        if any(k is None for k in keys):
            return None
        return "rubric:" + hashlib.sha256(json.dumps(keys).encode("utf-8", "surrogatepass")).hexdigest()

    def compose(self, results: dict[str, Verdict | Skipped]) -> Verdict:
        """The rubric's verdict from its parts' (see the module's docstring for the formula)."""
        details: dict[str, Any] = {}
        gain, loss, terms = [], [], []
        components: dict[str, float] = {}
        failed = None
        for part in self.parts:
            result = results[part.name]
            entry = {**part.describe(), "counted": not isinstance(result, Skipped)}
            details[part.name] = entry
            if isinstance(result, Skipped):
                entry["skipped"] = result.reason
                continue
            entry.update(reward=result.reward, passed=result.passed, details=result.details)
            if result.error is not None:
                entry["error"] = result.error
                failed = failed or f"rubric component {part.name!r} ({part.identity.name}): {result.error}"
                continue
            components[part.name] = result.reward
            if part.weight > 0:
                gain.append(part.weight * result.reward)
                terms.append(f"{part.weight:g}*{result.reward:.4g}")
            elif part.weight < 0:
                loss.append(-part.weight * (1.0 - result.reward))
                terms.append(f"-{-part.weight:g}*(1-{result.reward:.4g})")
        body = {"parts": details, "pass": list(self.passing)}
        if failed:
            return Verdict.no_verdict(failed, **body)
        raw = (math.fsum(gain) - math.fsum(loss)) / self.scale
        reward = min(1.0, max(0.0, raw))
        body["formula"] = f"({' + '.join(terms) or '0'}) / {self.scale:g} = {raw:.4g}" + ("" if raw == reward else f" -> {reward:g}")
        passed = all(not isinstance(results[n], Skipped) and results[n].passed for n in self.passing)
        return Verdict(reward, passed, components=components, details=body)

    def depends_on(self, part: Part, other: Part) -> bool:
        """Does `part` count only if `other` passed (directly or through other gates)?"""
        by_name = {p.name: p for p in self.parts}
        seen, todo = set(), list(part.gates)
        while todo:
            g = todo.pop()
            if g == other.name:
                return True
            if g not in seen:
                seen.add(g)
                todo.extend(by_name[g].gates)
        return False

    def right_forms(self, task: "Task") -> list[str]:
        """Each component's: a form one component reads as the reference must earn the whole
        rubric what the reference earns (every component must read it alike)."""
        return [f for part in self.parts for f in part.verifier.right_forms(task)]

    def hacks(self, task: "Task") -> list[Variant]:
        """Each component's hacks. A hack against one component earns at most what that
        component allows it plus what the components that do not depend on it can give."""
        out = []
        for part in self.parts:
            free = math.fsum(q.weight for q in self.parts
                             if q.weight > 0 and q is not part and not self.depends_on(q, part))
            for h in part.verifier.hacks(task):
                own = max(part.weight, 0.0) * (h.max_reward or 0.0)
                out.append(Variant(f"{part.name}:{h.kind}", h.response, h.size, h.note,
                                   max_reward=min(1.0, (own + free) / self.scale)))
        return out
