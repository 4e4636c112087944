"""Candidate vs reference, in mm: overall dimensions, volume, and every feature and face matched
one to one (Hungarian assignment, scipy) so that a moved, missing, extra or resized one is seen
and named. Host side: it reads the measurements the runner made, never OCC geometry.

Each compared quantity scores c(err) = 1 within its tolerance, else exp(-(err - tol) / L): a
useful slope that never rises with the error. A matched pair scores the product of its
quantities' c (a wrong discrete property, such as the face a counterbore opens on, x0.25); a
missing or extra feature scores 0. `form` is the mean over the six bounding-box coordinates, the
volume and the body's faces (planes, bosses, convex cones...); `features` the mean over the
features (holes, slots, fillets, bores, teeth...). A mismatch beyond tolerance on anything the
task's grading requires blocks the pass, and so does any feature or face of the candidate that
matches none of the reference's, in every kind (but the kinds a task's `free_shape` names).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .grading import Grading

GATE = 0.25  # features pair up only within a quarter of the part's size of each other
WRONG_PROPERTY = 0.25  # score factor for a wrong discrete property
PARALLEL = 1 - 1e-4  # |cos| of the angle between axes that count as parallel (~0.8 degrees)
BIG = 1e9


def n(x: float) -> str:
    text = f"{float(x):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def pt(p) -> str:
    return "(" + ", ".join(n(v) for v in p) + ")"


def direction_name(v) -> str:
    for i, axis in enumerate("XYZ"):
        if abs(abs(v[i]) - 1) < 1e-6:
            return ("+" if v[i] > 0 else "-") + axis
    return pt(v)


@dataclass
class Mismatch:
    feature: str
    what: str
    text: str
    error: float | None = None
    required: bool = True
    ref_at: list | None = None
    cand_at: list | None = None

    def to_dict(self) -> dict:
        out = {"feature": self.feature, "what": self.what, "text": self.text, "required": self.required}
        if self.error is not None:
            out["error"] = round(self.error, 4)
        for k in ("ref_at", "cand_at"):
            if getattr(self, k) is not None:
                out[k] = [round(v, 4) for v in getattr(self, k)]
        return out


@dataclass
class Comparison:
    form: float
    features: float
    passed: bool
    mismatches: list[Mismatch] = field(default_factory=list)
    counts: dict = field(default_factory=dict)


class Scales:
    """Tolerances and decay lengths of one comparison, from the grading and the reference's size."""

    def __init__(self, grading: Grading, ref_props: dict) -> None:
        lo, hi = np.asarray(ref_props["bbox"][0]), np.asarray(ref_props["bbox"][1])
        self.extents = hi - lo
        self.size = float(max(self.extents.max(), 1e-6))
        self.g = grading
        self.tol = grading.tol(self.size)
        self.absolute = grading.mode == "absolute"
        self.decay = max(self.tol, 0.02 * self.size)

    def pos(self) -> tuple[float, float]:
        return (self.tol if self.absolute else max(self.tol, self.g.pos_rel * self.size)), self.decay

    def length(self, ref_value: float) -> tuple[float, float]:
        ref_value = abs(ref_value)
        tol = self.tol if self.absolute else max(self.tol, self.g.size_rel * ref_value)
        return tol, max(2 * self.tol, 0.1 * ref_value)

    def angle(self) -> tuple[float, float]:
        return (0.5 if self.absolute else 10.0), 5.0

    def bbox(self, axis: int) -> tuple[float, float]:
        tol = self.tol if self.absolute else max(self.tol, self.g.bbox_rel * float(self.extents[axis]))
        return tol, self.decay

    def required(self, kind: str) -> bool:
        return self.absolute or kind in self.g.require

    def extra_blocks(self, f: dict) -> bool:
        """An unmatched candidate feature or face blocks the pass in every kind (what the prompt
        does not state is not there: a gusset, a tenth hole, a pocket's walls, a free-form
        face), except for kinds whose shape the prompt leaves free (`free_shape`), along
        `free_axis` where one is given."""
        if self.absolute or f["kind"] not in self.g.free_shape:
            return True
        if self.g.free_axis is None:
            return False
        axis = _vec(self.g.free_axis) / float(np.linalg.norm(self.g.free_axis))
        if f.get("normal") is not None:  # a plane runs along the axis when it faces square to it
            return abs(float(np.dot(_vec(f["normal"]), axis))) > 1 - PARALLEL
        if f.get("axis") is not None:
            return not _parallel(f["axis"], axis)
        return False


