"""Feature checks: what IoU and Chamfer barely see (a missing hole costs ~0.05 IoU, missing
fillets ~0.003), compared between the B-rep signatures the runner measured.

Each check scores in [0, 1]:
- `holes`: bores (full concave cylinders) matched one to one by radius; a pair scores 1 within
  2% of the reference radius, falling linearly to 0 at 20%; divided by the larger count.
- `fillets`: the same over round edges (partial cylinders, tori, spheres of radius at most a
  fifth of the part's size), so both a missing fillet and a wrong radius cost.
- `face_types`: histogram intersection of distinct surfaces by type (plane, cylinder, cone,
  ...; a face OCC split in two counts once): sum(min) / sum(max) over the counts.
- `teeth`: lobes around the z axis (gear teeth, splines, heat-sink fins), counted on the
  mesh's mid-height section; min/max of the counts. Only when a task asks for it.
"""

from __future__ import annotations

import math

import numpy as np

DEFAULT_CHECKS = ("holes", "fillets", "face_types")
KNOWN_CHECKS = ("holes", "fillets", "face_types", "teeth")
FILLET_MAX_FRACTION = 0.2  # round faces larger than this fraction of the size are shape, not fillets
RADIUS_EXACT, RADIUS_ZERO = 0.02, 0.20


def match_radii(ref: list[float], cand: list[float], scale: float = 1.0) -> float:
    """One-to-one matching of two radius lists; scale: the candidate's radii are multiplied by it."""
    if not ref and not cand:
        return 1.0
    if not ref or not cand:
        return 0.0
    r = np.asarray(ref, dtype=float)[:, None]
    c = np.asarray(cand, dtype=float)[None, :] * scale
    rel = np.abs(r - c) / np.maximum(r, 1e-12)
    pair = np.clip((RADIUS_ZERO - rel) / (RADIUS_ZERO - RADIUS_EXACT), 0.0, 1.0)
    from scipy.optimize import linear_sum_assignment  # imported on use: costs ~0.3 s

    rows, cols = linear_sum_assignment(-pair)
    return float(pair[rows, cols].sum() / max(len(ref), len(cand)))


def fillet_radii(feats: dict, diag: float) -> list[float]:
    return [r for r in feats.get("fillets", []) if r <= FILLET_MAX_FRACTION * diag]


def face_types(ref: dict, cand: dict) -> float:
    a, b = ref.get("face_types", {}), cand.get("face_types", {})
    kinds = set(a) | set(b)
    top = sum(max(a.get(k, 0), b.get(k, 0)) for k in kinds)
    return 1.0 if top == 0 else sum(min(a.get(k, 0), b.get(k, 0)) for k in kinds) / top


def count_lobes(vertices: np.ndarray, faces: np.ndarray, bins: int = 720) -> int:
    """Teeth around the z axis: on the mid-height section, the outer radius as a function of
    angle, counted as crossings of the level halfway between its minimum and maximum."""
    import trimesh

    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    center = (lo + hi) / 2
    segments = trimesh.intersections.mesh_plane(
        trimesh.Trimesh(vertices, faces, process=False), plane_normal=[0, 0, 1], plane_origin=center
    )
    if len(segments) == 0:
        return 0
    # densify the section's segments so each angular bin sees the boundary
    t = np.linspace(0.0, 1.0, 8)[None, :, None]
    pts = (segments[:, :1, :2] * (1 - t) + segments[:, 1:, :2] * t).reshape(-1, 2) - center[:2]
    angle = np.arctan2(pts[:, 1], pts[:, 0])
    radius = np.hypot(pts[:, 0], pts[:, 1])
    idx = ((angle + math.pi) / (2 * math.pi) * bins).astype(int) % bins
    outer = np.full(bins, np.nan)
    np.fmax.at(outer, idx, radius)
    if np.isnan(outer).any():  # fill empty bins from their neighbours (periodic)
        good = ~np.isnan(outer)
        if good.sum() < 8:
            return 0
        outer = np.interp(np.arange(bins), np.flatnonzero(good), outer[good], period=bins)
    r_min, r_max = outer.min(), outer.max()
    if r_max - r_min < 0.02 * r_max:  # round: no lobes
        return 0
    above = outer > (r_min + r_max) / 2
    return int(np.count_nonzero(above != np.roll(above, 1)) // 2)


def score(checks: tuple[str, ...], ref: dict, cand: dict, ref_diag: float, scale: float = 1.0,
          teeth: tuple[int, int] | None = None) -> dict[str, float]:
    """Each requested check's score. `scale` maps candidate lengths into the reference's units."""
    out: dict[str, float] = {}
    for name in checks:
        if name == "holes":
            out[name] = match_radii(ref.get("holes", []), cand.get("holes", []), scale)
        elif name == "fillets":
            out[name] = match_radii(fillet_radii(ref, ref_diag), fillet_radii(cand, ref_diag / scale), scale)
        elif name == "face_types":
            out[name] = face_types(ref, cand)
        elif name == "teeth":
            r, c = teeth if teeth is not None else (0, 0)
            out[name] = 1.0 if r == c else (min(r, c) / max(r, c))
        else:  # pragma: no cover - the verifier validates names first
            raise ValueError(f"unknown feature check {name!r}")
    return out
