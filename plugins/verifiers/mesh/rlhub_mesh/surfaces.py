"""A part's features, read from its B-rep (never from a mesh), in the part's own frame.

Runs in the measuring process only (see runner.py): it imports OCP. Every face is classified by
its underlying analytic surface (a B-spline, Bezier, extrusion or revolution that is a plane,
cylinder, cone, sphere or torus to a millionth of the part's size counts as one: canonical.py),
and faces on one surface merge (OCC splits a cylinder at its
seam, or a face around a cross hole, differently from one construction to the next). Then:

- holes: concave full-turn cylinders, stacked with their coaxial neighbours: counterbores,
  countersinks (concave cones), floors (flat faces across the bore) and drill points;
- slots: two concave half cylinders facing each other (rounded slot ends, keyways);
- fillets: cylinders, tori and spheres tangent to their neighbours along two or more edges;
- cones, bent bores (concave tori), spheres, arcs (partial cylinders that are none of the above);
- bosses: convex full-turn cylinders (hubs, shafts, standoffs, outside diameters);
- planes: the remaining flat faces, one per (outward normal, offset), with area and centroid;
- surfaces: free-form faces, by centroid and area;
- teeth (on request): lobes of the most detailed flat outline, counted around its centroid; a
  lobe short of the tip circle (a broken tooth) is no tooth. With them the tooth form
  (`profile`): the share of each quarter of the depth between root and tip circle inside the
  outline.

The result is two lists of JSON-able records: `features` (what a machinist cuts) and `form`
(the body they are cut into). Tolerances here are only for recognising one surface; all
comparison happens on the verifier's side.
"""

from __future__ import annotations

import math

from OCP.BRep import BRep_Tool
from OCP.BRepAdaptor import BRepAdaptor_Curve, BRepAdaptor_Curve2d, BRepAdaptor_Surface
from OCP.BRepGProp import BRepGProp
from OCP.BRepLProp import BRepLProp_SLProps
from OCP.BRepTools import BRepTools, BRepTools_WireExplorer
from OCP.GeomAbs import GeomAbs_Cone, GeomAbs_Cylinder, GeomAbs_Line, GeomAbs_Plane, GeomAbs_Sphere, GeomAbs_Torus
from OCP.GProp import GProp_GProps
from OCP.TopAbs import TopAbs_EDGE, TopAbs_FACE, TopAbs_REVERSED, TopAbs_VERTEX, TopAbs_WIRE
from OCP.TopExp import TopExp, TopExp_Explorer
from OCP.TopoDS import TopoDS
from OCP.TopTools import TopTools_IndexedDataMapOfShapeListOfShape, TopTools_IndexedMapOfShape

from . import canonical

FULL_TURN = 2 * math.pi - 1e-6
HALF_TURN_SLACK = 0.05  # rad: a slot end is a half cylinder
TANGENT_SIN = 1e-3  # faces meeting at under ~0.06 degrees are tangent (a blend)
DIR_EPS = 1e-7
_ANALYTIC = {GeomAbs_Plane: "plane", GeomAbs_Cylinder: "cylinder", GeomAbs_Cone: "cone",
             GeomAbs_Sphere: "sphere", GeomAbs_Torus: "torus"}


# -- small vector helpers (tuples: nothing here may depend on numpy's import in the sandbox) ------
def _xyz(p) -> tuple[float, float, float]:
    return (p.X(), p.Y(), p.Z())


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _mul(a, k):
    return (a[0] * k, a[1] * k, a[2] * k)


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(a):
    return math.sqrt(_dot(a, a))


def _unit(a):
    n = _norm(a)
    return _mul(a, 1.0 / n) if n > 0 else a


def _canon(d):
    """The direction with a positive first clear component: a line's two senses read the same."""
    for c in d:
        if abs(c) > 1e-6:
            return d if c > 0 else _mul(d, -1.0)
    return d


def _foot(p, d):
    """The point of the line (p, d) nearest the origin: one point per line, whatever p was."""
    return _sub(p, _mul(d, _dot(p, d)))


def _r(values, nd=9):
    return [round(v, nd) + 0.0 for v in values]  # + 0.0: no "-0.0" in verdicts


# -- faces --------------------------------------------------------------------------------------
def _iter(shape, kind):
    explorer = TopExp_Explorer(shape, kind)
    while explorer.More():
        yield explorer.Current()
        explorer.Next()


def _outward_normal(adaptor, face, u, v):
    props = BRepLProp_SLProps(adaptor, u, v, 1, 1e-9)
    if not props.IsNormalDefined():
        return None, _xyz(adaptor.Value(u, v))
    n = props.Normal()
    if face.Orientation() == TopAbs_REVERSED:
        n.Reverse()
    return (n.X(), n.Y(), n.Z()), _xyz(props.Value())


