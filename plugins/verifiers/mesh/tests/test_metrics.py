"""Metrics whose answers are known by hand: IoU on meshes trimesh builds, the feature
comparison on measurement records written out here (no sandbox, no OCC geometry)."""

import hashlib

import numpy as np
import pytest
import trimesh

from rlhub_mesh import align, compare, grading, meshes, metrics


def part(tm: trimesh.Trimesh, shift=(0.0, 0.0, 0.0), tag: str = "") -> meshes.PartMesh:
    v = np.asarray(tm.vertices, dtype=float) + np.asarray(shift, dtype=float)
    f = np.asarray(tm.faces)
    return meshes.from_arrays(v, f, digest=tag + hashlib.sha256(v.tobytes() + f.tobytes()).hexdigest())


def box(extents, shift=(0, 0, 0), tag=""):
    return part(trimesh.creation.box(extents), shift, tag)


def test_offset_boxes_iou_by_hand():
    # 2x2x2 cubes offset by 1 along x: intersection 1*2*2 = 4, union 8 + 8 - 4 = 12
    assert metrics.iou(box((2, 2, 2)), box((2, 2, 2), (1, 0, 0))) == pytest.approx(1 / 3, abs=1e-9)
    # offset by 0.5 along x and y: intersection 1.5*1.5*2 = 4.5, union 16 - 4.5 = 11.5
    assert metrics.iou(box((2, 2, 2)), box((2, 2, 2), (0.5, 0.5, 0))) == pytest.approx(4.5 / 11.5, abs=1e-9)
    # disjoint
    assert metrics.iou(box((2, 2, 2)), box((2, 2, 2), (3, 0, 0))) == 0.0


def test_box_vs_itself_and_twice_the_size():
    a, same = box((3, 2, 1)), box((3, 2, 1), tag="rebuilt")
    assert a.digest != same.digest  # not the shortcut: the boolean itself
    assert metrics.iou(a, same) == pytest.approx(1.0, abs=1e-9)
    assert metrics.iou(a, box((6, 4, 2))) == pytest.approx(1 / 8, abs=1e-9)


def test_rotation_and_scale_alignment():
    ref = box((6, 3, 1))
    turned = part(trimesh.creation.box((3, 6, 1)), (5, 5, 5), tag="turned")  # rotated 90 deg, moved
    assert metrics.iou(ref, turned) < 0.3
    moved, scale, matrix = align.align(ref, turned, "rotation")
    assert scale == 1.0 and metrics.iou(ref, moved) == pytest.approx(1.0, abs=1e-6)
    assert np.allclose(turned.vertices @ matrix[:3, :3].T + matrix[:3, 3], moved.vertices)
    bigger = part(trimesh.creation.box((12, 6, 2)), (1, 2, 3), tag="big")
    moved, scale, _ = align.align(ref, bigger, "scale")
    assert scale == pytest.approx(0.5) and metrics.iou(ref, moved) == pytest.approx(1.0, abs=1e-6)
    moved, _, _ = align.align(ref, part(trimesh.creation.box((2, 6, 12)), tag="both"), "rotation+scale")
    assert metrics.iou(ref, moved) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("payload, message", [
    (None, "no mesh"),
    ({"n_triangles": 10**9, "n_vertices": 3, "vertices": "", "triangles": ""}, "triangles"),
    ({"n_triangles": 12, "n_vertices": 8, "vertices": "!!", "triangles": ""}, "base64"),
    ({"n_triangles": 12, "n_vertices": 8, "vertices": "AAAA", "triangles": "AAAA"}, "bytes"),
])
def test_malformed_mesh_payloads_are_bad_meshes(payload, message):
    with pytest.raises(meshes.BadMesh, match=message):
        meshes.decode(payload, max_triangles=1000)


def test_open_and_out_of_range_meshes_are_rejected():
    tm = trimesh.creation.box((1, 1, 1))
    with pytest.raises(meshes.BadMesh, match="watertight"):
        meshes.from_arrays(np.asarray(tm.vertices), np.asarray(tm.faces)[:-1], "open")
    with pytest.raises(meshes.BadMesh, match="out of range"):
        meshes.from_arrays(np.asarray(tm.vertices), np.asarray(tm.faces) + 100, "oob")
    with pytest.raises(meshes.BadMesh, match="non-finite"):
        meshes.from_arrays(np.asarray(tm.vertices) * np.nan, np.asarray(tm.faces), "nan")


# -- the feature comparison, on records as the runner writes them ---------------------------------
PROPS = {"bbox": [[-50, -30, 0], [50, 30, 10]], "volume": 60000.0, "area": 15200.0}


def hole(x, y, d=6.6, top=10.0, cbore=None, entry=1, through=True):
    return {"kind": "hole", "axis": [0, 0, 1], "foot": [x, y, 0], "at": [x, y, top if entry >= 0 else 0.0], "d": d,
            "span": [0.0, top], "depth": top, "through": through, "entry": entry, "cbore": cbore, "csk": None}


