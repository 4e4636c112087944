"""Bent-plate brackets (L, U, Z, gusseted L): a profile in the XZ plane extruded along Y."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Resize
from ..stated import presence, size, wall
from ..fmt import half_steps, mm, n


class _Bracket(Family):
    features = ("holes",)
    omit = "holes"
    shape = ""
    bare_note = "the plate body without its holes"
    stated = (presence("omit", "the holes"), size("hole_d", "hole diameter", kinds=("image",)), wall("thickness", "plate thickness"))

    def _common(self, rng):
        return {"thickness": half_steps(rng, 3, 8), "width": float(rng.randrange(20, 61, 5)),
                "hole_d": float(rng.choice([4.5, 5.5, 6.6, 9.0]))}

    def _common_violations(self, p, legs):
        bad = []
        for name in legs:  # each hole sits in a leg with 2 mm of material all round
            free = p[name] - p["thickness"]
            if free < p["hole_d"] + 4:
                bad.append(f"{name} leaves no room for its hole")
        if p["width"] < p["hole_d"] + 4:
            bad.append("bracket too narrow for its holes")
        return bad

    def _header(self, p, title, names):
        out = ["import cadquery as cq", "", f"# {title}", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in names]
        return out

    def _extrude(self):
        return ['    cq.Workplane("XZ")', "    .polyline(profile)", "    .close()",
                "    .extrude(width / 2, both=True)  # symmetric about the XZ plane"]

    def edits(self, p):
        out = [Edit("Enlarge every hole by 1 mm in diameter.", changed(p, hole_d=p["hole_d"] + 1)),
               Edit("Make the bracket 10 mm wider (along Y), still centred.", changed(p, width=p["width"] + 10)),
               Edit("Use 1 mm thicker plate; keep the outside dimensions.", changed(p, thickness=p["thickness"] + 1))]
        return out

    def wrong(self, p):
        return changed(p, thickness=p["thickness"] + 2, hole_d=p["hole_d"] + 2)


class LBracket(_Bracket):
    name = "bracket-l"
    noun = "an L bracket"
    frame = ("with the outside corner edge on the Y axis, the base leg on the XY plane running along +X, "
             "the upright leg along +Z, centred in Y")
    gusset = False
    mutations = (Resize("thickness", "plate thickness"), Resize("hole_d", "hole diameter"), Resize("height", "upright height"), Bare())

    def solid_spot(self, p):
        return (p["base"] - 1, 0.0, p["thickness"] / 2, min(0.5, p["thickness"] / 4))  # near the base leg's end

    def sample(self, rng):
        p = self._common(rng)
        p["base"] = float(rng.randrange(30, 81, 5))
        p["height"] = float(rng.randrange(30, 81, 5))
        if self.gusset:
            p["gusset"] = float(int(min(p["base"], p["height"]) * 0.6))
            p["gusset_t"] = p["thickness"]
            p["width"] = max(p["width"], 3 * p["hole_d"] + p["gusset_t"] + 12)
        return p

    def violations(self, p):
        bad = self._common_violations(p, ("base", "height"))
        if self.gusset:
            if p["gusset"] >= min(p["base"], p["height"]) - p["thickness"]:
                bad.append("gusset overhangs a leg")
            if p["gusset_t"] / 2 + p["hole_d"] / 2 + 2 > p["width"] / 4:
                bad.append("holes run into the gusset")
        return bad

    def _holes(self, p):
        if self.gusset:
            return "two holes per leg, at Y = -width/4 and +width/4, either side of the gusset"
        return "one hole per leg, centred in Y"

    def script(self, p, omit=False):
        names = ["base", "height", "width", "thickness", "hole_d"] + (["gusset", "gusset_t"] if self.gusset else [])
        out = self._header(p, "L bracket: a base leg and an upright leg" + (", stiffened by a central gusset." if self.gusset else "."), names)
        out += ["", "# Profile in XZ, outside corner at the origin.",
                "profile = [(0, 0), (base, 0), (base, thickness), (thickness, thickness), (thickness, height), (0, height)]",
                "body = ("] + self._extrude() + [")"]
        ys = "[-width / 4, width / 4]" if self.gusset else "[0]"
        if self.gusset:
            out += ["gusset_plate = (", '    cq.Workplane("XZ")',
                    "    .polyline([(thickness, thickness), (thickness + gusset, thickness), (thickness, thickness + gusset)])",
                    "    .close()", "    .extrude(gusset_t / 2, both=True)", ")",
                    "body = body" if p.get("no_gusset") else "body = body.union(gusset_plate)"]  # no_gusset: a wrong part
        if omit:
            return "\n".join(out + ["result = (", "    body", ")", ""])
        out += [f"hole_ys = {ys}",
                "# Base holes drilled down through the base leg, upright holes through the upright leg (along X).",
                "base_holes = (", '    cq.Workplane("XY")', "    .pushPoints([((base + thickness) / 2, y) for y in hole_ys])",
                "    .circle(hole_d / 2)", "    .extrude(thickness)", ")",
                "upright_holes = (", '    cq.Workplane("YZ")', "    .pushPoints([(y, (height + thickness) / 2) for y in hole_ys])",
                "    .circle(hole_d / 2)", "    .extrude(thickness)", ")",
                "result = (", "    body.cut(base_holes).cut(upright_holes)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return ("an L-shaped mounting bracket with a triangular stiffening gusset in the corner and bolt holes in both legs"
                if self.gusset else "an L-shaped mounting bracket of flat plate with sharp inside and outside corners, with a bolt hole in each leg")

    def _spec(self, p):
        s = (f"{mm(p['thickness'])} plate, {mm(p['width'])} wide along Y; the base leg is {mm(p['base'])} long along X and the "
             f"upright leg {mm(p['height'])} tall along Z, both measured to the outside of the corner. ")
        if self.gusset:
            s += (f"A triangular gusset {mm(p['gusset_t'])} thick, centred in Y, fills the inside corner: its legs run "
                  f"{mm(p['gusset'])} along the inside faces of both legs. ")
        s += (f"Holes of {mm(p['hole_d'])} diameter go through both legs, {self._holes(p)}: in the base leg at X midway "
              f"between the upright's inside face and the base's end, in the upright at Z midway between the base's top "
              f"face and the upright's top.")
        return s

    def dimensioned(self, p):
        return f"An L bracket made of {self._spec(p)}"

    def steps(self, p):
        s = [f"Sketch the L profile in the XZ plane: outside corner at the origin, base {mm(p['base'])} along X, upright "
             f"{mm(p['height'])} along Z, both legs {mm(p['thickness'])} thick.",
             f"Extrude it {mm(p['width'])} along Y, symmetric about the XZ plane."]
        if self.gusset:
            s.append(f"Add a triangular gusset {mm(p['gusset_t'])} thick, centred in Y, in the inside corner, with legs of "
                     f"{mm(p['gusset'])} along both inside faces.")
        s.append(f"Drill {mm(p['hole_d'])} holes, {self._holes(p)}: down through the base leg at X = {n((p['base'] + p['thickness']) / 2)} "
                 f"and along X through the upright leg at Z = {n((p['height'] + p['thickness']) / 2)}.")
        return s

    def bbox(self, p):
        return (0.0, -p["width"] / 2, 0.0, p["base"], p["width"] / 2, p["height"])

    def alternative(self, p):
        """Two boxes unioned without cleaning (the gusset a triangle extruded), holes as cut cylinders."""
        names = ["base", "height", "width", "thickness", "hole_d"] + (["gusset", "gusset_t"] if self.gusset else [])
        out = self._header(p, "L bracket from two plates (boxes), holes cut as cylinders.", names)
        ys = "[-width / 4, width / 4]" if self.gusset else "[0]"
        out += ["", "base_leg = cq.Workplane(\"XY\").box(base, width, thickness, centered=(False, True, False))",
                "upright = cq.Workplane(\"XY\").box(thickness, width, height, centered=(False, True, False))",
                "body = base_leg.union(upright, clean=False)"]
        if self.gusset:
            out += ["gusset_plate = (cq.Workplane(\"XZ\", origin=(0, gusset_t / 2, 0))",
                    "                .polyline([(thickness, thickness), (thickness + gusset, thickness), (thickness, thickness + gusset)])",
                    "                .close().extrude(gusset_t))",
                    "body = body.union(gusset_plate, clean=False)"]
        out += [f"for y in {ys}:",
                "    body = body.cut(cq.Workplane(\"XY\").center((base + thickness) / 2, y).circle(hole_d / 2).extrude(thickness))",
                "    body = body.cut(cq.Workplane(\"YZ\").center(y, (height + thickness) / 2).circle(hole_d / 2).extrude(thickness))",
                "result = body", ""]
        return "\n".join(out)

    def edits(self, p):
        return super().edits(p) + [Edit("Make the upright leg 15 mm taller.", changed(p, height=p["height"] + 15))]


class GussetBracket(LBracket):
    name = "bracket-gusset"
    noun = "a gusseted L bracket"
    gusset = True
    features = ("holes",)
    mutations = (Resize("gusset", "gusset leg"), Resize("hole_d", "hole diameter"), Resize("height", "upright height"), Bare())
    stated = _Bracket.stated + (presence("no_gusset", "the gusset", grades=("plane",)),)


class UBracket(_Bracket):
    name = "bracket-u"
    noun = "a U bracket"
    frame = "with the base on the XY plane, centred on the origin in X and Y, the side walls rising along +Z"
    mutations = (Resize("thickness", "plate thickness"), Resize("hole_d", "hole diameter"), Resize("span", "outside span"), Bare())

    def solid_spot(self, p):
        return (0.0, p["width"] / 2 - 1, p["thickness"] / 2, min(0.5, p["thickness"] / 4))  # in the base, by an edge

    def sample(self, rng):
        p = self._common(rng)
        least = 2 * p["thickness"] + 2 * (p["hole_d"] + 4)
        p["span"] = float(max(rng.randrange(40, 101, 5), 5 * -(-least // 5)))
        p["height"] = float(rng.randrange(25, 61, 5))
        return p

    def violations(self, p):
        bad = self._common_violations(p, ("height",))
        if p["span"] - 2 * p["thickness"] < 2 * (p["hole_d"] + 4):
            bad.append("base too short for its two holes")
        return bad

    def script(self, p, omit=False):
        out = self._header(p, "U bracket (channel): a base and two side walls.", ["span", "height", "width", "thickness", "hole_d"])
        out += ["", "# Profile in XZ: outside width `span`, open at the top.",
                "half = span / 2", "inner = half - thickness",
                "profile = [(-half, 0), (half, 0), (half, height), (inner, height), (inner, thickness),",
                "           (-inner, thickness), (-inner, height), (-half, height)]",
                "body = ("] + self._extrude() + [")"]
        if omit:
            return "\n".join(out + ["result = (", "    body", ")", ""])
        out += ["# Two holes in the base, each midway between a wall's inside face and the centre.",
                "base_holes = (", '    cq.Workplane("XY")', "    .pushPoints([(-inner / 2, 0), (inner / 2, 0)])",
                "    .circle(hole_d / 2)", "    .extrude(thickness)", ")",
                "# One hole through both side walls, centred in Y, midway up the inside of the wall.",
                "wall_holes = (", '    cq.Workplane("YZ")', "    .workplane(offset=-half)", "    .center(0, (height + thickness) / 2)",
                "    .circle(hole_d / 2)", "    .extrude(span)", ")",
                "result = (", "    body.cut(base_holes).cut(wall_holes)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a U-shaped channel bracket with holes in its base and a cross hole through both side walls"

    def _holes(self, p):
        inner = p["span"] / 2 - p["thickness"]
        return (f"two {mm(p['hole_d'])} holes through the base at X = -{n(inner / 2)} and +{n(inner / 2)} (Y = 0), and one "
                f"{mm(p['hole_d'])} hole along X through both walls at Y = 0, Z = {n((p['height'] + p['thickness']) / 2)}")

    def dimensioned(self, p):
        return (f"A U bracket of {mm(p['thickness'])} plate: {mm(p['span'])} across the outside along X, {mm(p['height'])} tall, "
                f"{mm(p['width'])} long along Y, open at the top. It has {self._holes(p)}.")

    def steps(self, p):
        return [f"Sketch the U profile in the XZ plane: outside {mm(p['span'])} wide centred on Z, {mm(p['height'])} tall, "
                f"walls and base {mm(p['thickness'])} thick, base on Z = 0.",
                f"Extrude it {mm(p['width'])} along Y, symmetric about the XZ plane.",
                f"Drill {self._holes(p)}."]

    def bbox(self, p):
        return (-p["span"] / 2, -p["width"] / 2, 0.0, p["span"] / 2, p["width"] / 2, p["height"])

    def alternative(self, p):
        """A block with the channel cut out of it; the holes drilled from the faces with `hole`."""
        out = self._header(p, "U bracket: a block, the channel cut out, holes drilled.", ["span", "height", "width", "thickness", "hole_d"])
        out += ["inner = span / 2 - thickness", "",
                "block = cq.Workplane(\"XY\").box(span, width, height, centered=(True, True, False))",
                "channel = cq.Workplane(\"XY\").workplane(offset=thickness).box(2 * inner, width, height, centered=(True, True, False))",
                "body = block.cut(channel)",
                "body = body.faces(\"<Z\").workplane(centerOption=\"CenterOfBoundBox\").pushPoints([(-inner / 2, 0), (inner / 2, 0)]).hole(hole_d, thickness)",
                "cross = cq.Workplane(\"YZ\", origin=(-span / 2, 0, (height + thickness) / 2)).circle(hole_d / 2).extrude(span)",
                "result = body.cut(cross)", ""]
        return "\n".join(out)


class ZBracket(_Bracket):
    name = "bracket-z"
    noun = "a Z bracket"
    frame = ("with the web's outside face on the YZ plane: the lower flange on the XY plane running along -X, the upper "
             "flange at the top running along +X, centred in Y")
    mutations = (Resize("flange", "flange length"), Resize("hole_d", "hole diameter"), Resize("height", "height"), Bare())

    def solid_spot(self, p):
        return (p["thickness"] / 2, 0.0, p["height"] / 2, min(0.5, p["thickness"] / 4))  # in the web

    def sample(self, rng):
        p = self._common(rng)
        least = p["thickness"] + p["hole_d"] + 4
        p["flange"] = float(max(rng.randrange(20, 51, 5), 5 * -(-least // 5)))
        p["height"] = float(rng.randrange(25, 71, 5))
        return p

    def violations(self, p):
        bad = self._common_violations(p, ("flange",))
        if p["height"] < 2 * p["thickness"] + 5:
            bad.append("web too short")
        return bad

    def script(self, p, omit=False):
        out = self._header(p, "Z bracket: lower flange, vertical web, upper flange.", ["flange", "height", "width", "thickness", "hole_d"])
        out += ["", "# Profile in XZ: the web spans X = 0..thickness; flanges stick out `flange` beyond it.",
                "t = thickness",
                "profile = [(-flange, 0), (t, 0), (t, height - t), (t + flange, height - t),",
                "           (t + flange, height), (0, height), (0, t), (-flange, t)]",
                "body = ("] + self._extrude() + [")"]
        if omit:
            return "\n".join(out + ["result = (", "    body", ")", ""])
        out += ["# One hole in each flange, midway along its free length, centred in Y.",
                "holes = (", '    cq.Workplane("XY")', "    .pushPoints([(-flange / 2, 0), (t + flange / 2, 0)])",
                "    .circle(hole_d / 2)", "    .extrude(height)", ")",
                "result = (", "    body.cut(holes)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a Z-shaped offset bracket with a bolt hole in each flange"

    def dimensioned(self, p):
        t = p["thickness"]
        return (f"A Z bracket of {mm(t)} plate, {mm(p['width'])} wide along Y and {mm(p['height'])} tall overall. The vertical "
                f"web occupies X = 0 to {n(t)}. The lower flange runs along -X to X = -{n(p['flange'])}, with its underside on "
                f"Z = 0; the upper flange runs along +X to X = {n(t + p['flange'])}, with its top at Z = {n(p['height'])}. Each "
                f"flange has a {mm(p['hole_d'])} vertical through hole centred in Y, at X = -{n(p['flange'] / 2)} (lower) and "
                f"X = {n(t + p['flange'] / 2)} (upper).")

    def steps(self, p):
        t = p["thickness"]
        return [f"In the XZ plane, sketch the Z profile: web X = 0..{n(t)}, Z = 0..{n(p['height'])}; lower flange X = -{n(p['flange'])}..{n(t)}, "
                f"Z = 0..{n(t)}; upper flange X = 0..{n(t + p['flange'])}, Z = {n(p['height'] - t)}..{n(p['height'])}.",
                f"Extrude it {mm(p['width'])} along Y, symmetric about the XZ plane.",
                f"Drill a {mm(p['hole_d'])} vertical hole through each flange at Y = 0: X = -{n(p['flange'] / 2)} and X = {n(t + p['flange'] / 2)}."]

    def bbox(self, p):
        return (-p["flange"], -p["width"] / 2, 0.0, p["thickness"] + p["flange"], p["width"] / 2, p["height"])

    def alternative(self, p):
        """Three boxes (flange, web, flange) unioned without cleaning; holes drilled with `hole`."""
        out = self._header(p, "Z bracket from three plates.", ["flange", "height", "width", "thickness", "hole_d"])
        out += ["t = thickness", "",
                "lower = cq.Workplane(\"XY\").center((t - flange) / 2, 0).box(flange + t, width, t, centered=(True, True, False))",
                "web = cq.Workplane(\"XY\").center(t / 2, 0).box(t, width, height, centered=(True, True, False))",
                "upper = cq.Workplane(\"XY\", origin=(0, 0, height - t)).center((t + flange) / 2, 0).box(flange + t, width, t, centered=(True, True, False))",
                "body = lower.union(web, clean=False).union(upper, clean=False)",
                "holes = cq.Workplane(\"XY\").pushPoints([(-flange / 2, 0), (t + flange / 2, 0)]).circle(hole_d / 2).extrude(height)",
                "result = body.cut(holes)", ""]
        return "\n".join(out)