class _Face:
    """One face: its surface type and parameters, in canonical form. A face whose surface is a
    plane, cylinder, cone, sphere or torus written another way (a B-spline, an extrusion of an
    ellipse with equal radii...) is read as that analytic surface (canonical.py), within `tol`."""

    def __init__(self, index, face, tol: float = 0.0):
        self.index, self.face = index, face
        self.adaptor = BRepAdaptor_Surface(face, True)
        self.kind = _ANALYTIC.get(self.adaptor.GetType(), "other")
        self.geom = None  # the recognised analytic surface (gp_), where the stored one is not
        if self.kind == "other" and tol > 0:
            found = canonical.recognise(face, tol)
            if found is not None:
                self.kind, self.geom = found
        self.u0, self.u1, self.v0, self.v1 = BRepTools.UVBounds_s(face)
        um, vm = (self.u0 + self.u1) / 2, (self.v0 + self.v1) / 2
        if self.kind == "plane" and self.geom is None:
            self.normal, self.mid = None, _xyz(self.adaptor.Value(um, vm))
        else:
            self.normal, self.mid = _outward_normal(self.adaptor, face, um, vm)
        getattr(self, "_" + self.kind)()

    def _plane(self):
        if self.geom is not None:  # the outward normal as the face's own surface says
            n = _xyz(self.geom.Axis().Direction())
            if self.normal is not None and _dot(n, self.normal) < 0:
                n = _mul(n, -1.0)
            self.dir, self.offset = n, _dot(n, _xyz(self.geom.Location()))
            return
        pln = self.adaptor.Plane()
        n = _xyz(pln.Axis().Direction())
        if not pln.Direct():  # a left-handed frame: the surface normal is -Z of it
            n = _mul(n, -1.0)
        if self.face.Orientation() == TopAbs_REVERSED:
            n = _mul(n, -1.0)
        self.dir, self.offset = n, _dot(n, _xyz(pln.Location()))

    def _axial(self, ax):
        d0 = _xyz(ax.Direction())
        self.dir = _canon(d0)
        self.sense = 1.0 if _dot(d0, self.dir) > 0 else -1.0
        self.foot = _foot(_xyz(ax.Location()), self.dir)

    def _cylinder(self):
        cyl = self.geom if self.geom is not None else self.adaptor.Cylinder()
        self._axial(cyl.Axis())
        self.radius = cyl.Radius()
        if self.geom is not None:  # its parameters are not angle and height: read the boundary
            self.t0, self.t1, self.span = canonical.extent(self.face, self.foot, self.dir)
        else:
            base = _dot(_xyz(cyl.Axis().Location()), self.dir)
            self.t0, self.t1 = sorted((base + self.sense * self.v0, base + self.sense * self.v1))
            self.span = self.u1 - self.u0
        self.concave = self._points_at_axis()

    def _cone(self):
        cone = self.geom if self.geom is not None else self.adaptor.Cone()
        self._axial(cone.Axis())
        a, r0 = cone.SemiAngle(), cone.RefRadius()
        base = _dot(_xyz(cone.Location()), self.dir)
        if self.geom is not None:
            t0, t1, self.span = canonical.extent(self.face, self.foot, self.dir)
            ends = [(t, abs(r0 + (t - base) * self.sense * math.tan(a))) for t in (t0, t1)]
        else:
            ends = [(base + self.sense * v * math.cos(a), r0 + v * math.sin(a)) for v in (self.v0, self.v1)]
            self.span = self.u1 - self.u0
        ends.sort()
        (self.t0, self.ra), (self.t1, self.rb) = ends
        self.semi_angle = abs(a)
        self.concave = self._points_at_axis()

    def _points_at_axis(self):
        """Concave: the outward normal points back at the axis (a bore), not away (a shaft)."""
        if self.normal is None:
            return False
        radial = _sub(_sub(self.mid, self.foot), _mul(self.dir, _dot(_sub(self.mid, self.foot), self.dir)))
        return _dot(radial, self.normal) < 0

    def _torus(self):
        tor = self.geom if self.geom is not None else self.adaptor.Torus()
        self._axial(tor.Axis())
        self.centre = _xyz(tor.Location())
        self.major, self.radius = tor.MajorRadius(), tor.MinorRadius()
        # nearest point of the tube's centre circle: concave when the normal points at it
        rel = _sub(self.mid, self.centre)
        radial = _unit(_sub(rel, _mul(self.dir, _dot(rel, self.dir))))
        ring = _add(self.centre, _mul(radial, self.major))
        self.concave = self.normal is not None and _dot(_sub(ring, self.mid), self.normal) > 0

    def _sphere(self):
        sph = self.geom if self.geom is not None else self.adaptor.Sphere()
        self.centre, self.radius = _xyz(sph.Location()), sph.Radius()
        self.concave = self.normal is not None and _dot(_sub(self.centre, self.mid), self.normal) > 0

    def _other(self):
        props = GProp_GProps()
        BRepGProp.SurfaceProperties_s(self.face, props)
        self.area, self.centroid = props.Mass(), _xyz(props.CentreOfMass())


