"""Issue 25's grading rules on runner records (no sandbox): sealed voids and the volume count in
every mode, the kinds a task names in `require` are matched one to one where proportions are
graded, and placements the prompt leaves free are searched, not required."""

import math

import pytest
from pydantic import ValidationError

from rlhub_mesh import compare, placement
from rlhub_mesh.grading import Grading

PROPS = {"bbox": [[-50, -50, 0], [50, 50, 10]], "volume": 70000.0, "area": 18000.0, "voids": 0}
LOOSE = dict(mode="normalised", pos_rel=0.15, size_rel=0.35, entry=False, volume_rel=0.5)


def hole(x, y, d=8.0):
    return {"kind": "hole", "axis": [0, 0, 1], "foot": [x, y, 0], "at": [x, y, 10], "d": d, "span": [0.0, 10.0],
            "depth": 10.0, "through": True, "entry": 0, "cbore": None, "csk": None}


def plane(x, normal=(1, 0, 0)):
    return {"kind": "plane", "normal": list(normal), "offset": x * normal[0], "at": [x, 0, 5], "area": 100.0, "faces": 1}


def record(features=(), form=(), **props):
    return {"props": {**PROPS, **props}, "features": list(features), "form": list(form)}


def bolts(n, start=0.0, r=35.0):
    return [hole(r * math.cos(start + 2 * math.pi * i / n), r * math.sin(start + 2 * math.pi * i / n)) for i in range(n)]


def test_a_sealed_void_fails_in_every_mode():
    ref = record(bolts(4))
    for grading in (Grading(), Grading(**LOOSE)):
        c = compare.compare(ref, record(bolts(4), voids=1), grading)
        assert not c.passed and any("sealed void" in m.text for m in c.mismatches)


def test_the_volume_is_required_as_a_proportion_where_proportions_are_graded():
    ref = record(bolts(4))
    assert compare.compare(ref, record(bolts(4), volume=70000 * 1.4), Grading(**LOOSE)).passed  # a thicker wall, unstated
    c = compare.compare(ref, record(bolts(4), volume=70000 * 1.6), Grading(**LOOSE))
    assert not c.passed and any(m.what == "volume" and m.required for m in c.mismatches)
    assert not compare.compare(ref, record(bolts(4), volume=70000 * 1.3), Grading(**{**LOOSE, "volume_rel": 0.25})).passed


def test_a_stated_kind_is_counted_exactly_and_an_unstated_one_may_be_missing_but_not_extra():
    fins = [plane(x, (s, 0, 0)) for x in (-30, -10, 10, 30) for s in (1, -1)]
    ref = record(bolts(4), form=fins)
    extra = record(bolts(4), form=fins + [plane(45, (1, 0, 0)), plane(44, (-1, 0, 0))])
    # an extra face blocks in every kind, stated or not (a gusset, a pocket's walls, a fifth fin)
    for grading in (Grading(**LOOSE), Grading(**LOOSE, require=("hole", "plane"))):
        c = compare.compare(ref, extra, grading)
        assert not c.passed and sum(m.what == "extra" and m.required for m in c.mismatches) == 2
    # a missing one only where its kind is stated (the reference's unstated fillets, walls...)
    fewer = record(bolts(4), form=fins[:-2])
    assert compare.compare(ref, fewer, Grading(**LOOSE)).passed
    assert not compare.compare(ref, fewer, Grading(**LOOSE, require=("hole", "plane"))).passed
    # a stated plane's area is not required (lips and walls come in many thicknesses)...
    bigger = record(bolts(4), form=[{**f, "area": 300.0} for f in fins])
    assert compare.compare(ref, bigger, Grading(**LOOSE, require=("hole", "plane"))).passed
    # ...unless the task asks for it
    assert not compare.compare(ref, bigger, Grading(**LOOSE, require=("hole", "plane"), plane_area=True)).passed


def test_a_free_shape_may_have_other_faces_along_its_axis_only():
    """A gear's tooth flanks are the model's (facets, arcs, splines) where only the count is
    stated; a face across the axis (a hidden pocket's floor) is still an extra face."""
    flanks = [plane(0, (math.cos(a), math.sin(a), 0)) for a in (0.1, 0.2)]
    ref = record(bolts(4), form=flanks)
    gear = Grading(**LOOSE, free_shape=("plane", "arc"), free_axis=(0, 0, 1))
    finer = record(bolts(4), form=flanks + [plane(0, (math.cos(0.15), math.sin(0.15), 0))])
    assert compare.compare(ref, finer, gear).passed
    assert not compare.compare(ref, finer, Grading(**LOOSE)).passed
    floor = record(bolts(4), form=flanks + [{**plane(0, (0, 0, 1)), "offset": 4.0}])
    assert not compare.compare(ref, floor, gear).passed
    across = {"kind": "arc", "axis": [1, 0, 0], "foot": [0, 0, 5], "r": 2.0, "span": [0, 5], "sweep": 90.0,
              "concave": False, "at": [0, 0, 7]}
    assert compare.compare(ref, record(bolts(4), form=flanks + [{**across, "axis": [0, 0, 1]}]), gear).passed
    assert not compare.compare(ref, record(bolts(4), form=flanks + [across]), gear).passed
    with pytest.raises(ValidationError, match="unknown feature kind"):
        Grading(free_shape=("flank",))


def test_spin_finds_a_bolt_circle_started_anywhere():
    ref = record(bolts(6))
    turned = record(bolts(6, start=math.radians(30)))  # every hole half a pitch off
    fixed = Grading(**{**LOOSE, "pos_rel": 0.05})
    assert not compare.compare(ref, turned, fixed).passed
    free = Grading(**{**LOOSE, "pos_rel": 0.05, "spin": ((0, 0, 0), (0, 0, 1))})
    tries = placement.candidates(ref, turned, free, 100.0)
    assert len(tries) == 7  # as built, and one angle per candidate hole
    passed = [words for m, words in tries if compare.compare(ref, {**compare.transformed(turned, m, 1.0), "props": turned["props"]}, free).passed]
    assert passed and all("about the free axis" in w for w in passed)
    # a bolt circle of 5 is no bolt circle of 6, however it is turned
    five = record(bolts(5))
    assert not any(compare.compare(ref, {**compare.transformed(five, m, 1.0), "props": five["props"]}, free).passed
                   for m, _ in placement.candidates(ref, five, free, 100.0))


def test_symmetries_are_rigid_transforms():
    half_turn = (-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
    assert Grading(symmetries=(half_turn,)).symmetries[0][0] == -1.0
    with pytest.raises(ValidationError, match="orthonormal"):
        Grading(symmetries=((2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1),))
    with pytest.raises(ValidationError, match="16 finite numbers"):
        Grading(symmetries=((1, 0, 0),))
    with pytest.raises(ValidationError, match="direction"):
        Grading(spin=((0, 0, 0), (0, 0, 0)))
    with pytest.raises(ValidationError, match="unknown feature kind"):
        Grading(require=("fins",))


def test_the_rotation_helper_turns_about_its_axis():
    m = placement.rotation((10, 0, 0), (0, 0, 1), math.pi / 2)
    assert m[:3, :3] @ [20, 0, 0] + m[:3, 3] == pytest.approx([10, 10, 0])
