"""Geometric agreement between a candidate part and the reference, each in [0, 1].

- `iou`: exact volumetric intersection over union, by a manifold3d mesh boolean.
- `chamfer`: symmetric mean surface distance between seeded surface samples (point-to-plane
  against a dense sample of the other surface, which removes the sampling noise of plain
  point-to-point Chamfer), relative to the reference's bounding-box diagonal, as exp(-d / tau).
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
    """Seeded, area-weighted surface points of a mesh, and a KD-tree over a denser sample whose
    points remember their triangle's normal (for point-to-plane distances)."""

    def __init__(self, mesh: PartMesh, n_query: int, n_target: int) -> None:
        tm = mesh.trimesh
        self.area = float(tm.area)
        self.query, _ = self._sample(tm, n_query, SEED)
        target, faces = self._sample(tm, n_target, SEED + 1)
        self.tree = cKDTree(target)
        self.target = target
        self.normals = np.asarray(tm.face_normals)[faces]
        # Typical spacing of the dense sample: in-plane offsets up to it are sampling, not shape.
        self.spacing = math.sqrt(self.area / n_target)

    @staticmethod
    def _sample(tm, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(seed)
        tri = tm.triangles
        weights = tm.area_faces / tm.area_faces.sum()
        idx = rng.choice(len(tri), size=n, p=weights)
        r1, r2 = rng.random(n), rng.random(n)
        s = np.sqrt(r1)
        a, b, c = tri[idx, 0], tri[idx, 1], tri[idx, 2]
        return a * (1 - s)[:, None] + b * (s * (1 - r2))[:, None] + c * (s * r2)[:, None], idx

    def distances(self, points: np.ndarray) -> np.ndarray:
        """Approximate distance of each point to this surface: the offset from the nearest
        sample along its triangle's normal (exact on flat regions, no sampling noise), plus any
        in-plane offset beyond the sample spacing (a point past the surface's edge)."""
        _, nearest = self.tree.query(points, k=1)
        offset = points - self.target[nearest]
        normal = np.einsum("ij,ij->i", offset, self.normals[nearest])
        tangent = np.sqrt(np.maximum(0.0, np.einsum("ij,ij->i", offset, offset) - normal**2))
        return np.hypot(normal, np.maximum(0.0, tangent - self.spacing))


def chamfer_distance(a: SurfaceSample, b: SurfaceSample) -> float:
    """Symmetric mean surface distance, in model units."""
    return float((b.distances(a.query).mean() + a.distances(b.query).mean()) / 2)


def chamfer_score(distance: float, scale: float, tau: float) -> float:
    return math.exp(-(distance / scale) / tau)


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
