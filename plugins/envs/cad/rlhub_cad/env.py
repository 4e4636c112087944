"""One rlhub environment per (family, kind): `cad/<family>-<kind>-v1`."""

from __future__ import annotations

import random

from hub import Environment, Task, Variant

from . import mutations
from .family import Family
from .fmt import fence
from .kinds import GRADING, KINDS

_MAX_TRIES = 100


class CadEnvironment(Environment):
    def __init__(self, env_id: str, family: Family, kind: str) -> None:
        super().__init__(env_id)
        if kind not in KINDS:
            raise ValueError(f"unknown CAD task kind {kind!r}; expected one of {sorted(KINDS)}")
        self.family, self.kind = family, kind

    def sample(self, rng: random.Random):
        """Parameters that satisfy the family's constraints (the samplers almost always do first time)."""
        for _ in range(_MAX_TRIES):
            p = self.family.sample(rng)
            if not self.family.violations(p) and (self.kind != "edit" or self.family.valid_edits(p)):
                return p
        raise RuntimeError(f"{self.id}: no valid parameters after {_MAX_TRIES} tries: {self.family.violations(p)}")

    def drawn_script(self, index: int) -> str:
        """The script of the part task `index`'s image shows (the first draw of `generate`)."""
        from hub import rng_for

        return self.family.script(self.sample(rng_for(self.id, index)))

    def prepare(self, indices: list[int]) -> None:
        """Image tasks: start drawing every reference part at once (the warm renderer draws them
        in parallel while the caller makes other tasks)."""
        if self.kind == "image":
            from .render import submit

            submit([self.drawn_script(i) for i in indices])

    def generate(self, rng: random.Random, index: int) -> Task:
        fam = self.family
        built = KINDS[self.kind](fam, self.sample(rng), rng)
        script = fam.script(built.params)
        hidden = {"reference_script": script, "options": {"invariance": "none"}, "features": list(fam.features),
                  "grading": dict(GRADING[self.kind])}
        metadata = {"family": fam.name, "kind": self.kind, "params": built.params,
                    "bbox": [round(v, 3) for v in fam.bbox(built.params)], **(built.extra or {})}
        if built.original is not None:
            metadata["original_script"] = built.original
        return Task(prompt=built.prompt, hidden=hidden, reference=fence(script), metadata=metadata,
                    images=built.images or [])

    def wrong_answers(self, task: Task) -> list[Variant]:
        """The family's mutations of this task's part (and, for edits, the script left unedited)."""
        fam, p = self.family, task.metadata["params"]
        proportions = GRADING[self.kind]["mode"] == "normalised"
        out = [Variant(w.kind, fence(w.script if w.script is not None else fam.script(w.params)), w.size,
                       w.note, w.max_reward) for w in mutations.wrongs(fam, p, proportions)]
        if self.kind == "edit":
            out.append(Variant("unedited", fence(task.metadata["original_script"]), 1.0,
                               f"the script shown, without the edit ({task.metadata['instruction']})", mutations.WRONG_CAP))
        return out

    def wrong_responses(self, task: Task) -> list[str]:
        return [v.response for v in self.wrong_answers(task)]

    def right_answers(self, task: Task) -> list[str]:
        """The same part built another way: the family's alternative construction where it has
        one, else the reference turned a quarter turn and back (a located shape, float noise),
        in a reply with prose around the code."""
        fam, p = self.family, task.metadata["params"]
        script = fam.alternative(p)
        if script is None:
            script = (task.hidden["reference_script"].rstrip("\n") + "\n\n# the same part, turned and turned back\n"
                      "result = result.rotate((0, 0, 0), (0, 0, 1), 90).rotate((0, 0, 0), (0, 0, 1), -90)\n")
        return [f"Here is the part.\n\n{fence(script)}\n\nIt follows the specification."]

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

    def secrets(self, task: Task) -> list[str]:
        """The reference script and its construction lines.

        Edit and repair prompts show an original script on purpose; there the secrets are the
        reference lines that the original lacks (the answer to the edit or the fix).
        """
        ref = task.hidden["reference_script"]
        lines = [ln.strip() for ln in ref.splitlines()]
        if "original_script" in task.metadata:
            shown = {ln.strip() for ln in task.metadata["original_script"].splitlines()}
            lines = [ln for ln in lines if ln not in shown and not ln.startswith("import ")]
        else:
            lines = [ln for ln in lines if "(" in ln and len(ln) >= 16 and not ln.startswith("#")]
        return [ref.strip(), *[ln for ln in lines if ln]]
