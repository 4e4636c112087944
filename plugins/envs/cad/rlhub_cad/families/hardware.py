"""Small hardware: hinge leaves with knuckles, C-clamp frames with a screw boss."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Flag, Move, Resize
from ..stated import SHOWN, Stated, count, face, presence, size
from ..fmt import half_steps, mm, n


class HingeLeaf(Family):
    name = "hinge-leaf"
    noun = "a hinge leaf"
    frame = ("centred in X, the leaf lying on the XY plane (Z from 0 up) and extending along +Y, the knuckles' "
             "common axis parallel to X through Y = 0, half the knuckle diameter above the XY plane")
    features = ("holes",)
    omit = "mounting holes"
    mutations = (Flag("csk_face", "bottom", "face", "the countersinks on the bottom face instead of the top",
                      when=lambda p: p["countersunk"]),
                 Resize("hole_d", "hole diameter"), Resize("length", "length"), Bare())
    bare_note = "leaf and knuckles without mounting holes or pin hole"
    stated = (count("knuckles", "knuckles", grades=("boss",)), count("holes", "mounting holes"), presence("omit", "the mounting holes"),
              Stated("presence", "countersunk", "the countersinks", grades=("cone",), value=False, when=lambda p: p["countersunk"]),
              face("csk_face", "bottom", "the countersinks on the bottom face", kinds=SHOWN, when=lambda p: p["countersunk"]),
              size("pin_d", "pin hole diameter", kinds=("image",)))

    def solid_spot(self, p):
        return (0.0, p["leaf_w"] - 1, p["thickness"] / 2, min(0.5, p["thickness"] / 4))  # by the leaf's free edge

    def bare(self, p):
        return self.script(p, omit=True).replace("leaf.union(barrel).cut(gaps).cut(pin_hole)", "leaf.union(barrel).cut(gaps)")

    def sample(self, rng):
        thickness = half_steps(rng, 1.5, 4)
        pin_d = float(rng.choice([2, 3, 4, 5]))
        knuckle_d = max(pin_d + 3, thickness + 2) + half_steps(rng, 0, 3)
        countersunk = rng.random() < 0.5
        hole_d = float(rng.choice([3.4, 4.5]))
        csk_d = min(2 * hole_d, hole_d + 2 * (thickness - 1)) if countersunk else 0.0
        head = csk_d if countersunk else hole_d
        leaf_w = float(rng.randrange(int(knuckle_d / 2 + head + 8), int(knuckle_d / 2 + head + 30), 2))
        length = float(rng.randrange(40, 121, 5))
        holes = rng.randint(2, 4)
        span = length - 2 * (head / 2 + half_steps(rng, 4, 10))  # first to last hole centre
        while holes > 2 and span / (holes - 1) < head + 2:  # fewer holes rather than touching ones
            holes -= 1
        pitch = float(int(span / (holes - 1)))
        return {"length": length, "leaf_w": leaf_w, "thickness": thickness, "knuckle_d": knuckle_d, "pin_d": pin_d,
                "knuckles": rng.choice([2, 3]), "holes": holes, "hole_pitch": pitch, "hole_d": hole_d,
                "countersunk": countersunk, "csk_d": csk_d, "hole_y": round((knuckle_d / 2 + leaf_w) / 2 * 2) / 2}

    def _head(self, p):
        return p["csk_d"] if p["countersunk"] else p["hole_d"]

    def violations(self, p):
        bad = []
        if p["knuckle_d"] < p["pin_d"] + 3:
            bad.append("knuckle wall round the pin under 1.5 mm")
        if p["knuckle_d"] < p["thickness"] + 2:
            bad.append("knuckle no thicker than the leaf")
        head = self._head(p)
        if p["countersunk"]:
            if p["csk_d"] <= p["hole_d"]:
                bad.append("countersink no wider than its hole")
            if (p["csk_d"] - p["hole_d"]) / 2 > p["thickness"] - 0.5:  # 90 degree countersink: depth = radial step
                bad.append("countersink deeper than the leaf")
        if p["hole_y"] - head / 2 < p["knuckle_d"] / 2 + 1 or p["hole_y"] + head / 2 > p["leaf_w"] - 2:
            bad.append("holes run into the knuckle or the leaf's free edge")
        span = p["hole_pitch"] * (p["holes"] - 1)
        if span + head + 4 > p["length"]:
            bad.append("end holes too close to the leaf's ends")
        if p["holes"] > 1 and p["hole_pitch"] < head + 2:
            bad.append("holes overlap")
        if p["length"] / (2 * p["knuckles"] - 1) < p["knuckle_d"] / 2:
            bad.append("knuckles too short")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "",
               f"# Hinge leaf: a plate with {p['knuckles']} knuckles along one edge (gaps between them for the mating leaf's",
               "# knuckles) and a row of " + ("countersunk" if p["countersunk"] else "plain") + " mounting holes.",
               f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("length", "leaf_w", "thickness", "knuckle_d", "pin_d", "hole_d", "hole_pitch", "hole_y")]
        if p["countersunk"]:
            out.append(f"csk_d = {n(p['csk_d'])}  # 90 degree countersink")
        out += [f"knuckles = {p['knuckles']}", f"holes = {p['holes']}",
                "segment = length / (2 * knuckles - 1)  # knuckles and gaps alternate, knuckles at both ends", "",
                "leaf = (", '    cq.Workplane("XY")', "    .box(length, leaf_w, thickness, centered=(True, False, False))"]
        if not omit and p.get("csk_face") == "bottom":  # the bottom face's workplane has Y reversed
            out += ['    .faces("<Z").workplane(centerOption="CenterOfBoundBox")',
                    "    .center(0, leaf_w / 2 - hole_y)",
                    "    .rarray(hole_pitch, 1, holes, 1)", "    .cskHole(hole_d, csk_d, 90)"]
        elif not omit:
            out += ['    .faces(">Z").workplane(centerOption="CenterOfBoundBox")',
                    "    .center(0, hole_y - leaf_w / 2)",
                    "    .rarray(hole_pitch, 1, holes, 1)",
                    "    .cskHole(hole_d, csk_d, 90)" if p["countersunk"] else "    .hole(hole_d)"]
        out += [")",
                "# One knuckle barrel along the whole edge, then the gaps cut out of barrel and leaf alike.",
                "barrel = (", '    cq.Workplane("YZ", origin=(-length / 2, 0, knuckle_d / 2))', "    .circle(knuckle_d / 2)",
                "    .extrude(length)", ")",
                "gap_xs = [-length / 2 + (i + 0.5) * segment for i in range(1, 2 * knuckles - 1, 2)]",
                "gaps = (", '    cq.Workplane("XY")', "    .pushPoints([(x, 0) for x in gap_xs])",
                "    .rect(segment, knuckle_d)", "    .extrude(knuckle_d)", ")",
                "pin_hole = (", '    cq.Workplane("YZ", origin=(-length / 2, 0, knuckle_d / 2))', "    .circle(pin_d / 2)",
                "    .extrude(length)", ")",
                "result = (", "    leaf.union(barrel).cut(gaps).cut(pin_hole)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        kind = "countersunk" if p["countersunk"] else "plain"
        return f"a flat hinge leaf with {p['knuckles']} pin knuckles along one edge and {p['holes']} {kind} mounting holes"

    def _leaf(self, p):
        return (f"a flat leaf {mm(p['length'])} long along X (centred on X = 0), {mm(p['thickness'])} thick and reaching "
                f"from Y = 0 to Y = {n(p['leaf_w'])}")

    def _knuckles(self, p):
        seg = p["length"] / (2 * p["knuckles"] - 1)
        return (f"{p['knuckles']} knuckles: cylinders {mm(p['knuckle_d'])} in diameter on a common axis parallel to X through "
                f"Y = 0, Z = {n(p['knuckle_d'] / 2)}; the leaf's length is divided into {2 * p['knuckles'] - 1} equal segments "
                f"of {mm(seg)}, alternately knuckle and gap, with knuckles at both ends; in each gap both the cylinder and the "
                f"leaf are cut away for Y below {n(p['knuckle_d'] / 2)}. A {mm(p['pin_d'])} pin hole runs through the knuckles on "
                f"their axis")

    def _holes(self, p):
        kind = (f"countersunk from the top face to {mm(p['csk_d'])} diameter with a 90 degree countersink"
                if p["countersunk"] else "plain (not countersunk)")
        return (f"{p['holes']} through holes of {mm(p['hole_d'])} diameter, {kind}, in a row along X at Y = {n(p['hole_y'])}, "
                f"{mm(p['hole_pitch'])} apart and centred on X = 0")

    def dimensioned(self, p):
        return f"A hinge leaf: {self._leaf(p)}. Along its Y = 0 edge it has {self._knuckles(p)}. The leaf has {self._holes(p)}."

    def steps(self, p):
        return [f"Make {self._leaf(p)}, its bottom on the XY plane.",
                f"Drill {self._holes(p)}.",
                f"Add a cylinder {mm(p['knuckle_d'])} in diameter along X over the full length, its axis at Y = 0, "
                f"Z = {n(p['knuckle_d'] / 2)}.",
                f"Split it into {self._knuckles(p)}."]

    def edits(self, p):
        csk = not p["countersunk"]
        return [Edit("Add one more mounting hole at the same spacing, keeping the row centred.", changed(p, holes=p["holes"] + 1)),
                Edit("Make the knuckles 2 mm larger in diameter (same axis height rule: they still sit on the XY plane).",
                     changed(p, knuckle_d=p["knuckle_d"] + 2)),
                Edit("Make the leaf 20 mm longer along X, still centred (same number of knuckles).", changed(p, length=p["length"] + 20))] + (
            [Edit(f"Countersink the holes from the top face to {mm(min(2 * p['hole_d'], p['hole_d'] + 2 * (p['thickness'] - 1)))} "
                  f"diameter with a 90 degree countersink.",
                  changed(p, countersunk=True, csk_d=min(2 * p["hole_d"], p["hole_d"] + 2 * (p["thickness"] - 1))))] if csk else [])

    def wrong(self, p):
        return changed(p, knuckles=5 - p["knuckles"], holes=p["holes"] + 1 if p["holes"] < 4 else 2, knuckle_d=p["knuckle_d"] + 2)

    def bbox(self, p):
        return (-p["length"] / 2, -p["knuckle_d"] / 2, 0.0, p["length"] / 2, p["leaf_w"], p["knuckle_d"])

    def alternative(self, p):
        """Leaf and knuckles put together piece by piece (the leaf beyond the knuckles, then one
        knuckle cylinder and the leaf under it per segment), holes and pin hole cut as solids."""
        out = ["import cadquery as cq", "", "# Hinge leaf, assembled segment by segment.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("length", "leaf_w", "thickness", "knuckle_d", "pin_d", "hole_d", "hole_pitch", "hole_y")]
        if p["countersunk"]:
            out.append(f"csk_d = {n(p['csk_d'])}")
        out += [f"knuckles = {p['knuckles']}", f"holes = {p['holes']}", "segment = length / (2 * knuckles - 1)", "",
                'leaf = cq.Workplane("XY").box(length, leaf_w - knuckle_d / 2, thickness, centered=(True, False, False)).translate((0, knuckle_d / 2, 0))',
                "for i in range(0, 2 * knuckles - 1, 2):",
                "    x0 = -length / 2 + i * segment",
                '    knuckle = cq.Workplane("YZ", origin=(x0, 0, knuckle_d / 2)).circle(knuckle_d / 2).extrude(segment)',
                '    under = cq.Workplane("XY").box(segment, knuckle_d / 2, thickness, centered=False).translate((x0, 0, 0))',
                "    leaf = leaf.union(knuckle, clean=False).union(under, clean=False)",
                'leaf = leaf.cut(cq.Workplane("YZ", origin=(-length / 2, 0, knuckle_d / 2)).circle(pin_d / 2).extrude(length))',
                "xs = [(i - (holes - 1) / 2) * hole_pitch for i in range(holes)]"]
        if p["countersunk"]:
            face = "bottom" if p.get("csk_face") == "bottom" else "top"
            z_mouth = "0" if face == "bottom" else "thickness"
            direction = "1" if face == "bottom" else "-1"
            out += [f"# 90 degree countersinks from the {face} face: cones from csk_d at the face to hole_d",
                    "depth = (csk_d - hole_d) / 2",
                    "for x in xs:",
                    '    leaf = leaf.cut(cq.Workplane("XY").center(x, hole_y).circle(hole_d / 2).extrude(thickness))',
                    f"    cone = cq.Solid.makeCone(csk_d / 2, hole_d / 2, depth, cq.Vector(x, hole_y, {z_mouth}), cq.Vector(0, 0, {direction}))",
                    '    leaf = leaf.cut(cq.Workplane("XY").add(cone))']
        else:
            out += ['leaf = leaf.cut(cq.Workplane("XY").pushPoints([(x, hole_y) for x in xs]).circle(hole_d / 2).extrude(thickness))']
        out += ["result = leaf", ""]
        return "\n".join(out)


class Clamp(Family):
    name = "clamp"
    noun = "a C-clamp frame"
    frame = ("with the back of the spine on the YZ plane, the jaws reaching along +X, the bottom face on the XY plane "
             "(Z from 0 up), centred in Y")
    features = ("holes",)
    omit = "screw hole"
    mutations = (Move("screw_x", "the screw boss and hole (along X)"), Resize("hole_d", "screw hole diameter"),
                 Resize("height", "height"), Bare())
    bare_note = "frame and boss without the screw hole"
    stated = (presence("no_boss", "the screw boss", grades=("boss",)), presence("omit", "the screw hole", kinds=SHOWN),
              size("hole_d", "screw hole diameter", kinds=("image",)))

    def solid_spot(self, p):
        return (p["spine_t"] / 2, 0.0, p["height"] / 2, min(1.0, p["spine_t"] / 4))  # in the spine

    def sample(self, rng):
        width = float(rng.randrange(12, 31, 2))
        boss_d = float(rng.randrange(max(10, int(width * 0.6)), int(width) + 1, 2))
        hole_d = float(rng.choice([d for d in (5.0, 6.8, 8.5, 10.2) if d <= boss_d - 4]))  # tap drills M6..M12
        spine_t = half_steps(rng, 6, 14)
        depth = spine_t + float(rng.randrange(int(boss_d) + 10, int(boss_d) + 61, 5))
        jaw_t = half_steps(rng, 5, 12)
        return {"depth": depth, "height": 2 * jaw_t + float(rng.randrange(20, 81, 5)), "width": width,
                "spine_t": spine_t, "jaw_t": jaw_t, "boss_d": boss_d, "boss_h": half_steps(rng, 4, 12),
                "screw_x": depth - boss_d / 2 - half_steps(rng, 2, 5), "hole_d": hole_d}

    def violations(self, p):
        bad = []
        if p["height"] - 2 * p["jaw_t"] < 10:
            bad.append("throat opening under 10 mm")
        if p["boss_d"] > p["width"]:
            bad.append("boss wider than the frame")
        if p["hole_d"] + 4 > p["boss_d"]:
            bad.append("boss wall round the hole under 2 mm")
        if p["screw_x"] + p["boss_d"] / 2 > p["depth"] - 1:
            bad.append("boss overhangs the jaw's tip")
        if p["screw_x"] - p["hole_d"] / 2 < p["spine_t"] + 2:
            bad.append("screw hole runs into the spine")
        if p["depth"] - p["spine_t"] < 10:
            bad.append("jaws too short")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "",
               "# C-clamp frame: a C profile extruded along Y, a boss on the upper jaw with the screw hole",
               "# (a plain hole at the tap drill size; the thread is not modelled).", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("depth", "height", "width", "spine_t", "jaw_t", "boss_d", "boss_h", "screw_x", "hole_d")]
        out += ["", "# C profile in XZ: spine along Z at X = 0..spine_t, jaws along X at the bottom and top.",
                "profile = [(0, 0), (depth, 0), (depth, jaw_t), (spine_t, jaw_t), (spine_t, height - jaw_t),",
                "           (depth, height - jaw_t), (depth, height), (0, height)]",
                "frame = (", '    cq.Workplane("XZ")', "    .polyline(profile)", "    .close()",
                "    .extrude(width / 2, both=True)  # symmetric about the XZ plane", ")",
                "boss = (", '    cq.Workplane("XY", origin=(screw_x, 0, height))', "    .circle(boss_d / 2)", "    .extrude(boss_h)", ")",
                "body = frame" if p.get("no_boss") else "body = frame.union(boss)"]  # no_boss: a wrong part
        if omit:
            return "\n".join(out + ["result = (", "    body", ")", ""])
        out += ["# Screw hole straight down through the boss and the upper jaw into the throat.",
                "screw_hole = (", '    cq.Workplane("XY", origin=(screw_x, 0, height - jaw_t))', "    .circle(hole_d / 2)",
                "    .extrude(jaw_t + boss_h)", ")",
                "result = (", "    body.cut(screw_hole)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a C-clamp frame with a screw boss on its upper jaw"

    def _frame(self, p):
        return (f"a C-shaped frame {mm(p['width'])} thick along Y, {mm(p['depth'])} deep along X and {mm(p['height'])} tall: "
                f"a spine {mm(p['spine_t'])} thick (X = 0 to {n(p['spine_t'])}) over the full height, and a lower and an upper "
                f"jaw, each {mm(p['jaw_t'])} thick, running from the spine to X = {n(p['depth'])} at the bottom and top, leaving a "
                f"{mm(p['height'] - 2 * p['jaw_t'])} throat between them")

    def _boss(self, p):
        return (f"a cylindrical boss {mm(p['boss_d'])} in diameter rising {mm(p['boss_h'])} above the upper jaw's top face, "
                f"its axis vertical at X = {n(p['screw_x'])}, Y = 0, with a {mm(p['hole_d'])} screw hole (thread not modelled) "
                f"on that axis through the boss and the upper jaw into the throat")

    def dimensioned(self, p):
        return f"A clamp made of {self._frame(p)}. On top it has {self._boss(p)}."

    def steps(self, p):
        return [f"Sketch the C profile in the XZ plane and extrude it {mm(p['width'])} along Y, symmetric about the XZ plane: {self._frame(p)}.",
                f"Add {self._boss(p)}."]

    def edits(self, p):
        return [Edit("Open the throat by 10 mm: make the frame 10 mm taller with the same jaws.", changed(p, height=p["height"] + 10)),
                Edit("Make the jaws 3 mm thicker, keeping the outside height.", changed(p, jaw_t=p["jaw_t"] + 3)),
                Edit("Make the boss 5 mm taller.", changed(p, boss_h=p["boss_h"] + 5)),
                Edit("Make the jaws 15 mm longer (the boss stays the same distance from the tip).",
                     changed(p, depth=p["depth"] + 15, screw_x=p["screw_x"] + 15))]

    def wrong(self, p):
        return changed(p, spine_t=p["spine_t"] + 4, jaw_t=p["jaw_t"] + 3, boss_h=p["boss_h"] + 5)

    def bbox(self, p):
        return (0.0, -p["width"] / 2, 0.0, p["depth"], p["width"] / 2, p["height"] + p["boss_h"])

    def alternative(self, p):
        """Spine and jaws as three boxes and the boss as a cylinder, unioned without cleaning; the
        screw hole drilled with `hole` from the boss's top."""
        out = ["import cadquery as cq", "", "# C-clamp frame from boxes and a cylinder.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("depth", "height", "width", "spine_t", "jaw_t", "boss_d", "boss_h", "screw_x", "hole_d")]
        out += ["", 'spine = cq.Workplane("XY").box(spine_t, width, height, centered=(False, True, False))',
                'lower = cq.Workplane("XY").box(depth, width, jaw_t, centered=(False, True, False))',
                'upper = cq.Workplane("XY", origin=(0, 0, height - jaw_t)).box(depth, width, jaw_t, centered=(False, True, False))',
                'boss = cq.Workplane("XY", origin=(screw_x, 0, height)).circle(boss_d / 2).extrude(boss_h)',
                "body = spine.union(lower, clean=False).union(upper, clean=False).union(boss, clean=False)",
                "# the boss's top face: its workplane is centred on the boss's axis",
                'result = body.faces(">Z").workplane(centerOption="CenterOfBoundBox").hole(hole_d, jaw_t + boss_h)', ""]
        return "\n".join(out)
