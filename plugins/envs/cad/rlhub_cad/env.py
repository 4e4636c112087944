"""CAD part families as rlhub task families (hub.core.family): one environment per (family,
kind), `cad/<family>-<kind>-v1`. A part family (family.py) declares the part; `PartFamily` shows
it through the six task kinds (kinds.py) and derives the hidden data, reference, wrong parts
(mutations.py) and right answers from the part's parameters."""

from __future__ import annotations

import random

from hub import Task, Variant
from hub.core.family import Family as TaskFamily, FamilyEnvironment
from rlhub_mesh.verifier import MeshHidden

from . import mutations
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
                          features=tuple(self.family.features), grading=GRADING[kind])

    def reference(self, built: Built, kind: str) -> str:
        return fence(self.family.script(built.params))

    def metadata(self, built: Built, kind: str) -> dict:
        fam, p = self.family, built.params
        meta = {"params": p, "bbox": [round(v, 3) for v in fam.bbox(p)], **(built.extra or {})}
        if built.original is not None:
            meta["original_script"] = built.original
        return meta

    def wrong(self, built: Built, kind: str) -> list[Variant]:
        """The family's mutations of this part (and, for edits, the script left unedited)."""
        fam, p = self.family, built.params
        proportions = GRADING[kind]["mode"] == "normalised"
        out = [Variant(w.kind, fence(w.script if w.script is not None else fam.script(w.params)), w.size,
                       w.note, w.max_reward) for w in mutations.wrongs(fam, p, proportions)]
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
        return [f"Here is the part.\n\n{fence(script)}\n\nIt follows the specification."]

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

        return self.part.script(self.family.params(rng_for(self.id, index), self.kind))

    def prepare(self, indices: list[int]) -> None:
        """Image tasks: start drawing every reference part at once (the warm renderer draws them
        in parallel while the caller makes other tasks)."""
        if self.kind == "image":
            from .render import submit

            submit([self.drawn_script(i) for i in indices])

    def drawings(self, task: Task, response: str, ctx) -> dict[str, bytes]:
        """The reference part's drawing and, built in the sandbox, the response's (for reports)."""
        from hub.core.response import read

        from .render import draw_candidate, render_png

        out = {"reference": render_png(task.hidden["reference_script"])}
        script = read(response).code("python")
        candidate = draw_candidate(script, ctx) if script and script.strip() else None
        if candidate is not None:
            out["candidate"] = candidate
        return out