def closeness(err: float, tol: float, decay: float) -> float:
    return 1.0 if err <= tol else math.exp(-(err - tol) / decay)


def _vec(v) -> np.ndarray:
    return np.asarray(v, dtype=float)


def _dist(a, b) -> float:
    # The same operations in the same order as _distances (np.linalg.norm sums another way, and the
    # last bit then differs: the matching's cost matrix must be this rule exactly).
    d = _vec(a) - _vec(b)
    return float(np.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]))


def _parallel(a, b) -> bool:
    return abs(float(np.dot(_vec(a), _vec(b)))) >= PARALLEL


# -- per kind: what identifies a feature, and what is compared ---------------------------------
def label(f: dict) -> str:
    k = f["kind"]
    if k == "hole":
        extra = " counterbored" if f.get("cbore") else (" countersunk" if f.get("csk") else "")
        return f"{'blind' if not f['through'] else 'through'}{extra} hole Ø{n(f['d'])} at {pt(f['at'])}"
    if k == "slot":
        return f"slot {n(f['width'])} x {n(f['length'])} at {pt(f['at'])}"
    if k == "fillet":
        return f"{'fillet' if not f['convex'] else 'round'} r{n(f['r'])} at {pt(f['at'])}"
    if k == "boss":
        return f"cylinder Ø{n(f['d'])} along {direction_name(f['axis'])} at {pt(f['at'])}"
    if k == "arc":
        return f"{'concave' if f['concave'] else 'convex'} arc r{n(f['r'])} at {pt(f['at'])}"
    if k == "cone":
        short = abs(f["span"][1] - f["span"][0]) <= 0.25 * max(f["r0"], f["r1"])
        return f"{'chamfer' if short else 'cone'} r{n(f['r0'])}..{n(f['r1'])} at {pt(f['at'])}"
    if k in ("bore", "torus"):
        return f"{'bent bore' if k == 'bore' else 'torus'} r{n(f['r'])} on a {n(f['R'])} bend at {pt(f['at'])}"
    if k == "sphere":
        return f"sphere r{n(f['r'])} at {pt(f['at'])}"
    if k == "plane":
        name = direction_name(f["normal"])
        if name[0] in "+-":  # an axis-aligned face: say where it is on that axis
            return f"face at {name[1]} = {n(f['offset'] * (1 if name[0] == '+' else -1))} (facing {name})"
        return f"face facing {name} at offset {n(f['offset'])}"
    if k == "teeth":
        return f"{f['count']} teeth around {pt(f['at'])}"
    return f"{k} at {pt(f['at'])}"


def _position(f: dict, g: dict) -> float | None:
    """How far apart two features of one kind are, in mm; None if they cannot be the same."""
    k = f["kind"]
    if "axis" in f and f.get("axis") is not None and g.get("axis") is not None and not _parallel(f["axis"], g["axis"]):
        return None
    if k == "plane":
        if float(np.dot(_vec(f["normal"]), _vec(g["normal"]))) < 1 - 1e-6:
            return None
        return abs(f["offset"] - g["offset"])
    if k == "slot" and not _parallel(f["dir"], g["dir"]):
        return None
    if k == "fillet" and f["surface"] != g["surface"]:
        return None
    if k in ("hole", "boss", "cone"):
        return _dist(f["foot"], g["foot"])
    return _dist(f["at"], g["at"])


