"""Invariance options, for tasks whose input has no canonical frame (e.g. "model this photo").

By default nothing is aligned: the part must sit where the task says. With an invariance
option the candidate is first moved so its centroid lies on the reference's, then
- "scale": scaled about it so the volumes match;
- "rotation": the rotation that maximises IoU among 48 candidates, the 24 axis-aligned
  orientations in the world frame and the same 24 in the parts' principal-axes frame (which
  covers arbitrary angles when the inertia axes are distinct); screened by the mean distance
  to a surface sample, the best few by exact IoU;
- "rotation+scale": both.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import metrics
from .meshes import PartMesh

MODES = ("none", "rotation", "scale", "rotation+scale")  # verifier.INVARIANCE_MODES repeats it
SCREEN_POINTS, EXACT_CANDIDATES = 512, 4


def _axis_rotations() -> list[np.ndarray]:
    """The 24 proper rotations that map coordinate axes onto coordinate axes."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3))
            m[range(3), perm] = signs
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


AXIS_ROTATIONS = _axis_rotations()


def _principal_axes(mesh: PartMesh) -> np.ndarray:
    axes = np.array(mesh.trimesh.principal_inertia_vectors, dtype=float)  # rows (a writable copy)
    if np.linalg.det(axes) < 0:
        axes[2] *= -1
    return axes


def _matrix(rotation: np.ndarray, scale: float, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = rotation * scale
    m[:3, 3] = dst - m[:3, :3] @ src
    return m


def align(ref: PartMesh, cand: PartMesh, mode: str) -> tuple[PartMesh, float, np.ndarray]:
    """The candidate moved into the reference's frame, the scale applied to it and the 4x4
    transform (the verifier moves the candidate's measured features with it)."""
    if mode == "none":
        return cand, 1.0, np.eye(4)
    ref_c = np.asarray(ref.trimesh.center_mass, dtype=float)
    cand_c = np.asarray(cand.trimesh.center_mass, dtype=float)
    scale = float(np.cbrt(ref.volume / cand.volume)) if "scale" in mode else 1.0
    if "rotation" not in mode:
        matrix = _matrix(np.eye(3), scale, cand_c, ref_c)
        return cand.transformed(matrix), scale, matrix
    e_ref, e_cand = _principal_axes(ref), _principal_axes(cand)
    rotations = AXIS_ROTATIONS + [e_ref.T @ r @ e_cand for r in AXIS_ROTATIONS]
    ref_sample = metrics.SurfaceSample(ref, SCREEN_POINTS * 4)
    screened = []
    for rotation in rotations:
        moved = cand.trimesh.vertices @ (rotation * scale).T + (ref_c - (rotation * scale) @ cand_c)
        d = float(ref_sample.tree.query(moved[:: max(1, len(moved) // SCREEN_POINTS)], k=1)[0].mean())
        screened.append((d, rotation))
    screened.sort(key=lambda item: item[0])
    best, best_iou, best_matrix = cand, -1.0, np.eye(4)
    for _, rotation in screened[:EXACT_CANDIDATES]:
        matrix = _matrix(rotation, scale, cand_c, ref_c)
        moved = cand.transformed(matrix)
        value = metrics.iou(ref, moved)
        if value > best_iou:
            best, best_iou, best_matrix = moved, value, matrix
    return best, scale, best_matrix
