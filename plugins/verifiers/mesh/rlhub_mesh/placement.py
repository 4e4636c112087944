"""Placements a prompt leaves free: the candidate transforms the comparison tries besides the
identity (host side, on the runner's records; no geometry is rebuilt).

- `symmetries`: fixed rigid transforms (a half turn about Z: which of two symmetric gaps takes
  the holes);
- `spin`: a free rotation about an axis (where a bolt circle starts): tried at the angles that
  bring a candidate feature onto the reference's first feature off the axis, of the same kind
  and at the same distance from it, so a bolt circle started anywhere is found in a few tries.
"""

from __future__ import annotations

import math

import numpy as np

from .grading import Grading

MAX_SPIN_ANGLES = 48  # candidate features tried against the reference's one (a bolt circle has <= 12)
_ANCHOR_KINDS = ("hole", "slot", "boss", "cone", "fillet", "arc", "plane")  # what a spin is anchored on, in order


def _where(f: dict) -> np.ndarray | None:
    p = f.get("foot") if f["kind"] in ("hole", "boss", "cone") else f.get("at")
    return None if p is None else np.asarray(p, dtype=float)


def rotation(point, direction, angle: float) -> np.ndarray:
    """The 4x4 rigid transform turning by `angle` (radians) about the line (point, direction)."""
    u = np.asarray(direction, dtype=float)
    u = u / np.linalg.norm(u)
    c, s = math.cos(angle), math.sin(angle)
    k = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    rot = np.eye(3) + s * k + (1 - c) * (k @ k)
    out = np.eye(4)
    out[:3, :3] = rot
    out[:3, 3] = np.asarray(point, dtype=float) - rot @ np.asarray(point, dtype=float)
    return out


def _off_axis(p: np.ndarray, point: np.ndarray, u: np.ndarray) -> np.ndarray:
    rel = p - point
    return rel - u * float(rel @ u)


def spin_angles(ref: dict, cand: dict, point, direction, size: float) -> list[float]:
    """Angles about the axis that put a candidate feature where the reference's anchor is."""
    u = np.asarray(direction, dtype=float)
    u = u / np.linalg.norm(u)
    point = np.asarray(point, dtype=float)
    records = ref.get("features", []) + ref.get("form", [])
    for kind in _ANCHOR_KINDS:
        anchors = [(f, _off_axis(_where(f), point, u)) for f in records if f["kind"] == kind and _where(f) is not None]
        anchors = [(f, v) for f, v in anchors if np.linalg.norm(v) > 1e-3 * size]
        if anchors:
            break
    else:
        return []
    anchor, a = max(anchors, key=lambda fv: (np.linalg.norm(fv[1]), tuple(fv[1])))  # the same choice every time
    ra = float(np.linalg.norm(a))
    b_axis = np.cross(u, a / ra)
    angles = []
    for g in cand.get("features", []) + cand.get("form", []):
        if g["kind"] != anchor["kind"] or _where(g) is None:
            continue
        v = _off_axis(_where(g), point, u)
        if abs(float(np.linalg.norm(v)) - ra) > 0.25 * ra:
            continue
        # the angle that takes v onto a: minus v's angle in a's frame
        angle = -math.atan2(float(v @ b_axis), float(v @ (a / ra)))
        if all(abs(math.remainder(angle - x, 2 * math.pi)) > 1e-6 for x in angles):
            angles.append(angle)
        if len(angles) >= MAX_SPIN_ANGLES:
            break
    return angles


def candidates(ref: dict, cand: dict, grading: Grading, size: float) -> list[tuple[np.ndarray, str]]:
    """(transform, what it is in words) to try, the identity first."""
    out = [(np.eye(4), "as built")]
    for m in grading.symmetries:
        out.append((np.asarray(m, dtype=float).reshape(4, 4), "turned by a free symmetry"))
    if grading.spin is not None:
        point, direction = grading.spin
        for angle in spin_angles(ref, cand, point, direction, size):
            if abs(math.remainder(angle, 2 * math.pi)) > 1e-9:
                out.append((rotation(point, direction, angle), f"turned {math.degrees(angle):.3g} degrees about the free axis"))
    return out