def record(*features, props=PROPS, form=()):
    return {"props": props, "features": list(features), "form": list(form)}


CB = {"d": 11.0, "depth": 6.5}
REF = record(*(hole(x, y, cbore=CB) for x in (-40, 40) for y in (-20, 20)))


def test_the_same_part_passes_exactly():
    c = compare.compare(REF, REF, grading.Grading())
    assert c.passed and c.form == 1.0 and c.features == 1.0 and c.mismatches == []


def test_moved_holes_are_named_in_mm_and_cost_more_the_further_they_moved():
    scores = []
    for d in (0.05, 0.5, 2.0, 5.0):  # the absolute tolerance is 0.2 mm for this 100 mm part
        cand = record(*(hole(x + d, y, cbore=CB) for x in (-40, 40) for y in (-20, 20)))
        c = compare.compare(REF, cand, grading.Grading())
        scores.append(c.features)
        assert c.passed == (d == 0.05)
    assert scores[0] == 1.0 and scores[1] > scores[2] > scores[3] > 0
    c = compare.compare(REF, record(hole(-38, -20, cbore=CB), *REF["features"][1:]), grading.Grading())
    assert [m.text for m in c.mismatches] == [
        "through counterbored hole Ø6.6 at (-40, -20, 10): moved 2 mm (now at (-38, -20, 10))"]


def test_face_counterbore_missing_and_extra_features():
    g = grading.Grading()
    bottom = record(*(hole(x, y, cbore=CB, entry=-1) for x in (-40, 40) for y in (-20, 20)))
    c = compare.compare(REF, bottom, g)
    assert not c.passed and c.features == pytest.approx(0.25)
    assert c.mismatches[0].text.endswith("opens on the -Z face, expected the +Z face")
    plain = record(*(hole(x, y, entry=0) for x in (-40, 40) for y in (-20, 20)))
    assert compare.compare(REF, plain, g).mismatches[0].text.endswith("no counterbore, expected Ø11 x 6.5 deep")
    three = record(*REF["features"][:3])
    c = compare.compare(REF, three, g)
    assert c.features == pytest.approx(3 / 4) and [m.what for m in c.mismatches] == ["missing"]
    five = record(*REF["features"], hole(0, 0))
    c = compare.compare(REF, five, g)
    assert c.features == pytest.approx(4 / 5) and c.mismatches[0].text == "extra: through hole Ø6.6 at (0, 0, 10)"


def test_overall_size_and_volume():
    longer = {**PROPS, "bbox": [[-55, -30, 0], [55, 30, 10]], "volume": 66000.0}
    c = compare.compare(REF, record(*REF["features"], props=longer), grading.Grading())
    assert not c.passed and c.features == 1.0 and c.form < 1.0
    assert c.mismatches[0].text == "extent along X: -55..55 (110 mm), expected -50..50 (100 mm)"
    assert c.mismatches[1].text.startswith("volume 66000 mm³, expected 60000 mm³ (+10%)")


def test_proportions_grading_forgives_unstated_sizes_but_not_kinds_or_counts():
    loose = grading.Grading(mode="normalised", pos_rel=0.15, size_rel=0.35, entry=False)
    bigger_holes = record(*(hole(x + 3, y, d=8, cbore={"d": 13, "depth": 5}, entry=-1) for x in (-40, 40) for y in (-20, 20)))
    c = compare.compare(REF, bigger_holes, loose)
    assert c.passed and c.features == 1.0  # all within the freedom the prompt leaves
    plain = record(*(hole(x, y, entry=0) for x in (-40, 40) for y in (-20, 20)))
    assert not compare.compare(REF, plain, loose).passed  # "counterbored" is stated
    assert not compare.compare(REF, record(*REF["features"][:3]), loose).passed  # so is the count


def test_closeness_never_rises_with_the_error():
    values = [compare.closeness(e, 0.1, 2.0) for e in np.linspace(0, 20, 200)]
    assert values[0] == 1.0 and all(a >= b for a, b in zip(values, values[1:]))


def test_teeth_counted_around_the_centre():
    from rlhub_mesh.surfaces import count_lobes

    for teeth in (12, 31):
        pts = [((10 if i % 2 == 0 else 8) * np.cos(np.pi * i / teeth), (10 if i % 2 == 0 else 8) * np.sin(np.pi * i / teeth), 4.0)
               for i in range(2 * teeth)]
        assert count_lobes(pts, (0.0, 0.0, 4.0), (0.0, 0.0, 1.0))[0] == teeth
    circle = [(5 * np.cos(a), 5 * np.sin(a), 0.0) for a in np.linspace(0, 2 * np.pi, 100)]
    assert count_lobes(circle, (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))[0] == 0
