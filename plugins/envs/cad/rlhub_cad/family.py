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

    def valid_edits(self, p: Params) -> list[Edit]:
        return [e for e in self.edits(p) if e.params != p and not self.violations(e.params)]

    def size(self, p: Params) -> str:
        x0, y0, z0, x1, y1, z1 = self.bbox(p)
        from .fmt import n
        return f"{n(x1 - x0)} x {n(y1 - y0)} x {n(z1 - z0)} mm (X x Y x Z)"


def changed(p: Params, **updates: Any) -> Params:
    return {**p, **updates}
