"""Turned parts on the Z axis: flanges, washers, flanged bushings, hex nuts, V-belt pulleys."""

from __future__ import annotations

import math

from ..family import Edit, Family, changed
from ..fmt import half_steps, mm, n
from ..mutations import Bare, Move, Resize
from ..stated import count, presence, size

_AXIAL = "with its axis on the Z axis and its bottom face on the XY plane (Z from 0 up)"


def _header(title, frame, p, names):
    return ["import cadquery as cq", "", f"# {title}", f"# Frame: {frame}."] + [f"{k} = {n(p[k])}" for k in names]


class Flange(Family):
    name = "flange"
    noun = "a bolted flange"
    frame = _AXIAL
    features = ("holes",)
    omit = "bolt holes"
    mutations = (Move("bolt_circle_d", "the bolt holes (radially)", per_mm=2.0), Resize("bore_d", "bore diameter"),
                 Resize("flange_d", "flange diameter"), Bare())
    bare_note = "the disc and hub, no bore, no bolt holes"
    stated = (count("bolts", "bolt holes"), presence("omit", "the bolt holes"), presence("no_bore", "the central bore"),
              presence("no_hub", "the raised hub", grades=("boss", "plane")),
              size("bolt_d", "bolt hole diameter", kinds=("image",)), size("bore_d", "bore diameter", kinds=("image",)))

    def solid_spot(self, p):
        return (-(p["flange_d"] / 2 - 1), 0.0, p["flange_t"] / 2, min(0.5, p["flange_t"] / 4))  # by the rim, off the bolts

    chamber_kind = "image"

    def chamber_spot(self, p):
        """The bore, widened by half the hub's wall (at least 3 mm) from the flange into the hub."""
        height = p["flange_t"] + p["hub_h"]
        return (0.0, 0.0, height / 4, 3 * height / 4, p["bore_d"] / 2 + (p["hub_d"] - p["bore_d"]) / 4)

    def free(self, p, kind):
        """Where the bolt circle starts is stated only in the kinds that give every number (and
        shown in the drawing): in abstract tasks the holes may sit at any angle about Z."""
        return {"spin": ((0.0, 0.0, 0.0), (0.0, 0.0, 1.0))} if kind == "abstract" else {}

    def bare(self, p):
        out = _header("The flange's disc and hub only.", self.frame, p, ["flange_d", "flange_t", "hub_d", "hub_h"])
        return "\n".join(out + ["", "result = (", '    cq.Workplane("XY")', "    .circle(flange_d / 2)", "    .extrude(flange_t)",
                                 '    .faces(">Z").workplane()', "    .circle(hub_d / 2)", "    .extrude(hub_h)", ")", ""])

    def sample(self, rng):
        flange_d = float(rng.randrange(60, 161, 5))
        bore_d = float(rng.randrange(10, int(flange_d * 0.35), 2))
        hub_d = min(bore_d + 2 * half_steps(rng, 5, 12), flange_d - 20)  # at least 10 mm of ring for the bolts
        room = (flange_d - hub_d) / 2
        bolt_d = float(rng.choice([d for d in (5.5, 6.6, 9.0, 11.0) if d <= room - 4]))
        bolt_circle_d = hub_d + room  # bolt circle midway across the flange's ring
        return {"flange_d": flange_d, "flange_t": half_steps(rng, 6, 14), "hub_d": hub_d, "hub_h": half_steps(rng, 5, 20),
                "bore_d": bore_d, "bolt_circle_d": bolt_circle_d, "bolt_d": bolt_d, "bolts": rng.choice([3, 4, 6, 8])}

    def violations(self, p):
        bad = []
        if p["hub_d"] - p["bore_d"] < 6:
            bad.append("hub wall under 3 mm")
        if p["bolt_circle_d"] - p["bolt_d"] < p["hub_d"] + 2:
            bad.append("bolt holes cut into the hub")
        if p["bolt_circle_d"] + p["bolt_d"] > p["flange_d"] - 4:
            bad.append("bolt holes break through the rim")
        chord = p["bolt_circle_d"] * math.sin(math.pi / p["bolts"])
        if chord < p["bolt_d"] + 2:
            bad.append("bolt holes overlap")
        return bad

    def script(self, p, omit=False):
        out = _header("Flange: a disc with a raised hub, a through bore and a bolt circle.", self.frame, p,
                      ["flange_d", "flange_t", "hub_d", "hub_h", "bore_d", "bolt_circle_d", "bolt_d"])
        out += [f"bolts = {p['bolts']}", "",
                "body = (", '    cq.Workplane("XY")', "    .circle(flange_d / 2)", "    .extrude(flange_t)"]
        if not p.get("no_hub"):  # no_hub: a wrong part, the disc alone
            out += ['    .faces(">Z").workplane()', "    .circle(hub_d / 2)", "    .extrude(hub_h)"]
        out += [")", "bore = cq.Workplane(\"XY\").circle(bore_d / 2).extrude(flange_t + hub_h)"]
        if p.get("no_bore"):  # a wrong part: the bore cutter moved out of the part
            out[-1] += ".translate((0, 0, -1000))"
        if omit:
            return "\n".join(out + ["result = (", "    body.cut(bore)", ")", ""])
        out += ["# First bolt hole on the +X axis, the rest equally spaced.",
                "bolt_holes = (", '    cq.Workplane("XY")', "    .polarArray(bolt_circle_d / 2, 0, 360, bolts)",
                "    .circle(bolt_d / 2)", "    .extrude(flange_t)", ")",
                "result = (", "    body.cut(bore).cut(bolt_holes)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return f"a round pipe flange with a raised hub, a central bore and {p['bolts']} bolt holes"

    def _bolts(self, p):
        return (f"{p['bolts']} through holes of {mm(p['bolt_d'])} diameter, equally spaced on a {mm(p['bolt_circle_d'])} "
                f"bolt circle, the first on the +X axis")

    def dimensioned(self, p):
        return (f"A flange disc {mm(p['flange_d'])} in diameter and {mm(p['flange_t'])} thick, with a hub {mm(p['hub_d'])} in "
                f"diameter rising {mm(p['hub_h'])} above the disc's top face. A {mm(p['bore_d'])} bore runs through hub and "
                f"disc on the axis. The disc has {self._bolts(p)}.")

    def steps(self, p):
        return [f"Extrude a {mm(p['flange_d'])} circle {mm(p['flange_t'])} up from the XY plane.",
                f"On its top face, extrude a {mm(p['hub_d'])} circle {mm(p['hub_h'])} higher for the hub.",
                f"Cut a {mm(p['bore_d'])} bore through everything along the Z axis.",
                f"Cut {self._bolts(p)}, through the disc."]

    def edits(self, p):
        return [Edit("Enlarge the bore by 2 mm.", changed(p, bore_d=p["bore_d"] + 2)),
                Edit("Use two more bolt holes on the same bolt circle.", changed(p, bolts=p["bolts"] + 2)),
                Edit("Make the hub 5 mm taller.", changed(p, hub_h=p["hub_h"] + 5))]

    def wrong(self, p):
        return changed(p, bolts=p["bolts"] + 2 if p["bolts"] < 8 else 4, hub_h=p["hub_h"] + 6)

    def bbox(self, p):
        r = p["flange_d"] / 2
        return (-r, -r, 0.0, r, r, p["flange_t"] + p["hub_h"])

    def alternative(self, p):
        """The disc and hub revolved from one half section with the bore in it; bolt holes drilled
        from the bottom face with `hole`."""
        out = _header("Flange: revolved section, bolt holes drilled from below.", self.frame, p,
                      ["flange_d", "flange_t", "hub_d", "hub_h", "bore_d", "bolt_circle_d", "bolt_d"])
        out += [f"bolts = {p['bolts']}", "",
                "section = [(bore_d / 2, 0), (flange_d / 2, 0), (flange_d / 2, flange_t), (hub_d / 2, flange_t),",
                "           (hub_d / 2, flange_t + hub_h), (bore_d / 2, flange_t + hub_h)]",
                'body = cq.Workplane("XZ").polyline(section).close().revolve(360, (0, 0, 0), (0, 1, 0))',
                "centres = [(bolt_circle_d / 2 * math.cos(2 * math.pi * i / bolts), bolt_circle_d / 2 * math.sin(2 * math.pi * i / bolts))",
                "           for i in range(bolts)]",
                'holes = cq.Workplane("XY").pushPoints(centres).circle(bolt_d / 2).extrude(flange_t)',
                "result = body.cut(holes)", ""]
        out.insert(1, "import math")
        return "\n".join(out)


class Washer(Family):
    name = "washer"
    noun = "a flat washer"
    frame = _AXIAL
    features = ("holes",)
    omit = "hole"
    mutations = (Resize("hole_d", "hole diameter"), Resize("thickness", "thickness"), Resize("outer_d", "outside diameter"), Bare())
    bare_note = "a plain disc"
    stated = (presence("omit", "the hole"), size("hole_d", "hole diameter", kinds=("image",)))

    def solid_spot(self, p):
        ring = (p["outer_d"] - p["hole_d"]) / 2
        return ((p["outer_d"] + p["hole_d"]) / 4, 0.0, p["thickness"] / 2, min(ring / 4, p["thickness"] / 4))

    def sample(self, rng):
        hole_d = float(rng.choice([3.2, 4.3, 5.3, 6.4, 8.4, 10.5, 13.0, 17.0]))
        return {"hole_d": hole_d, "outer_d": float(round(hole_d * rng.uniform(1.8, 2.6) * 2) / 2),
                "thickness": float(rng.choice([0.8, 1.0, 1.6, 2.0, 2.5, 3.0]))}

    def violations(self, p):
        return ["ring narrower than 1 mm"] if (p["outer_d"] - p["hole_d"]) / 2 < 1 else []

    def script(self, p, omit=False):
        out = _header("Flat washer.", self.frame, p, ["outer_d", "hole_d", "thickness"])
        out += ["", "result = (", '    cq.Workplane("XY")', "    .circle(outer_d / 2)"]
        if not omit:
            out.append("    .circle(hole_d / 2)  # an inner circle becomes the hole")
        return "\n".join(out + ["    .extrude(thickness)", ")", ""])

    def abstract(self, p):
        return "a plain flat washer"

    def dimensioned(self, p):
        return f"A flat washer: outside diameter {mm(p['outer_d'])}, hole diameter {mm(p['hole_d'])}, thickness {mm(p['thickness'])}."

    def steps(self, p):
        return [f"On the XY plane draw two concentric circles at the origin, {mm(p['outer_d'])} and {mm(p['hole_d'])} in diameter.",
                f"Extrude the ring between them {mm(p['thickness'])} along +Z."]

    def edits(self, p):
        return [Edit("Make the washer twice as thick.", changed(p, thickness=p["thickness"] * 2)),
                Edit("Enlarge the outside diameter by 4 mm.", changed(p, outer_d=p["outer_d"] + 4))]

    def wrong(self, p):
        return changed(p, hole_d=p["hole_d"] * 0.6, thickness=p["thickness"] + 1)

    def bbox(self, p):
        r = p["outer_d"] / 2
        return (-r, -r, 0.0, r, r, p["thickness"])

    def alternative(self, p):
        """A revolved rectangle (the ring's half section)."""
        out = _header("Flat washer, revolved.", self.frame, p, ["outer_d", "hole_d", "thickness"])
        return "\n".join(out + ["", 'result = cq.Workplane("XZ").rect((outer_d - hole_d) / 2, thickness, centered=False)'
                                 ".translate((hole_d / 2, 0, 0)).revolve(360, (0, 0, 0), (0, 1, 0))",
                                 "result = cq.Workplane(\"XZ\").center(hole_d / 2, 0).rect((outer_d - hole_d) / 2, thickness, centered=False)"
                                 ".revolve(360, (-hole_d / 2, 0, 0), (-hole_d / 2, 1, 0))", ""])


class Bushing(Family):
    name = "bushing"
    noun = "a flanged bushing"
    frame = _AXIAL + ", flange at the bottom"
    features = ("holes",)
    omit = "bore"
    mutations = (Resize("bore_d", "bore diameter"), Resize("flange_t", "flange thickness"), Resize("length", "length"), Bare())
    bare_note = "solid, no bore"
    stated = (presence("omit", "the bore"), presence("no_flange", "the flange", grades=("boss", "plane")),
              size("outer_d", "sleeve diameter", kinds=("image",)), size("flange_d", "flange diameter", kinds=("image",)))

    def adjusted(self, p, key, value):
        """Another sleeve diameter keeps the flange's overhang."""
        if key != "outer_d":
            return super().adjusted(p, key, value)
        return {**p, "outer_d": value, "flange_d": p["flange_d"] + value - p["outer_d"]}

    def solid_spot(self, p):
        return ((p["outer_d"] + p["flange_d"]) / 4, 0.0, p["flange_t"] / 2,
                min(p["flange_t"] / 4, (p["flange_d"] - p["outer_d"]) / 8))

    def sample(self, rng):
        bore_d = float(rng.randrange(6, 41, 2))
        outer_d = bore_d + 2 * half_steps(rng, 2, 6)
        return {"bore_d": bore_d, "outer_d": outer_d, "length": float(rng.randrange(10, 61, 5)),
                "flange_d": outer_d + 2 * half_steps(rng, 3, 10), "flange_t": half_steps(rng, 2, 6)}

    def violations(self, p):
        bad = []
        if p["outer_d"] - p["bore_d"] < 3:
            bad.append("sleeve wall under 1.5 mm")
        if p["flange_d"] <= p["outer_d"] + 4:
            bad.append("flange too narrow")
        if p["flange_t"] >= p["length"]:
            bad.append("flange thicker than the bushing is long")
        return bad

    def script(self, p, omit=False):
        out = _header("Flanged bushing, made by revolving its half cross-section about Z.", self.frame, p,
                      ["bore_d", "outer_d", "length", "flange_d", "flange_t"])
        inner = "0" if omit else "bore_d / 2"
        out += ["", "# Half section in the XZ plane: X is the radius, Z the height.",
                f"r_in = {inner}",
                "section = [(r_in, 0), (flange_d / 2, 0), (flange_d / 2, flange_t), (outer_d / 2, flange_t),",
                "           (outer_d / 2, length), (r_in, length)]", "",
                "result = (", '    cq.Workplane("XZ")', "    .polyline(section)", "    .close()",
                "    .revolve(360, (0, 0, 0), (0, 1, 0))  # about the workplane's Y, which is global Z", ")", ""]
        if p.get("no_flange"):  # a wrong part: the sleeve alone
            out[out.index("section = [(r_in, 0), (flange_d / 2, 0), (flange_d / 2, flange_t), (outer_d / 2, flange_t),")] = \
                "section = [(r_in, 0), (outer_d / 2, 0),"
        return "\n".join(out)

    def abstract(self, p):
        return "a flanged plain bearing bushing"

    def dimensioned(self, p):
        return (f"A flanged bushing {mm(p['length'])} long overall: a sleeve of outside diameter {mm(p['outer_d'])} with a "
                f"{mm(p['bore_d'])} bore all the way through, and at its bottom end a flange {mm(p['flange_d'])} in diameter "
                f"and {mm(p['flange_t'])} thick.")

    def steps(self, p):
        return [f"In the XZ plane sketch the half section: from radius {n(p['bore_d'] / 2)} to {n(p['flange_d'] / 2)} for Z = 0..{n(p['flange_t'])}, "
                f"then from radius {n(p['bore_d'] / 2)} to {n(p['outer_d'] / 2)} up to Z = {n(p['length'])}.",
                "Revolve it 360 degrees about the Z axis."]

    def edits(self, p):
        return [Edit("Make the bushing 10 mm longer (flange unchanged).", changed(p, length=p["length"] + 10)),
                Edit("Make the flange 2 mm thicker.", changed(p, flange_t=p["flange_t"] + 2)),
                Edit("Enlarge the flange diameter by 6 mm.", changed(p, flange_d=p["flange_d"] + 6))]

    def wrong(self, p):
        return changed(p, flange_t=p["flange_t"] + 3, length=p["length"] * 1.4)

    def bbox(self, p):
        r = p["flange_d"] / 2
        return (-r, -r, 0.0, r, r, p["length"])

    def alternative(self, p):
        """Two cylinders unioned without cleaning, the bore drilled with `hole`."""
        out = _header("Flanged bushing from two cylinders.", self.frame, p, ["bore_d", "outer_d", "length", "flange_d", "flange_t"])
        return "\n".join(out + ["", 'flange = cq.Workplane("XY").circle(flange_d / 2).extrude(flange_t)',
                                 'sleeve = cq.Workplane("XY").circle(outer_d / 2).extrude(length)',
                                 'result = flange.union(sleeve, clean=False).faces(">Z").workplane().hole(bore_d)', ""])


class HexNut(Family):
    name = "hex-nut"
    noun = "a hex nut"
    frame = _AXIAL + ", two of the hexagon's corners on the X axis"
    features = ("holes",)
    omit = "hole"
    unscaled = ("chamfer_deg",)
    mutations = (Resize("hole_d", "hole diameter"), Resize("height", "height"), Resize("across_flats", "size across the flats"), Bare())
    bare_note = "the chamfered prism without its hole"
    stated = (presence("no_chamfer", "the chamfers", grades=("cone",)), presence("omit", "the hole"),
              size("hole_d", "hole diameter", kinds=("image",)))

    def solid_spot(self, p):
        return ((p["hole_d"] + p["across_flats"]) / 4, 0.0, p["height"] / 2,
                min((p["across_flats"] - p["hole_d"]) / 8, p["height"] / 4))

    chamber_kind = "dimensioned"

    def chamber_spot(self, p):
        """The hole, widened by 40 % of the wall to the flats in its middle half."""
        return (0.0, 0.0, p["height"] / 4, 3 * p["height"] / 4, p["hole_d"] / 2 + 0.2 * (p["across_flats"] - p["hole_d"]))
    SIZES = [(3, 5.5, 2.4, 2.5), (4, 7.0, 3.2, 3.3), (5, 8.0, 4.7, 4.2), (6, 10.0, 5.2, 5.0), (8, 13.0, 6.8, 6.8),
             (10, 16.0, 8.4, 8.5), (12, 18.0, 10.8, 10.2), (16, 24.0, 14.8, 14.0), (20, 30.0, 18.0, 17.5)]

    def sample(self, rng):
        size, flats, height, hole = rng.choice(self.SIZES)  # ISO 4032 across-flats and heights; hole = minor diameter
        return {"size": size, "across_flats": float(flats), "height": float(height), "hole_d": float(hole), "chamfer_deg": 30.0}

    def violations(self, p):
        return ["wall between hole and flats under 1 mm"] if p["across_flats"] - p["hole_d"] < 2 else []

    def script(self, p, omit=False):
        out = _header(f"M{p['size']} hex nut (no thread modelled: the hole is the minor diameter), both ends chamfered.",
                      self.frame, p, ["across_flats", "height", "hole_d", "chamfer_deg"])
        out += ["across_corners = across_flats / math.cos(math.radians(30))", "",
                "prism = cq.Workplane(\"XY\").polygon(6, across_corners).extrude(height)",
                "# The chamfer: a revolved double cone that starts at the flats' circle on both faces.",
                "r0 = across_flats / 2", "r1 = across_corners / 2 + 1",
                "rise = (r1 - r0) * math.tan(math.radians(chamfer_deg))",
                "cone = (", '    cq.Workplane("XZ")', "    .polyline([(0, 0), (r0, 0), (r1, rise), (r1, height - rise), (r0, height), (0, height)])",
                "    .close()", "    .revolve(360, (0, 0, 0), (0, 1, 0))", ")"]
        out.insert(1, "import math")
        nut = "prism" if p.get("no_chamfer") else "prism.intersect(cone)"  # no_chamfer: a wrong part
        if omit:
            return "\n".join(out + ["result = (", f"    {nut}", ")", ""])
        out += ["hole = cq.Workplane(\"XY\").circle(hole_d / 2).extrude(height)",
                "result = (", f"    {nut}.cut(hole)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return f"an M{p['size']} hex nut with chamfered corners (thread not modelled)"

    def dimensioned(self, p):
        return (f"An M{p['size']} nut: a regular hexagonal prism {mm(p['across_flats'])} across the flats and {mm(p['height'])} tall, with a "
                f"{mm(p['hole_d'])} through hole on its axis (no thread). Both end faces have a {n(p['chamfer_deg'])} degree "
                f"chamfer on the corners: the nut is intersected with a double cone whose surface meets each end face on the "
                f"{mm(p['across_flats'])} circle and rises at {n(p['chamfer_deg'])} degrees from the face, outwards.")

    def steps(self, p):
        return [f"Extrude a regular hexagon, {mm(p['across_flats'])} across the flats with corners on the X axis, {mm(p['height'])} along +Z.",
                f"Intersect it with a revolved profile that is {mm(p['across_flats'])} in diameter at Z = 0 and Z = {n(p['height'])} and "
                f"widens outwards at {n(p['chamfer_deg'])} degrees from each end face, to chamfer the corners.",
                f"Cut a {mm(p['hole_d'])} hole through along the Z axis."]

    def edits(self, p):
        return [Edit("Make the nut 50% taller (a thick nut).", changed(p, height=p["height"] * 1.5)),
                Edit("Open the hole up by 1 mm in diameter.", changed(p, hole_d=p["hole_d"] + 1))]

    def wrong(self, p):
        return changed(p, height=p["height"] * 1.6, hole_d=p["hole_d"] * 0.7)

    def bbox(self, p):
        rc = p["across_flats"] / 2 / math.cos(math.radians(30))
        return (-rc, -p["across_flats"] / 2, 0.0, rc, p["across_flats"] / 2, p["height"])

    def alternative(self, p):
        """The prism drilled with `hole`, its corners chamfered by cutting away two revolved
        triangles (what lies outside the double cone) instead of intersecting with it."""
        out = _header("Hex nut: prism drilled, corners chamfered by cutting revolved triangles.", self.frame, p,
                      ["across_flats", "height", "hole_d", "chamfer_deg"])
        out.insert(1, "import math")
        out += ["across_corners = across_flats / math.cos(math.radians(30))",
                "r0, r1 = across_flats / 2, across_corners / 2 + 1",
                "rise = (r1 - r0) * math.tan(math.radians(chamfer_deg))", "",
                'nut = cq.Workplane("XY").polygon(6, across_corners).extrude(height).faces(">Z").workplane().hole(hole_d)',
                "for tri in ([(r0, 0), (r1 + 1, 0), (r1 + 1, rise * (r1 + 1 - r0) / (r1 - r0))],",
                "            [(r0, height), (r1 + 1, height), (r1 + 1, height - rise * (r1 + 1 - r0) / (r1 - r0))]):",
                '    nut = nut.cut(cq.Workplane("XZ").polyline(tri).close().revolve(360, (0, 0, 0), (0, 1, 0)))',
                "result = nut", ""]
        return "\n".join(out)


class Pulley(Family):
    name = "pulley"
    noun = "a V-belt pulley"
    frame = _AXIAL
    features = ("holes",)
    omit = "groove"
    unscaled = ("groove_deg",)
    mutations = (Resize("groove_depth", "groove depth"), Resize("bore_d", "bore diameter"), Resize("outer_d", "outside diameter"), Bare())
    bare_note = "a plain cylinder, no groove, no bore"
    stated = (presence("omit", "the V groove", grades=("cone",)), presence("no_bore", "the bore"),
              size("bore_d", "bore diameter", kinds=("image",)))  # (a groove's depth is a difference of radii: graded as positions)

    def solid_spot(self, p):
        rb = p["outer_d"] / 2 - p["groove_depth"]
        return ((rb + p["bore_d"] / 2) / 2, 0.0, p["width"] / 2, min(1.0, (rb - p["bore_d"] / 2) / 4))

    def bare(self, p):
        out = _header("The pulley's blank only.", self.frame, p, ["outer_d", "width"])
        return "\n".join(out + ["", 'result = cq.Workplane("XY").circle(outer_d / 2).extrude(width)', ""])

    def sample(self, rng):
        outer_d = float(rng.randrange(40, 121, 5))
        depth = half_steps(rng, 4, 10)
        top_w = half_steps(rng, max(8, depth * 1.2 + 2), 16)
        return {"outer_d": outer_d, "width": top_w + 2 * half_steps(rng, 2, 6), "groove_top_w": top_w, "groove_depth": depth,
                "groove_deg": float(rng.choice([34, 36, 38, 40])), "bore_d": float(rng.randrange(8, int(outer_d * 0.4), 2))}

    def _bottom_w(self, p):
        return p["groove_top_w"] - 2 * p["groove_depth"] * math.tan(math.radians(p["groove_deg"] / 2))

    def violations(self, p):
        bad = []
        if self._bottom_w(p) < 1:
            bad.append("groove flanks meet before the groove bottom")
        if p["groove_top_w"] > p["width"] - 2:
            bad.append("groove wider than the rim")
        if p["outer_d"] / 2 - p["groove_depth"] - p["bore_d"] / 2 < 4:
            bad.append("less than 4 mm between groove bottom and bore")
        return bad

    def script(self, p, omit=False):
        out = _header("V-belt pulley: a revolved section with a trapezoidal groove.", self.frame, p,
                      ["outer_d", "width", "groove_top_w", "groove_depth", "groove_deg", "bore_d"])
        out.insert(1, "import math")
        out += ["", "r = outer_d / 2", "rb = r - groove_depth",
                "bottom_w = groove_top_w - 2 * groove_depth * math.tan(math.radians(groove_deg / 2))",
                "z_top0, z_top1 = (width - groove_top_w) / 2, (width + groove_top_w) / 2",
                "z_bot0, z_bot1 = (width - bottom_w) / 2, (width + bottom_w) / 2",
                "# Half section in the XZ plane (X = radius, Z = height), groove centred in the width."]
        if omit:
            out.append("section = [(bore_d / 2, 0), (r, 0), (r, width), (bore_d / 2, width)]")
        else:
            out += ["section = [(bore_d / 2, 0), (r, 0), (r, z_top0), (rb, z_bot0), (rb, z_bot1), (r, z_top1),",
                    "           (r, width), (bore_d / 2, width)]"]
        if p.get("no_bore"):  # a wrong part: the section closed on the axis
            out[-1] = out[-1].replace("(bore_d / 2, width)", "(0, width)")
            out[-2 if not omit else -1] = out[-2 if not omit else -1].replace("[(bore_d / 2, 0)", "[(0, 0)")
        out += ["", "result = (", '    cq.Workplane("XZ")', "    .polyline(section)", "    .close()",
                "    .revolve(360, (0, 0, 0), (0, 1, 0))", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a single-groove V-belt pulley with a plain bore"

    def dimensioned(self, p):
        return (f"A pulley {mm(p['outer_d'])} in outside diameter and {mm(p['width'])} wide along Z, with a {mm(p['bore_d'])} "
                f"through bore. Centred in its width is one V groove {mm(p['groove_top_w'])} wide at the rim and "
                f"{mm(p['groove_depth'])} deep (radially), with a {n(p['groove_deg'])} degree included angle between its "
                f"straight flanks and a flat bottom.")

    def steps(self, p):
        return [f"In the XZ plane draw the half section: a rectangle from radius {n(p['bore_d'] / 2)} to {n(p['outer_d'] / 2)}, "
                f"Z = 0 to {n(p['width'])}.",
                f"Notch its outer edge with the groove: {mm(p['groove_top_w'])} wide at the rim, centred at Z = {n(p['width'] / 2)}, "
                f"{mm(p['groove_depth'])} deep, flanks at {n(p['groove_deg'] / 2)} degrees either side of the radial direction.",
                "Revolve the section 360 degrees about the Z axis."]

    def edits(self, p):
        return [Edit("Enlarge the bore by 2 mm.", changed(p, bore_d=p["bore_d"] + 2)),
                Edit("Make the groove 2 mm deeper.", changed(p, groove_depth=p["groove_depth"] + 2)),
                Edit("Increase the outside diameter by 10 mm.", changed(p, outer_d=p["outer_d"] + 10))]

    def wrong(self, p):
        return changed(p, outer_d=p["outer_d"] + 15, bore_d=p["bore_d"] + 4)

    def bbox(self, p):
        r = p["outer_d"] / 2
        return (-r, -r, 0.0, r, r, p["width"])

    def alternative(self, p):
        """A drilled cylinder with the groove cut by a revolved trapezoid."""
        out = _header("V-belt pulley: a drilled blank, the groove cut by a revolved trapezoid.", self.frame, p,
                      ["outer_d", "width", "groove_top_w", "groove_depth", "groove_deg", "bore_d"])
        out.insert(1, "import math")
        out += ["r = outer_d / 2", "rb = r - groove_depth",
                "bottom_w = groove_top_w - 2 * groove_depth * math.tan(math.radians(groove_deg / 2))",
                "# the trapezoid runs 1 mm past the rim along its flanks' lines",
                "over = math.tan(math.radians(groove_deg / 2))",
                "groove = [(rb, (width - bottom_w) / 2), (r + 1, (width - groove_top_w) / 2 - over),",
                "          (r + 1, (width + groove_top_w) / 2 + over), (rb, (width + bottom_w) / 2)]", "",
                'blank = cq.Workplane("XY").circle(r).extrude(width).faces(">Z").workplane().hole(bore_d)',
                'result = blank.cut(cq.Workplane("XZ").polyline(groove).close().revolve(360, (0, 0, 0), (0, 1, 0)))', ""]
        return "\n".join(out)