def _axis_extent(f: dict) -> str:
    return f"{n(f['span'][0])}..{n(f['span'][1])} along {direction_name(f['axis'])}"


class _Pair:
    """Scores one matched pair, collecting what differs beyond tolerance."""

    def __init__(self, ref: dict, cand: dict, s: Scales, required: bool) -> None:
        self.ref, self.cand, self.s, self.required = ref, cand, s, required
        self.score, self.out = 1.0, []
        self.name = label(ref)

    def _miss(self, what: str, text: str, err: float | None, required: bool = True) -> None:
        self.out.append(Mismatch(self.name, what, f"{self.name}: {text}", err, self.required and required,
                                 self.ref.get("at"), self.cand.get("at")))

    def position(self, err: float) -> None:
        tol, decay = self.s.pos()
        self.score *= closeness(err, tol, decay)
        if err > tol:
            where = label(self.cand).split(" (facing")[0].split(" at ", 1)[-1] if self.ref["kind"] == "plane" else pt(self.cand["at"])
            self._miss("position", f"moved {n(err)} mm (now at {where})", err)

    def centroid(self) -> None:
        """Where a face lies within its plane: its centroid (a cut-out moved along the face)."""
        tol, decay = self.s.pos()
        err = _dist(self.ref["at"], self.cand["at"])
        self.score *= closeness(err, tol, decay)
        if err > tol:
            self._miss("centroid", f"its centroid moved {n(err)} mm within its plane (now at {pt(self.cand['at'])})", err)

    def length(self, what: str, exp: float, got: float, required: bool = True) -> None:
        tol, decay = self.s.length(exp)
        err = abs(got - exp)
        self.score *= closeness(err, tol, decay)
        if err > tol:
            self._miss(what, f"{what} {n(got)} mm, expected {n(exp)} mm", err, required)

    def extent(self) -> None:
        tol, decay = self.s.pos()
        err = max(abs(self.cand["span"][0] - self.ref["span"][0]), abs(self.cand["span"][1] - self.ref["span"][1]))
        self.score *= closeness(err, tol, decay)
        if err > tol:
            self._miss("extent", f"runs {_axis_extent(self.cand)}, expected {_axis_extent(self.ref)}", err)

    def angle(self, what: str, exp: float, got: float) -> None:
        tol, decay = self.s.angle()
        err = abs(got - exp)
        self.score *= closeness(err, tol, decay)
        if err > tol:
            self._miss(what, f"{what} {n(got)} degrees, expected {n(exp)}", err)

    def same(self, what: str, exp: Any, got: Any, text: str) -> None:
        if exp != got:
            self.score *= WRONG_PROPERTY
            self._miss(what, text, None)


def _compare_hole(p: _Pair) -> None:
    r, c = p.ref, p.cand
    p.length("diameter", r["d"], c["d"])
    p.extent()
    p.same("through", r["through"], c["through"],
           "ends inside the part, expected through" if r["through"] else "goes through, expected a blind hole")
    if r["entry"] and c["entry"] and (p.s.absolute or p.s.g.entry):
        face = lambda f: direction_name([a * f["entry"] for a in f["axis"]])  # noqa: E731
        p.same("face", r["entry"], c["entry"], f"opens on the {face(c)} face, expected the {face(r)} face")
    _compare_sections(p)
    for part, name in (("cbore", "counterbore"), ("csk", "countersink")):
        rp, cp = r.get(part), c.get(part)
        if rp and cp:
            p.length(f"{name} diameter", rp["d"], cp["d"])
            if part == "cbore":
                p.length("counterbore depth", rp["depth"], cp["depth"])
            else:
                p.angle("countersink angle", rp["angle"], cp["angle"])
        elif rp or cp:
            what = f"Ø{n(rp['d'])}" + (f" x {n(rp['depth'])} deep" if part == "cbore" else "") if rp else ""
            p.same(name, bool(rp), bool(cp), f"no {name}, expected {what}" if rp else f"has a {name}, expected none")


