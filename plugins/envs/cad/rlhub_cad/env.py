"""CAD part families as rlhub task families (hub.core.family): one environment per (family,
kind), `cad/<family>-<kind>-v1`. A part family (family.py) declares the part; `PartFamily` shows
it through the six task kinds (kinds.py) and derives the hidden data, reference, wrong parts
(mutations.py) and right answers from the part's parameters."""

from __future__ import annotations

import random

from hub import Task, Variant
from hub.core.family import Family as TaskFamily, FamilyEnvironment
from rlhub_mesh.verifier import MeshHidden

from . import mutations, stated
from .family import Family
from .fmt import fence
from .kinds import GRADING, KINDS, Built

_MAX_TRIES = 100


class PartFamily(TaskFamily[Built]):
    """A part family as a task family: the draw is the kind's `Built` (the part's parameters, and
    what the kind made of them: the prompt, the script shown for an edit or a repair, images)."""

    prompts = dict.fromkeys(KINDS, "")  # each kind writes its own prompt (kinds.py)

    def __init__(self, family: Family) -> None:
        self.family, self.name, self.description = family, family.name, family.noun

    def params(self, rng: random.Random, kind: str):
        """Parameters that satisfy the family's constraints (the samplers almost always do first time)."""
        fam = self.family
        for _ in range(_MAX_TRIES):
            p = fam.sample(rng)
            if not fam.violations(p) and (kind != "edit" or fam.valid_edits(p)):
                return p
        raise RuntimeError(f"{fam.name} ({kind}): no valid parameters after {_MAX_TRIES} tries: {fam.violations(p)}")

    def sample(self, rng: random.Random, kind: str) -> Built:
        return KINDS[kind](self.family, self.params(rng, kind), rng)

    def prompt(self, built: Built, kind: str):
        return built.prompt

    def images(self, built: Built, kind: str) -> list[bytes]:
        return list(built.images or [])

    def hidden(self, built: Built, kind: str) -> MeshHidden:
        return MeshHidden(reference_script=self.family.script(built.params), options={"invariance": "none"},
                          features=tuple(self.family.features), grading=stated.grading(self.family, kind, built.params))

    def reference(self, built: Built, kind: str) -> str:
        return fence(self.family.script(built.params))

    def metadata(self, built: Built, kind: str) -> dict:
        fam, p = self.family, built.params
        meta = {"params": p, "bbox": [round(v, 3) for v in fam.bbox(p)], **(built.extra or {})}
        if built.original is not None:
            meta["original_script"] = built.original
        return meta

    def wrong(self, built: Built, kind: str) -> list[Variant]:
        """Wrong parts of this part: one or more for every property the kind's prompt states
        (stated.py: counts +-1, features left off or on another face, sizes off by a few
        tolerances, a sealed void), the family's own mutations (moves, the bare body), and, for
        edits, the script left unedited. Raises mutations.Uncovered where a stated property has
        none."""
        fam, p = self.family, built.params
        proportions = GRADING[kind]["mode"] == "normalised"
        grading = stated.grading(fam, kind, p)
        out, seen = [], set()
        for w in mutations.wrongs(fam, p, proportions) + mutations.derived(fam, p, kind, grading) + mutations.hidden(fam, p, kind):
            response = fence(w.script if w.script is not None else fam.script(w.params))
            if response not in seen:  # a declared property and a family mutation can make the same part
                seen.add(response)
                out.append(Variant(w.kind, response, w.size, w.note + (f" [{w.stated}]" if w.stated else ""), w.max_reward))
        if kind == "edit":
            out.append(Variant("unedited", fence(built.original), 1.0,
                               f"the script shown, without the edit ({built.extra['instruction']})", mutations.WRONG_CAP))
        return out

    def right(self, built: Built, kind: str) -> list[str]:
        """The same part built another way: the family's alternative construction where it has
        one, else the reference turned a quarter turn and back (a located shape, float noise),
        in a reply with prose around the code."""
        fam, p = self.family, built.params
        script = fam.alternative(p)
        if script is None:
            script = (fam.script(p).rstrip("\n") + "\n\n# the same part, turned and turned back\n"
                      "result = result.rotate((0, 0, 0), (0, 0, 1), 90).rotate((0, 0, 0), (0, 0, 1), -90)\n")
        out = [f"Here is the part.\n\n{fence(script)}\n\nIt follows the specification."]
        return out + [fence(s) for s in turned(fam.script(p), fam.free(p, kind))]

    def secrets(self, built: Built, kind: str, task: Task) -> list[str]:
        """The reference script and its construction lines.

        Edit and repair prompts show an original script on purpose; there the secrets are the
        reference lines that the original lacks (the answer to the edit or the fix).
        """
        ref = self.family.script(built.params)
        lines = [ln.strip() for ln in ref.splitlines()]
        if built.original is not None:
            shown = {ln.strip() for ln in built.original.splitlines()}
            lines = [ln for ln in lines if ln not in shown and not ln.startswith("import ")]
        else:
            lines = [ln for ln in lines if "(" in ln and len(ln) >= 16 and not ln.startswith("#")]
        return [ref.strip(), *[ln for ln in lines if ln]]


