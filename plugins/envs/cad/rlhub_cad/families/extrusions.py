"""Extruded sections: finned heat sinks and square T-slot framing profiles."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Resize
from ..stated import count, presence, size
from ..fmt import half_steps, mm, n


class HeatSink(Family):
    name = "heat-sink"
    noun = "a finned heat sink"
    features = ("holes",)
    omit = "mounting holes"
    mutations = (Resize("hole_d", "hole diameter"), Resize("fin_h", "fin height"), Resize("length", "length"), Bare())
    bare_note = "base and fins, no mounting holes"
    stated = (count("fins", "fins", grades=("plane",)),
              presence("omit", "the mounting holes"),
              size("hole_d", "mounting hole diameter", kinds=("image",)))

    def solid_spot(self, p):
        return (0.0, 0.0, p["base_t"] / 2, min(1.0, p["base_t"] / 4))  # in the base, between the two holes

    def free(self, p, kind):
        """Which of the two middle gaps takes the holes (an odd number of fins) is left to the
        model where the prompt says only "two mounting holes": the half turn about Z."""
        if kind == "abstract" and p["fins"] % 2:
            return {"symmetries": ((-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0),)}
        return {}

    def sample(self, rng):
        length = float(rng.randrange(30, 101, 5))
        fin_t = float(rng.choice([1.0, 1.5, 2.0, 2.5]))
        hole_d = float(rng.choice([3.4, 4.5]))
        most = int((length - fin_t) / (fin_t + hole_d + 1)) + 1  # every gap must take a mounting hole
        return {"length": length, "width": float(rng.randrange(30, 81, 5)), "base_t": half_steps(rng, 3, 6),
                "fins": rng.randint(3, max(3, min(16, most))), "fin_t": fin_t, "fin_h": float(rng.randrange(10, 41, 2)),
                "hole_d": hole_d}

    def _pitch(self, p):
        return (p["length"] - p["fin_t"]) / (p["fins"] - 1)  # outer fins flush with the base's ends

    def violations(self, p):
        bad = []
        if self._pitch(p) - p["fin_t"] < 2:
            bad.append("gaps between fins under 2 mm")
        if p["fins"] < 2:
            bad.append("fewer than two fins")
        if self._pitch(p) - p["fin_t"] < p["hole_d"] + 1:
            bad.append("mounting holes do not fit between the fins")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "", "# Heat sink: a base plate with straight fins running along Y.",
               f"# Frame: {self.frame}."] + [f"{k} = {n(p[k])}" for k in ("length", "width", "base_t", "fin_t", "fin_h", "hole_d")]
        out += [f"fins = {p['fins']}", "fin_pitch = (length - fin_t) / (fins - 1)  # outer fins flush with the ends", "",
                "result = (", '    cq.Workplane("XY")', "    .box(length, width, base_t, centered=(True, True, False))",
                '    .faces(">Z").workplane()', "    .rarray(fin_pitch, 1, fins, 1)", "    .rect(fin_t, width)", "    .extrude(fin_h)"]
        if not omit:
            out += ["    # Two mounting holes in the middle gap(s), a quarter of the width in from each side.",
                    '    .faces("<Z").workplane()', "    .pushPoints([(0, -width / 4), (0, width / 4)])" if p["fins"] % 2 == 0
                    else '    .pushPoints([(fin_pitch / 2, -width / 4), (fin_pitch / 2, width / 4)])',
                    "    .hole(hole_d, base_t)"]
        return "\n".join(out + [")", ""])

    def _holes(self, p):
        x = 0.0 if p["fins"] % 2 == 0 else self._pitch(p) / 2
        return (f"two {mm(p['hole_d'])} mounting holes through the base between the fins at X = {n(x)}, "
                f"Y = -{n(p['width'] / 4)} and +{n(p['width'] / 4)}")

    def abstract(self, p):
        return f"a straight-fin heat sink with {p['fins']} fins running along Y and two mounting holes"

    def dimensioned(self, p):
        return (f"A base plate {mm(p['length'])} along X, {mm(p['width'])} along Y and {mm(p['base_t'])} thick, carrying "
                f"{p['fins']} straight fins {mm(p['fin_t'])} thick and {mm(p['fin_h'])} tall that run the full width along Y; "
                f"the fins are evenly spaced with the outermost ones flush with the base's ends. It has {self._holes(p)}.")

    def steps(self, p):
        return [f"Make the base: a box {mm(p['length'])} (X) by {mm(p['width'])} (Y) by {mm(p['base_t'])} (Z), centred in X and Y, on the XY plane.",
                f"On its top, extrude {p['fins']} fins {mm(p['fin_t'])} (X) by {mm(p['width'])} (Y), {mm(p['fin_h'])} tall, evenly "
                f"spaced with the outer fins flush with the ends (pitch {n(self._pitch(p))} mm).",
                f"Drill {self._holes(p)}."]

    def edits(self, p):
        return [Edit("Make the fins 5 mm taller.", changed(p, fin_h=p["fin_h"] + 5)),
                Edit("Thicken the base by 2 mm (downwards stays on the XY plane, fins move up).", changed(p, base_t=p["base_t"] + 2)),
                Edit("Make the heat sink 10 mm wider along Y.", changed(p, width=p["width"] + 10))]

    def wrong(self, p):
        return changed(p, fins=max(3, p["fins"] - 2), fin_h=p["fin_h"] + 8)

    def bbox(self, p):
        return (-p["length"] / 2, -p["width"] / 2, 0.0, p["length"] / 2, p["width"] / 2, p["base_t"] + p["fin_h"])

    def alternative(self, p):
        """Base and fins as one sketched comb profile in XZ extruded along Y; holes cut as cylinders."""
        out = ["import cadquery as cq", "", "# Heat sink: the comb profile (base and fins) in XZ, extruded along Y.",
               f"# Frame: {self.frame}."] + [f"{k} = {n(p[k])}" for k in ("length", "width", "base_t", "fin_t", "fin_h", "hole_d")]
        out += [f"fins = {p['fins']}", "pitch = (length - fin_t) / (fins - 1)", "",
                "top = base_t + fin_h",
                "xs = [-length / 2 + i * pitch for i in range(fins)]  # each fin's -X side",
                "profile = [(-length / 2, 0), (length / 2, 0), (length / 2, top)]",
                "for i in range(fins - 1, 0, -1):  # along the top, right to left: down each gap and up the next fin",
                "    profile += [(xs[i], top), (xs[i], base_t), (xs[i - 1] + fin_t, base_t), (xs[i - 1] + fin_t, top)]",
                "profile.append((-length / 2, top))",
                'body = cq.Workplane("XZ").polyline(profile).close().extrude(width / 2, both=True)',
                "x = 0 if fins % 2 == 0 else pitch / 2",
                'holes = cq.Workplane("XY").pushPoints([(x, -width / 4), (x, width / 4)]).circle(hole_d / 2).extrude(base_t)',
                "result = body.cut(holes)", ""]
        return "\n".join(out)


class TSlotProfile(Family):
    name = "tslot"
    noun = "a T-slot framing profile"
    frame = "centred on the origin in X and Y, extruded from the XY plane along +Z"
    features = ("holes",)
    omit = "centre bore"
    mutations = (Resize("opening", "slot opening"), Resize("bore_d", "bore diameter"), Resize("length", "length"), Bare())
    bare_note = "a plain square bar, no slots, no bore"
    stated = (presence("no_slots", "the T-slots", grades=("plane",)),
              presence("omit", "the centre bore", kinds=("image", "dimensioned", "steps", "edit", "repair")),
              size("bore_d", "centre bore diameter", kinds=("image",)))

    def solid_spot(self, p):
        c = p["size"] / 2 - 1.5
        return (c, c, p["length"] / 2, 0.5)  # in a corner, between two slots

    def bare(self, p):
        return "\n".join(["import cadquery as cq", "", "# The profile's square bar only.", f"# Frame: {self.frame}.",
                          f"size = {n(p['size'])}", f"length = {n(p['length'])}", "",
                          'result = cq.Workplane("XY").rect(size, size).extrude(length)', ""])
    # (size, opening, lip, cavity width, cavity depth, bore): simplified rectangular cavities, narrow
    # enough that the corners stay joined to the core.
    SIZES = [(20, 6.2, 1.8, 7.6, 3.2, 4.2), (30, 8.2, 2.2, 12.0, 5.5, 6.8), (40, 8.2, 4.3, 15.0, 7.0, 6.8)]

    def sample(self, rng):
        size, opening, lip, cavity_w, cavity_d, bore = rng.choice(self.SIZES)
        return {"size": float(size), "opening": opening, "lip": lip, "cavity_w": cavity_w, "cavity_d": cavity_d,
                "bore_d": bore, "length": float(rng.randrange(20, 101, 10))}

    def violations(self, p):
        bad = []
        if p["opening"] >= p["cavity_w"]:
            bad.append("slot opening wider than its cavity")
        if p["size"] / 2 - p["lip"] - p["cavity_d"] - p["bore_d"] / 2 < 1:
            bad.append("slot cavities break into the centre bore")
        if p["cavity_w"] / 2 + 1 > p["size"] / 2 - p["lip"] - p["cavity_d"]:
            bad.append("neighbouring cavities meet: the corners would fall off the core")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "", "# Square T-slot profile: one T-slot in the middle of each side, centre bore.",
               f"# Frame: {self.frame}."] + [f"{k} = {n(p[k])}" for k in ("size", "length", "opening", "lip", "cavity_w", "cavity_d", "bore_d")]
        out += ["", "# One T-shaped cutter for the +Y side: the narrow opening through the lip, the wide cavity below it.",
                "slot = (", '    cq.Workplane("XY")', "    .center(0, size / 2 - lip / 2)", "    .rect(opening, lip + 0.01)",
                "    .extrude(length)", '    .union(cq.Workplane("XY").center(0, size / 2 - lip - cavity_d / 2).rect(cavity_w, cavity_d).extrude(length))',
                ")", "body = cq.Workplane(\"XY\").rect(size, size).extrude(length)"]
        if not omit:
            out.append("body = body.cut(cq.Workplane(\"XY\").circle(bore_d / 2).extrude(length))")
        if not p.get("no_slots"):
            out += ["for quarter in range(4):  # the same slot on all four sides",
                    "    body = body.cut(slot.rotate((0, 0, 0), (0, 0, 1), 90 * quarter))"]
        out += ["result = (", "    body", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return f"a {n(p['size'])} mm square aluminium T-slot framing profile"

    def _slot(self, p):
        return (f"a T-slot centred on each of the four sides: an opening {mm(p['opening'])} wide through a lip "
                f"{mm(p['lip'])} thick, widening below the lip into a rectangular cavity {mm(p['cavity_w'])} wide and "
                f"{mm(p['cavity_d'])} deep")

    def dimensioned(self, p):
        return (f"A square profile {mm(p['size'])} x {mm(p['size'])} in section and {mm(p['length'])} long along Z, with "
                f"{self._slot(p)}, and a {mm(p['bore_d'])} bore along the centre.")

    def steps(self, p):
        return [f"Extrude a {mm(p['size'])} square centred on the origin {mm(p['length'])} along +Z.",
                f"Cut a {mm(p['bore_d'])} bore along the Z axis.",
                f"Cut {self._slot(p)}: build the T-shaped cutter for one side and repeat it rotated by 90, 180 and 270 degrees about Z."]

    def edits(self, p):
        return [Edit("Make the profile 50 mm longer.", changed(p, length=p["length"] + 50)),
                Edit("Widen the slot openings by 1 mm.", changed(p, opening=p["opening"] + 1))]

    def wrong(self, p):
        return changed(p, opening=p["opening"] + 2.5, cavity_d=p["cavity_d"] * 0.6)

    def bbox(self, p):
        s = p["size"] / 2
        return (-s, -s, 0.0, s, s, p["length"])

    def alternative(self, p):
        """One sketch: the square, the bore and four T-shaped pockets subtracted, extruded once."""
        out = ["import cadquery as cq", "", "# T-slot profile as one sketch extruded along Z.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("size", "length", "opening", "lip", "cavity_w", "cavity_d", "bore_d")]
        out += ["import math", "", "section = cq.Sketch().rect(size, size).push([(0, 0)]).circle(bore_d / 2, mode=\"s\").reset()",
                "for angle in (0, 90, 180, 270):",
                "    a = math.radians(angle)",
                "    for depth, w, h in ((size / 2 - lip / 2, opening, lip + 0.01), (size / 2 - lip - cavity_d / 2, cavity_w, cavity_d)):",
                "        at = cq.Location(cq.Vector(-depth * math.sin(a), depth * math.cos(a), 0), cq.Vector(0, 0, 1), angle)",
                "        section = section.push([at]).rect(w, h, mode=\"s\").reset()",
                "result = cq.Workplane(\"XY\").placeSketch(section).extrude(length)", ""]
        return "\n".join(out)
