"""Mesh-level agreement between a candidate part and the reference.

- `iou`: volumetric intersection over union, by a manifold3d mesh boolean. It shapes the score
  of a wrong part; it never decides a pass (the tessellation is too coarse for that, on purpose:
  whether a part is right is read from its B-rep, see compare.py).
- `SurfaceSample`: seeded, area-weighted surface points, for screening orientations (align.py).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from .meshes import PartMesh

SEED = 20240601  # fixed: the same mesh always gets the same sample


def iou(a: PartMesh, b: PartMesh) -> float:
    if a.digest == b.digest:  # the same build: exactly 1, without boolean round-off
        return 1.0
    inter = float((a.manifold ^ b.manifold).volume())
    union = a.volume + b.volume - inter
    return max(0.0, min(1.0, inter / union)) if union > 0 else 0.0


class SurfaceSample:
    """Seeded, area-weighted points on a mesh's surface and a KD-tree over them."""

    def __init__(self, mesh: PartMesh, n: int) -> None:
        tm = mesh.trimesh
        rng = np.random.default_rng(SEED)
        tri = tm.triangles
        idx = rng.choice(len(tri), size=n, p=tm.area_faces / tm.area_faces.sum())
        r1, r2 = rng.random(n), rng.random(n)
        s = np.sqrt(r1)
        a, b, c = tri[idx, 0], tri[idx, 1], tri[idx, 2]
        self.points = a * (1 - s)[:, None] + b * (s * (1 - r2))[:, None] + c * (s * r2)[:, None]
        self.tree = cKDTree(self.points)
