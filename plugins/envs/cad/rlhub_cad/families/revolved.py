"""Revolved parts on the Z axis: control knobs with a grip flange, thin-walled bottles."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Resize
from ..stated import hollow, presence, size, wall
from ..fmt import half_steps, mm, n

_AXIAL = "with its axis on the Z axis and its bottom face on the XY plane (Z from 0 up)"


def _header(title, frame, p, names):
    return ["import cadquery as cq", "", f"# {title}", f"# Frame: {frame}."] + [f"{k} = {n(p[k])}" for k in names]


def _revolve(section):
    return ["result = (" if section == "result" else f"{section} = (", '    cq.Workplane("XZ")', "    .polyline(section)",
            "    .close()", "    .revolve(360, (0, 0, 0), (0, 1, 0))  # about the workplane's Y, which is global Z"]


_SHAPE_KINDS = ("abstract", "image")  # the kinds that state the grip's shape in words only (the others give top_d in mm)


def _tapered(p) -> bool:
    return p["top_d"] < p["body_d"]


def _grip_words(p) -> str:
    return "a tapered grip" if _tapered(p) else "a straight cylindrical grip"


class Knob(Family):
    name = "knob"
    noun = "a control knob"
    frame = _AXIAL + ", the bore opening in the bottom face"
    features = ("holes", "fillets")
    omit = "bore"
    mutations = (Resize("bore_depth", "bore depth"), Resize("bore_d", "bore diameter"), Resize("height", "height"), Bare())
    bare_note = "the revolved grip without its bore or top fillet"
    stated = (presence("omit", "the shaft bore"), presence("no_fillet", "the rounded top", grades=("fillet",)),
              presence("no_flange", "the grip flange", grades=("boss", "plane")), size("bore_d", "bore diameter", kinds=("image",)),
              # the grip's shape, as the prompt says it (a sampled knob's grip may be straight):
              # the wrong part has the other one (script options `straight_grip`, `tapered_grip`)
              presence("straight_grip", "the grip's taper", kinds=_SHAPE_KINDS, grades=("cone",), when=lambda p: _tapered(p)),
              presence("tapered_grip", "the grip's straight sides", kinds=_SHAPE_KINDS, grades=("boss",), when=lambda p: not _tapered(p)))

    def solid_spot(self, p):
        return ((p["bore_d"] / 2 + p["flange_d"] / 2) / 2, 0.0, p["flange_t"] / 2,
                min(p["flange_t"] / 4, (p["flange_d"] - p["bore_d"]) / 8))

    def bare(self, p):
        out = _header("The knob's revolved outline only.", self.frame, p, ["flange_d", "flange_t", "body_d", "top_d", "height"])
        out += ["section = [(0, 0), (flange_d / 2, 0), (flange_d / 2, flange_t), (body_d / 2, flange_t),",
                "           (top_d / 2, height), (0, height)]", ""] + _revolve("result") + [")", ""]
        return "\n".join(out)

    def sample(self, rng):
        body_d = float(rng.randrange(18, 41, 2))
        top_d = body_d - 2 * half_steps(rng, 0, min(3, (body_d - 16) / 2))
        bore_d = float(rng.choice([d for d in (4, 5, 6, 8) if d <= top_d - 8]))
        flange_t = half_steps(rng, 2, 5)
        height = flange_t + float(rng.randrange(10, 31, 2))
        bore_depth = half_steps(rng, round(height * 0.8) / 2, height * 0.7)  # on the 0.5 mm grid
        return {"body_d": body_d, "top_d": top_d, "flange_d": body_d + 2 * half_steps(rng, 3, 8), "flange_t": flange_t,
                "height": height, "bore_d": bore_d, "bore_depth": bore_depth,
                "top_fillet": half_steps(rng, 1, min(4, height - bore_depth - 1))}

    def violations(self, p):
        bad = []
        if p["top_d"] > p["body_d"]:
            bad.append("the grip must not widen towards the top")
        if p["flange_d"] < p["body_d"] + 4:
            bad.append("grip flange sticks out less than 2 mm")
        if p["top_d"] - p["bore_d"] < 6:
            bad.append("wall round the bore under 3 mm")
        if p["bore_depth"] > p["height"] - 3:
            bad.append("less than 3 mm of material above the bore")
        if p["top_fillet"] >= min(p["height"] - p["bore_depth"], (p["top_d"] - p["bore_d"]) / 2, p["height"] - p["flange_t"] - 1):
            bad.append("top fillet as large as the wall it rounds")
        if p["top_fillet"] <= 0:
            bad.append("top fillet must be positive")
        return bad

    def _grip(self, p):
        """The params with a wrong part's grip option applied: `straight_grip` makes a tapered grip
        straight, `tapered_grip` tapers a straight one (by up to 2 mm a side, leaving the top
        fillet a wall thicker than itself)."""
        if p.get("straight_grip"):
            return {**p, "top_d": p["body_d"]}
        if p.get("tapered_grip"):
            wall = (p["body_d"] - p["bore_d"]) / 2
            return {**p, "top_d": p["body_d"] - 2 * min(2.0, (wall - p["top_fillet"]) / 2)}
        return p

    def script(self, p, omit=False):
        p = self._grip(p)
        out = _header(f"Knob: a revolved half-section (grip flange at the bottom, {_grip_words(p)}), a blind bore from below, "
                      "the top edge rounded.", self.frame, p,
                      ["flange_d", "flange_t", "body_d", "top_d", "height", "bore_d", "bore_depth", "top_fillet"])
        out += ["", "# Half section in the XZ plane: X is the radius, Z the height."]
        if omit:
            out += ["section = [(0, 0), (flange_d / 2, 0), (flange_d / 2, flange_t), (body_d / 2, flange_t),",
                    "           (top_d / 2, height), (0, height)]"]
        else:
            out += ["section = [(bore_d / 2, 0), (flange_d / 2, 0), (flange_d / 2, flange_t), (body_d / 2, flange_t),",
                    "           (top_d / 2, height), (0, height), (0, bore_depth), (bore_d / 2, bore_depth)]"]
        if p.get("no_flange"):  # a wrong part: the grip straight down to the floor, no flange
            out = [ln.replace("(flange_d / 2, 0), (flange_d / 2, flange_t), ", "(body_d / 2, 0), ") for ln in out]
        fillet = [] if p.get("no_fillet") else ['    .edges(">Z")', "    .fillet(top_fillet)"]  # no_fillet: a wrong part
        out += [""] + _revolve("result") + fillet + [")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return f"a round control knob with a grip flange at its base, {_grip_words(p)}, a rounded top and a blind shaft bore"

    def dimensioned(self, p):
        grip = (f"the grip tapers straight from {mm(p['body_d'])} diameter at the flange's top face to {mm(p['top_d'])} at the top"
                if _tapered(p) else f"the grip is a straight cylinder {mm(p['body_d'])} in diameter up to the top")
        return (f"A knob {mm(p['height'])} tall overall. At the bottom is a grip flange {mm(p['flange_d'])} in diameter and "
                f"{mm(p['flange_t'])} thick; above it {grip}, where the outer edge is rounded with a {mm(p['top_fillet'])} fillet. "
                f"A blind bore {mm(p['bore_d'])} in diameter goes up from the bottom face on the axis, {mm(p['bore_depth'])} deep "
                f"with a flat end.")

    def steps(self, p):
        return [f"In the XZ plane sketch the half section (X = radius): from radius {n(p['bore_d'] / 2)} to {n(p['flange_d'] / 2)} "
                f"for Z = 0..{n(p['flange_t'])}, then {'a straight taper' if _tapered(p) else 'straight up (a cylinder)'} from radius "
                f"{n(p['body_d'] / 2)} at Z = {n(p['flange_t'])} to {n(p['top_d'] / 2)} at Z = {n(p['height'])}, closed along the axis above Z = {n(p['bore_depth'])} and along "
                f"radius {n(p['bore_d'] / 2)} below it (the bore).",
                "Revolve it 360 degrees about the Z axis.",
                f"Fillet the top face's outer edge with radius {mm(p['top_fillet'])}."]

    def edits(self, p):
        return [Edit("Enlarge the bore to take a shaft 2 mm thicker.", changed(p, bore_d=p["bore_d"] + 2)),
                Edit("Make the grip flange 6 mm wider in diameter.", changed(p, flange_d=p["flange_d"] + 6)),
                Edit("Make the knob 6 mm taller (the bore unchanged).", changed(p, height=p["height"] + 6))]

    def wrong(self, p):
        return changed(p, flange_t=p["flange_t"] + 3, top_d=p["body_d"], height=p["height"] + 5)

    def bbox(self, p):
        r = p["flange_d"] / 2
        return (-r, -r, 0.0, r, r, p["height"])

    def alternative(self, p):
        """A cylinder and a cone (Solid.makeCone) unioned, the top edge filleted, the bore drilled
        with `hole` from below."""
        out = _header("Knob: flange cylinder and conical grip, filleted, drilled.", self.frame, p,
                      ["flange_d", "flange_t", "body_d", "top_d", "height", "bore_d", "bore_depth", "top_fillet"])
        out += ["", 'flange = cq.Workplane("XY").circle(flange_d / 2).extrude(flange_t)',
                ("grip = cq.Solid.makeCone(body_d / 2, top_d / 2, height - flange_t, cq.Vector(0, 0, flange_t), cq.Vector(0, 0, 1))"
                 if p["top_d"] < p["body_d"] else  # a straight grip: OCC makes no cone with equal radii
                 "grip = cq.Solid.makeCylinder(body_d / 2, height - flange_t, cq.Vector(0, 0, flange_t), cq.Vector(0, 0, 1))"),
                'body = flange.union(cq.Workplane("XY").add(grip)).edges(">Z").fillet(top_fillet)',
                'result = body.faces("<Z").workplane().hole(bore_d, bore_depth)', ""]
        return "\n".join(out)


class Bottle(Family):
    name = "bottle"
    noun = "a bottle"
    frame = _AXIAL + ", the neck's open mouth at the top"
    features = ("holes", "face_types")
    omit = "hollow (the bottle comes out solid)"
    mutations = (Resize("wall", "wall"), Resize("neck_d", "neck diameter"), Resize("body_h", "body height"), Bare())
    bare_note = "solid, not hollow"
    stated = (hollow("omit", "the bottle's inside"), wall("wall", "wall thickness"))

    def solid_spot(self, p):
        return (0.0, 0.0, p["wall"] / 2, p["wall"] / 4)  # in the base

    def alternative(self, p):
        """The outside revolved solid, then shelled from the mouth (OCC offsets each surface:
        a shell on a revolve, which rebuilds with another B-rep in each process)."""
        out = _header("Bottle: the outside revolved, then shelled open at the mouth.", self.frame, p,
                      ["body_d", "body_h", "shoulder_h", "neck_d", "neck_h", "wall"])
        out += ["", "top = body_h + shoulder_h + neck_h",
                "outside = [(0, 0), (body_d / 2, 0), (body_d / 2, body_h), (neck_d / 2, body_h + shoulder_h),",
                "           (neck_d / 2, top), (0, top)]", "",
                "result = (", '    cq.Workplane("XZ")', "    .polyline(outside)", "    .close()",
                "    .revolve(360, (0, 0, 0), (0, 1, 0))", '    .faces(">Z")', '    .shell(-wall, kind="intersection")', ")", ""]
        return "\n".join(out)

    def sample(self, rng):
        body_d = float(rng.randrange(40, 101, 5))
        neck_d = float(rng.randrange(16, int(min(40, body_d - 14)) + 1, 2))
        return {"body_d": body_d, "body_h": float(rng.randrange(int(body_d * 0.8), int(body_d * 2) + 1, 5)),
                "shoulder_h": float(round((body_d - neck_d) / 2 * rng.uniform(0.6, 1.4))), "neck_d": neck_d,
                "neck_h": float(rng.randrange(10, 31, 2)), "wall": half_steps(rng, 1.5, 3)}

    def violations(self, p):
        bad = []
        if p["body_d"] < p["neck_d"] + 10:
            bad.append("neck almost as wide as the body")
        if p["neck_d"] < 2 * p["wall"] + 6:
            bad.append("mouth narrower than 6 mm")
        if p["shoulder_h"] < (p["body_d"] - p["neck_d"]) / 4:
            bad.append("shoulder flatter than about 63 degrees")
        if p["wall"] < 1 or p["body_h"] <= 2 * p["wall"] or p["neck_h"] <= 2 * p["wall"]:
            bad.append("wall too thin or sections too short for it")
        return bad

    def script(self, p, omit=False):
        out = _header("Bottle: a revolved wall section (body, conical shoulder, neck) with a uniform wall, open at the mouth.",
                      self.frame, p, ["body_d", "body_h", "shoulder_h", "neck_d", "neck_h", "wall"])
        out.insert(1, "import math")
        out += ["", "top = body_h + shoulder_h + neck_h",
                "# Outer outline in the XZ plane (X is the radius, Z the height), bottom to mouth.",
                "outside = [(0, 0), (body_d / 2, 0), (body_d / 2, body_h), (neck_d / 2, body_h + shoulder_h), (neck_d / 2, top)]"]
        if omit:
            out += ["section = outside + [(0, top)]"]
        else:
            out += ["# The inside runs parallel to it, `wall` in: where the shoulder meets the body and the neck, the inner",
                    "# corner sits wall * tan(half the bend) lower than the outer one (the bend is the shoulder's angle from vertical).",
                    "drop = wall * math.tan(math.atan((body_d - neck_d) / 2 / shoulder_h) / 2)",
                    "inside = [(neck_d / 2 - wall, top), (neck_d / 2 - wall, body_h + shoulder_h - drop),",
                    "          (body_d / 2 - wall, body_h - drop), (body_d / 2 - wall, wall), (0, wall)]",
                    "section = outside + inside"]
        out += [""] + _revolve("result") + [")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a hollow bottle with a cylindrical body, a conical shoulder and an open cylindrical neck"

    def _outline(self, p):
        return (f"a cylindrical body {mm(p['body_d'])} in diameter and {mm(p['body_h'])} tall, a straight conical shoulder "
                f"{mm(p['shoulder_h'])} tall narrowing to the neck, and a cylindrical neck {mm(p['neck_d'])} in outside diameter "
                f"and {mm(p['neck_h'])} tall")

    def dimensioned(self, p):
        return (f"A bottle whose outside is {self._outline(p)}, stacked from the bottom. It is hollow, with a uniform wall "
                f"{mm(p['wall'])} thick (base included; the inner surface runs parallel to the outer one with sharp inner "
                f"corners), open at the top of the neck.")

    def steps(self, p):
        return [f"In the XZ plane sketch the outer half section: {self._outline(p)}, from Z = 0 up, closed along the axis.",
                f"Add the inner outline {mm(p['wall'])} inside it and parallel to it (sharp inner corners), open at the top of the "
                f"neck, so that the section is the {mm(p['wall'])} wall itself.",
                "Revolve the wall section 360 degrees about the Z axis."]

    def edits(self, p):
        return [Edit("Make the body 20 mm taller.", changed(p, body_h=p["body_h"] + 20)),
                Edit("Widen the neck by 4 mm in diameter.", changed(p, neck_d=p["neck_d"] + 4)),
                Edit("Thicken the wall by 1 mm (outside unchanged).", changed(p, wall=p["wall"] + 1))]

    def wrong(self, p):
        return changed(p, neck_d=p["neck_d"] + 6, shoulder_h=p["shoulder_h"] * 1.5, body_h=p["body_h"] - 10)

    def bbox(self, p):
        r = p["body_d"] / 2
        return (-r, -r, 0.0, r, r, p["body_h"] + p["shoulder_h"] + p["neck_h"])