class CadEnvironment(FamilyEnvironment):
    def __init__(self, env_id: str, family: Family | PartFamily, kind: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown CAD task kind {kind!r}; expected one of {sorted(KINDS)}")
        super().__init__(env_id, family if isinstance(family, PartFamily) else PartFamily(family), kind)

    @property
    def part(self) -> Family:
        return self.family.family

    def sample(self, rng: random.Random):
        """Valid parameters of this environment's part, drawn from `rng` (the draw tasks start with)."""
        return self.family.params(rng, self.kind)

    def drawn_script(self, index: int) -> str:
        """The script of the part task `index`'s image shows (the first draw of `generate`)."""
        from hub import rng_for

        return self.part.script(self.family.params(rng_for(self.seed_id, index), self.kind))

    def prepare(self, indices: list[int]) -> None:
        """Image tasks: start drawing every reference part at once (the warm renderer draws them
        in parallel while the caller makes other tasks)."""
        if self.kind == "image":
            from .render import submit

            submit([self.drawn_script(i) for i in indices])


def turned(script: str, free: dict) -> list[str]:
    """The reference placed as the prompt also allows (Family.free): turned by each free
    symmetry, and by an odd angle (17 degrees) about a free spin axis."""
    import numpy as np

    from rlhub_mesh.placement import rotation

    out = []
    turns = [np.asarray(m, dtype=float).reshape(4, 4) for m in free.get("symmetries", ())]
    if free.get("spin"):
        turns.append(rotation(*free["spin"], np.radians(17.0)))
    for m in turns:
        axis, angle, point = _axis_angle(m)
        if axis is None:
            continue
        out.append(script.rstrip("\n") + "\n\n# placed as the prompt leaves free\n"
                   f"result = result.rotate({_pt(point)}, {_pt(point + axis)}, {angle:.10g})\n")
    return out


def _pt(v) -> str:
    return "(" + ", ".join(f"{float(c):.10g}" for c in v) + ")"


def _axis_angle(m):
    """(unit axis, degrees, a point on the axis) of a proper rotation about a fixed axis; (None,
    None, None) for anything else (mirrors, screws)."""
    import numpy as np

    rot, t = m[:3, :3], m[:3, 3]
    if np.linalg.det(rot) < 0:
        return None, None, None
    w, v = np.linalg.eig(rot)
    axis = np.real(v[:, np.argmin(np.abs(w - 1))])
    axis = axis / np.linalg.norm(axis)
    angle = float(np.degrees(np.arctan2(np.dot(axis, [rot[2, 1] - rot[1, 2], rot[0, 2] - rot[2, 0], rot[1, 0] - rot[0, 1]]),
                                        np.trace(rot) - 1)))
    if abs(float(np.dot(t, axis))) > 1e-9:  # a screw: not a rotation about a fixed axis
        return None, None, None
    point = np.linalg.lstsq(np.eye(3) - rot, t, rcond=None)[0]
    return axis, angle, point
