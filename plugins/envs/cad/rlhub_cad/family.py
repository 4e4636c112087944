"""The part-family contract: sample parameters, write the script, describe the part.

A family is pure text work: nothing here builds geometry, so prompts stay cheap. Validity
constraints live in `violations`, which the sampler must satisfy for every seed (a property
test checks it) and which filters edits and wrong answers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

Params = dict[str, Any]


@dataclass(frozen=True)
class Edit:
    """A code edit task: what the user asks for, and the parameters after it."""

    instruction: str
    params: Params


class Family:
    name: str = ""            # id fragment: cad/<name>-<kind>-v1
    noun: str = ""            # "a mounting plate", used in prose
    frame: str = "centred on the origin in X and Y, with its base on the XY plane (Z from 0 up)"
    features: tuple[str, ...] = ()   # feature checks that matter to the mesh verifier
    omit: str = ""            # the feature `script(p, omit=True)` leaves out (for wrong answers)
    unscaled: tuple[str, ...] = ()   # float parameters that are not lengths (angles, ratios)
    mutations: tuple = ()     # how to make wrong parts from the parameters (see mutations.py)
    stated: tuple = ()        # what each kind's prompt states or image shows (see stated.py)
    derived: tuple[str, ...] = ()  # length parameters that follow from others (not stated on their own)
    free_shape: tuple[str, ...] = ()  # measured kinds whose faces' shape no proportions-graded prompt fixes
    free_axis: tuple[float, float, float] | None = None  # ... only those running along this axis
    bare_note: str = "every feature left off"

    # -- to implement --------------------------------------------------------------------------
    def sample(self, rng: random.Random) -> Params:
        raise NotImplementedError

    def violations(self, p: Params) -> list[str]:
        """Broken validity constraints, in words (empty: the part is sane)."""
        return []

    def script(self, p: Params, omit: bool = False) -> str:
        raise NotImplementedError

    def abstract(self, p: Params) -> str:
        """One sentence, no exact feature sizes."""
        raise NotImplementedError

    def dimensioned(self, p: Params) -> str:
        """A full specification: with `frame`, it determines the part."""
        raise NotImplementedError

    def steps(self, p: Params) -> list[str]:
        """Modelling steps a good engineer would follow, with every dimension."""
        raise NotImplementedError

    def edits(self, p: Params) -> list[Edit]:
        raise NotImplementedError

    def wrong(self, p: Params) -> Params:
        """A plausible part of the same family with one parameter wrong."""
        raise NotImplementedError

    def bbox(self, p: Params) -> tuple[float, float, float, float, float, float]:
        """(xmin, ymin, zmin, xmax, ymax, zmax) of the part, from the parameters alone."""
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------------
    def scaled(self, p: Params, k: float) -> Params:
        """Every length multiplied by k (counts, angles and flags unchanged)."""
        return {key: (v * k if isinstance(v, float) and key not in self.unscaled else v) for key, v in p.items()}

    def bare(self, p: Params) -> str:
        """The script of the body with every feature left off (holes, slots, fillets...): the
        right outer shape and nothing else. By default the script without its main feature."""
        return self.script(p, omit=True)

    def alternative(self, p: Params) -> str | None:
        """The same part built another way (a sketch for a box, explicit cuts for a hole
        command), for the checks' right answers; None where the family has none."""
        return None

    def lengths(self, p: Params) -> list[str]:
        """The length parameters a prompt that states every number states (non-zero floats that
        are not angles or ratios and do not follow from others)."""
        inert = self.inert(p)
        return [k for k, v in p.items() if isinstance(v, float) and v != 0
                and k not in self.unscaled and k not in self.derived and k not in inert and k != "shift_x"]

    def inert(self, p: Params) -> frozenset[str]:
        """Length parameters that shape nothing for these values (the pitch of a row of one hole):
        no size of the part, so no wrong part can be made by changing them."""
        return frozenset()

    def solid_spot(self, p: Params) -> tuple[float, float, float, float]:
        """(x, y, z, r): a ball inside the material, clear of every feature, where a wrong part
        hides a sealed void."""
        raise NotImplementedError(f"{self.name}: no solid_spot, so no sealed-void wrong part")

    def voided(self, p: Params) -> str:
        """The reference with a sealed spherical void inside the material: right outside, hollow inside."""
        from .fmt import n

        x, y, z, r = self.solid_spot(p)
        return (self.script(p).rstrip("\n") + "\n\n# A sealed void inside the material.\n"
                f'result = result.cut(cq.Workplane("XY").sphere({n(r)}).translate(({n(x)}, {n(y)}, {n(z)})))\n')

    def vented(self, p: Params) -> str:
        """The reference with a hidden pocket inside the material, reached from outside only by a
        pinhole running down (-Z) out of the part: no sealed void, the outside unchanged but for
        the pinhole's mouth, and walls inside that the reference lacks."""
        from .fmt import n

        x, y, z, r = self.solid_spot(p)
        side, pin = 1.1 * r, 0.25 * r  # a cube inside the ball (half diagonal 0.95 r), a pin a quarter of it
        depth = z - self.bbox(p)[2] + 1.0  # from the pocket's centre to below the part
        return (self.script(p).rstrip("\n") + "\n\n# A hidden pocket, vented by a pinhole out of the bottom.\n"
                f'pocket = cq.Workplane("XY").box({n(side)}, {n(side)}, {n(side)}).translate(({n(x)}, {n(y)}, {n(z)}))\n'
                f'pin = cq.Workplane("XY").box({n(pin)}, {n(pin)}, {n(depth)}, centered=(True, True, False))'
                f".translate(({n(x)}, {n(y)}, {n(z - depth)}))\n"
                "result = result.cut(pocket).cut(pin)\n")

    def wrong_forms(self, p: Params) -> list[tuple[str, str, str]]:
        """(kind, note, script) of parts with a stated form (stated.form) wrong and everything
        else right: pointed or straight teeth for an involute gear."""
        return []

    chamber_kind: str = ""  # the one task kind whose checks build `chambered` (one CAD build per check: the CI budget)

    def chamber_spot(self, p: Params) -> tuple[float, float, float, float, float] | None:
        """(x, y, z0, z1, r): a hole along Z at (x, y) with material around it from z0 to z1, where
        a wrong part widens the hole to radius r (inside the material); None where there is none."""
        return None

    def chambered(self, p: Params) -> str:
        """The reference with a wider coaxial chamber hidden inside one of its holes: the outside,
        the hole's ends and its diameter unchanged, only its profile along the axis (and the volume)."""
        from .fmt import n

        x, y, z0, z1, r = self.chamber_spot(p)
        return (self.script(p).rstrip("\n") + "\n\n# A wider chamber hidden inside a hole.\n"
                f'result = result.cut(cq.Workplane("XY").workplane(offset={n(z0)}).pushPoints([({n(x)}, {n(y)})])'
                f".circle({n(r)}).extrude({n(z1 - z0)}))\n")

    def adjusted(self, p: Params, key: str, value) -> Params:
        """The part with `key` set to `value` and what follows from it kept consistent (a hole
        grid's pitch when its count changes, a lip that stays flush when the wall thickens): the
        wrong part tried when changing `key` alone breaks the family's constraints."""
        return {**p, key: value}

    def free(self, p: Params, kind: str) -> dict:
        """Placements the kind's prompt leaves free (rlhub_mesh.grading: `symmetries`, `spin`)."""
        return {}

    def valid_edits(self, p: Params) -> list[Edit]:
        return [e for e in self.edits(p) if e.params != p and not self.violations(e.params)]

    def size(self, p: Params) -> str:
        x0, y0, z0, x1, y1, z1 = self.bbox(p)
        from .fmt import n
        return f"{n(x1 - x0)} x {n(y1 - y0)} x {n(z1 - z0)} mm (X x Y x Z)"


def changed(p: Params, **updates: Any) -> Params:
    return {**p, **updates}