def _profile(f: dict) -> str:
    """A hole's sections along its axis in words: "Ø3.4 / Ø6 / Ø3.4", a cone "Ø6>Ø3.4"."""
    return " / ".join(f"Ø{n(x['d0'])}" if x["kind"] == "cylinder" else f"Ø{n(x['d0'])}>Ø{n(x['d1'])}"
                      for x in f["sections"])


def _compare_sections(p: _Pair) -> None:
    """The hole's profile along its axis: the same cylinders and cones in the same order (a wider
    chamber hidden in the bore, a step, a counterbore at the other end are each a section the
    reference lacks), each with its diameters as sizes and its ends as positions."""
    r, c = p.ref, p.cand
    if r.get("sections") is None or c.get("sections") is None:
        return
    rs, cs = r["sections"], c["sections"]
    if [x["kind"] for x in rs] != [x["kind"] for x in cs]:
        p.same("profile", 0, 1, f"its bore runs {_profile(c)} along its axis, expected {_profile(r)}")
        return
    tol, decay = p.s.pos()
    for k, (a, b) in enumerate(zip(rs, cs)):
        if len(rs) > 1:  # a one-section hole's diameter and extent are the hole's own
            p.length(f"diameter of section {k + 1} of {len(rs)}", a["d0"], b["d0"])
            if a["kind"] == "cone":
                p.length(f"end diameter of section {k + 1} of {len(rs)}", a["d1"], b["d1"])
            err = max(abs(a["span"][0] - b["span"][0]), abs(a["span"][1] - b["span"][1]))
            p.score *= closeness(err, tol, decay)
            if err > tol:
                p._miss("profile", f"its bore runs {_profile(c)} along its axis, section {k + 1} from "
                        f"{n(b['span'][0])} to {n(b['span'][1])}, expected {n(a['span'][0])} to {n(a['span'][1])}", err)


def _compare(p: _Pair) -> None:
    r, c, k = p.ref, p.cand, p.ref["kind"]
    if k == "hole":
        _compare_hole(p)
    elif k == "slot":
        for what in ("width", "length", "depth"):
            p.length(what, r[what], c[what])
    elif k == "fillet":
        p.length("radius", r["r"], c["r"])
        p.same("convexity", r["convex"], c["convex"], "rounds the other way (convex vs concave)")
    elif k == "boss":
        p.length("diameter", r["d"], c["d"])
        p.extent()
    elif k == "arc":
        p.length("radius", r["r"], c["r"])
        p.extent()
        p.angle("sweep", r["sweep"], c["sweep"])
    elif k == "cone":
        p.length("radius at the start", r["r0"], c["r0"])
        p.length("radius at the end", r["r1"], c["r1"])
        p.extent()
        p.angle("included angle", r["angle"], c["angle"])
    elif k in ("bore", "torus"):
        p.length("bend radius", r["R"], c["R"])
        p.length("radius", r["r"], c["r"])
    elif k == "sphere":
        p.length("radius", r["r"], c["r"])
    elif k == "surface":
        p.length("size (square root of area)", math.sqrt(r["area"]), math.sqrt(c["area"]))
    elif k == "plane":
        p.centroid()
        p.length("size (square root of area)", math.sqrt(r["area"]), math.sqrt(c["area"]),
                 required=p.s.absolute or p.s.g.plane_area)
    elif k == "teeth":
        short = c.get("lobes", c["count"]) - c["count"]  # lobes that are no whole tooth: short of the tip or root
        p.same("count", r["count"], c["count"], f"{c['count']} teeth, expected {r['count']}" +
               (f" ({short} more cut short of the tip or root circle)" if short > 0 else ""))
        p.length("outer radius", r["r_max"], c["r_max"])
        p.length("inner radius", r["r_min"], c["r_min"])
        if p.s.g.tooth_form is not None and not p.s.absolute:
            _compare_tooth_form(p, p.s.g.tooth_form)


def _shares(profile) -> str:
    return "/".join(f"{v:.2f}" for v in profile)


