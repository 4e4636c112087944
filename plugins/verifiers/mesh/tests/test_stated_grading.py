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


def _involute(z, m, pressure=20.0, dedendum=1.25, points=7):
    """A spur gear's outline (x, y) as the CAD family draws it: involute flanks traced with
    `points` points, root lands as chords."""
    pitch_r, tip_r, root_r = m * z / 2, m * z / 2 + m, m * z / 2 - dedendum * m
    base_r = pitch_r * math.cos(math.radians(pressure))
    inv = lambda a: math.tan(a) - a  # noqa: E731
    half = lambda r: math.pi / (2 * z) + inv(math.radians(pressure)) - inv(math.acos(min(1.0, base_r / r)))  # noqa: E731
    start = max(base_r, root_r)
    side = [(r, half(r)) for r in (start + (tip_r - start) * k / (points - 1) for k in range(points))]
    side = [(root_r, side[0][1])] + side if root_r < start else side
    out = []
    for i in range(z):
        c = 2 * math.pi * i / z
        out += [(r * math.cos(c - a), r * math.sin(c - a)) for r, a in side]
        out += [(r * math.cos(c + a), r * math.sin(c + a)) for r, a in reversed(side)]
    return out


def _straight(z, m, tip_frac, root_frac):
    """Straight-flanked teeth spanning these fractions of the pitch at the tip and the root."""
    tip_r, root_r, pitch = m * z / 2 + m, m * z / 2 - 1.25 * m, 2 * math.pi / z
    out = []
    for i in range(z):
        c = i * pitch
        corners = [(root_r, c - root_frac * pitch / 2), (tip_r, c - tip_frac * pitch / 2)]
        corners += [(tip_r, c + tip_frac * pitch / 2)] if tip_frac > 0 else []
        corners += [(root_r, c + root_frac * pitch / 2)] if root_frac < 1 else []
        out += [(r * math.cos(a), r * math.sin(a)) for r, a in corners]
    return out


def _teeth_record(outline, z):
    from rlhub_mesh.surfaces import band_shares

    radii = [math.hypot(x, y) for x, y in outline]
    tooth = {"kind": "teeth", "count": z, "lobes": z, "axis": [0, 0, 1], "at": [0, 0, 5], "r_max": max(radii),
             "r_min": min(radii), "profile": band_shares(outline)}
    return record([tooth])


def test_disk_area_of_a_polygon_is_exact():
    from rlhub_mesh.surfaces import disk_area

    square = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    assert disk_area(square, 0.5) == pytest.approx(math.pi / 4)  # the circle inside the square
    assert disk_area(square, 2.0) == pytest.approx(4.0)  # the square inside the circle
    assert disk_area(list(reversed(square)), 1.0) == pytest.approx(math.pi)  # either sense


@pytest.mark.parametrize("z, m", [(14, 3.0), (19, 1.0), (32, 1.0), (48, 1.5)])
def test_the_tooth_form_tells_an_involute_from_pointed_or_straight_teeth(z, m):
    """Where the prompt names the form ("an involute spur gear") the teeth's profile is graded:
    any involute passes (14.5 to 25 degrees, another dedendum, finer flanks); a star (pointed
    teeth, the red team's 1.0 before) and a thin trapezoid fail; without `tooth_form` they pass."""
    ref = _teeth_record(_involute(z, m), z)
    form = Grading(**LOOSE, tooth_form=0.1)
    for right in (_involute(z, m, pressure=14.5), _involute(z, m, pressure=25.0), _involute(z, m, dedendum=1.157),
                  _involute(z, m, dedendum=1.4), _involute(z, m, points=40)):
        assert compare.compare(ref, _teeth_record(right, z), form).passed
    for wrong in (_straight(z, m, 0.0, 1.0), _straight(z, m, 0.25, 0.5), _straight(z, m, 0.5, 0.5)):
        c = compare.compare(ref, _teeth_record(wrong, z), form)
        assert not c.passed and any("tooth form off" in m.text and m.required for m in c.mismatches), c.mismatches
        assert compare.compare(ref, _teeth_record(wrong, z), Grading(**LOOSE)).passed  # the count and circles alone
