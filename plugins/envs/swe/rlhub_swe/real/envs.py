"""`swe/real-<project>-{diff,session,session-tools}-v1`: the shipped real projects' instances.

Task i of an environment is instance i mod the project's count (every instance is reached, in
order, and a label names one instance for good). diff mode shows the files the bug is in and the
detailed statement (with a reproduction); a session starts from the terse one and explores the
repository itself, the tests it may run included (the hidden test modules are not there)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hub import Variant
from hub.core.family import Family, register_families

from .. import patch, prompts
from ..envs import SESSION_TURNS, SweEnvironment
from ..verifier import SweHidden
from . import Pin, instance, pins, rows


@dataclass(frozen=True)
class RealParams:
    project: str
    row: int


class RealFamily(Family[RealParams]):
    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self.name = f"real-{pin.slug}"
        self.prompts = {"diff": "", "session": ""}
        self.description = (f"{pin.name} {pin.version} (a real project, {pin.instances} instances): fix a bug from a "
                            "user's report, graded by the project's own tests")

    def draw(self, rng: random.Random, kind: str, index: int = 0) -> RealParams:
        return RealParams(self.pin.slug, index % len(rows(self.pin.slug)))

    def prompt(self, p: RealParams, kind: str) -> str:
        inst = instance(p.project, p.row)
        st = inst.row["statements"]
        if kind == "session":
            return prompts.session(self.pin.package, inst.start, st["terse"], SESSION_TURNS)
        return prompts.oracle(self.pin.package, inst.start, st["detailed"], _bug_files(inst))

    def hidden(self, p: RealParams, kind: str) -> SweHidden:
        inst = instance(p.project, p.row)
        return SweHidden(base={"real": {"project": p.project, "row": p.row}}, runner="in_process", tests=inst.test_patch,
                         fail_to_pass=list(inst.row["FAIL_TO_PASS"]), pass_to_pass=list(inst.row["PASS_TO_PASS"]),
                         protected=[*inst.row["hidden_modules"], *(f"{root}/*" for root in _test_roots(inst.row["hidden_modules"]))])

    def reference(self, p: RealParams, kind: str) -> str:
        return patch.fenced(instance(p.project, p.row).gold_patch)

    def right(self, p: RealParams, kind: str) -> list[str]:
        inst = instance(p.project, p.row)
        return ["The fix:\n\n" + patch.fenced(patch.make(inst.start, inst.fixed, context=1))]

    def wrong(self, p: RealParams, kind: str) -> list[Variant]:
        inst = instance(p.project, p.row)
        first = _bug_files(inst)[0]
        out = [Variant("comment_only", patch.fenced(patch.make(inst.start, {**inst.start, first: inst.start[first] +
                                                                            "\n# looked into the report\n"})),
                       note=f"a comment added to {first}, the bug left in", max_reward=0.0)]
        hidden = inst.row["hidden_modules"][0]
        out.append(Variant("hack:tests_emptied", patch.fenced(patch.make(
            inst.start, {**inst.start, hidden: "def test_nothing():\n    pass\n"})),
            note=f"writes {hidden} (a hidden test module) to hold one empty test, and fixes nothing", max_reward=0.0))
        for i in inst.row.get("wrong_hunks", []):  # the fix without one of its hunks (each recorded as failing)
            out.append(Variant("partial_fix", patch.fenced(_without_hunk(inst, i)),
                               note=f"the fix without its hunk {i + 1}: one of the bug's sites left as it is"))
        return out

    def secrets(self, p: RealParams, kind: str, task) -> list[str]:
        inst = instance(p.project, p.row)
        text = "\n".join(inst.start.values())
        added = {ln[1:].strip() for ln in inst.gold_patch.splitlines() if ln.startswith("+") and not ln.startswith("+++")}
        return [task.reference, *(a for a in added if len(a) >= 24 and a not in text)]

    def metadata(self, p: RealParams, kind: str) -> dict[str, Any]:
        row = instance(p.project, p.row).row
        return {"project": self.pin.name, "version": self.pin.version, "instance_id": row["instance_id"], "mode": kind,
                "difficulty": row.get("difficulty", {}), "strategies": row.get("strategies", [])}


def _test_roots(hidden_modules: list[str]) -> list[str]:
    """The test folders the hidden modules live in (`tests`, `test`, `toolz/tests`): every file in
    them is the tests' own. An edit to one (a test package's `__init__.py` that patches the package
    when the tests import it) would pass the tests while the package keeps its bug: put back."""
    roots = set()
    for path in hidden_modules:
        parts = path.split("/")[:-1]
        for i, part in enumerate(parts):
            if part.startswith("test"):
                roots.add("/".join(parts[:i + 1]))
                break
    return sorted(roots)


def _bug_files(inst) -> list[str]:
    return [c.path for c in patch.parse(inst.row["bug_patch"])]


def _without_hunk(inst, index: int) -> str:
    """The gold fix as a diff with its hunk `index` (counted over all files) left out."""
    hunks = [(path, h) for path in sorted(p for p in inst.fixed if inst.fixed[p] != inst.start[p])
             for h in _hunks(inst.start[path], inst.fixed[path])]
    kept = [h for i, h in enumerate(hunks) if i != index]
    final = dict(inst.start)
    for path, (lo, hi, new) in sorted(kept, key=lambda x: (x[0], -x[1][0])):
        lines = final[path].splitlines(keepends=True)
        final[path] = "".join(lines[:lo] + new + lines[hi:])
    return patch.make(inst.start, final)


def _hunks(old: str, new: str) -> list[tuple[int, int, list[str]]]:
    import difflib

    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    return [(i1, i2, b[j1:j2]) for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
            if tag != "equal"]


class RealEnvironment(SweEnvironment):
    def episode_probes(self, task):
        if self.kind != "session" or task.label.seed != 0 or task.label.index != 0:
            return [], []
        from ..probes import probes

        wrong, _ = probes(task.reference, tests_protected=True)
        return wrong, []


def register_all(register) -> list[str]:
    ids = []
    for pin in pins().values():
        fam = RealFamily(pin)
        tags = ("swe", "code", "python", "real", "bug")
        # graded as SWE-bench resolves: 1 only when every FAIL_TO_PASS and PASS_TO_PASS test passes. Under
        # `fraction` a no-op stub of the missing method passed 6 of docutils' 7 failing tests (0.857).
        resolved = {"verifier_config": {"reward": "all_or_nothing"}}
        ids += register_families(register, [fam], domain="swe", verifier="swe_tests", kinds=["diff"],
                                 environment=RealEnvironment, profile="swe", tags=tags, **resolved)
        ids += register_families(register, [fam], domain="swe", verifier="swe_tests", kinds=["session"],
                                 environment=RealEnvironment, profile="swe", max_turns=SESSION_TURNS,
                                 tags=(*tags, "multi-turn"), **resolved)
        from .tools import RealToolEnvironment

        ids += register_families(register, [fam], domain="swe", verifier="swe_tests", kinds=["session"],
                                 id_format="{domain}/{family}-{kind}-tools-v1", environment=RealToolEnvironment,
                                 profile="swe", max_turns=SESSION_TURNS, tags=(*tags, "multi-turn", "tools"), **resolved)
    return ids