def _compare_tooth_form(p: _Pair, tol: float) -> None:
    """The teeth's form (surfaces.band_shares): each quarter of the depth's share inside the
    outline, the root quarter aside (root fillets, the pressure angle)."""
    rp, cp = p.ref.get("profile"), p.cand.get("profile")
    if not rp:
        return
    if not cp or len(cp) != len(rp):
        p.same("tooth form", 1, 0, "its tooth form could not be read from its outline")
        return
    err = max(abs(a - b) for a, b in zip(rp[1:], cp[1:]))
    p.score *= closeness(err, tol, tol)
    if err > tol:
        p._miss("tooth form", f"tooth form off: the outline fills {_shares(cp)} of each quarter of the tooth depth "
                f"(root to tip), expected {_shares(rp)} (a pointed tooth leaves the tip quarter nearly empty)", err)


# -- the cost of pairing every reference feature of a kind with every candidate one --------------
# `pair_rule.pair_cost` states it for one pair (with `_position`); this matrix is that rule for all
# pairs at once (a gear's tooth faces make ~400 x 400 pairs per kind; one call per pair took seconds).
_SIZES = ("d", "r", "width", "length", "R", "r0", "r1")


def _vectors(fs: list[dict], key: str) -> np.ndarray:
    """Each feature's 3-vector under `key` (NaN where it has none)."""
    return np.array([f[key] if f.get(key) is not None else (math.nan,) * 3 for f in fs], dtype=float)


def _values(fs: list[dict], key: str) -> np.ndarray:
    return np.array([f[key] if key in f else math.nan for f in fs], dtype=float)


def _dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[:, None, 0] * b[None, :, 0] + a[:, None, 1] * b[None, :, 1] + a[:, None, 2] * b[None, :, 2]


def _distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a[:, None, :] - b[None, :, :]
    return np.sqrt(d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1] + d[..., 2] * d[..., 2])


def _cost_matrix(ref: list[dict], cand: list[dict], s: Scales) -> np.ndarray:
    """cost[i, j] of pairing ref[i] with cand[j] (features of one kind): their distance apart plus
    their size differences, in decay lengths; BIG where they cannot be the same feature (axes not
    parallel, planes facing apart, fillets on other surfaces, or further apart than GATE)."""
    k = ref[0]["kind"]
    ok = np.ones((len(ref), len(cand)), dtype=bool)
    ra, ca = _vectors(ref, "axis"), _vectors(cand, "axis")
    with np.errstate(invalid="ignore"):
        both = ~np.isnan(ra[:, 0])[:, None] & ~np.isnan(ca[:, 0])[None, :]
        ok &= ~both | (np.abs(_dots(ra, ca)) >= PARALLEL)
        if k == "plane":
            ok &= _dots(_vectors(ref, "normal"), _vectors(cand, "normal")) >= 1 - 1e-6
            d = np.abs(_values(ref, "offset")[:, None] - _values(cand, "offset")[None, :])
        else:
            if k == "slot":
                ok &= np.abs(_dots(_vectors(ref, "dir"), _vectors(cand, "dir"))) >= PARALLEL
            if k == "fillet":
                ok &= np.array([[f["surface"] == g["surface"] for g in cand] for f in ref], dtype=bool)
            where = "foot" if k in ("hole", "boss", "cone") else "at"
            d = _distances(_vectors(ref, where), _vectors(cand, where))
        ok &= ~(d > GATE * s.size)
        cost = d / s.decay
        if k == "plane":
            cost = cost + _distances(_vectors(ref, "at"), _vectors(cand, "at")) / s.decay
        for key in _SIZES:
            diff = np.abs(_values(ref, key)[:, None] - _values(cand, key)[None, :]) / s.decay
            cost = cost + np.where(np.isnan(diff), 0.0, diff)
        if k == "teeth":
            cost = cost + np.abs(_values(ref, "count")[:, None] - _values(cand, "count")[None, :])
    return np.where(ok, cost, BIG)


