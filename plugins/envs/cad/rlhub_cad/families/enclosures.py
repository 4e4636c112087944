"""Electronics enclosures: a shelled box with a lid lip, internal standoffs and vent slots."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Flag, Resize
from ..stated import count, face, presence, wall
from ..fmt import half_steps, mm, n

_NAMES = ["length", "width", "height", "wall", "corner_r", "lip_h", "lip_t", "standoff_d", "standoff_hole_d",
          "standoff_h", "standoff_pitch_x", "standoff_pitch_y", "vent_w", "vent_h", "vent_pitch", "vent_z"]


class Enclosure(Family):
    name = "enclosure"
    noun = "an electronics enclosure"
    frame = ("centred on the origin in X and Y, with its floor on the XY plane (Z from 0 up), open side up, "
             "the vent slots in the front wall (the wall facing -Y)")
    features = ("holes", "fillets")
    omit = "vent slots"
    mutations = (Flag("vent_wall", "back", "face", "the vent slots in the back (+Y) wall instead of the front"),
                 Resize("standoff_h", "standoff height"), Resize("height", "height"), Bare())
    bare_note = "a plain box of the outside size: no shell, lip, standoffs, vents or rounded corners"
    stated = (count("vents", "vent slots", grades=("plane",)),
              presence("omit", "the vent slots", grades=("plane",)),
              face("vent_wall", "back", "the vent slots in the back (+Y) wall instead of the front", grades=("plane",)),
              presence("no_lip", "the lid lip", grades=("plane",)),
              presence("no_standoffs", "the standoffs", grades=("boss", "hole")),
              wall("wall", "wall thickness"))

    def solid_spot(self, p):
        return (0.0, 0.0, p["wall"] / 2, min(1.0, p["wall"] / 4))  # in the floor's middle

    def adjusted(self, p, key, value):
        """A thicker or thinner wall keeps the inside corner radius and the lip flush with the
        inside; a thicker or thinner lip takes the wall with it (the lip's set-back kept)."""
        if key not in ("wall", "lip_t"):
            return super().adjusted(p, key, value)
        d = value - p[key]
        return {**p, "wall": p["wall"] + d, "corner_r": p["corner_r"] + d, "lip_t": p["lip_t"] + d}

    def bare(self, p):
        return "\n".join(["import cadquery as cq", "", "# The enclosure's outside envelope only.", f"# Frame: {self.frame}.",
                          f"length, width, height = {n(p['length'])}, {n(p['width'])}, {n(p['height'] + p['lip_h'])}", "",
                          'result = cq.Workplane("XY").box(length, width, height, centered=(True, True, False))', ""])

    def sample(self, rng):
        length = float(rng.randrange(70, 161, 5))
        width = float(rng.randrange(50, int(length) + 1, 5))
        height = float(rng.randrange(25, 61, 5))
        wall = half_steps(rng, 2, 3.5)
        corner_r = wall + half_steps(rng, 1, 4)      # the inside corners stay rounded after shelling
        standoff_d, standoff_hole_d = map(float, rng.choice([(5, 2.5), (6, 2.5), (7, 3.4), (8, 4.2)]))
        inner_r = corner_r - wall
        inset = half_steps(rng, max(standoff_d / 2 + 1, inner_r), max(standoff_d / 2 + 1, inner_r) + 6)
        vent_w = float(rng.choice([2, 3, 4]))
        vent_pitch = vent_w + half_steps(rng, 2, 5)
        vent_h = half_steps(rng, 8, min(height * 0.5, height - wall - 4))
        vents = rng.randint(3, 8)
        while vents > 2 and (vents - 1) * vent_pitch + vent_w > length - 2 * corner_r - 4:
            vents -= 1
        return {"length": length, "width": width, "height": height, "wall": wall, "corner_r": corner_r,
                "lip_h": half_steps(rng, 2, 4), "lip_t": half_steps(rng, 1, wall - 0.5),
                "standoff_d": standoff_d, "standoff_hole_d": standoff_hole_d,
                "standoff_h": half_steps(rng, 4, min(12, height / 3)),
                "standoff_pitch_x": length - 2 * wall - 2 * inset, "standoff_pitch_y": width - 2 * wall - 2 * inset,
                "vents": vents, "vent_w": vent_w, "vent_h": vent_h, "vent_pitch": vent_pitch,
                "vent_z": round((height + wall) / 2 * 2) / 2}  # mid-height of the inside wall, on the 0.5 mm grid

    def violations(self, p):
        bad = []
        inner_r = p["corner_r"] - p["wall"]
        if inner_r < 0.5:
            bad.append("outside corner radius must exceed the wall so the inside corners stay round")
        if p["lip_t"] >= p["wall"] or p["lip_t"] < 1:
            bad.append("lip must be at least 1 mm thick and thinner than the wall")
        if p["standoff_hole_d"] + 2 > p["standoff_d"]:
            bad.append("standoff wall under 1 mm")
        if p["standoff_h"] >= p["height"] - p["wall"] - 2:
            bad.append("standoffs reach the rim")
        for axis, size in (("x", p["length"]), ("y", p["width"])):
            inset = (size - 2 * p["wall"] - p[f"standoff_pitch_{axis}"]) / 2  # inner wall face to standoff centre
            if inset < p["standoff_d"] / 2 + 1:
                bad.append(f"standoffs touch the walls along {axis.upper()}")
            if inset < inner_r:
                bad.append(f"standoffs sit in the rounded inside corners along {axis.upper()}")
            if p[f"standoff_pitch_{axis}"] < p["standoff_d"] + 2:
                bad.append(f"standoffs touch each other along {axis.upper()}")
        if p["vents"] > 1 and p["vent_pitch"] < p["vent_w"] + 2:
            bad.append("vent slots overlap")
        if p["vent_h"] <= p["vent_w"]:
            bad.append("a vent slot must be taller than it is wide")
        if (p["vents"] - 1) * p["vent_pitch"] + p["vent_w"] > p["length"] - 2 * p["corner_r"] - 4:
            bad.append("vent slots run into the rounded corners")
        if p["vent_z"] - p["vent_h"] / 2 < p["wall"] + 2 or p["vent_z"] + p["vent_h"] / 2 > p["height"] - 2:
            bad.append("vent slots cut into the floor or the rim")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "",
               "# Enclosure: a rounded box shelled from the top, a lid lip on the rim, four standoffs, vent slots.",
               f"# Frame: {self.frame}."] + [f"{k} = {n(p[k])}" for k in _NAMES]
        out.insert(out.index(f"vent_w = {n(p['vent_w'])}"), f"vents = {p['vents']}")
        out += ["", "", "def rounded_block(size_x, size_y, size_z, radius, z0):",
                '    """A block centred in X and Y from Z = z0 up, its vertical edges rounded."""',
                '    return cq.Workplane("XY").workplane(offset=z0).rect(size_x, size_y).extrude(size_z).edges("|Z").fillet(radius)',
                "", "",
                "# Open-topped shell: walls and floor `wall` thick.",
                'box = rounded_block(length, width, height, corner_r, 0).faces(">Z").shell(-wall)',
                "# Lid lip: a thin rim on the inner part of the wall's top, for the lid to locate on.",
                "lip_inset = wall - lip_t",
                "lip = rounded_block(length - 2 * lip_inset, width - 2 * lip_inset, lip_h, corner_r - lip_inset, height).cut(",
                "    rounded_block(length - 2 * wall, width - 2 * wall, lip_h, corner_r - wall, height)",
                ")" + ("  # (a wrong part: the lip left off, the walls as tall as the lip's top)" if p.get("no_lip") else ""),
                "# Standoffs on the floor, each with a blind screw hole down to the floor.",
                "standoffs = (", '    cq.Workplane("XY")', "    .workplane(offset=wall)",
                "    .rect(standoff_pitch_x, standoff_pitch_y, forConstruction=True)", "    .vertices()",
                "    .circle(standoff_d / 2)", "    .circle(standoff_hole_d / 2)", "    .extrude(standoff_h)", ")"]
        if not omit:
            out += ["# Vertical rectangular vent slots through the front (-Y) wall, centred in X. The cutter starts inside",
                    "# the cavity and ends outside, so none of its faces lies on the wall's; it is cut before the standoffs go in.",
                    "vent_cutter = (",
                    ('    cq.Workplane("XZ", origin=(0, width / 2 - 2 * wall, 0))  # the back wall: extrude along +Y'
                     if p.get("vent_wall") == "back" else
                     '    cq.Workplane("XZ", origin=(0, -width / 2 + 2 * wall, 0))  # normal is -Y: extrude outwards'),
                    "    .pushPoints([((i - (vents - 1) / 2) * vent_pitch, vent_z) for i in range(vents)])",
                    "    .rect(vent_w, vent_h)", "    .extrude(-3 * wall)" if p.get("vent_wall") == "back" else "    .extrude(3 * wall)", ")",
                    "box = box.cut(vent_cutter)"]
        if p.get("no_lip"):  # a wrong part: the walls run up to the lip's top, no lip
            out[out.index('box = rounded_block(length, width, height, corner_r, 0).faces(">Z").shell(-wall)')] = \
                'box = rounded_block(length, width, height + lip_h, corner_r, 0).faces(">Z").shell(-wall)'
        parts = ["box"] + ([] if p.get("no_lip") else ["lip"]) + ([] if p.get("no_standoffs") else ["standoffs"])
        out += ["result = (", "    " + ".union(".join(parts) + ")" * (len(parts) - 1), ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return (f"an open-topped electronics enclosure with rounded corners, a lid lip, four internal screw standoffs "
                f"and {p['vents']} vent slots in one wall")

    def _box(self, p):
        return (f"a box {mm(p['length'])} along X, {mm(p['width'])} along Y and {mm(p['height'])} tall, its vertical outside "
                f"edges rounded to {mm(p['corner_r'])} radius, shelled from the open top so that walls and floor are "
                f"{mm(p['wall'])} thick")

    def _lip(self, p):
        inset = p["wall"] - p["lip_t"]
        return (f"a lid lip {mm(p['lip_h'])} tall on top of the wall (from Z = {n(p['height'])}): it is {mm(p['lip_t'])} thick, "
                f"flush with the inside of the wall and set back {mm(inset)} from the outside face, with its corners "
                f"following the wall's rounding")

    def _standoffs(self, p):
        return (f"four cylindrical standoffs {mm(p['standoff_d'])} in diameter standing {mm(p['standoff_h'])} up from the floor's "
                f"inside face, centred on the corners of a {mm(p['standoff_pitch_x'])} (X) by {mm(p['standoff_pitch_y'])} (Y) "
                f"rectangle, each with a {mm(p['standoff_hole_d'])} hole down its full height (ending at the floor)")

    def _vents(self, p):
        return (f"{p['vents']} vertical rectangular vent slots through the front (-Y) wall, each {mm(p['vent_w'])} wide "
                f"(X) and {mm(p['vent_h'])} tall (Z), centred at Z = {n(p['vent_z'])}, spaced {mm(p['vent_pitch'])} "
                f"apart along X, the group centred on X = 0")

    def dimensioned(self, p):
        return (f"An open enclosure: {self._box(p)}. On the rim it has {self._lip(p)}. Inside are {self._standoffs(p)}. "
                f"There are {self._vents(p)}.")

    def steps(self, p):
        return [f"Make {self._box(p)} (the box centred in X and Y, base on the XY plane).",
                f"Add {self._lip(p)}.",
                f"Add {self._standoffs(p)}.",
                f"Cut {self._vents(p)}."]

    def edits(self, p):
        return [Edit("Make the enclosure 10 mm taller (standoffs and vents unchanged).", changed(p, height=p["height"] + 10)),
                Edit("Make the walls and the floor 1 mm thicker, keeping the outside size, the standoff positions and the lip's "
                     "thickness (the lip stays flush with the inside of the wall).", changed(p, wall=p["wall"] + 1)),
                Edit("Make the enclosure 20 mm longer along X, still centred; the standoffs keep their distance to the walls.",
                     changed(p, length=p["length"] + 20, standoff_pitch_x=p["standoff_pitch_x"] + 20))]

    def wrong(self, p):
        return changed(p, vents=max(2, p["vents"] - 2), standoff_h=p["standoff_h"] + 4, lip_h=p["lip_h"] + 2)

    def bbox(self, p):
        return (-p["length"] / 2, -p["width"] / 2, 0.0, p["length"] / 2, p["width"] / 2, p["height"] + p["lip_h"])

    def alternative(self, p):
        """Sketch and cut instead of `shell()`: the outside extruded from a rounded sketch, the cavity
        cut from it, the lip ring and the standoffs added and the holes cut, no union cleaned (so the
        cavity's and the lip's inside corners come out as separate faces on one cylinder)."""
        out = ["import cadquery as cq", "", "# Enclosure by sketch and cut (no shell).", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in _NAMES] + [f"vents = {p['vents']}", "",
                "def rounded(size_x, size_y, radius):",
                "    return cq.Sketch().rect(size_x, size_y).vertices().fillet(radius)", "", "",
                "def block(size_x, size_y, radius, z0, z1):",
                '    return cq.Workplane("XY").workplane(offset=z0).placeSketch(rounded(size_x, size_y, radius)).extrude(z1 - z0)', "",
                "",
                "inset = wall - lip_t",
                "box = block(length, width, corner_r, 0, height).cut(block(length - 2 * wall, width - 2 * wall, corner_r - wall, wall, height), clean=False)",
                "lip = block(length - 2 * inset, width - 2 * inset, corner_r - inset, height, height + lip_h).cut(",
                "    block(length - 2 * wall, width - 2 * wall, corner_r - wall, height, height + lip_h), clean=False)",
                "box = box.union(lip, clean=False)",
                'vents_cut = (cq.Workplane("XZ", origin=(0, -width / 2 + wall / 2, 0))',
                "             .pushPoints([((i - (vents - 1) / 2) * vent_pitch, vent_z) for i in range(vents)])",
                "             .rect(vent_w, vent_h).extrude(wall, both=True))",
                "box = box.cut(vents_cut, clean=False)",
                'corners = cq.Workplane("XY").workplane(offset=wall).rect(standoff_pitch_x, standoff_pitch_y, forConstruction=True).vertices()',
                "box = box.union(corners.circle(standoff_d / 2).extrude(standoff_h), clean=False)",
                "result = box.cut(corners.circle(standoff_hole_d / 2).extrude(standoff_h), clean=False)", ""]
        return "\n".join(out)
