"""Gears: involute spur gears and internal (ring) gears with straight-flanked teeth."""

from __future__ import annotations

import math

from ..family import Edit, Family, changed
from ..mutations import Bare, Count, Resize
from ..stated import count, form, presence, size
from ..fmt import mm, n

TOOTH_FACES = ("plane", "arc", "fillet", "surface")  # what a tooth flank can be measured as
_AXIAL = "with its axis on the Z axis and its bottom face on the XY plane (Z from 0 up)"


class SpurGear(Family):
    name = "gear-spur"
    noun = "a spur gear"
    frame = _AXIAL + ", the first tooth centred on the +X axis"
    features = ("teeth", "holes")
    omit = "bore"
    unscaled = ("pressure_deg",)
    mutations = (Resize("bore_d", "bore diameter"), Resize("face_width", "face width"), Count("teeth", "teeth"), Bare())
    bare_note = "a plain blank at the tip diameter, no teeth, no bore"
    stated = (count("teeth", "teeth", grades=("teeth",)), presence("omit", "the bore"), size("bore_d", "bore diameter", kinds=("image",)),
              form("involute teeth (a land at the tip, flanks widening to the root)", kinds=("abstract", "image")))
    # Where only the count and the form are stated, how the flanks are built is the model's: any
    # faces (flat facets, arcs, splines, root fillets) parallel to the axis, nothing else added;
    # the tooth form is graded as a whole (grading.tooth_form: the outline's share of each
    # quarter of the tooth depth), so pointed or straight teeth fail.
    free_shape, free_axis = TOOTH_FACES, (0.0, 0.0, 1.0)

    def solid_spot(self, p):
        root_r = p["module"] * p["teeth"] / 2 - 1.25 * p["module"]
        return ((root_r + p["bore_d"] / 2) / 2, 0.0, p["face_width"] / 2,
                min(1.0, (root_r - p["bore_d"] / 2) / 4, p["face_width"] / 4))

    chamber_kind = "abstract"
    broken_kind = "image"  # the kind whose checks build `broken_tooth` (CI budget: one build per check)
    FLANK = "    flank = [(r, half_angle(r)) for r in radii]"

    def chamber_spot(self, p):
        """The bore, widened by one module (the rim under the teeth is at least two) in its middle half."""
        return (0.0, 0.0, p["face_width"] / 4, 3 * p["face_width"] / 4, p["bore_d"] / 2 + p["module"])

    def broken_tooth(self, p) -> str:
        """The reference with one tooth (the one on -X) cut off at half its height: the right count
        of lobes, the right tip and root circles, one tooth short of the tip."""
        script = self.script(p)
        assert self.FLANK in script, "the gear script's flank line moved: broken_tooth cannot hook it"
        cut = (f"{self.FLANK}\n    if i == teeth // 2:  # a broken tooth: cut off at half its height\n"
               "        flank = [(r, a) for r, a in flank if r <= (start_r + tip_r) / 2]")
        return script.replace(self.FLANK, cut, 1)

    def wrong_forms(self, p):
        """Teeth of the right count, tip and root circles and bore, but not involute: pointed
        (a star: straight from each tip to the root between teeth, no tip land) and straight-
        sided trapezoids (half the pitch wide at the root, a quarter at the tip)."""
        return [("star teeth", "pointed star teeth: straight from a point on the tip circle to the root, no tip land",
                 self._straight_teeth(p, tip_frac=0.0, root_frac=1.0)),
                ("trapezoid teeth", "straight-sided trapezoid teeth, half the pitch wide at the root and a quarter at the tip",
                 self._straight_teeth(p, tip_frac=0.25, root_frac=0.5))]

    def _straight_teeth(self, p, tip_frac: float, root_frac: float) -> str:
        """The gear with straight-flanked teeth spanning `tip_frac` of the pitch at the tip circle
        and `root_frac` at the root circle (1: the flanks of neighbours meet on it)."""
        return "\n".join([
            "import cadquery as cq", "import math", "", "# A gear with straight-flanked teeth (not involute).", f"# Frame: {self.frame}.",
            f"module = {n(p['module'])}", f"teeth = {p['teeth']}", f"face_width = {n(p['face_width'])}", f"bore_d = {n(p['bore_d'])}",
            f"tip_frac, root_frac = {tip_frac!r}, {root_frac!r}  # of the pitch, at the tip and the root circle", "",
            "tip_r = module * teeth / 2 + module", "root_r = module * teeth / 2 - 1.25 * module", "pitch = 2 * math.pi / teeth",
            "outline = []", "for i in range(teeth):", "    c = i * pitch",
            "    corners = [(root_r, c - root_frac * pitch / 2), (tip_r, c - tip_frac * pitch / 2)]",
            "    if tip_frac > 0:", "        corners.append((tip_r, c + tip_frac * pitch / 2))",
            "    if root_frac < 1:", "        corners.append((root_r, c + root_frac * pitch / 2))",
            "    outline += [(r * math.cos(a), r * math.sin(a)) for r, a in corners]", "",
            'result = cq.Workplane("XY").polyline(outline).close().extrude(face_width).faces(">Z").workplane().hole(bore_d)', ""])

    def bare(self, p):
        tip = p["module"] * p["teeth"] / 2 + p["module"]
        return "\n".join(["import cadquery as cq", "", "# The gear blank only.", f"# Frame: {self.frame}.",
                          f"tip_r = {n(tip)}", f"face_width = {n(p['face_width'])}", "",
                          'result = cq.Workplane("XY").circle(tip_r).extrude(face_width)', ""])

    def sample(self, rng):
        module = float(rng.choice([1.0, 1.25, 1.5, 2.0, 2.5, 3.0]))
        teeth = rng.randint(14, 48)
        root_d = module * teeth - 2.5 * module
        bore_d = float(max(4, int(root_d * rng.uniform(0.2, 0.45)) // 2 * 2))
        return {"module": module, "teeth": teeth, "pressure_deg": 20.0, "face_width": float(rng.randrange(6, 26, 2)),
                "bore_d": bore_d}

    def violations(self, p):
        bad = []
        if not 12 <= p["teeth"] <= 80:
            bad.append("tooth count outside 12..80")
        root_r = p["module"] * p["teeth"] / 2 - 1.25 * p["module"]
        if root_r - p["bore_d"] / 2 < 2 * p["module"]:
            bad.append("rim under the teeth thinner than two modules")
        base_r = p["module"] * p["teeth"] / 2 * math.cos(math.radians(p["pressure_deg"]))
        tip_r = p["module"] * p["teeth"] / 2 + p["module"]
        if _half_angle(p, tip_r) <= 0.01 / p["teeth"]:
            bad.append("teeth come to a point")
        if base_r >= tip_r:
            bad.append("no involute between base and tip circle")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "import math", "", "# Involute spur gear: standard teeth (addendum 1 module, dedendum",
               "# 1.25 module), straight root lands between teeth.", f"# Frame: {self.frame}.",
               f"module = {n(p['module'])}", f"teeth = {p['teeth']}", f"pressure_deg = {n(p['pressure_deg'])}",
               f"face_width = {n(p['face_width'])}", f"bore_d = {n(p['bore_d'])}", "",
               "pitch_r = module * teeth / 2", "base_r = pitch_r * math.cos(math.radians(pressure_deg))",
               "tip_r = pitch_r + module", "root_r = pitch_r - 1.25 * module", "",
               "", "def involute(alpha):", "    return math.tan(alpha) - alpha", "", "",
               "def half_angle(r):", '    """Half the angular thickness of a tooth at radius r (>= base circle)."""',
               "    return math.pi / (2 * teeth) + involute(math.radians(pressure_deg)) - involute(math.acos(base_r / r))",
               "", "",
               "start_r = max(base_r, root_r)",
               "radii = [start_r + (tip_r - start_r) * k / 6 for k in range(7)]",
               "outline = []",
               "for i in range(teeth):",
               "    centre = 2 * math.pi * i / teeth",
               "    flank = [(r, half_angle(r)) for r in radii]",
               "    side = [(root_r, flank[0][1])] + flank if root_r < start_r else flank",
               "    for r, a in side:  # leading flank, root to tip",
               "        outline.append((r * math.cos(centre - a), r * math.sin(centre - a)))",
               "    for r, a in reversed(side):  # trailing flank, tip to root",
               "        outline.append((r * math.cos(centre + a), r * math.sin(centre + a)))",
               "", "result = (", '    cq.Workplane("XY")', "    .polyline(outline)", "    .close()", "    .extrude(face_width)"]
        if not omit:
            out += ['    .faces(">Z").workplane()', "    .hole(bore_d)"]
        return "\n".join(out + [")", ""])

    def abstract(self, p):
        return f"a {p['teeth']}-tooth involute spur gear with a plain bore"

    def dimensioned(self, p):
        return (f"An involute spur gear: module {n(p['module'])}, {p['teeth']} teeth, {n(p['pressure_deg'])} degree pressure "
                f"angle, standard proportions (addendum 1 module, dedendum 1.25 module, tooth thickness half the circular "
                f"pitch at the pitch circle), straight chords as root lands between teeth (from the root circle straight "
                f"up to where the involute starts), face width {mm(p['face_width'])}, and a {mm(p['bore_d'])} bore through "
                f"the centre. Trace each involute flank with 7 points from max(base, root) radius to the tip radius.")

    def steps(self, p):
        m, z = p["module"], p["teeth"]
        return [f"Compute the pitch radius {n(m * z / 2)} mm, tip radius {n(m * z / 2 + m)} mm, root radius "
                f"{n(m * z / 2 - 1.25 * m)} mm and base radius pitch radius x cos({n(p['pressure_deg'])} degrees).",
                f"For each of the {z} teeth (centred at 360/{z} degree steps from +X), trace both involute flanks with 7 points "
                f"from max(base, root) radius to the tip, the tooth's half angle at radius r being pi/(2*{z}) + inv(pressure "
                f"angle) - inv(acos(base/r)); drop radially to the root circle if it lies below the base circle.",
                "Join all points in one closed polyline (straight chords between neighbouring teeth).",
                f"Extrude it {mm(p['face_width'])} along +Z and drill a {mm(p['bore_d'])} bore on the axis."]

    def edits(self, p):
        return [Edit("Enlarge the bore by 2 mm.", changed(p, bore_d=p["bore_d"] + 2)),
                Edit("Add 4 teeth, keeping the module.", changed(p, teeth=p["teeth"] + 4)),
                Edit("Double the face width.", changed(p, face_width=p["face_width"] * 2))]

    def wrong(self, p):
        return changed(p, teeth=p["teeth"] + 3, module=p["module"] * 0.9)

    def bbox(self, p):
        tip = p["module"] * p["teeth"] / 2 + p["module"]
        # Tooth tips are flat arcs of half angle a around each tooth centre: the extremes depend on tooth positions.
        xs, ys = [], []
        a = _half_angle(p, tip)
        for i in range(p["teeth"]):
            c = 2 * math.pi * i / p["teeth"]
            for ang in (c - a, c + a):
                xs.append(tip * math.cos(ang)); ys.append(tip * math.sin(ang))
        return (min(xs), min(ys), 0.0, max(xs), max(ys), p["face_width"])

    def alternative(self, p):
        """The same outline as a sketch polygon, extruded; the bore cut as a cylinder."""
        script = self.script(p, omit=True)
        head, _, _ = script.partition("result = (")
        return head + "\n".join([
            'blank = cq.Workplane("XY").placeSketch(cq.Sketch().polygon(outline + [outline[0]])).extrude(face_width)',
            'result = blank.cut(cq.Workplane("XY").circle(bore_d / 2).extrude(face_width))', ""])


def _half_angle(p, r):
    inv = lambda alpha: math.tan(alpha) - alpha  # noqa: E731
    base_r = p["module"] * p["teeth"] / 2 * math.cos(math.radians(p["pressure_deg"]))
    return math.pi / (2 * p["teeth"]) + inv(math.radians(p["pressure_deg"])) - inv(math.acos(min(1.0, base_r / r)))


class RingGear(Family):
    name = "gear-ring"
    noun = "an internal ring gear"
    frame = _AXIAL + ", the first tooth centred on the +X axis"
    features = ("teeth",)
    omit = "teeth"
    mutations = (Resize("outer_d", "outside diameter"), Resize("face_width", "face width"), Count("teeth", "teeth"), Bare())
    bare_note = "a plain ring, no teeth"
    stated = (count("teeth", "teeth", grades=("teeth",)), presence("omit", "the teeth", grades=("teeth",)))
    free_shape, free_axis = TOOTH_FACES, (0.0, 0.0, 1.0)

    def solid_spot(self, p):
        root_r = p["module"] * p["teeth"] / 2 + 1.25 * p["module"]
        return ((root_r + p["outer_d"] / 2) / 2, 0.0, p["face_width"] / 2,
                min(1.0, (p["outer_d"] / 2 - root_r) / 4, p["face_width"] / 4))

    def sample(self, rng):
        module = float(rng.choice([1.0, 1.5, 2.0, 2.5]))
        teeth = rng.randint(30, 72)
        root_d = module * teeth + 2.5 * module
        return {"module": module, "teeth": teeth, "outer_d": float(math.ceil((root_d + rng.randrange(10, 31)) / 2) * 2),
                "face_width": float(rng.randrange(6, 21, 2))}

    def violations(self, p):
        root_r = p["module"] * p["teeth"] / 2 + 1.25 * p["module"]
        bad = [] if p["outer_d"] / 2 - root_r >= 4 else ["ring wall behind the teeth under 4 mm"]
        if not 24 <= p["teeth"] <= 100:
            bad.append("tooth count outside 24..100")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "import math", "",
               "# Internal ring gear with straight-flanked teeth pointing inwards.", f"# Frame: {self.frame}.",
               f"module = {n(p['module'])}", f"teeth = {p['teeth']}", f"outer_d = {n(p['outer_d'])}",
               f"face_width = {n(p['face_width'])}", "",
               "pitch_r = module * teeth / 2",
               "tip_r = pitch_r - module  # tooth tips, inside",
               "root_r = pitch_r + 1.25 * module  # tooth roots, in the ring",
               "pitch_angle = 2 * math.pi / teeth",
               "tip_half = 0.2 * pitch_angle  # half the angular width of a tooth at its tip",
               "root_half = 0.3 * pitch_angle  # ... and at its root", ""]
        if omit:
            out += ["gap = cq.Workplane(\"XY\").circle(root_r).extrude(face_width)"]
        else:
            out += ["# The cavity: the root circle with the teeth taken out of it, as one closed polyline.",
                    "cavity = []", "for i in range(teeth):", "    centre = i * pitch_angle",
                    "    for r, a in [(root_r, -root_half), (tip_r, -tip_half), (tip_r, tip_half), (root_r, root_half)]:",
                    "        cavity.append((r * math.cos(centre + a), r * math.sin(centre + a)))",
                    "gap = cq.Workplane(\"XY\").polyline(cavity).close().extrude(face_width)"]
        out += ["", "result = (", '    cq.Workplane("XY")', "    .circle(outer_d / 2)", "    .extrude(face_width)",
                "    .cut(gap)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return f"an internal ring gear with {p['teeth']} teeth"

    def _teeth(self, p):
        m, z = p["module"], p["teeth"]
        pa = 360 / z
        return (f"{z} internal teeth, module {n(m)}: tips on a {mm(m * z - 2 * m)} diameter circle, roots on a "
                f"{mm(m * z + 2.5 * m)} diameter circle; each tooth has straight flanks and spans {n(0.4 * pa)} degrees at the "
                f"tip and {n(0.6 * pa)} degrees at the root (corners on the two circles), the first tooth centred on +X; "
                f"between teeth the cavity's edge is a straight chord on the root circle")

    def dimensioned(self, p):
        return f"A ring {mm(p['outer_d'])} in outside diameter and {mm(p['face_width'])} wide along Z, cut inside with {self._teeth(p)}."

    def steps(self, p):
        return [f"Extrude a {mm(p['outer_d'])} circle {mm(p['face_width'])} along +Z.",
                f"Build the cavity outline as one closed polyline through the tooth corners: {self._teeth(p)}.",
                "Extrude the cavity through the ring and cut it out."]

    def edits(self, p):
        return [Edit("Increase the outside diameter by 10 mm.", changed(p, outer_d=p["outer_d"] + 10)),
                Edit("Make the gear 4 mm wider along Z.", changed(p, face_width=p["face_width"] + 4))]

    def wrong(self, p):
        return changed(p, teeth=p["teeth"] - 6, outer_d=p["outer_d"] + 8)

    def bbox(self, p):
        r = p["outer_d"] / 2
        return (-r, -r, 0.0, r, r, p["face_width"])

    def alternative(self, p):
        """One sketch: the outside circle with the toothed cavity subtracted, extruded once."""
        script = self.script(p)
        head, _, _ = script.partition('gap = cq.Workplane("XY")')
        return head + "\n".join([
            'section = cq.Sketch().circle(outer_d / 2).polygon(cavity + [cavity[0]], mode="s")',
            'result = cq.Workplane("XY").placeSketch(section).extrude(face_width)', ""])