def match_kind(ref: list[dict], cand: list[dict], s: Scales) -> tuple[float, int, list[Mismatch]]:
    """Hungarian matching of one kind: (sum of pair scores, pairs + unmatched, mismatches)."""
    from scipy.optimize import linear_sum_assignment

    mismatches: list[Mismatch] = []
    total, pairs = 0.0, []
    if ref and cand:
        cost = _cost_matrix(ref, cand, s)
        rows, cols = linear_sum_assignment(cost)
        pairs = [(i, j) for i, j in zip(rows, cols) if cost[i, j] < BIG]
    matched_r, matched_c = {i for i, _ in pairs}, {j for _, j in pairs}
    for i, j in pairs:
        p = _Pair(ref[i], cand[j], s, s.required(ref[i]["kind"]))
        pos = _position(ref[i], cand[j])
        p.position(pos if pos is not None else BIG)
        _compare(p)
        total += p.score
        mismatches += p.out
    for i, f in enumerate(ref):
        if i not in matched_r:
            mismatches.append(Mismatch(label(f), "missing", f"missing: {label(f)}", None, s.required(f["kind"]), f.get("at"), None))
    for j, g in enumerate(cand):
        if j not in matched_c:
            mismatches.append(Mismatch(label(g), "extra", f"extra: {label(g)}", None, s.extra_blocks(g), None, g.get("at")))
    return total, len(ref) + len(cand) - len(pairs), mismatches


