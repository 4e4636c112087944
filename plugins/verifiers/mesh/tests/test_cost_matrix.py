"""The feature matching's cost matrix is the pair-by-pair rule (rlhub_mesh.pair_rule), for all pairs at once.

The rule is what the matching means (how far apart two features of one kind are, plus their size
differences, BIG where they cannot be the same feature); `compare._cost_matrix` computes it with
array arithmetic because a gear's faces make ~400 x 400 pairs per kind. Exact equality, not
approximate: the Hungarian assignment, and so every verdict, must not change with the speed-up.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mesh_harness import PLATE, cq_task

from rlhub_mesh import compare
from rlhub_mesh.compare import Scales, _cost_matrix
from rlhub_mesh.grading import Grading
from rlhub_mesh.pair_rule import pair_cost


def assert_same(ref: list[dict], cand: list[dict], s: Scales) -> None:
    expected = np.array([[pair_cost(f, g, s) for g in cand] for f in ref])
    got = _cost_matrix(ref, cand, s)
    assert got.shape == expected.shape
    assert np.array_equal(got, expected), np.argwhere(got != expected)[:5]


# -- generated features: axes from a few directions (so parallel and crossed pairs both occur),
# -- positions near each other and far apart (so the gate cuts some), optional sizes ------------
DIRECTIONS = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.6, 0.8, 0.0),
              (0.6, 0.8 + 1e-5, 0.0), (0.0, -1.0, 0.0), (1 / math.sqrt(3),) * 3]
coord = st.floats(-60, 60, allow_nan=False, allow_infinity=False)
point = st.tuples(coord, coord, coord)
size = st.floats(0.1, 30, allow_nan=False)


@st.composite
def feature(draw, kind: str) -> dict:
    f: dict = {"kind": kind, "at": draw(point)}
    if kind == "plane":
        f["normal"] = draw(st.sampled_from(DIRECTIONS))
        f["offset"] = draw(coord)
        f["area"] = draw(size)
        return f
    if kind in ("hole", "boss", "cone", "arc", "bore") or draw(st.booleans()):
        f["axis"] = draw(st.one_of(st.none(), st.sampled_from(DIRECTIONS)))
    if kind in ("hole", "boss", "cone"):
        f["foot"] = draw(point)
    if kind == "slot":
        f["dir"] = draw(st.sampled_from(DIRECTIONS))
    if kind == "fillet":
        f["surface"] = draw(st.sampled_from(["cylinder", "torus"]))
    if kind == "teeth":
        f["count"] = draw(st.integers(8, 40))
    for key in ("d", "r", "width", "length", "R", "r0", "r1"):
        if draw(st.integers(0, 2)) == 0:
            f[key] = draw(size)
    return f


KINDS = ["plane", "hole", "boss", "cone", "slot", "fillet", "arc", "bore", "teeth", "surface"]


@st.composite
def kind_pair(draw) -> tuple[list[dict], list[dict], float]:
    kind = draw(st.sampled_from(KINDS))
    ref = draw(st.lists(feature(kind), min_size=1, max_size=7))
    # a candidate is often the reference nudged, so close pairs are as common as distant ones
    cand = [dict(f, at=tuple(c + 0.01 for c in f["at"])) for f in draw(st.lists(st.sampled_from(ref), max_size=3))]
    cand += draw(st.lists(feature(kind), max_size=5))
    return ref, cand or [draw(feature(kind))], draw(st.floats(5, 200))


@settings(max_examples=400, deadline=None)
@given(kind_pair(), st.sampled_from(["absolute", "normalised"]))
def test_matrix_is_the_pair_rule_on_generated_features(case, mode):
    ref, cand, extent = case
    s = Scales(Grading(mode=mode), {"bbox": [[0, 0, 0], [extent, extent / 2, extent / 3]]})
    assert_same(ref, cand, s)


# -- real parts: what the runner measured on built CadQuery scripts -------------------------------
STAR = """import cadquery as cq, math
pts = [((30 if i % 2 else 26) * math.cos(math.pi * i / 40), (30 if i % 2 else 26) * math.sin(math.pi * i / 40))
       for i in range(80)]
result = cq.Workplane("XY").polyline(pts).close().extrude(8).faces(">Z").workplane().hole(10)
"""


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize("script, other", [
    (PLATE, PLATE.replace("(18, 0)]", "(18.5, 0)]").replace("hole(8)", "hole(9)")),
    (STAR, STAR.replace("26 ", "25 ").replace("hole(10)", "hole(12)")),
], ids=["plate", "star-80-faces"])
def test_matrix_is_the_pair_rule_on_built_parts(verifier, ctx, script, other):
    task = cq_task(script)
    ref = verifier.reference(task, ctx).built
    for response in (task.reference, f"```python\n{other}\n```"):
        cand = verifier.candidate(task, response, ctx).built
        s = Scales(Grading(), ref["props"])
        pairs = 0
        for group in ("features", "form"):
            rk, ck = compare._by_kind(ref[group]), compare._by_kind(cand[group])
            for kind in set(rk) & set(ck):
                assert_same(rk[kind], ck[kind], s)
                pairs += len(rk[kind]) * len(ck[kind])
        assert pairs >= (30 if script is PLATE else 80 * 80)