# -- grouping -----------------------------------------------------------------------------------
def _cluster(items, key, eps):
    """Groups of items whose keys agree within eps in every coordinate. A sweep along a fixed
    oblique projection of the keys: symmetric parts (gear flanks share one offset) stay cheap."""
    weights = (1.0, 0.7548776662, 0.5698402910, 0.4301597090, 0.3247179572, 0.2451223338, 0.1850384770, 0.1396818906)
    keys = [key(it) for it in items]
    proj = sorted((sum(w * k for w, k in zip(weights, ks)), i) for i, ks in enumerate(keys))
    window = eps * sum(weights)
    parent = list(range(len(items)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a in range(len(proj)):
        pa, ia = proj[a]
        for b in range(a + 1, len(proj)):
            pb, ib = proj[b]
            if pb - pa > window:
                break
            if all(abs(x - y) <= eps for x, y in zip(keys[ia], keys[ib])):
                parent[find(ib)] = find(ia)
    groups: dict[int, list] = {}
    for i, it in enumerate(items):
        groups.setdefault(find(i), []).append(it)
    return list(groups.values())  # in order of first appearance


def _axial_runs(faces, eps):
    """Split faces on one surface into runs that touch along the axis (two holes on one line)."""
    faces = sorted(faces, key=lambda f: f.t0)
    runs, current, end = [], [], -math.inf
    for f in faces:
        if current and f.t0 > end + eps:
            runs.append(current)
            current = []
        current.append(f)
        end = max(end, f.t1) if len(current) > 1 else f.t1
    if current:
        runs.append(current)
    return runs


class _Run:
    """Faces on one cylinder or cone that touch along its axis: one piece of surface."""

    def __init__(self, faces):
        f0 = faces[0]
        self.faces, self.kind, self.dir, self.foot = faces, f0.kind, f0.dir, f0.foot
        self.concave = f0.concave
        self.t0, self.t1 = min(f.t0 for f in faces), max(f.t1 for f in faces)
        self.span = min(2 * math.pi, sum(f.span for f in faces))
        self.full = self.span >= FULL_TURN
        self.mid = f0.mid  # a point on it (which side of its axis a half cylinder lies)
        if self.kind == "cylinder":
            self.ra = self.rb = f0.radius
        else:
            lo, hi = min(faces, key=lambda f: f.t0), max(faces, key=lambda f: f.t1)
            self.ra, self.rb, self.semi_angle = lo.ra, hi.rb, f0.semi_angle

    def point(self, t):
        return _add(self.foot, _mul(self.dir, t))


# -- the extraction -----------------------------------------------------------------------------
class Extractor:
    def __init__(self, shape, diag: float) -> None:
        self.shape = shape
        self.eps = max(diag, 1e-3) * 1e-6  # same surface: agrees to a millionth of the part's size
        self.face_map = TopTools_IndexedMapOfShape()
        TopExp.MapShapes_s(shape, TopAbs_FACE, self.face_map)
        self.faces = [_Face(i, TopoDS.Face_s(self.face_map.FindKey(i + 1)), self.eps) for i in range(self.face_map.Extent())]
        self.edge_faces = TopTools_IndexedDataMapOfShapeListOfShape()
        TopExp.MapShapesAndAncestors_s(shape, TopAbs_EDGE, TopAbs_FACE, self.edge_faces)
        self.used: set[int] = set()
        self._planes_by_axis: dict | None = None
        self.features: list[dict] = []
        self.form: list[dict] = []

    # tangency, measured on the geometry (edge regularity flags in a B-rep are the writer's claim)
    def _normal_along(self, face: _Face, edge):
        curve = BRepAdaptor_Curve2d(edge, face.face)
        uv = curve.Value((curve.FirstParameter() + curve.LastParameter()) / 2)
        n, _ = _outward_normal(face.adaptor, face.face, uv.X(), uv.Y())
        return n

    def tangent_edges(self, face: _Face) -> int:
        count = 0
        for edge in _iter(face.face, TopAbs_EDGE):
            edge = TopoDS.Edge_s(edge)
            if BRep_Tool.Degenerated_s(edge) or not self.edge_faces.Contains(edge):
                continue
            others = [TopoDS.Face_s(f) for f in self.edge_faces.FindFromKey(edge)]
            other = next((f for f in others if not f.IsSame(face.face)), None)
            if other is None:  # a seam: the face meets itself
                continue
            k = self.face_map.FindIndex(other)
            if k < 1:
                continue
            neighbour = self.faces[k - 1]
            try:
                n1, n2 = self._normal_along(face, edge), self._normal_along(neighbour, edge)
            except Exception:  # no pcurve on one side: not a blend we can vouch for
                continue
            if n1 is not None and n2 is not None and _dot(n1, n2) > 0 and _norm(_cross(n1, n2)) < TANGENT_SIN:
                count += 1
        return count

    def runs(self, kind):
        faces = [f for f in self.faces if f.kind == kind]
        eps = self.eps
        if kind == "cylinder":
            groups = _cluster(faces, lambda f: (f.radius, *f.foot, *f.dir, float(f.concave)), eps)
        else:
            groups = _cluster(faces, lambda f: (f.semi_angle * 100, *f.foot, *f.dir, float(f.concave)), eps)
        return [_Run(run) for g in groups for run in _axial_runs(g, eps)]

    def extract(self, teeth: bool = False) -> dict:
        cylinders, cones = self.runs("cylinder"), self.runs("cone")
        self._holes(cylinders, cones)
        self._slots([r for r in cylinders if not r.full and r.concave and abs(r.span - math.pi) < HALF_TURN_SLACK])
        self._blends_and_arcs(cylinders)
        self._cones(cones)
        self._round_surfaces()
        self._planes()
        self._others()
        if teeth:
            self._teeth()
        return {"features": self.features, "form": self.form}

    def _take(self, runs_or_faces):
        for item in runs_or_faces:
            for f in getattr(item, "faces", [item]):
                self.used.add(f.index)

    # -- holes
    def _holes(self, cylinders, cones):
        bores = [r for r in cylinders if r.full and r.concave]
        sinks = [r for r in cones if r.concave and r.full]
        pieces = bores + sinks
        lines = _cluster(pieces, lambda r: (*r.foot, *r.dir), self.eps * 10)
        for line in lines:
            line.sort(key=lambda r: r.t0)
            stack: list[_Run] = []
            for piece in line:
                if stack and piece.t0 > max(p.t1 for p in stack) + self.eps * 10:
                    self._hole(stack)
                    stack = []
                stack.append(piece)
            if stack:
                self._hole(stack)

    def _floors(self, stack, r_max, t_lo, t_hi):
        """Flat faces across the bore (cbore shoulders, blind ends), by the stack's axial range."""
        d, foot = stack[0].dir, stack[0].foot
        found = []
        if self._planes_by_axis is None:  # flat faces by the line of their normal: a hole asks once
            self._planes_by_axis = {}
            for f in self.faces:
                if f.kind == "plane":
                    self._planes_by_axis.setdefault(tuple(round(c, 4) for c in _canon(f.dir)), []).append(f)
        for f in self._planes_by_axis.get(tuple(round(c, 4) for c in d), ()):
            if f.index in self.used or abs(abs(_dot(f.dir, d)) - 1) > 1e-6:
                continue
            t = f.offset * (1 if _dot(f.dir, d) > 0 else -1)
            if not t_lo - self.eps * 10 <= t <= t_hi + self.eps * 10:
                continue
            if all(_norm(_sub(_sub(p, foot), _mul(d, _dot(_sub(p, foot), d)))) <= r_max + self.eps * 10
                   for p in _boundary_points(f.face)):
                found.append((t, f))
        return found

    def _hole(self, stack):
        d, foot = stack[0].dir, stack[0].foot
        t_lo, t_hi = min(p.t0 for p in stack), max(p.t1 for p in stack)
        r_max = max(max(p.ra, p.rb) for p in stack)
        floors = self._floors(stack, r_max, t_lo, t_hi)
        self._take(stack)
        self._take([f for _, f in floors])
        cyls = [p for p in stack if p.kind == "cylinder"]
        if not cyls:  # a lone concave cone: a conical recess, not a hole
            for p in stack:
                self._cone_record(p)
            return
        r_main = min(p.ra for p in cyls)
        tol = self.eps * 10

        def closed(t):
            at_end = [p for p in stack if abs((p.t0 if t == t_lo else p.t1) - t) <= tol]
            if any(abs(ft - t) <= tol for ft, _ in floors):
                return True
            return any(p.kind == "cone" and min(p.ra, p.rb) <= tol * 10 for p in at_end)  # drill point

        lo_closed, hi_closed = closed(t_lo), closed(t_hi)
        end_lo = min(stack, key=lambda p: p.t0)
        end_hi = max(stack, key=lambda p: p.t1)
        if lo_closed != hi_closed:
            entry = 1 if lo_closed else -1
        else:
            r_lo, r_hi = end_lo.ra if end_lo.kind == "cylinder" else max(end_lo.ra, end_lo.rb), \
                end_hi.rb if end_hi.kind == "cylinder" else max(end_hi.ra, end_hi.rb)
            entry = 0 if abs(r_lo - r_hi) <= tol else (1 if r_hi > r_lo else -1)
        mouth = end_hi if entry >= 0 else end_lo
        record = {
            "kind": "hole", "axis": _r(d), "foot": _r(foot), "d": 2 * r_main,
            "span": [t_lo, t_hi], "depth": t_hi - t_lo, "through": not (lo_closed or hi_closed),
            "entry": entry, "at": _r(_add(foot, _mul(d, t_hi if entry >= 0 else t_lo))),
            "cbore": None, "csk": None, "sections": _sections(stack),
        }
        if entry != 0 and mouth.kind == "cylinder" and mouth.ra > r_main + tol:
            record["cbore"] = {"d": 2 * mouth.ra, "depth": mouth.t1 - mouth.t0}
        elif entry != 0 and mouth.kind == "cone":
            record["csk"] = {"d": 2 * max(mouth.ra, mouth.rb), "angle": math.degrees(2 * mouth.semi_angle)}
        self.features.append(record)

    # -- slots
    def _slots(self, halves):
        halves = [h for h in halves if not any(f.index in self.used for f in h.faces)]
        taken = set()
        for i, a in enumerate(halves):
            if i in taken:
                continue
            best = None
            for j, b in enumerate(halves):
                if j <= i or j in taken or abs(a.ra - b.ra) > self.eps * 10 or abs(abs(_dot(a.dir, b.dir)) - 1) > 1e-6:
                    continue
                ta, tb = (a.t0 + a.t1) / 2, (b.t0 + b.t1) / 2
                pa, pb = a.point(ta), b.point(ta if abs(ta - tb) < 10 * self.eps else tb)
                gap = _sub(pb, pa)
                outa = _sub(a.mid, a.point(_dot(_sub(a.mid, a.foot), a.dir)))
                outb = _sub(b.mid, b.point(_dot(_sub(b.mid, b.foot), b.dir)))
                if _norm(gap) <= self.eps or _dot(outa, gap) >= 0 or _dot(outb, gap) <= 0:
                    continue
                if best is None or _norm(gap) < best[0]:
                    best = (_norm(gap), j, pa, pb)
            if best is None:
                continue
            gap, j, pa, pb = best
            taken |= {i, j}
            b = halves[j]
            self._take([a, b])
            self.features.append({
                "kind": "slot", "axis": _r(a.dir), "dir": _r(_canon(_unit(_sub(pb, pa)))),
                "at": _r(_mul(_add(pa, pb), 0.5)), "width": 2 * a.ra, "length": gap + 2 * a.ra,
                "depth": max(a.t1 - a.t0, b.t1 - b.t0),
            })

    # -- fillets, arcs, bosses
    def _blends_and_arcs(self, cylinders):
        for run in cylinders:
            if any(f.index in self.used for f in run.faces):
                continue
            self._take([run])
            mid = run.point((run.t0 + run.t1) / 2)
            if not run.full and any(self.tangent_edges(f) >= 2 for f in run.faces):
                self.features.append({"kind": "fillet", "surface": "cylinder", "r": run.ra, "axis": _r(run.dir),
                                      "at": _r(_where_on(run)), "convex": not run.concave})
            elif run.full:  # a convex full turn (a concave one is a hole)
                self.form.append({"kind": "boss", "axis": _r(run.dir), "foot": _r(run.foot), "d": 2 * run.ra,
                                  "span": [run.t0, run.t1], "at": _r(mid)})
            else:
                (self.features if run.concave else self.form).append({
                    "kind": "arc", "axis": _r(run.dir), "foot": _r(run.foot), "r": run.ra, "span": [run.t0, run.t1],
                    "sweep": math.degrees(run.span), "concave": run.concave, "at": _r(_where_on(run))})

    def _cone_record(self, run):
        self._take([run])
        r0, r1 = run.ra, run.rb
        record = {"kind": "cone", "axis": _r(run.dir), "foot": _r(run.foot), "r0": r0, "r1": r1,
                  "span": [run.t0, run.t1], "angle": math.degrees(2 * run.semi_angle), "concave": run.concave,
                  "at": _r(_where_on(run))}
        (self.features if run.concave else self.form).append(record)

    def _cones(self, cones):
        for run in cones:
            if not any(f.index in self.used for f in run.faces):
                self._cone_record(run)

    def _round_surfaces(self):
        for kind in ("torus", "sphere"):
            faces = [f for f in self.faces if f.kind == kind and f.index not in self.used]
            if kind == "torus":
                groups = _cluster(faces, lambda f: (f.radius, f.major, *f.centre, *f.dir, float(f.concave)), self.eps)
            else:
                groups = _cluster(faces, lambda f: (f.radius, *f.centre, float(f.concave)), self.eps)
            for g in groups:
                self._take(g)
                f0 = g[0]
                if any(self.tangent_edges(f) >= 2 for f in g):
                    self.features.append({"kind": "fillet", "surface": kind, "r": f0.radius,
                                          "axis": _r(f0.dir) if kind == "torus" else None,
                                          "at": _r(f0.mid), "convex": not f0.concave})
                elif kind == "torus":
                    (self.features if f0.concave else self.form).append({
                        "kind": "bore" if f0.concave else "torus", "axis": _r(f0.dir), "at": _r(f0.centre),
                        "R": f0.major, "r": f0.radius})
                else:
                    (self.features if f0.concave else self.form).append({
                        "kind": "sphere", "at": _r(f0.centre), "r": f0.radius, "concave": f0.concave})

    def _planes(self):
        """One record per (outward normal, offset), with the area and centroid of its faces
        (exact, from the B-rep): a cut-out moved within a face's plane moves the centroid."""
        faces = [f for f in self.faces if f.kind == "plane" and f.index not in self.used]
        for g in _cluster(faces, lambda f: (f.offset, *f.dir), self.eps):
            self._take(g)
            area, moment = 0.0, (0.0, 0.0, 0.0)
            for f in g:
                a, c = _plane_area(f)
                area, moment = area + a, _add(moment, _mul(c, a))
            self.form.append({"kind": "plane", "normal": _r(g[0].dir), "offset": g[0].offset,
                              "at": _r(_mul(moment, 1.0 / area) if area > 0 else g[0].mid), "area": area, "faces": len(g)})

    def _others(self):
        for f in self.faces:
            if f.index in self.used:
                continue
            self._take([f])
            self.form.append({"kind": "surface", "at": _r(f.centroid), "area": f.area})

    # -- teeth
    def _teeth(self):
        """Lobes of the most detailed outline (the flat face's wire with the most edges),
        counted around its centre: gear teeth, splines."""
        planes = [f for f in self.faces if f.kind == "plane"]
        wires = [(w, f) for f in planes for w in _iter(f.face, TopAbs_WIRE)]
        if not wires:
            return
        wire, face = max(wires, key=lambda wf: sum(1 for _ in _iter(wf[0], TopAbs_EDGE)))
        pts = []
        for e in _iter(wire, TopAbs_EDGE):
            c = BRepAdaptor_Curve(TopoDS.Edge_s(e))
            a, b = c.FirstParameter(), c.LastParameter()
            k = 1 if canonical.straight(c) else 16  # a NURBS part's straight edges are degree-1 B-splines
            pts += [_xyz(c.Value(a + (b - a) * i / k)) for i in range(k + 1)]
        # the face's centroid (exact): a broken tooth moves it by its share of the area, where it would
        # move the mean of the outline's points by its share of the points (a tenth of a tooth's depth)
        centre = _plane_area(face)[1]
        count, r_tip, r_root, lobes = count_lobes(pts, centre, face.dir)
        tooth = {"kind": "teeth", "count": count, "lobes": lobes, "axis": _r(_canon(face.dir)),
                 "at": _r(centre), "r_max": r_tip, "r_min": r_root}
        try:  # a wire OCC cannot walk has no profile: where the form is graded, it fails on that
            outline = _ordered_outline(wire, face.face) if count else None
            profile = band_shares(_planar(outline, centre, face.dir)) if outline is not None else None
        except Exception:  # noqa: BLE001  (OCC's Standard_Failure and its kin)
            profile = None
        if profile is not None:
            tooth["profile"] = profile
        self.features.append(tooth)


def _sections(stack) -> list[dict]:
    """A hole's profile along its axis, in order of position: each cylinder or cone it is made of,
    with its diameter(s) at its two ends. A wider chamber hidden inside the bore (its shoulders
    read as floors) is a section the plain hole lacks, not part of the bore."""
    out = []
    for p in sorted(stack, key=lambda p: (p.t0, p.t1)):
        if p.kind == "cylinder":
            out.append({"kind": "cylinder", "d0": 2 * p.ra, "d1": 2 * p.ra, "span": [p.t0, p.t1]})
        else:
            out.append({"kind": "cone", "d0": 2 * p.ra, "d1": 2 * p.rb, "span": [p.t0, p.t1]})
    return out


def _plane_area(f: _Face):
    """Area and centroid of a flat face: a polygon's by the shoelace formula when its one
    boundary is straight edges (gear flanks, fins: most flat faces); a face stored as another
    surface (a B-spline) by Green's theorem on its boundary (canonical.plane_area: OCC's
    integration is off by up to a few per cent there); else OCC's integration."""
    if f.geom is not None:
        return canonical.plane_area(f.face, _mul(f.dir, f.offset), f.dir)
    wires = list(_iter(f.face, TopAbs_WIRE))
    if len(wires) == 1:
        pts = []
        explorer = BRepTools_WireExplorer(TopoDS.Wire_s(wires[0]), f.face)
        while explorer.More():
            if BRepAdaptor_Curve(explorer.Current()).GetType() != GeomAbs_Line:
                pts = None
                break
            pts.append(_xyz(BRep_Tool.Pnt_s(explorer.CurrentVertex())))
            explorer.Next()
        if pts and len(pts) >= 3:
            area2, moment = 0.0, (0.0, 0.0, 0.0)
            for a, b in zip(pts[1:-1], pts[2:]):  # a fan of signed triangles from the first vertex
                tri = _dot(_cross(_sub(a, pts[0]), _sub(b, pts[0])), f.dir)
                area2 += tri
                moment = _add(moment, _mul(_add(_add(pts[0], a), b), tri / 3))
            if abs(area2) > 0:
                return abs(area2) / 2, _mul(moment, 1.0 / area2)
    props = GProp_GProps()
    BRepGProp.SurfaceProperties_s(f.face, props)
    return props.Mass(), _xyz(props.CentreOfMass())


def _boundary_points(face):
    """A face's vertices, then its edges' midpoints (lazily: callers stop at the first miss)."""
    for v in _iter(face, TopAbs_VERTEX):
        yield _xyz(BRep_Tool.Pnt_s(TopoDS.Vertex_s(v)))
    for e in _iter(face, TopAbs_EDGE):
        c = BRepAdaptor_Curve(TopoDS.Edge_s(e))
        yield _xyz(c.Value((c.FirstParameter() + c.LastParameter()) / 2))


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _where_on(run):
    """Where a partial cylinder or cone is: on its axis at mid-length, pushed out to the surface
    in its mean direction (the same point however OCC split it into faces)."""
    t = (run.t0 + run.t1) / 2
    centre = run.point(t)
    radial = (0.0, 0.0, 0.0)
    for f in run.faces:
        rel = _sub(f.mid, run.foot)
        out = _unit(_sub(rel, _mul(run.dir, _dot(rel, run.dir))))
        radial = _add(radial, _mul(out, f.span))
    radius = run.ra if run.kind == "cylinder" else (run.ra + run.rb) / 2
    # Pieces spread evenly round the axis (a hex nut's six chamfer patches) have no mean
    # direction: their sum is float noise, and the point is the axis itself.
    balanced = _norm(radial) <= 1e-6 * max(sum(f.span for f in run.faces), 1e-12)
    return centre if balanced else _add(centre, _mul(_unit(radial), radius))


TIP_LEVEL = 0.9  # of the tooth depth: a tooth counts when it reaches this near the tip (and its gaps the root)


def count_lobes(points, centre, normal, bins: int = 720):
    """Teeth of one closed outline around `centre`, in the plane normal to `normal`:
    (count, tip radius, root radius, lobes). The outline's radius as a function of angle crosses
    the level halfway between its extremes twice per lobe; a tooth counts only where it reaches
    the tip circle (the outline's largest radius per angle crosses the level at TIP_LEVEL of the
    depth) and the gaps reach the root (its smallest radius crosses the level at 1 - TIP_LEVEL):
    a broken tooth, cut to half height, is a lobe but no tooth (an internal gear's tooth, pointing
    in, is a gap that no longer reaches the root). A round outline has none."""
    n = _unit(normal)
    ref = (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0)
    x = _unit(_cross(n, ref))
    y = _cross(n, x)
    highs, lows = [math.nan] * bins, [math.nan] * bins
    for p in points:
        rel = _sub(p, centre)
        px, py = _dot(rel, x), _dot(rel, y)
        r = math.hypot(px, py)
        k = int((math.atan2(py, px) + math.pi) / (2 * math.pi) * bins) % bins
        highs[k] = r if math.isnan(highs[k]) else max(highs[k], r)
        lows[k] = r if math.isnan(lows[k]) else min(lows[k], r)
    if sum(1 for r in highs if not math.isnan(r)) < 8:
        return 0, 0.0, 0.0, 0
    highs, lows = _fill(highs), _fill(lows)
    lo, hi = min(highs), max(highs)
    if hi - lo < 0.02 * hi:
        return 0, hi, lo, 0

    def crossings(outline, level):
        above = [r > level for r in outline]
        return sum(1 for k in range(bins) if above[k] != above[k - 1]) // 2

    lobes = crossings(highs, (lo + hi) / 2)
    depth = hi - min(lows)
    tips = crossings(highs, hi - (1 - TIP_LEVEL) * depth)
    roots = crossings(lows, hi - TIP_LEVEL * depth)
    return min(lobes, tips, roots), hi, lo, lobes


PROFILE_BANDS = 4  # the tooth depth (root to tip circle) in this many bands, for its profile


def _ordered_outline(wire, face):
    """The wire's points in order round the outline (each edge in its sense along the wire,
    curved ones sampled): a polygon whose area within a circle is exact for straight flanks.
    None where OCC cannot walk the wire."""
    pts = []
    explorer = BRepTools_WireExplorer(TopoDS.Wire_s(wire), face)
    while explorer.More():
        edge = explorer.Current()
        c = BRepAdaptor_Curve(edge)
        a, b = c.FirstParameter(), c.LastParameter()
        k = 1 if canonical.straight(c) else 16
        ts = [a + (b - a) * i / k for i in range(k + 1)]
        if edge.Orientation() == TopAbs_REVERSED:
            ts.reverse()
        pts += [_xyz(c.Value(t)) for t in ts[:-1]]  # an edge's end is the next one's start
        explorer.Next()
    return pts if len(pts) >= 3 else None


def _planar(points, centre, normal):
    """Points in the plane normal to `normal`, as (x, y) about `centre`."""
    n = _unit(normal)
    x = _unit(_cross(n, (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0)))
    y = _cross(n, x)
    return [(_dot(_sub(p, centre), x), _dot(_sub(p, centre), y)) for p in points]


def disk_area(polygon, r: float) -> float:
    """Area of a closed polygon ((x, y) about the origin, either sense) within the circle of
    radius r: a sum over its edges of their triangle with the origin cut by the circle."""
    total = 0.0
    for i, a in enumerate(polygon):
        b = polygon[(i + 1) % len(polygon)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        qa, qb, qc = dx * dx + dy * dy, 2 * (a[0] * dx + a[1] * dy), a[0] * a[0] + a[1] * a[1] - r * r
        cuts = [0.0]
        disc = qb * qb - 4 * qa * qc
        if qa > 0 and disc > 0:
            root = math.sqrt(disc)
            cuts += [t for t in sorted(((-qb - root) / (2 * qa), (-qb + root) / (2 * qa))) if 0 < t < 1]
        cuts.append(1.0)
        for t0, t1 in zip(cuts, cuts[1:]):
            p, q = (a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1)
            cross = p[0] * q[1] - p[1] * q[0]
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            if mx * mx + my * my < r * r:  # (a tangent edge touches the circle: outside)
                total += cross / 2  # the piece inside: its triangle with the origin
            else:
                total += r * r / 2 * math.atan2(cross, p[0] * q[0] + p[1] * q[1])  # outside: the circle's sector
    return abs(total)


def _nearest(polygon) -> float:
    """The polygon's least distance from the origin (on an edge, not only at a vertex: a root
    land drawn as a chord dips inside the root circle)."""
    best = math.inf
    for i, a in enumerate(polygon):
        b = polygon[(i + 1) % len(polygon)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(a[0] * dx + a[1] * dy) / length2))
        best = min(best, math.hypot(a[0] + dx * t, a[1] + dy * t))
    return best


def band_shares(polygon, bands: int = PROFILE_BANDS) -> list[float] | None:
    """The tooth form, scale-free: the share of each of `bands` rings between the outline's
    root and tip circle (its least and greatest distance from the centre) that lies inside it,
    root to tip. An involute tooth keeps a land at the tip (its outer ring about 0.3 full); a
    pointed (star) tooth tapers to nothing there; a straight trapezoid is thinner half way up."""
    r_root, r_tip = _nearest(polygon), max(math.hypot(x, y) for x, y in polygon)
    if not r_tip > r_root > 0:
        return None
    radii = [r_root + (r_tip - r_root) * k / bands for k in range(bands + 1)]
    areas = [disk_area(polygon, r) for r in radii]
    return [round(max(0.0, min(1.0, (areas[k + 1] - areas[k]) / (math.pi * (radii[k + 1] ** 2 - radii[k] ** 2)))), 4)
            for k in range(bands)]


def _fill(values):
    """Empty angular bins take the last filled value before them (periodic)."""
    n = len(values)
    start = next(i for i, v in enumerate(values) if not math.isnan(v))
    out, last = list(values), values[start]
    for k in range(start, start + n):
        i = k % n
        if math.isnan(out[i]):
            out[i] = last
        else:
            last = out[i]
    return out
