"""The metric on meshes whose answers are known by hand (no sandbox: trimesh builds them)."""

import hashlib

import numpy as np
import pytest
import trimesh

from rlhub_mesh import align, features, meshes, metrics


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


def test_dims_by_hand():
    ref = {"bbox": [[0, 0, 0], [2, 2, 2]], "volume": 8.0, "area": 24.0}
    twice = {"bbox": [[0, 0, 0], [4, 4, 4]], "volume": 64.0, "area": 96.0}
    assert metrics.dims(ref, ref) == 1.0
    assert metrics.dims(ref, twice) == pytest.approx((3 * 0.5 + 1 / 8 + 1 / 4) / 5)


def test_chamfer_measures_a_shift_and_sits_above_its_noise_floor():
    ref = box((40, 30, 10))
    diag = float(np.linalg.norm([40, 30, 10]))
    ref_s = metrics.SurfaceSample(ref, 4096, 16384)
    # The same box, triangulated differently: only sampling noise remains.
    retess = part(trimesh.creation.box((40, 30, 10)).subdivide().subdivide(), tag="fine")
    floor = metrics.chamfer_distance(ref_s, metrics.SurfaceSample(retess, 4096, 16384)) / diag
    assert floor < 5e-4
    # Shifted by d along x: only the two x faces (600 of 3800 area) move, so ~ d * 600 / 3800.
    d = 0.5
    shifted = metrics.chamfer_distance(ref_s, metrics.SurfaceSample(box((40, 30, 10), (d, 0, 0)), 4096, 16384))
    assert shifted == pytest.approx(d * 600 / 3800, rel=0.15)
    # A shift of 0.2% of the size is already well above the floor.
    small = metrics.chamfer_distance(ref_s, metrics.SurfaceSample(box((40, 30, 10), (0.001 * diag * 2, 0, 0)), 4096, 16384))
    assert small / diag > 3 * floor
    assert metrics.chamfer_score(0.0, diag, 0.02) == 1.0
    assert metrics.chamfer_score(0.02 * diag, diag, 0.02) == pytest.approx(np.exp(-1))


def test_chamfer_is_seeded():
    a, b = box((4, 3, 2)), box((4, 3, 2), (0.1, 0, 0))
    first = metrics.chamfer_distance(metrics.SurfaceSample(a, 1024, 4096), metrics.SurfaceSample(b, 1024, 4096))
    again = metrics.chamfer_distance(metrics.SurfaceSample(a, 1024, 4096), metrics.SurfaceSample(b, 1024, 4096))
    assert first == again


def test_hole_matching():
    assert features.match_radii([4.0, 4.0], [4.0, 4.0]) == 1.0
    assert features.match_radii([4.0, 4.0], [4.0]) == 0.5  # one missing
    assert features.match_radii([4.0], [4.0 * 1.11]) == pytest.approx(0.5)  # halfway between 2% and 20%
    assert features.match_radii([4.0], [5.0]) == 0.0
    assert features.match_radii([], []) == 1.0
    assert features.match_radii([2.0], [4.0], scale=0.5) == 1.0  # scale-invariant comparison


def test_face_type_histogram():
    ref = {"face_types": {"plane": 6, "cylinder": 2}}
    assert features.face_types(ref, ref) == 1.0
    assert features.face_types(ref, {"face_types": {"plane": 6}}) == pytest.approx(6 / 8)


def test_lobe_count_of_a_star_prism():
    teeth = 12
    angles = np.linspace(0, 2 * np.pi, 2 * teeth, endpoint=False)
    radii = np.where(np.arange(2 * teeth) % 2 == 0, 10.0, 7.0)
    ring = np.c_[radii * np.cos(angles), radii * np.sin(angles)]
    n = len(ring)
    verts = np.vstack([np.c_[ring, np.zeros(n)], np.c_[ring, np.full(n, 5.0)], [[0, 0, 0], [0, 0, 5]]])
    faces = []
    for i in range(n):
        j = (i + 1) % n
        faces += [[i, j, n + j], [i, n + j, n + i], [2 * n, j, i], [2 * n + 1, n + i, n + j]]
    mesh = trimesh.Trimesh(verts, faces, process=True)
    assert mesh.is_watertight
    assert features.count_lobes(np.asarray(mesh.vertices), np.asarray(mesh.faces)) == teeth
    assert features.count_lobes(*(np.asarray(x) for x in (trimesh.creation.cylinder(5, 5, sections=64).vertices,
                                                           trimesh.creation.cylinder(5, 5, sections=64).faces))) == 0


def test_rotation_and_scale_alignment():
    ref = box((6, 3, 1))
    turned = part(trimesh.creation.box((3, 6, 1)), (5, 5, 5), tag="turned")  # rotated 90 deg, moved
    assert metrics.iou(ref, turned) < 0.3
    moved, scale = align.align(ref, turned, "rotation")
    assert scale == 1.0 and metrics.iou(ref, moved) == pytest.approx(1.0, abs=1e-6)
    bigger = part(trimesh.creation.box((12, 6, 2)), (1, 2, 3), tag="big")
    moved, scale = align.align(ref, bigger, "scale")
    assert scale == pytest.approx(0.5) and metrics.iou(ref, moved) == pytest.approx(1.0, abs=1e-6)
    moved, _ = align.align(ref, part(trimesh.creation.box((2, 6, 12)), tag="both"), "rotation+scale")
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
