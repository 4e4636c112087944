"""Flat plates: hole patterns, slots, counterbored holes."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..fmt import half_steps, mm, n
from ..mutations import Bare, DropFillets, Flag, Resize, Shift
from .. import stated as st


# The corners: rounded or square, as every prompt says in words (`_Plate.corner_words`; an
# unstated choice failed the plates that chose otherwise) and the exact kinds in mm; the
# wrong part has the other corners.
_FILLETS = st.Stated("presence", "corner_r", "the corner fillets", st.ALL, ("fillet",), 0.0, when=lambda p: p["corner_r"] > 0)
_SQUARE = st.Stated("presence", "corner_r", "the square corners (rounded instead)", ("abstract", "image"), ("fillet",), 3.0,
                    when=lambda p: p["corner_r"] == 0)


class _Plate(Family):
    features = ("holes", "fillets")

    def solid_spot(self, p):
        return (0.0, p["width"] / 2 - 1, p["thickness"] / 2, min(0.5, p["thickness"] / 4))  # by the long edge

    def _base(self, rng):
        length = float(rng.randrange(60, 161, 5))
        width = float(rng.randrange(40, int(length) + 1, 5))
        return {"length": length, "width": width, "thickness": half_steps(rng, 4, 12),
                "corner_r": float(rng.choice([0, 3, 4, 5]))}

    def _base_violations(self, p):
        bad = []
        if p["corner_r"] < 0 or p["corner_r"] >= min(p["length"], p["width"]) / 4:
            bad.append("corner radius must be below a quarter of the plate's short side")
        if p["thickness"] <= 0:
            bad.append("thickness must be positive")
        return bad

    def _plate_lines(self, p):
        lines = ['    cq.Workplane("XY")', "    .box(length, width, thickness, centered=(True, True, False))"]
        if p["corner_r"] > 0:
            lines.append('    .edges("|Z").fillet(corner_r)')
        return lines

    def _header(self, p, title):
        out = ["import cadquery as cq", "", f"# {title}", f"# Frame: {self.frame}.",
               f"length = {n(p['length'])}  # along X", f"width = {n(p['width'])}  # along Y",
               f"thickness = {n(p['thickness'])}"]
        if p["corner_r"] > 0:
            out.append(f"corner_r = {n(p['corner_r'])}  # vertical corner edges rounded")
        return out

    def corner_words(self, p):
        return "rounded corners" if p["corner_r"] > 0 else "square corners"

    def _corners(self, p):
        return f", vertical corner edges rounded to {mm(p['corner_r'])} radius" if p["corner_r"] > 0 else ", square corners"

    def bbox(self, p):
        return (-p["length"] / 2, -p["width"] / 2, 0.0, p["length"] / 2, p["width"] / 2, p["thickness"])

    def _on_top(self, p, face=">Z"):
        """The workplane the features are cut from (moved along X by a `shift_x` mutation)."""
        out = [f'    .faces("{face}").workplane()']
        if p.get("shift_x"):
            out.append(f"    .center({n(p['shift_x'])}, 0)  # the pattern moved along X")
        return out

    bare_note = "a plain box, no holes, slots or fillets"

    def bare(self, p):
        return "\n".join(self._header(changed(p, corner_r=0.0), "The plate's outline only.")
                         + ["", "result = ("] + self._plate_lines(changed(p, corner_r=0.0)) + [")", ""])

    def _sketched(self, p, title):
        """The plate as a sketched outline extruded (instead of a box with filleted edges)."""
        out = self._header(p, title) + ["", "outline = cq.Sketch().rect(length, width)"]
        if p["corner_r"] > 0:
            out.append('outline = outline.vertices().fillet(corner_r)')
        return out + ['plate = cq.Workplane("XY").placeSketch(outline).extrude(thickness)']


class HolePlate(_Plate):
    name = "plate-holes"
    noun = "a mounting plate"
    omit = "holes"

    def sample(self, rng):
        p = self._base(rng)
        p["nx"], p["ny"] = rng.choice([(2, 2), (3, 2), (4, 2), (3, 3), (2, 1), (4, 3)])
        p["hole_d"] = float(rng.choice([3.4, 4.5, 5.5, 6.6, 9.0]))
        margin = half_steps(rng, p["hole_d"] + 3, p["hole_d"] + 10)
        for axis, size in (("x", p["length"]), ("y", p["width"])):
            count = f"n{axis}"
            pitch = lambda: float(int((size - 2 * margin) / max(p[count] - 1, 1)))  # noqa: E731
            while p[count] > 1 and pitch() < p["hole_d"] + 4:  # fewer holes rather than touching ones
                p[count] -= 1
            p[f"pitch_{axis}"] = pitch()
        return p

    def violations(self, p):
        bad = self._base_violations(p)
        span_x, span_y = p["pitch_x"] * (p["nx"] - 1), p["pitch_y"] * (p["ny"] - 1)
        # Holes keep at least 2 mm of material to the plate's edges and to each other.
        if span_x + p["hole_d"] + 4 > p["length"] or span_y + p["hole_d"] + 4 > p["width"]:
            bad.append("holes too close to the plate's edge")
        if (p["nx"] > 1 and p["pitch_x"] < p["hole_d"] + 2) or (p["ny"] > 1 and p["pitch_y"] < p["hole_d"] + 2):
            bad.append("holes overlap or touch")
        if p["corner_r"] and (p["length"] - span_x) / 2 < p["corner_r"] + p["hole_d"] / 2:
            pass  # corner rounding is outside the hole pattern's reach by construction
        return bad

    def script(self, p, omit=False):
        out = self._header(p, f"Mounting plate with a {p['nx']} x {p['ny']} grid of through holes.")
        out += [f"hole_d = {n(p['hole_d'])}", f"nx, ny = {p['nx']}, {p['ny']}  # holes along X and Y",
                f"pitch_x = {n(p['pitch_x'])}", f"pitch_y = {n(p['pitch_y'])}", "", "result = ("]
        out += self._plate_lines(p)
        if not omit:
            out += self._on_top(p) + ["    .rarray(pitch_x, pitch_y, nx, ny)", "    .hole(hole_d)"]
        return "\n".join(out + [")", ""])

    mutations = (Shift("the hole pattern"), Resize("hole_d", "hole diameter"), Resize("length", "length"),
                 DropFillets("corner_r", "the corner fillets"), Bare())
    stated = (st.count("nx", "columns of holes (along X)"), st.count("ny", "rows of holes (along Y)"), st.presence("omit", "the holes"),
              st.size("hole_d", "hole diameter", kinds=("image",)), _FILLETS, _SQUARE)

    chamber_kind = "dimensioned"

    def chamber_spot(self, p):
        """The first hole, widened by 0.8 mm in its middle half: holes keep 2 mm to each other and the edges."""
        x, y = -(p["nx"] - 1) / 2 * p["pitch_x"], -(p["ny"] - 1) / 2 * p["pitch_y"]
        return (x, y, p["thickness"] / 4, 3 * p["thickness"] / 4, p["hole_d"] / 2 + 0.8)

    def inert(self, p):
        """The pitch along an axis with one hole: `rarray` puts a single row on the centre line."""
        return frozenset(f"pitch_{axis}" for axis in "xy" if p[f"n{axis}"] == 1)

    def adjusted(self, p, key, value):
        """Another count of columns or rows over the same span (first to last hole), or at the
        least pitch that keeps holes apart when there was one."""
        if key not in ("nx", "ny"):
            return super().adjusted(p, key, value)
        axis, old = key[1], p[key]
        pitch = p[f"pitch_{axis}"] * (old - 1) / (value - 1) if old > 1 and value > 1 else (p["hole_d"] + 4 if value > 1 else 0.0)
        return {**p, key: value, f"pitch_{axis}": round(pitch, 6)}

    def alternative(self, p):
        out = self._sketched(p, "Mounting plate: sketched outline, holes cut as cylinders.")
        out += [f"hole_d = {n(p['hole_d'])}", f"pitch_x, pitch_y = {n(p['pitch_x'])}, {n(p['pitch_y'])}",
                f"nx, ny = {p['nx']}, {p['ny']}",
                "centres = [((i - (nx - 1) / 2) * pitch_x, (j - (ny - 1) / 2) * pitch_y) for i in range(nx) for j in range(ny)]",
                'holes = cq.Workplane("XY").pushPoints(centres).circle(hole_d / 2).extrude(thickness)',
                "result = plate.cut(holes)", ""]
        return "\n".join(out)

    def abstract(self, p):
        return (f"a flat rectangular mounting plate with {self.corner_words(p)} and a {p['nx']} by {p['ny']} grid of through holes "
                f"({p['nx']} along X, {p['ny']} along Y)")

    def _pattern(self, p):
        return (f"{p['nx'] * p['ny']} through holes of {mm(p['hole_d'])} diameter on a {p['nx']} x {p['ny']} grid "
                f"(columns along X {mm(p['pitch_x'])} apart, rows along Y {mm(p['pitch_y'])} apart) centred on the plate")

    def dimensioned(self, p):
        return (f"A rectangular plate {mm(p['length'])} along X, {mm(p['width'])} along Y and {mm(p['thickness'])} "
                f"thick{self._corners(p)}. It has {self._pattern(p)}.")

    def steps(self, p):
        s = [f"Make a box {mm(p['length'])} (X) by {mm(p['width'])} (Y) by {mm(p['thickness'])} (Z), centred in X and Y, sitting on the XY plane."]
        if p["corner_r"]:
            s.append(f"Round the four vertical edges with a {mm(p['corner_r'])} fillet.")
        s.append(f"On the top face, drill {self._pattern(p)}.")
        return s

    def edits(self, p):
        return [Edit("Enlarge the holes by 1 mm in diameter.", changed(p, hole_d=p["hole_d"] + 1)),
                Edit("Make the plate 2 mm thicker (the base stays on the XY plane).", changed(p, thickness=p["thickness"] + 2)),
                Edit("Add one more row of holes along Y, keeping the row spacing and the pattern centred.", changed(p, ny=p["ny"] + 1)),
                Edit("Remove the fillets on the corners.", changed(p, corner_r=0.0))]

    def wrong(self, p):
        return changed(p, hole_d=p["hole_d"] * 1.6, thickness=p["thickness"] + 3)


class SlotPlate(_Plate):
    name = "plate-slots"
    noun = "a slotted plate"
    omit = "slots"

    def sample(self, rng):
        p = self._base(rng)
        p["slots"] = rng.randint(1, 4)
        p["slot_w"] = float(rng.choice([4, 5, 6, 8, 10]))
        p["slot_len"] = float(rng.randrange(int(p["slot_w"]) * 2, int(p["width"] * 0.7), 2))
        free = p["length"] - 2 * (p["slot_w"] + 4)
        p["slot_pitch"] = float(int(free / max(p["slots"] - 1, 1))) if p["slots"] > 1 else 0.0
        return p

    def violations(self, p):
        bad = self._base_violations(p)
        if p["slot_len"] <= p["slot_w"]:
            bad.append("a slot must be longer than it is wide")
        if p["slot_len"] + 6 > p["width"]:
            bad.append("slots run into the plate's long edges")
        span = p["slot_pitch"] * (p["slots"] - 1)
        if span + p["slot_w"] + 6 > p["length"]:
            bad.append("end slots too close to the plate's ends")
        if p["slots"] > 1 and p["slot_pitch"] < p["slot_w"] + 3:
            bad.append("slots overlap")
        return bad

    def script(self, p, omit=False):
        out = self._header(p, f"Plate with {p['slots']} parallel slots running along Y.")
        out += [f"slots = {p['slots']}", f"slot_len = {n(p['slot_len'])}  # end to end, along Y",
                f"slot_w = {n(p['slot_w'])}", f"slot_pitch = {n(p['slot_pitch'])}  # along X", "", "result = ("]
        out += self._plate_lines(p)
        if not omit:
            out += self._on_top(p) + ["    .rarray(slot_pitch, 1, slots, 1)",
                                      "    .slot2D(slot_len, slot_w, angle=90)", "    .cutThruAll()"]
        return "\n".join(out + [")", ""])

    mutations = (Shift("the slots"), Resize("slot_w", "slot width"), Resize("width", "width"),
                 DropFillets("corner_r", "the corner fillets"), Bare())
    stated = (st.count("slots", "slots"), st.presence("omit", "the slots"), st.size("slot_w", "slot width", kinds=("image",)),
              _FILLETS, _SQUARE)

    def adjusted(self, p, key, value):
        """Another number of slots over the same span (or at the least pitch from one slot)."""
        if key != "slots":
            return super().adjusted(p, key, value)
        old = p["slots"]
        pitch = p["slot_pitch"] * (old - 1) / (value - 1) if old > 1 and value > 1 else (p["slot_w"] + 4 if value > 1 else 0.0)
        return {**p, "slots": value, "slot_pitch": round(pitch, 6)}

    def alternative(self, p):
        """Each slot cut with its own outline of lines and arcs (an arc cutter)."""
        out = self._sketched(p, "Slotted plate: sketched outline, each slot cut by a line-and-arc cutter.")
        out += [f"slots, slot_len, slot_w, slot_pitch = {p['slots']}, {n(p['slot_len'])}, {n(p['slot_w'])}, {n(p['slot_pitch'])}",
                "r, half = slot_w / 2, (slot_len - slot_w) / 2",
                "for i in range(slots):",
                "    x = (i - (slots - 1) / 2) * slot_pitch",
                "    cutter = (",
                '        cq.Workplane("XY")',
                "        .moveTo(x - r, -half)",
                "        .lineTo(x - r, half)",
                "        .threePointArc((x, half + r), (x + r, half))",
                "        .lineTo(x + r, -half)",
                "        .threePointArc((x, -half - r), (x - r, -half))",
                "        .close()",
                "        .extrude(thickness)",
                "    )",
                "    plate = plate.cut(cutter)",
                "result = plate", ""]
        return "\n".join(out)

    def abstract(self, p):
        return (f"a flat rectangular plate with {self.corner_words(p)} and {p['slots']} parallel through slot{'s' if p['slots'] > 1 else ''} "
                f"running along Y for adjustable mounting")

    def _slots(self, p):
        where = (f"{p['slots']} slots spaced {mm(p['slot_pitch'])} apart along X, the group centred on the plate"
                 if p["slots"] > 1 else "one slot at the plate's centre")
        return (f"through slots with rounded ends, {mm(p['slot_len'])} long end to end along Y and {mm(p['slot_w'])} wide: "
                f"{where}")

    def dimensioned(self, p):
        return (f"A rectangular plate {mm(p['length'])} along X, {mm(p['width'])} along Y and {mm(p['thickness'])} "
                f"thick{self._corners(p)}. It has {self._slots(p)}.")

    def steps(self, p):
        s = [f"Make a box {mm(p['length'])} (X) by {mm(p['width'])} (Y) by {mm(p['thickness'])} (Z), centred in X and Y, on the XY plane."]
        if p["corner_r"]:
            s.append(f"Fillet the four vertical edges with radius {mm(p['corner_r'])}.")
        s.append(f"Cut {self._slots(p)}, all the way through.")
        return s

    def edits(self, p):
        return [Edit("Make the slots 2 mm wider.", changed(p, slot_w=p["slot_w"] + 2)),
                Edit("Make the slots 10 mm longer.", changed(p, slot_len=p["slot_len"] + 10)),
                Edit("Make the plate 3 mm thicker (the base stays on the XY plane).", changed(p, thickness=p["thickness"] + 3))]

    def wrong(self, p):
        return changed(p, slot_w=p["slot_w"] + 3, slot_len=p["slot_len"] * 0.6 + p["slot_w"])


class CounterborePlate(_Plate):
    name = "plate-counterbore"
    noun = "a plate with counterbored holes"
    omit = "counterbores"

    def sample(self, rng):
        p = self._base(rng)
        screw = rng.choice([(3.4, 6.5, 3.5), (4.5, 8.0, 4.5), (5.5, 10.0, 5.5), (6.6, 11.0, 6.5)])
        p["hole_d"], p["cbore_d"], p["cbore_depth"] = map(float, screw)  # ISO 4762 clearance and head sizes
        p["thickness"] = half_steps(rng, p["cbore_depth"] + 3, p["cbore_depth"] + 10)
        most = (min(p["length"], p["width"]) - p["cbore_d"] - 2) / 2 - 1  # keeps the four counterbores apart
        margin = half_steps(rng, p["cbore_d"] / 2 + 4, max(p["cbore_d"] / 2 + 4, min(p["cbore_d"] / 2 + 12, most)))
        p["pitch_x"] = p["length"] - 2 * margin
        p["pitch_y"] = p["width"] - 2 * margin
        return p

    def violations(self, p):
        bad = self._base_violations(p)
        if p["cbore_depth"] >= p["thickness"] - 2:
            bad.append("counterbore leaves less than 2 mm of material under the screw head")
        if p["cbore_d"] <= p["hole_d"]:
            bad.append("counterbore must be wider than the hole")
        if p["pitch_x"] + p["cbore_d"] + 4 > p["length"] or p["pitch_y"] + p["cbore_d"] + 4 > p["width"]:
            bad.append("counterbores too close to the plate's edge")
        if p["pitch_x"] < p["cbore_d"] + 2 or p["pitch_y"] < p["cbore_d"] + 2:
            bad.append("counterbores overlap")
        return bad

    def script(self, p, omit=False):
        out = self._header(p, "Plate with four counterbored holes for socket-head screws.")
        out += [f"hole_d = {n(p['hole_d'])}", f"cbore_d = {n(p['cbore_d'])}", f"cbore_depth = {n(p['cbore_depth'])}",
                f"pitch_x = {n(p['pitch_x'])}  # hole centres along X", f"pitch_y = {n(p['pitch_y'])}  # hole centres along Y",
                "", "result = ("]
        out += self._plate_lines(p)
        out += self._on_top(p, "<Z" if p.get("cbore_face") == "bottom" else ">Z")
        out += ["    .rect(pitch_x, pitch_y, forConstruction=True)", "    .vertices()"]
        out.append("    .hole(hole_d)" if omit or p.get("plain") else "    .cboreHole(hole_d, cbore_d, cbore_depth)")
        return "\n".join(out + [")", ""])

    mutations = (Shift("the holes"), Resize("thickness", "thickness"),
                 Flag("cbore_face", "bottom", "face", "the counterbores on the bottom face instead of the top"),
                 Flag("plain", True, "plain holes", "plain holes instead of counterbored ones", presence=True),
                 Resize("length", "length"), Bare())
    stated = (st.presence("omit", "the counterbores"), st.face("cbore_face", "bottom", "the counterbores on the bottom face", kinds=st.SHOWN),
              st.size("cbore_d", "counterbore diameter", kinds=("image",)), _FILLETS, _SQUARE)

    def alternative(self, p):
        out = self._sketched(p, "Counterbored plate: sketched outline; holes and counterbores cut as cylinders.")
        out += [f"hole_d, cbore_d, cbore_depth = {n(p['hole_d'])}, {n(p['cbore_d'])}, {n(p['cbore_depth'])}",
                f"pitch_x, pitch_y = {n(p['pitch_x'])}, {n(p['pitch_y'])}",
                "centres = [(sx * pitch_x / 2, sy * pitch_y / 2) for sx in (-1, 1) for sy in (-1, 1)]",
                'holes = cq.Workplane("XY").pushPoints(centres).circle(hole_d / 2).extrude(thickness)',
                'heads = (cq.Workplane("XY").workplane(offset=thickness - cbore_depth)',
                "         .pushPoints(centres).circle(cbore_d / 2).extrude(cbore_depth))",
                "result = plate.cut(holes).cut(heads)", ""]
        return "\n".join(out)

    def abstract(self, p):
        return f"a rectangular plate with {self.corner_words(p)} and four counterbored screw holes near its corners"

    def _holes(self, p):
        return (f"four through holes of {mm(p['hole_d'])} diameter at the corners of a {mm(p['pitch_x'])} (X) by "
                f"{mm(p['pitch_y'])} (Y) rectangle centred on the plate, each counterbored from the top face to "
                f"{mm(p['cbore_d'])} diameter and {mm(p['cbore_depth'])} deep")

    def dimensioned(self, p):
        return (f"A rectangular plate {mm(p['length'])} along X, {mm(p['width'])} along Y and {mm(p['thickness'])} "
                f"thick{self._corners(p)}. It has {self._holes(p)}.")

    def steps(self, p):
        s = [f"Make a box {mm(p['length'])} (X) by {mm(p['width'])} (Y) by {mm(p['thickness'])} (Z), centred in X and Y, on the XY plane."]
        if p["corner_r"]:
            s.append(f"Fillet the four vertical edges with radius {mm(p['corner_r'])}.")
        s.append(f"From the top face, make {self._holes(p)}.")
        return s

    def edits(self, p):
        return [Edit("Make the counterbores 3 mm wider and 2 mm deeper (for washers under the heads).",
                     changed(p, cbore_d=p["cbore_d"] + 3, cbore_depth=p["cbore_depth"] + 2)),
                Edit("Enlarge the through holes by 1 mm in diameter (counterbores unchanged).", changed(p, hole_d=p["hole_d"] + 1)),
                Edit("Move the holes 5 mm closer to the plate's centre in X.", changed(p, pitch_x=p["pitch_x"] - 10))]

    def wrong(self, p):
        return changed(p, cbore_d=p["cbore_d"] + 3, cbore_depth=p["cbore_depth"] - 1.5)
