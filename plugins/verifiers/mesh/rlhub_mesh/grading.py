"""How strictly a task grades: the tolerance its prompt implies, sent by the environment in
`task.hidden["grading"]` (absent: the absolute defaults).

- `absolute` (the prompt states every number: dimensioned, steps, edit, repair): every overall
  dimension, every feature's position and size, every face's offset and the volume must agree
  within `tol` = max(tol_mm, tol_rel x the part's largest extent); a feature's kind, count and
  the face it opens on must agree exactly.
- `normalised` (the prompt states the overall size and the frame but no feature sizes: abstract,
  image): the overall dimensions within `bbox_rel` of each extent; the feature kinds in
  `require` matched one to one (counts, kinds), their positions within `pos_rel` of the part's
  size and their sizes within `size_rel` of the reference's; the face a hole opens on only if
  `entry`. The environment names in `require` every kind its prompt states or its image shows
  (planes for fins, vent slots or walls, bosses for a shaft's steps or standoffs, cones for a
  chamfer or a V groove...): each such kind is matched one to one, so a count off by one, a
  missing feature or one on another face fails. A plane's area is required only with
  `plane_area`. The volume must be within `volume_rel` of the reference's. A feature or face of
  the candidate that matches none of the reference's (of any kind: an extra plane, cylinder,
  fillet or free-form face) fails too, unless its kind is in `free_shape` (the shape the
  prompt leaves to the model, e.g. a gear's tooth flanks) and, with `free_axis`, it runs
  along that axis (a flank, not a pocket's floor).
- `tooth_form` (normalised, where the prompt names the tooth form, e.g. "an involute spur gear"):
  the teeth's profile, scale-free (the share of each quarter of the depth between root and tip
  circle inside the outline), within this of the reference's in the outer three quarters: a
  pointed (star) tooth or a thin trapezoid fails, any involute (14.5 to 25 degrees, any
  dedendum, a spline or facets) passes.
- In every mode the solid's sealed voids (shells beyond the outer one) must agree in number.
- `symmetries`: placements the prompt leaves free (a turn about an axis it does not fix, which of
  two symmetric gaps): 4x4 row-major transforms of the candidate, tried besides the identity;
  `spin`: a free rotation about an axis ((point, direction)), tried at the angles that bring a
  candidate feature onto a reference one. The best placement is graded; the overall box and the
  volume are compared as built (the transforms map the stated box onto itself).
"""

from __future__ import annotations

import math
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

FEATURE_KINDS = ("hole", "slot", "fillet", "arc", "cone", "bore", "sphere", "teeth")  # what a machinist cuts
FORM_KINDS = ("plane", "boss", "torus", "surface")  # the body they are cut into
KINDS = FEATURE_KINDS + FORM_KINDS  # what `require` may name


class Grading(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal["absolute", "normalised"] = "absolute"
    tol_mm: float = Field(0.1, gt=0, description="absolute tolerance on every length, mm")
    tol_rel: float = Field(0.002, ge=0, description="... or this fraction of the part's largest extent, if larger")
    bbox_rel: float = Field(0.01, ge=0, description="normalised: overall extents within this fraction")
    pos_rel: float = Field(0.10, ge=0, description="normalised: feature positions within this fraction of the size")
    size_rel: float = Field(0.35, ge=0, description="normalised: feature sizes within this fraction of the reference's")
    require: tuple[str, ...] = Field(("hole", "slot", "bore", "teeth"), description="normalised: kinds that must match")
    entry: bool = Field(True, description="normalised: holes must open on the reference's face")
    plane_area: bool = Field(False, description="normalised: a required plane's area within size_rel too")
    free_shape: tuple[str, ...] = Field((), description="normalised: kinds whose extra faces do not block "
                                        "(a shape the prompt leaves to the model, e.g. a gear's tooth flanks)")
    free_axis: Optional[tuple[float, float, float]] = Field(
        None, description="with free_shape: only faces running along this axis are free (planes whose normal is "
                          "square to it, cylinders and cones on axes parallel to it)")
    tooth_form: Optional[float] = Field(
        None, gt=0, le=1, description="normalised: the teeth's form (the share of each quarter of the tooth depth "
        "inside the outline: surfaces.band_shares) within this of the reference's in the outer three quarters "
        "(root fillets and the pressure angle move the root quarter); None: not compared")
    volume_rel: float = Field(0.5, gt=0, description="normalised: the volume within this fraction of the reference's")
    symmetries: tuple[tuple[float, ...], ...] = Field((), description="free placements: 4x4 row-major transforms")
    spin: Optional[tuple[tuple[float, float, float], tuple[float, float, float]]] = Field(
        None, description="a free rotation about the axis (point, direction)")

    @field_validator("require", "free_shape")
    @classmethod
    def _known(cls, kinds: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            raise ValueError(f"unknown feature kind(s) {unknown}; known: {list(KINDS)}")
        return kinds

    @field_validator("symmetries")
    @classmethod
    def _matrices(cls, ms: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, ...], ...]:
        for m in ms:
            if len(m) != 16 or any(not math.isfinite(v) for v in m) or tuple(m[12:]) != (0, 0, 0, 1):
                raise ValueError("a symmetry is a 4x4 row-major rigid transform: 16 finite numbers ending 0, 0, 0, 1")
            rot = [m[0:3], m[4:7], m[8:11]]
            for i in range(3):
                for j in range(3):
                    dot = sum(rot[i][k] * rot[j][k] for k in range(3))
                    if abs(dot - (i == j)) > 1e-6:
                        raise ValueError("a symmetry's rotation part must be orthonormal (no scaling)")
        return ms

    @field_validator("spin")
    @classmethod
    def _axis(cls, spin):
        if spin is not None and math.sqrt(sum(c * c for c in spin[1])) < 1e-9:
            raise ValueError("a spin axis needs a direction")
        return spin

    def tol(self, size: float) -> float:
        return max(self.tol_mm, self.tol_rel * size)
