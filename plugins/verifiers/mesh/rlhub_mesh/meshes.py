"""The part's triangle mesh on the verifier's side: decoded, checked, turned into a Manifold.

The arrays come out of a process the model's code ran in, so they are treated as hostile:
sizes, index ranges, finiteness and closedness are checked before anything uses them, and a
mesh that fails is an invalid solid (the model's fault), never a crash.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field

import manifold3d
import numpy as np
import trimesh


class BadMesh(Exception):
    """The returned mesh is malformed, open, or not a 2-manifold."""


@dataclass
class PartMesh:
    """A closed, consistently oriented triangle mesh and its Manifold (for exact booleans)."""

    vertices: np.ndarray  # (n, 3) float64, merged
    faces: np.ndarray  # (m, 3) int64
    manifold: manifold3d.Manifold
    digest: str  # of the raw arrays: identical builds give identical meshes
    _trimesh: trimesh.Trimesh | None = field(default=None, repr=False)

    @property
    def volume(self) -> float:
        return float(self.manifold.volume())

    @property
    def trimesh(self) -> trimesh.Trimesh:
        if self._trimesh is None:
            self._trimesh = trimesh.Trimesh(self.vertices, self.faces, process=False)
        return self._trimesh

    def transformed(self, matrix: np.ndarray) -> "PartMesh":
        """A copy moved by a 4x4 similarity transform (for the invariance options)."""
        v = self.vertices @ matrix[:3, :3].T + matrix[:3, 3]
        faces = self.faces if np.linalg.det(matrix[:3, :3]) > 0 else self.faces[:, ::-1]
        return from_arrays(v, faces, digest=f"{self.digest}@{hashlib.sha1(matrix.tobytes()).hexdigest()[:12]}")


def _decode(blob: object, dtype: str, count: int, what: str) -> np.ndarray:
    if not isinstance(blob, str) or not isinstance(count, int) or count < 0:
        raise BadMesh(f"{what}: malformed")
    try:
        raw = base64.b64decode(blob, validate=True)
    except (ValueError, TypeError):
        raise BadMesh(f"{what}: not base64") from None
    itemsize = np.dtype(dtype).itemsize
    if len(raw) != count * itemsize:
        raise BadMesh(f"{what}: {len(raw)} bytes, expected {count} values of {itemsize} bytes")
    return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<"))


def decode(payload: object, max_triangles: int) -> PartMesh:
    """A PartMesh from the runner's {"vertices", "triangles", "n_vertices", "n_triangles"}."""
    if not isinstance(payload, dict):
        raise BadMesh("no mesh returned")
    n_tri, n_vert = payload.get("n_triangles"), payload.get("n_vertices")
    if not isinstance(n_tri, int) or not 4 <= n_tri <= max_triangles:
        raise BadMesh(f"mesh has {n_tri} triangles (allowed 4..{max_triangles})")
    if not isinstance(n_vert, int) or not 4 <= n_vert <= 3 * n_tri:
        raise BadMesh(f"mesh has {n_vert} vertices for {n_tri} triangles")
    vertices = _decode(payload.get("vertices"), "f8", 3 * n_vert, "vertices").reshape(-1, 3)
    faces = _decode(payload.get("triangles"), "i4", 3 * n_tri, "triangles").reshape(-1, 3)
    digest = hashlib.sha256(vertices.tobytes() + faces.tobytes()).hexdigest()
    return from_arrays(vertices, faces.astype(np.int64), digest)


def from_arrays(vertices: np.ndarray, faces: np.ndarray, digest: str) -> PartMesh:
    if not np.isfinite(vertices).all():
        raise BadMesh("mesh has non-finite vertices")
    if faces.size and (faces.min() < 0 or faces.max() >= len(vertices)):
        raise BadMesh("mesh has triangle indices out of range")
    # Per-face vertices from OCC coincide along shared edges: merge them; drop the degenerate
    # triangles OCC leaves at singular points (a sphere's poles), which break edge counting.
    mesh = trimesh.Trimesh(vertices, faces, process=True, validate=True)
    if not mesh.is_watertight:
        raise BadMesh("mesh is not watertight")
    if not mesh.is_winding_consistent:
        raise BadMesh("mesh winding is inconsistent")
    v = np.ascontiguousarray(mesh.vertices, dtype=np.float64)
    f = np.ascontiguousarray(mesh.faces, dtype=np.uint64)
    solid = manifold3d.Manifold(manifold3d.Mesh64(vert_properties=v, tri_verts=f))
    if solid.status() != manifold3d.Error.NoError:
        raise BadMesh(f"mesh is not a 2-manifold ({solid.status().name})")
    if solid.is_empty() or solid.volume() <= 0:
        raise BadMesh("mesh encloses no volume (empty or inside out)")
    return PartMesh(v, f.astype(np.int64), solid, digest, mesh)
