"""Task kinds: how one family's part becomes a prompt, a hidden target and a reference.

Text kinds (abstract, dimensioned, steps, edit, repair) are pure string work. The image kind
asks `render` for a drawing of the reference, which builds geometry in a subprocess and is
cached on disk.
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass


from . import bugs
from .family import Family, Params
from .fmt import fence

RULES = (
    "Write it as a CadQuery script: units are millimetres; import only `cadquery` (as `cq`) and, "
    "if needed, `math`; read and write no files; leave the finished part, one solid, in a "
    "variable named `result`. Reply with the script in a single ```python code block."
)


@dataclass
class Built:
    """What a kind makes from a family's parameters, before it becomes a Task."""

    prompt: object
    params: Params              # the reference part's parameters
    original: str | None = None  # the script shown in the prompt (edit, repair)
    extra: dict | None = None
    images: list[bytes] | None = None


def _abstract(fam: Family, p: Params, rng: random.Random) -> Built:
    text = (f"Model {fam.abstract(p)}. Its overall size is {fam.size(p)}, placed {fam.frame}.\n\n{RULES}")
    return Built(text, p)


def _dimensioned(fam: Family, p: Params, rng: random.Random) -> Built:
    text = f"Model this part in CadQuery. {fam.dimensioned(p)}\nPlace it {fam.frame}.\n\n{RULES}"
    return Built(text, p)


def _steps(fam: Family, p: Params, rng: random.Random) -> Built:
    steps = "\n".join(f"{i}. {s}" for i, s in enumerate(fam.steps(p), 1))
    text = f"Build {fam.abstract(p)} in CadQuery by following these steps:\n{steps}\n\n{RULES}"
    return Built(text, p)


def _edit(fam: Family, p: Params, rng: random.Random) -> Built:
    edits = fam.valid_edits(p)
    edit = edits[rng.randrange(len(edits))]
    original = fam.script(p)
    text = (f"Here is a CadQuery script for {fam.abstract(p)}:\n\n{fence(original)}\n\n"
            f"Change it: {edit.instruction} Keep everything else as it is. {RULES}")
    return Built(text, edit.params, original=original, extra={"instruction": edit.instruction})


def _repair(fam: Family, p: Params, rng: random.Random) -> Built:
    bug = bugs.inject(fam.script(p), rng)
    text = (f"This CadQuery script should model {fam.abstract(p)}, but {bug.symptom}.\n\n{fence(bug.broken)}\n\n"
            f"Find and fix the bug, changing nothing else. {RULES}")
    return Built(text, p, original=bug.broken, extra={"bug": bug.name})


def _image(fam: Family, p: Params, rng: random.Random) -> Built:
    from .render import render_png

    png = render_png(fam.script(p))
    text = (f"The image is a technical drawing of a part: top view (left) and an isometric "
            f"view (right); hidden edges are dotted. It shows {fam.abstract(p)}. Its overall size is "
            f"{fam.size(p)}, placed {fam.frame}. Estimate the other dimensions from the drawing, which is to scale.\n\n{RULES}")
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    prompt = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}},
                                           {"type": "text", "text": text}]}]
    return Built(prompt, p, images=[png])


# The tolerance each kind's prompt implies, for the verifier (rlhub_mesh.grading): prompts that
# state every number are graded in mm; abstract and image prompts state the overall size and the
# frame but no feature sizes, so features count by kind, presence and rough place and size.
# Volumes: within half the reference's in abstract tasks (walls are left to the model), a quarter
# in image tasks (the drawing shows them to scale); stated.grading adds what each family's
# prompt states to `require`.
GRADING = {
    "abstract": {"mode": "normalised", "pos_rel": 0.15, "size_rel": 0.35, "entry": False, "volume_rel": 0.5},
    "dimensioned": {"mode": "absolute"},
    "steps": {"mode": "absolute"},
    "edit": {"mode": "absolute"},
    "repair": {"mode": "absolute"},
    "image": {"mode": "normalised", "pos_rel": 0.05, "size_rel": 0.2, "entry": True, "volume_rel": 0.25},
}

KINDS = {
    "abstract": _abstract,
    "dimensioned": _dimensioned,
    "steps": _steps,
    "edit": _edit,
    "repair": _repair,
    "image": _image,
}
TEXT_KINDS = tuple(k for k in KINDS if k != "image")
