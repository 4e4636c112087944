"""Stepped shafts on the Z axis with a feather-key keyway."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Flag, Resize
from ..stated import face, presence, size, steps
from ..fmt import half_steps, mm, n

# ISO/DIN 6885 feather keys: (shaft diameter above, key width, keyway depth in the shaft).
_KEYS = [(10, 4, 2.5), (12, 5, 3.0), (17, 6, 3.5), (22, 8, 4.0), (30, 10, 5.0), (38, 12, 5.0)]


class KeyedShaft(Family):
    name = "shaft-keyed"
    noun = "a stepped shaft with a keyway"
    frame = ("with its axis on the Z axis and its bottom end face on the XY plane (Z from 0 up), "
             "the keyway on the +X side")
    features = ("fillets", "face_types")
    omit = "keyway"
    mutations = (Flag("keyway_side", "-X", "face", "the keyway on the -X side instead of +X"),
                 Resize("key_w", "keyway width"), Resize("top_len", "top section length"), Bare())
    bare_note = "the stepped shaft without its keyway"
    stated = (steps("steps", "the shaft's diameters (three sections)"), presence("omit", "the keyway", grades=("slot",)),
              face("keyway_side", "-X", "the keyway on the -X side instead of +X", grades=("slot",)),
              size("key_w", "keyway width", kinds=("image",)))

    def solid_spot(self, p):
        return (0.0, 0.0, p["bottom_len"] / 2, min(1.0, p["bottom_d"] / 8))  # on the axis, in the bottom section

    def sample(self, rng):
        top_d = float(rng.randrange(12, 41, 2))
        key_w, key_depth = next((float(w), float(t)) for lo, w, t in reversed(_KEYS) if top_d > lo)
        middle_d = top_d + 2 * half_steps(rng, 3, 8)
        bottom_d = float(rng.randrange(int(top_d), int(middle_d) - 3, 2))
        top_len = float(rng.randrange(int(max(20, top_d)), 61, 5))
        return {"bottom_d": bottom_d, "bottom_len": float(rng.randrange(15, 51, 5)),
                "middle_d": middle_d, "middle_len": float(rng.randrange(10, 41, 5)),
                "top_d": top_d, "top_len": top_len,
                "key_w": key_w, "key_depth": key_depth, "key_len": float(rng.randrange(int(key_w) * 2 + 2, int(top_len) - 3, 2))}

    def violations(self, p):
        bad = []
        for name in ("bottom_d", "top_d"):
            if p["middle_d"] < p[name] + 4:
                bad.append(f"shoulder between the middle section and {name[:-2]} section under 2 mm")
        if p["key_w"] > p["top_d"] / 2:
            bad.append("keyway wider than half the shaft")
        if p["key_depth"] > p["top_d"] / 4:
            bad.append("keyway deeper than a quarter of the shaft")
        if p["key_len"] <= p["key_w"]:
            bad.append("keyway shorter than it is wide")
        if p["key_len"] > p["top_len"] - 2:
            bad.append("keyway runs off its section")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "",
               "# Stepped shaft: three coaxial sections, with a keyway milled into the top section.",
               f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("bottom_d", "bottom_len", "middle_d", "middle_len", "top_d", "top_len",
                                              "key_w", "key_depth", "key_len")]
        sections = [("bottom_d", "bottom_len"), ("middle_d", "middle_len"), ("top_d", "top_len")]
        if p.get("steps") == -1:  # a wrong part: two diameters (the bottom section as wide as the middle)
            sections[0] = ("middle_d", "bottom_len")
        elif p.get("steps") == 1:  # a wrong part: four diameters (a collar between the middle and the top)
            sections[1:2] = [("middle_d", "middle_len / 2"), ("(middle_d + top_d) / 2", "middle_len / 2")]
        out += ["", "shaft = (", '    cq.Workplane("XY")']
        for i, (d, length) in enumerate(sections):
            out += ([] if i == 0 else ['    .faces(">Z").workplane()']) + [f"    .circle({d} / 2)", f"    .extrude({length})"]
        out += [")"]
        if omit:
            return "\n".join(out + ["result = (", "    shaft", ")", ""])
        out += ["# Keyway: an end-milled slot (round ends) on the +X side, centred along the top section,",
                "# its flat bottom key_depth below the shaft's surface.",
                "key_z = bottom_len + middle_len + top_len / 2",
                "keyway = (",
                ('    cq.Workplane("YZ", origin=(-(top_d / 2 - key_depth), 0, 0))  # the -X side: extrude along -X'
                 if p.get("keyway_side") == "-X" else '    cq.Workplane("YZ", origin=(top_d / 2 - key_depth, 0, 0))  # normal is +X'),
                "    .center(0, key_z)", "    .slot2D(key_len, key_w, angle=90)",
                "    .extrude(-(key_depth + top_d / 2))" if p.get("keyway_side") == "-X"
                else "    .extrude(key_depth + top_d / 2)  # well past the surface",
                ")", "result = (", "    shaft.cut(keyway)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a stepped round shaft with three diameters and a keyway in its top end"

    def _sections(self, p):
        return (f"a bottom section {mm(p['bottom_d'])} in diameter and {mm(p['bottom_len'])} long, a middle section "
                f"{mm(p['middle_d'])} in diameter and {mm(p['middle_len'])} long, and a top section {mm(p['top_d'])} in "
                f"diameter and {mm(p['top_len'])} long")

    def _keyway(self, p):
        z = p["bottom_len"] + p["middle_len"] + p["top_len"] / 2
        return (f"a keyway on the +X side of the top section: a slot with rounded ends (as cut by an end mill) "
                f"{mm(p['key_w'])} wide and {mm(p['key_len'])} long end to end along Z, centred at Z = {n(z)}, its flat bottom "
                f"{mm(p['key_depth'])} in from the shaft's surface (at X = {n(p['top_d'] / 2 - p['key_depth'])})")

    def dimensioned(self, p):
        return f"A stepped shaft made of three coaxial sections stacked from the bottom: {self._sections(p)}. It has {self._keyway(p)}."

    def steps(self, p):
        return [f"Extrude a {mm(p['bottom_d'])} circle {mm(p['bottom_len'])} up from the XY plane.",
                f"On its top face, extrude a {mm(p['middle_d'])} circle {mm(p['middle_len'])} further.",
                f"On top of that, extrude a {mm(p['top_d'])} circle {mm(p['top_len'])} further.",
                f"Cut {self._keyway(p)}."]

    def edits(self, p):
        return [Edit("Make the middle section 10 mm longer.", changed(p, middle_len=p["middle_len"] + 10)),
                Edit("Make the bottom section 15 mm longer (everything above moves up with it).",
                     changed(p, bottom_len=p["bottom_len"] + 15)),
                Edit("Make the top section 10 mm longer (the keyway stays centred on it).", changed(p, top_len=p["top_len"] + 10))]

    def wrong(self, p):
        return changed(p, middle_len=p["middle_len"] + 8, key_len=max(p["key_w"] + 2, p["key_len"] * 0.6), key_depth=p["key_depth"] + 1)

    def bbox(self, p):
        r = p["middle_d"] / 2
        return (-r, -r, 0.0, r, r, p["bottom_len"] + p["middle_len"] + p["top_len"])

    def alternative(self, p):
        """The stepped profile revolved in one go; the keyway cut as a box between two end-mill
        cylinders (what an end mill sweeps), unioned without cleaning."""
        out = ["import cadquery as cq", "", "# Stepped shaft: revolved profile, keyway cut as box + two cylinders.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("bottom_d", "bottom_len", "middle_d", "middle_len", "top_d", "top_len",
                                              "key_w", "key_depth", "key_len")]
        side = -1 if p.get("keyway_side") == "-X" else 1
        out += ["z1, z2 = bottom_len, bottom_len + middle_len", "z3 = z2 + top_len",
                "profile = [(0, 0), (bottom_d / 2, 0), (bottom_d / 2, z1), (middle_d / 2, z1), (middle_d / 2, z2),",
                "           (top_d / 2, z2), (top_d / 2, z3), (0, z3)]",
                'shaft = cq.Workplane("XZ").polyline(profile).close().revolve(360, (0, 0, 0), (0, 1, 0))',
                f"side = {side}  # +1: the keyway on +X",
                "key_z = z1 + middle_len + top_len / 2",
                "x0 = side * (top_d / 2 - key_depth)  # the keyway's flat bottom",
                "reach = key_depth + top_d / 2",
                "straight = key_len - key_w",
                'cutter = cq.Workplane("XY").box(reach, key_w, straight, centered=(False, True, True)).translate((min(x0, x0 + side * reach), 0, key_z))',
                "for end in (-1, 1):",
                '    mill = cq.Workplane("YZ", origin=(x0, 0, key_z + end * straight / 2)).circle(key_w / 2).extrude(side * reach)',
                "    cutter = cutter.union(mill, clean=False)",
                "result = shaft.cut(cutter)", ""]
        return "\n".join(out)
