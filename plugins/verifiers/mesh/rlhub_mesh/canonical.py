"""Analytic surfaces written another way: a plane, cylinder, cone, sphere or torus stored as a
B-spline (`.toNURBS()`, STEP imports), a Bezier patch, an extrusion of an ellipse with equal
radii (`.ellipse(r, r)`), a surface of revolution or an offset surface is the same geometry as
the analytic face a `.circle()` or a `.hole()` makes, and must be read as one.

`recognise(face, tol)` asks OCC's GeomConvert_SurfToAnaSurf (the converter behind
ShapeAnalysis_CanonicalRecognition, which also knows tori) for the simplest analytic surface that
lies within `tol` of the face's surface over the face's own parameter range. The tolerance is
tight (a millionth of the part's size): an exact rational B-spline of a cylinder converts
(its gap is ~1e-14 mm), a spline drawn through points on a circle does not, and stays a
free-form surface.

`plane_area(face, origin, normal)`: the area and centroid of a recognised flat face by Green's
theorem on its boundary (Gauss-Legendre on every smooth piece of every edge): OCC's surface
integration over a B-spline face and its B-spline edges is off by up to a few per cent (a
NURBS plate's top face 0.1 %, a Ø3.4 hole's cylinder 0.3 %), which would move centroids and
areas beyond the absolute kinds' tolerance.

`extent(face, foot, axis)`: where a recognised cylinder or cone face lies along its axis and how
far round it turns, from its boundary (its parameters are not angles and heights as an analytic
face's are): the axial and angular coordinates are coordinates of the surface, so their extremes
lie on the boundary.

Runs in the measuring process only (it imports OCP).
"""

from __future__ import annotations

import math

from OCP.BRep import BRep_Tool
from OCP.BRepAdaptor import BRepAdaptor_Curve
from OCP.BRepTools import BRepTools
from OCP.GeomAbs import GeomAbs_BezierCurve, GeomAbs_BSplineCurve, GeomAbs_C2, GeomAbs_Line
from OCP.GeomConvert import GeomConvert_SurfToAnaSurf
from OCP.TColStd import TColStd_Array1OfReal
from OCP.gp import gp_Pnt, gp_Vec
from OCP.TopAbs import TopAbs_EDGE, TopAbs_REVERSED
from OCP.TopExp import TopExp_Explorer
from OCP.TopoDS import TopoDS

_KINDS = {  # the converter's result type -> (our kind, its gp_ accessor)
    "Geom_Plane": ("plane", "Pln"),
    "Geom_CylindricalSurface": ("cylinder", "Cylinder"),
    "Geom_ConicalSurface": ("cone", "Cone"),
    "Geom_SphericalSurface": ("sphere", "Sphere"),
    "Geom_ToroidalSurface": ("torus", "Torus"),
}
_SAMPLES = 24  # points per curved boundary edge: angular gaps of a few degrees on a half turn


def recognise(face, tol: float):
    """(kind, gp surface) of the analytic surface the face lies on within `tol`, or None."""
    try:
        surface = BRep_Tool.Surface_s(face)  # located: in the part's frame
        u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
        su0, su1, sv0, sv1 = surface.Bounds()
        # the face's box can overshoot its surface's by float noise, which the converter refuses
        u0, u1 = _within(u0, u1, su0, su1, surface.IsUPeriodic())
        v0, v1 = _within(v0, v1, sv0, sv1, surface.IsVPeriodic())
        if not (u1 > u0 and v1 > v0):
            return None
        converter = GeomConvert_SurfToAnaSurf(surface)
        found = converter.ConvertToAnalytical(tol, u0, u1, v0, v1)
        if found is None or not converter.Gap() <= tol:
            return None
    except Exception:  # noqa: BLE001 - OCC's Standard_Failure on degenerate surfaces: not analytic
        return None
    known = _KINDS.get(type(found).__name__)
    if known is None:
        return None
    kind, accessor = known
    return kind, getattr(found, accessor)()


def _within(a, b, lo, hi, periodic):
    """The face's parameter range [a, b] clipped to its surface's [lo, hi] (a full period of a
    periodic surface: the whole period; a part of one, shifted, stays as it is)."""
    if not periodic:
        return max(a, lo), min(b, hi)
    if b - a >= (hi - lo) * (1 - 1e-9):
        return lo, hi
    return a, b


def _edges(face):
    """The face's edges that have a length (a cone's apex or a sphere's pole is a degenerate edge)."""
    explorer = TopExp_Explorer(face, TopAbs_EDGE)
    while explorer.More():
        edge = TopoDS.Edge_s(explorer.Current())
        explorer.Next()
        if not BRep_Tool.Degenerated_s(edge):
            yield edge


