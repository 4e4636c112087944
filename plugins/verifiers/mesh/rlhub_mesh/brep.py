"""B-rep measurements of a built part: validity, mass properties, features, triangle mesh.

Runs only inside the sandbox (a child forked from a warm worker that imported CadQuery and
built nothing: OCC deadlocks in a child forked after geometry was built). Everything here is
read from the OCC shape through OCP directly, never through objects the model's script made.
"""

from __future__ import annotations

import math
from collections import Counter

from OCP.Bnd import Bnd_Box
from OCP.BRep import BRep_Tool
from OCP.BRepAdaptor import BRepAdaptor_Surface
from OCP.BRepBndLib import BRepBndLib
from OCP.BRepCheck import BRepCheck_Analyzer
from OCP.BRepGProp import BRepGProp
from OCP.BRepLProp import BRepLProp_SLProps
from OCP.BRepMesh import BRepMesh_IncrementalMesh
from OCP.BRepTools import BRepTools
from OCP.GeomAbs import (
    GeomAbs_BezierSurface, GeomAbs_BSplineSurface, GeomAbs_Cone, GeomAbs_Cylinder, GeomAbs_OffsetSurface,
    GeomAbs_Plane, GeomAbs_Sphere, GeomAbs_SurfaceOfExtrusion, GeomAbs_SurfaceOfRevolution, GeomAbs_Torus,
)
from OCP.GProp import GProp_GProps
from OCP.TopAbs import TopAbs_EDGE, TopAbs_FACE, TopAbs_REVERSED, TopAbs_SHELL, TopAbs_SOLID
from OCP.TopExp import TopExp_Explorer
from OCP.TopLoc import TopLoc_Location
from OCP.TopoDS import TopoDS

SURFACE_NAMES = {
    GeomAbs_Plane: "plane", GeomAbs_Cylinder: "cylinder", GeomAbs_Cone: "cone", GeomAbs_Sphere: "sphere",
    GeomAbs_Torus: "torus", GeomAbs_BezierSurface: "bspline", GeomAbs_BSplineSurface: "bspline",
    GeomAbs_SurfaceOfRevolution: "revolution", GeomAbs_SurfaceOfExtrusion: "extrusion",
    GeomAbs_OffsetSurface: "offset",
}
FULL_TURN = 2 * math.pi - 1e-6


class InvalidSolid(Exception):
    """The part is not one valid, closed, non-degenerate solid (message says why)."""


def _sub_shapes(shape, kind):
    explorer = TopExp_Explorer(shape, kind)
    while explorer.More():
        yield explorer.Current()
        explorer.Next()


def _faces(shape):
    return [TopoDS.Face_s(f) for f in _sub_shapes(shape, TopAbs_FACE)]


def validate(shape) -> dict:
    """Check the shape is exactly one valid solid of positive, non-negligible volume."""
    solids = list(_sub_shapes(shape, TopAbs_SOLID))
    if len(solids) != 1:
        raise InvalidSolid(f"expected exactly one solid, found {len(solids)}")
    if not BRepCheck_Analyzer(shape).IsValid():
        raise InvalidSolid("the B-rep is invalid (BRepCheck failed: self-intersection or broken topology)")
    shells = list(_sub_shapes(solids[0], TopAbs_SHELL))
    if any(not BRep_Tool.IsClosed_s(s) for s in shells):
        raise InvalidSolid("the solid's shell is open (not watertight)")
    props = GProp_GProps()
    BRepGProp.VolumeProperties_s(shape, props)
    volume = props.Mass()
    box = Bnd_Box()
    BRepBndLib.Add_s(shape, box, False)
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
        "center": [com.X(), com.Y(), com.Z()],
    }


