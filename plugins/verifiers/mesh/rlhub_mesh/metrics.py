"""Geometric agreement between a candidate part and the reference, each in [0, 1].

- `iou`: exact volumetric intersection over union, by a manifold3d mesh boolean.
- `chamfer`: symmetric mean surface distance over seeded surface samples, relative to the
  reference's bounding-box diagonal, minus the expected sampling noise (the mean nearest-
  neighbour distance of a surface sample of that density), mapped by exp(-d / tau).
- `dims`: agreement of bounding-box extents, volume and area (mean of min/max ratios).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from .meshes import PartMesh

SEED = 20240601  # fixed: the same pair of meshes always gets the same Chamfer score


def iou(a: PartMesh, b: PartMesh) -> float:
    if a.digest == b.digest:  # the same build: exactly 1, without boolean round-off
        return 1.0
    inter = float((a.manifold ^ b.manifold).volume())
    union = a.volume + b.volume - inter
    return max(0.0, min(1.0, inter / union)) if union > 0 else 0.0


class SurfaceSample:
    """Seeded area-weighted surface points of a mesh plus a KD-tree over a denser sample."""

    def __init__(self, mesh: PartMesh, n_query: int, n_target: int) -> None:
        tm = mesh.trimesh
        self.area = float(tm.area)
        self.query = self._sample(tm, n_query, SEED)
        target = np.vstack([self._sample(tm, n_target, SEED + 1), tm.vertices])
        self.tree = cKDTree(target)
        # Expected distance from a point on the surface to the nearest of `n_target` uniform
        # samples (2-D Poisson process): 1 / (2 sqrt(density)). It is the score's noise floor.
        self.noise = 0.5 * math.sqrt(self.area / n_target)

    @staticmethod
    def _sample(tm, n: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        tri = tm.triangles
        weights = tm.area_faces / tm.area_faces.sum()
        idx = rng.choice(len(tri), size=n, p=weights)
        r1, r2 = rng.random(n), rng.random(n)
        s = np.sqrt(r1)
        a, b, c = tri[idx, 0], tri[idx, 1], tri[idx, 2]
        return a * (1 - s)[:, None] + b * (s * (1 - r2))[:, None] + c * (s * r2)[:, None]


def chamfer_distance(a: SurfaceSample, b: SurfaceSample) -> tuple[float, float]:
    """(symmetric mean distance, its noise floor), in model units."""
    d_ab = float(b.tree.query(a.query, k=1)[0].mean())
    d_ba = float(a.tree.query(b.query, k=1)[0].mean())
    return (d_ab + d_ba) / 2, (a.noise + b.noise) / 2


def chamfer_score(distance: float, noise: float, scale: float, tau: float) -> float:
    excess = max(0.0, distance - noise) / scale
    return math.exp(-excess / tau)


def _ratio(x: float, y: float) -> float:
    x, y = abs(x), abs(y)
    if x == y:
        return 1.0
    return min(x, y) / max(x, y) if max(x, y) > 0 else 1.0


def dims(ref: dict, cand: dict) -> float:
    """Mean of min/max ratios of the three bounding-box extents, the volume and the area."""
    ext_r = np.subtract(ref["bbox"][1], ref["bbox"][0])
    ext_c = np.subtract(cand["bbox"][1], cand["bbox"][0])
    ratios = [_ratio(float(x), float(y)) for x, y in zip(ext_r, ext_c)]
    ratios += [_ratio(ref["volume"], cand["volume"]), _ratio(ref["area"], cand["area"])]
    return float(sum(ratios) / len(ratios))
