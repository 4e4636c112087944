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
  `entry`. Everything else still shapes the score of a part that fails.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

FEATURE_KINDS = ("hole", "slot", "fillet", "arc", "cone", "bore", "sphere", "teeth")  # what `require` may name


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

    @field_validator("require")
    @classmethod
    def _known(cls, kinds: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [k for k in kinds if k not in FEATURE_KINDS]
        if unknown:
            raise ValueError(f"unknown feature kind(s) {unknown}; known: {list(FEATURE_KINDS)}")
        return kinds

    def tol(self, size: float) -> float:
        return max(self.tol_mm, self.tol_rel * size)