def _cylinder_info(face, adaptor):
    """(radius, axis point, axis direction, angular span, concave) of a cylindrical face."""
    cyl = adaptor.Cylinder()
    axis = cyl.Axis()
    loc, d = axis.Location(), axis.Direction()
    umin, umax, vmin, vmax = BRepTools.UVBounds_s(face)
    u, v = (umin + umax) / 2, (vmin + vmax) / 2
    props = BRepLProp_SLProps(adaptor, u, v, 1, 1e-9)
    p, n = props.Value(), props.Normal()
    if face.Orientation() == TopAbs_REVERSED:
        n.Reverse()
    # radial direction from the axis to the point; the normal pointing back at the axis = a bore
    px, py, pz = p.X() - loc.X(), p.Y() - loc.Y(), p.Z() - loc.Z()
    t = px * d.X() + py * d.Y() + pz * d.Z()
    rx, ry, rz = px - t * d.X(), py - t * d.Y(), pz - t * d.Z()
    concave = (rx * n.X() + ry * n.Y() + rz * n.Z()) < 0
    # canonical axis: direction with a positive leading component, point nearest the origin
    dx, dy, dz = d.X(), d.Y(), d.Z()
    if (dx, dy, dz) < (0.0, 0.0, 0.0):
        dx, dy, dz = -dx, -dy, -dz
    s = loc.X() * dx + loc.Y() * dy + loc.Z() * dz
    foot = (loc.X() - s * dx, loc.Y() - s * dy, loc.Z() - s * dz)
    return cyl.Radius(), foot, (dx, dy, dz), umax - umin, concave


def _round(values, q: float) -> tuple:
    return tuple(round(v / q) for v in values)


def _surface_key(face, adaptor, kind: str, q: float):
    """Identity of the underlying surface, so a face that OCC split in two counts once."""
    if kind == "plane":
        pln = adaptor.Plane()
        n, p = pln.Axis().Direction(), pln.Location()
        sign = -1.0 if face.Orientation() == TopAbs_REVERSED else 1.0
        nx, ny, nz = sign * n.X(), sign * n.Y(), sign * n.Z()
        return (_round((nx, ny, nz), 1e-4), round((nx * p.X() + ny * p.Y() + nz * p.Z()) / q))
    if kind == "sphere":
        sph = adaptor.Sphere()
        c = sph.Location()
        return _round((c.X(), c.Y(), c.Z(), sph.Radius()), q)
    if kind == "cone":
        cone = adaptor.Cone()
        a, d = cone.Apex(), cone.Axis().Direction()
        return (_round((a.X(), a.Y(), a.Z()), q), _round((abs(d.X()), abs(d.Y()), abs(d.Z()), cone.SemiAngle()), 1e-4))
    if kind == "torus":
        tor = adaptor.Torus()
        c, d = tor.Location(), tor.Axis().Direction()
        return (_round((c.X(), c.Y(), c.Z(), tor.MajorRadius(), tor.MinorRadius()), q),
                _round((abs(d.X()), abs(d.Y()), abs(d.Z())), 1e-4))
    return id(face)  # free-form surfaces: one per face


def features(shape, diag: float) -> dict:
    """Feature signature from the B-rep: a histogram of distinct surfaces by type (faces that
    OCC split, or coplanar faces, count once), holes (full concave cylinders, grouped by axis
    and radius, since a bore may be several faces), round edges (partial cylinders, tori,
    spheres: fillets and rounded slot ends) and their radii."""
    surfaces: dict = {}
    groups: dict = {}
    fillet_radii = []
    q = max(diag, 1e-9) * 1e-5  # rounding grid for recognising the same surface
    n_faces = 0
    for face in _faces(shape):
        n_faces += 1
        adaptor = BRepAdaptor_Surface(face, True)
        kind = SURFACE_NAMES.get(adaptor.GetType(), "other")
        if kind == "cylinder":
            radius, foot, direction, span, concave = _cylinder_info(face, adaptor)
            key = (round(radius / q), *_round(foot, q), *(round(c, 4) for c in direction), concave)
            entry = groups.setdefault(key, [radius, 0.0, concave])
            entry[1] += span
        else:
            key = _surface_key(face, adaptor, kind, q)
            if kind in ("torus", "sphere") and (kind, key) not in surfaces:
                fillet_radii.append(adaptor.Torus().MinorRadius() if kind == "torus" else adaptor.Sphere().Radius())
        surfaces[(kind, key)] = kind
    holes, bosses = [], []
    for radius, span, concave in groups.values():
        if span >= FULL_TURN:
            (holes if concave else bosses).append(radius)
        else:
            fillet_radii.append(radius)
    return {
        "face_types": dict(sorted(Counter(surfaces.values()).items())),
        "n_faces": n_faces,
        "n_edges": sum(1 for _ in _sub_shapes(shape, TopAbs_EDGE)),
        "holes": sorted(holes),
        "bosses": sorted(bosses),
        "fillets": sorted(fillet_radii),
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