def _by_kind(items: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for f in items:
        out.setdefault(f["kind"], []).append(f)
    return out


def _bbox_and_volume(ref: dict, cand: dict, s: Scales) -> tuple[float, list[Mismatch]]:
    score, out = 0.0, []
    for axis, name in enumerate("XYZ"):
        tol, decay = s.bbox(axis)
        errs = [abs(cand["bbox"][k][axis] - ref["bbox"][k][axis]) for k in (0, 1)]
        score += sum(closeness(e, tol, decay) for e in errs)
        if max(errs) > tol:
            lo, hi = cand["bbox"][0][axis], cand["bbox"][1][axis]
            rlo, rhi = ref["bbox"][0][axis], ref["bbox"][1][axis]
            out.append(Mismatch(f"extent along {name}", "size",
                                f"extent along {name}: {n(lo)}..{n(hi)} ({n(hi - lo)} mm), expected {n(rlo)}..{n(rhi)} ({n(rhi - rlo)} mm)",
                                max(errs), True))
    pct = 100 * (cand["volume"] - ref["volume"]) / ref["volume"]
    if s.absolute:  # the volume as the uniform offset of the whole surface that would explain it (mm)
        err, tol, decay = abs(cand["volume"] - ref["volume"]) / max(ref["area"], 1e-12), s.tol, s.decay
    else:  # a proportion of the reference's volume (walls the prompt leaves to the model's judgement)
        err, tol, decay = abs(pct) / 100, s.g.volume_rel, max(s.g.volume_rel, 0.1)
    score += closeness(err, tol, decay)
    if err > tol:
        out.append(Mismatch("volume", "volume", f"volume {n(cand['volume'])} mm³, expected {n(ref['volume'])} mm³ "
                            f"({'+' if pct >= 0 else ''}{n(pct)}%)", err, True))
    # sealed voids (a hollow inside a part that looks right outside), exactly, in every kind
    voids, expected = cand.get("voids", 0), ref.get("voids", 0)
    score += 1.0 if voids == expected else 0.0
    if voids != expected:
        out.append(Mismatch("voids", "voids", f"{voids} sealed void(s) inside the solid, expected {expected}", None, True))
    return score, out


def compare(ref: dict, cand: dict, grading: Grading) -> Comparison:
    """`ref` and `cand` are runner outputs (props, features, form), in one frame. Mismatches come
    overall size first, then features (what a machinist names), then the volume and the faces."""
    s = Scales(grading, ref["props"])
    size_score, size_mismatches = _bbox_and_volume(ref["props"], cand["props"], s)
    scores, found, counts = {}, {}, {}
    for group in ("features", "form"):
        rk, ck = _by_kind(ref.get(group, [])), _by_kind(cand.get(group, []))
        total, slots, found[group] = 0.0, 0, []
        for kind in sorted(set(rk) | set(ck)):
            got, n_slots, mismatches = match_kind(rk.get(kind, []), ck.get(kind, []), s)
            total, slots = total + got, slots + n_slots
            found[group] += mismatches
            counts[kind] = [len(rk.get(kind, [])), len(ck.get(kind, []))]
        scores[group] = (total, slots)
    features = scores["features"][0] / scores["features"][1] if scores["features"][1] else 1.0
    form = (size_score + scores["form"][0]) / (8 + scores["form"][1])  # 6 box coordinates, the volume, the voids
    extents = [m for m in size_mismatches if m.what == "size"]
    mismatches = extents + found["features"] + [m for m in size_mismatches if m.what != "size"] + found["form"]
    return Comparison(form=form, features=features, passed=not any(m.required for m in mismatches),
                      mismatches=mismatches, counts=counts)


def transformed(record: dict, matrix: np.ndarray, scale: float) -> dict:
    """A runner record moved by a 4x4 similarity transform (for the invariance options)."""
    rot = matrix[:3, :3] / scale
    move: Callable = lambda p: (matrix[:3, :3] @ _vec(p) + matrix[:3, 3]).tolist()  # noqa: E731
    turn: Callable = lambda v: (rot @ _vec(v)).tolist()  # noqa: E731
    lengths = ("d", "r", "R", "width", "length", "depth", "r0", "r1", "r_max", "r_min")

    def one(f: dict) -> dict:
        g = dict(f)
        for key in lengths:
            if key in g:
                g[key] = g[key] * scale
        for key in ("cbore", "csk"):
            if g.get(key):
                g[key] = {k: (v * scale if k in ("d", "depth") else v) for k, v in g[key].items()}
        if "area" in g:
            g["area"] = g["area"] * scale**2
        if "at" in g:
            g["at"] = move(g["at"])
        flipped = False
        for key in ("axis", "dir", "normal"):
            if g.get(key) is not None:
                v = _vec(turn(g[key]))
                if key != "normal" and next((c for c in v if abs(c) > 1e-6), 1) < 0:
                    v = -v  # axes stay canonical (positive first component); normals keep their sense
                    flipped = flipped or key == "axis"
                g[key] = v.tolist()
        if "foot" in g:
            p, d = _vec(move(g["foot"])), _vec(g["axis"])
            g["foot"] = (p - d * float(p @ d)).tolist()
            if "span" in g:  # positions along the (possibly reversed) axis
                base = float(_vec(move(f["foot"])) @ d)
                g["span"] = sorted(base + t * scale * (-1 if flipped else 1) for t in f["span"])
        if flipped and "entry" in g:
            g["entry"] = -g["entry"]
        if g.get("sections"):  # a hole's profile: its positions along the axis as its span's, in order
            base = float(_vec(move(f["foot"])) @ _vec(g["axis"]))
            sections = []
            for x in f["sections"]:
                ends = [(base + t * scale * (-1 if flipped else 1), dk * scale) for t, dk in zip(x["span"], (x["d0"], x["d1"]))]
                ends.sort()
                sections.append({"kind": x["kind"], "d0": ends[0][1], "d1": ends[1][1], "span": [ends[0][0], ends[1][0]]})
            g["sections"] = sorted(sections, key=lambda x: tuple(x["span"]))
        if g["kind"] == "plane":
            point = _vec(f["normal"]) * f["offset"]
            g["offset"] = float(_vec(move(point)) @ _vec(g["normal"]))
        return g

    out = dict(record)
    out["features"] = [one(f) for f in record.get("features", [])]
    out["form"] = [one(f) for f in record.get("form", [])]
    return out
