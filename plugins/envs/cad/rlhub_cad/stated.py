"""What each task kind's prompt states or its image shows, per family: the one declaration that
both the grading and the wrong parts are derived from.

A family lists `Stated` items (`Family.stated`): a count (fins, vents, bolt holes), a feature's
presence (vent slots, a lid lip, a chamfer, a V groove), the face a feature is on, the number of
a shaft's steps, whether the part is hollow, a feature size or a wall thickness, the form of
a feature the prompt names (involute teeth), each with the
task kinds that state it and the measured kinds (rlhub_mesh.grading) it shows up in. Then:

- `grading(fam, kind, p)`: the kind's tolerances (kinds.GRADING) with every measured kind of
  the kind's stated items required to match one to one (so in abstract and image tasks a count
  off by one, a missing feature or one on another face fails, not only holes and slots), and
  the placements the prompt leaves free (`Family.free`);
- `mutations.derived`: every stated item of the kind gets its wrong parts (a count +-1, the
  feature left off, moved to another face, a size off by a few tolerances, a sealed void), and
  a stated item that gets none is an error (`Uncovered`), not a silent gap.

In the kinds whose prompt states every number (dimensioned, steps, edit, repair) every length
parameter of the part is stated as well (`Family.lengths`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

ALL = ("abstract", "dimensioned", "steps", "edit", "repair", "image")
EXACT = ("dimensioned", "steps", "edit", "repair")  # the prompt (or the script it shows) states every number
SHOWN = ("image",) + EXACT  # ... or the drawing shows it, to scale
DEFAULT_REQUIRE = ("hole", "slot", "bore", "teeth")  # what every proportions-graded kind matches one to one

WHATS = ("count", "presence", "face", "steps", "hollow", "size", "wall", "extent", "form")
TOOTH_FORM_TOL = 0.1  # rlhub_mesh.grading.tooth_form: every involute passes within 0.05, a star misses by 0.18


@dataclass(frozen=True)
class Stated:
    """One property a prompt states (or an image shows).

    `param`: the family parameter (count, size, wall, extent), or the script option that makes
    the wrong part for presence, face, steps and hollow ("omit": the family's `script(omit=True)`;
    else `p[param] = value`)."""

    what: str
    param: str
    feature: str
    kinds: tuple[str, ...] = ALL
    grades: tuple[str, ...] = ()  # measured kinds the grader must match for it (rlhub_mesh.grading.KINDS)
    value: object = True  # presence / face / hollow / steps: the option's value for the wrong part
    when: Callable[[dict], bool] = field(default=lambda p: True, compare=False)

    def __post_init__(self) -> None:
        if self.what not in WHATS:
            raise ValueError(f"unknown stated property {self.what!r}; one of {WHATS}")

    @property
    def label(self) -> str:
        return f"{self.what}: {self.feature}"


def count(param, feature, kinds=ALL, grades=(), when=None) -> Stated:
    return Stated("count", param, feature, kinds, grades, when=when or (lambda p: True))


def presence(option, feature, kinds=ALL, grades=(), when=None) -> Stated:
    """The feature is there: the wrong part leaves it off (`option` "omit", or a script option set True)."""
    return Stated("presence", option, feature, kinds, grades, when=when or (lambda p: True))


def face(option, value, feature, kinds=ALL, grades=(), when=None) -> Stated:
    """The face a feature is on: the wrong part has `p[option] = value` (the other face)."""
    return Stated("face", option, feature, kinds, grades, value, when=when or (lambda p: True))


def steps(option, feature, kinds=ALL, grades=("boss", "plane")) -> Stated:
    """How many steps (diameters) a part has: the wrong parts have `p[option]` = -1 and +1."""
    return Stated("steps", option, feature, kinds, grades)


def hollow(option, feature, kinds=ALL, grades=()) -> Stated:
    """The part is hollow: the wrong part is solid (`option` as for presence)."""
    return Stated("hollow", option, feature, kinds, grades)


def size(param, feature, kinds=SHOWN, grades=()) -> Stated:
    """A feature size the image shows (graded as a proportion) or the prompt states (in mm)."""
    return Stated("size", param, feature, kinds, grades)


def wall(param, feature, kinds=SHOWN) -> Stated:
    """A wall thickness: graded through the volume where only proportions are stated."""
    return Stated("wall", param, feature, kinds)


def form(feature, kinds=ALL, grades=("teeth",)) -> Stated:
    """The form of a feature the prompt names (involute teeth): the wrong parts are the family's
    `wrong_forms` (other forms with the count and the circles right); graded as `tooth_form`."""
    return Stated("form", "form", feature, kinds, grades)


def for_kind(fam, p: dict, kind: str) -> list[Stated]:
    """The family's stated items for this kind and part, with every length in the exact kinds."""
    items = [s for s in fam.stated if kind in s.kinds and s.when(p)]
    if kind in EXACT:
        named = {s.param for s in items}
        items += [Stated("size", k, k.replace("_", " "), EXACT) for k in fam.lengths(p) if k not in named]
    items.append(Stated("hollow", "void", "no sealed void inside the solid"))  # every part, every kind
    return items


def grading(fam, kind: str, p: dict) -> dict:
    """The task's grading (rlhub_mesh.grading.Grading, as a dict): the kind's tolerances, the
    measured kinds its stated items need, the placements its prompt leaves free."""
    from .kinds import GRADING

    out = dict(GRADING[kind])
    if out["mode"] == "normalised":
        need = list(DEFAULT_REQUIRE)
        for s in for_kind(fam, p, kind):
            need += [g for g in s.grades if g not in need]
        out["require"] = tuple(need)
        if any(s.what == "form" for s in for_kind(fam, p, kind)):
            out["tooth_form"] = TOOTH_FORM_TOL
        if fam.free_shape:  # an extra face of another kind blocks the pass (compare.extra_blocks)
            out["free_shape"] = tuple(fam.free_shape)
            if fam.free_axis is not None:
                out["free_axis"] = tuple(fam.free_axis)
    out.update(fam.free(p, kind))
    return out


def table() -> str:
    """The declarations as a Markdown table (the mesh verifier's README carries it)."""
    import random

    from .families import FAMILIES

    def kinds_of(s: Stated) -> str:
        if s.kinds == ALL:
            return "all"
        if s.kinds == SHOWN:
            return "image + exact"
        return ", ".join(s.kinds)

    rows = ["| family | stated (kinds) | abstract requires | image requires | free placement |", "|---|---|---|---|---|"]
    for fam in FAMILIES:
        p = fam.sample(random.Random(0))
        items = "; ".join(f"{s.what} {s.feature} ({kinds_of(s)})" for s in fam.stated)
        req = {k: [g for g in grading(fam, k, {**p, "fins": 3} if fam.name == "heat-sink" else p)["require"]
                   if g not in DEFAULT_REQUIRE] for k in ("abstract", "image")}
        free = {k: sorted(fam.free({**p, "fins": 3} if fam.name == "heat-sink" else p, k)) for k in ALL}
        free_txt = ", ".join(f"{k}: {'/'.join(v)}" for k, v in free.items() if v) or "none"
        rows.append(f"| {fam.name} | {items} | {', '.join(req['abstract']) or '-'} | {', '.join(req['image']) or '-'} | {free_txt} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