def _frame(normal):
    """Two unit vectors spanning the plane normal to `normal`."""
    ref = (1.0, 0.0, 0.0) if abs(normal[0]) < 0.9 else (0.0, 1.0, 0.0)
    x = _unit(_cross(normal, ref))
    return x, _cross(normal, x)


def _boundary(face):
    """Points on the face's boundary (every edge's ends and, for curves, samples between), and
    whether the face has a seam (an edge it meets itself along: a full turn)."""
    points, seam = [], False
    for edge in _edges(face):
        seam = seam or BRep_Tool.IsClosed_s(edge, face)
        curve = BRepAdaptor_Curve(edge)
        a, b = curve.FirstParameter(), curve.LastParameter()
        k = 1 if straight(curve) else _SAMPLES
        for i in range(k + 1):
            p = curve.Value(a + (b - a) * i / k)
            points.append((p.X(), p.Y(), p.Z()))
    return points, seam


def extent(face, foot, axis):
    """(t0, t1, sweep) of a face on a surface of revolution about the line (foot, axis): its
    range along the axis and the angle it turns through (2 pi with a seam)."""
    points, seam = _boundary(face)
    x, y = _frame(axis)
    ts, angles = [], []
    for p in points:
        rel = (p[0] - foot[0], p[1] - foot[1], p[2] - foot[2])
        ts.append(_dot(rel, axis))
        px, py = _dot(rel, x), _dot(rel, y)
        if math.hypot(px, py) > 1e-12:
            angles.append(math.atan2(py, px))
    if not ts:
        return 0.0, 0.0, 0.0
    if seam or len(angles) < 2:
        sweep = 2 * math.pi if seam else 0.0
    else:
        angles.sort()
        gaps = [b - a for a, b in zip(angles, angles[1:])] + [angles[0] + 2 * math.pi - angles[-1]]
        sweep = 2 * math.pi - max(gaps)
    return min(ts), max(ts), sweep


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(a):
    n = math.sqrt(_dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)


# 8-point Gauss-Legendre on [-1, 1]
_GAUSS = ((-0.9602898564975363, 0.1012285362903763), (-0.7966664774136267, 0.2223810344533745),
          (-0.5255324099163290, 0.3137066458778873), (-0.1834346424956498, 0.3626837833783620),
          (0.1834346424956498, 0.3626837833783620), (0.5255324099163290, 0.3137066458778873),
          (0.7966664774136267, 0.2223810344533745), (0.9602898564975363, 0.1012285362903763))
_PIECES = 4  # Gauss pieces per smooth interval of a curved edge (a quarter circle each: exact to 1e-12)


def _intervals(curve):
    a, b = curve.FirstParameter(), curve.LastParameter()
    try:
        count = curve.NbIntervals(GeomAbs_C2)
        if count > 1:
            knots = TColStd_Array1OfReal(1, count + 1)
            curve.Intervals(knots, GeomAbs_C2)
            return [(knots.Value(i), knots.Value(i + 1)) for i in range(1, count + 1)]
    except Exception:  # noqa: BLE001 - no continuity data: one interval
        pass
    return [(a, b)]


def straight(curve) -> bool:
    """A line, or a B-spline or Bezier of degree 1 (a NURBS part's straight edges)."""
    kind = curve.GetType()
    if kind == GeomAbs_Line:
        return True
    return kind in (GeomAbs_BSplineCurve, GeomAbs_BezierCurve) and curve.Degree() == 1


def plane_area(face, origin, normal):
    """(area, centroid) of a flat face lying in the plane (origin, normal)."""
    x, y = _frame(normal)
    area2 = mu = mv = 0.0  # 2A = loop of (u dv - v du); Mu = loop of u^2/2 dv; Mv = -loop of v^2/2 du
    p, d = gp_Pnt(), gp_Vec()
    for edge in _edges(face):
        curve = BRepAdaptor_Curve(edge)
        sign = -1.0 if edge.Orientation() == TopAbs_REVERSED else 1.0
        for a, b in _intervals(curve):
            pieces = 1 if straight(curve) else _PIECES
            half = (b - a) / pieces / 2
            for k in range(pieces):
                mid = a + (2 * k + 1) * half
                for node, weight in _GAUSS:
                    curve.D1(mid + half * node, p, d)
                    rel = (p.X() - origin[0], p.Y() - origin[1], p.Z() - origin[2])
                    tan = (d.X(), d.Y(), d.Z())
                    u, v, du, dv = _dot(rel, x), _dot(rel, y), _dot(tan, x), _dot(tan, y)
                    w = sign * weight * half
                    area2 += w * (u * dv - v * du)
                    mu += w * u * u * dv / 2
                    mv -= w * v * v * du / 2
    area = area2 / 2
    if area == 0:
        return 0.0, tuple(origin)
    cu, cv = mu / area, mv / area
    return abs(area), tuple(origin[i] + x[i] * cu + y[i] * cv for i in range(3))
