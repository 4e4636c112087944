"""B-rep measurements of a part: validity, mass properties, triangle mesh (features: surfaces.py).

Runs only in the measuring process (runner.py), on a shape it read back from the bytes the
model's process wrote: everything here goes through OCP directly, never through objects the
model's script made. That process was forked from a warm worker that imported CadQuery and built
nothing (OCC deadlocks in a child forked after geometry was built), and forks nothing after it.
"""

from __future__ import annotations

import math

from OCP.Bnd import Bnd_Box
from OCP.BRep import BRep_Tool
from OCP.BRepBndLib import BRepBndLib
from OCP.BRepCheck import BRepCheck_Analyzer
from OCP.BRepGProp import BRepGProp
from OCP.BRepMesh import BRepMesh_IncrementalMesh
from OCP.GProp import GProp_GProps
from OCP.TopAbs import TopAbs_EDGE, TopAbs_FACE, TopAbs_REVERSED, TopAbs_SHELL, TopAbs_SOLID
from OCP.TopExp import TopExp_Explorer
from OCP.TopLoc import TopLoc_Location
from OCP.TopoDS import TopoDS


class InvalidSolid(Exception):
    """The part is not one valid, closed, non-degenerate solid (message says why)."""


def _sub_shapes(shape, kind):
    explorer = TopExp_Explorer(shape, kind)
    while explorer.More():
        yield explorer.Current()
        explorer.Next()


def _faces(shape):
    return [TopoDS.Face_s(f) for f in _sub_shapes(shape, TopAbs_FACE)]


def unified(shape):
    """The shape with faces that lie on one surface merged into one face (and edges on one curve
    into one edge): OCC's ShapeUpgrade_UnifySameDomain. Feature recognition reads this, so a part
    built by other operations (a sketch cut instead of `shell()`, unions with `clean=False`, a
    cylinder split at another seam) has the same faces as the reference. Where OCC cannot unify
    (it raises on some crafted shapes), the shape as built is measured: the merging in
    surfaces.py still groups faces on one surface."""
    from OCP.ShapeUpgrade import ShapeUpgrade_UnifySameDomain

    try:
        unify = ShapeUpgrade_UnifySameDomain(shape, True, True, True)  # faces, edges, concatenate B-splines
        unify.AllowInternalEdges(False)
        unify.Build()
        out = unify.Shape()
    except Exception:  # noqa: BLE001 - OCC's Standard_Failure and friends
        return shape
    return shape if out is None or out.IsNull() else out


class TooComplex(InvalidSolid):
    """More faces than any task needs (a hostile part meant to stall the measurement)."""


def validate(shape, max_faces: int) -> dict:
    """Check the shape is exactly one valid solid of positive, non-negligible volume; its mass
    properties (exact, from the B-rep: no tessellation involved)."""
    solids = list(_sub_shapes(shape, TopAbs_SOLID))
    if len(solids) != 1:
        raise InvalidSolid(f"expected exactly one solid, found {len(solids)}"
                           + (" (several disjoint bodies: union them, or keep one)" if len(solids) > 1 else ""))
    n_faces = sum(1 for _ in _sub_shapes(shape, TopAbs_FACE))
    if n_faces > max_faces:
        raise TooComplex(f"the part has {n_faces} faces; the limit is {max_faces}")
    shells = list(_sub_shapes(solids[0], TopAbs_SHELL))
    if any(not BRep_Tool.IsClosed_s(s) for s in shells):
        raise InvalidSolid("the solid's shell is open (not watertight)")
    if not BRepCheck_Analyzer(shape).IsValid():
        raise InvalidSolid("the B-rep is invalid (BRepCheck failed: self-intersection or broken topology)")
    props = GProp_GProps()
    BRepGProp.VolumeProperties_s(shape, props)
    volume = props.Mass()
    box = Bnd_Box()  # the optimal box: from the geometry, no tolerance padding, no triangles
    BRepBndLib.AddOptimal_s(shape, box, False, False)
    if box.IsVoid():
        raise InvalidSolid("the solid is empty")
    lo, hi = box.CornerMin(), box.CornerMax()
    bbox = [[lo.X(), lo.Y(), lo.Z()], [hi.X(), hi.Y(), hi.Z()]]
    extent = [hi.X() - lo.X(), hi.Y() - lo.Y(), hi.Z() - lo.Z()]
    diag = math.sqrt(sum(e * e for e in extent))
    if not (math.isfinite(diag) and 1e-6 < diag < 1e6):
        raise InvalidSolid(f"the solid's size ({diag:.3g}) is degenerate or absurd")
    if not math.isfinite(volume) or volume <= 1e-9 * diag**3:
        raise InvalidSolid(f"the solid has no volume ({volume:.3g}): inside out or degenerate")
    area_props = GProp_GProps()
    BRepGProp.SurfaceProperties_s(shape, area_props)
    com = props.CentreOfMass()
    return {
        "volume": volume, "area": area_props.Mass(), "bbox": bbox, "diag": diag,
        "center": [com.X(), com.Y(), com.Z()], "n_faces": n_faces,
        "voids": len(shells) - 1,  # closed shells inside the outer one: sealed cavities
        "n_edges": sum(1 for _ in _sub_shapes(shape, TopAbs_EDGE)),
    }


def triangulate(shape, linear: float, angular: float, max_triangles: int):
    """Tessellate the solid: (flat xyz float list, flat triangle index list), outward winding.

    Vertices are per face (shared edges are discretised once, so seams coincide exactly and the
    host merges them). More than `max_triangles` triangles is an invalid (absurd) part.
    """
    mesher = BRepMesh_IncrementalMesh(shape, linear, False, angular, False)
    if not mesher.IsDone():
        raise InvalidSolid("tessellation failed")
    faces = _faces(shape)
    located = []
    total = 0
    for face in faces:
        loc = TopLoc_Location()
        tri = BRep_Tool.Triangulation_s(face, loc)
        if tri is None:
            raise InvalidSolid("tessellation failed on a face")
        total += tri.NbTriangles()
        if total > max_triangles:
            raise InvalidSolid(f"the mesh has more than {max_triangles} triangles")
        located.append((face, tri, loc))
    coords: list[float] = []
    indices: list[int] = []
    offset = 0
    for face, tri, loc in located:
        transform = loc.Transformation()
        identity = loc.IsIdentity()
        n = tri.NbNodes()
        for i in range(1, n + 1):
            p = tri.Node(i) if identity else tri.Node(i).Transformed(transform)
            coords += (p.X(), p.Y(), p.Z())
        flip = face.Orientation() == TopAbs_REVERSED
        for i in range(1, tri.NbTriangles() + 1):
            a, b, c = tri.Triangle(i).Get()
            indices += (offset + a - 1, offset + c - 1, offset + b - 1) if flip else (offset + a - 1, offset + b - 1, offset + c - 1)
        offset += n
    return coords, indices
