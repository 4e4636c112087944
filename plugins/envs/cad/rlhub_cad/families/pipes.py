"""Pipe fittings: 90 degree elbows, equal and reducing tees, concentric reducers."""

from __future__ import annotations

from ..family import Edit, Family, changed
from ..mutations import Bare, Resize
from ..stated import hollow, wall
from ..fmt import half_steps, mm, n


def _pipe(rng):
    pipe_d = float(rng.randrange(16, 61, 2))
    return pipe_d, half_steps(rng, 2, max(2, pipe_d / 8))


class Elbow(Family):
    name = "pipe-elbow"
    noun = "a 90 degree pipe elbow"
    frame = ("with its first end face on the XY plane centred on the origin (the pipe leaves it along +Z) and the bend "
             "turning towards +X, about an axis parallel to Y through X = bend radius")
    features = ("holes",)
    omit = "bore"
    mutations = (Resize("wall", "wall"), Resize("bend_r", "bend radius"), Resize("pipe_d", "pipe diameter"), Bare())
    bare_note = "a solid bent rod, no bore"
    stated = (hollow("omit", "the bore"), wall("wall", "wall thickness"))

    def solid_spot(self, p):
        c = 0.5 ** 0.5  # half way round the bend, in the wall on the +Y side
        return (p["bend_r"] * (1 - c), p["pipe_d"] / 2 - p["wall"] / 2, p["bend_r"] * c, min(1.0, p["wall"] / 4))

    def sample(self, rng):
        pipe_d, wall = _pipe(rng)
        return {"pipe_d": pipe_d, "wall": wall, "bend_r": float(round(pipe_d * rng.uniform(1.0, 2.5)))}

    def violations(self, p):
        bad = []
        if p["bend_r"] < p["pipe_d"] / 2 + 2:
            bad.append("bend radius too tight: the inner side would fold")
        if p["wall"] * 2 >= p["pipe_d"] - 4:
            bad.append("wall leaves no bore")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "", "# 90 degree elbow: the pipe's cross-section revolved about the bend axis.",
               f"# Frame: {self.frame}.", f"pipe_d = {n(p['pipe_d'])}", f"wall = {n(p['wall'])}", f"bend_r = {n(p['bend_r'])}",
               "", "result = (", '    cq.Workplane("XY")', "    .circle(pipe_d / 2)"]
        if not omit:
            out.append("    .circle(pipe_d / 2 - wall)")
        out += ["    .revolve(90, (bend_r, 0, 0), (bend_r, 1, 0))", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a 90 degree pipe elbow"

    def dimensioned(self, p):
        return (f"A 90 degree elbow of round pipe {mm(p['pipe_d'])} outside diameter with a {mm(p['wall'])} wall, bent on a "
                f"centreline radius of {mm(p['bend_r'])}, with no straight ends.")

    def steps(self, p):
        return [f"On the XY plane draw a ring at the origin: {mm(p['pipe_d'])} outside, {mm(p['pipe_d'] - 2 * p['wall'])} inside diameter.",
                f"Revolve it 90 degrees about an axis parallel to Y through (X = {n(p['bend_r'])}, Z = 0), sweeping it up and over towards +X."]

    def edits(self, p):
        return [Edit("Make the bend radius 10 mm larger.", changed(p, bend_r=p["bend_r"] + 10)),
                Edit("Thicken the wall by 1 mm, keeping the outside diameter.", changed(p, wall=p["wall"] + 1))]

    def wrong(self, p):
        return changed(p, bend_r=p["bend_r"] * 1.5, wall=p["wall"] + 2)

    def bbox(self, p):
        r = p["pipe_d"] / 2
        return (-r, -r, 0.0, p["bend_r"], r, p["bend_r"] + r)

    def alternative(self, p):
        """A solid bent rod, its bore cut out by a second, thinner revolve."""
        out = ["import cadquery as cq", "", "# 90 degree elbow: a revolved rod, the bore cut by a revolved core.",
               f"# Frame: {self.frame}.", f"pipe_d = {n(p['pipe_d'])}", f"wall = {n(p['wall'])}", f"bend_r = {n(p['bend_r'])}", "",
               'rod = cq.Workplane("XY").circle(pipe_d / 2).revolve(90, (bend_r, 0, 0), (bend_r, 1, 0))',
               'core = cq.Workplane("XY").circle(pipe_d / 2 - wall).revolve(90, (bend_r, 0, 0), (bend_r, 1, 0))',
               "result = rod.cut(core)", ""]
        return "\n".join(out)


class Tee(Family):
    name = "pipe-tee"
    noun = "a pipe tee"
    frame = ("with the run's axis on the X axis, centred on the origin, and the branch's axis on +Z")
    features = ("holes",)
    omit = "branch bore"
    mutations = (Resize("branch_h", "branch height"), Resize("wall", "run wall"), Resize("run_len", "run length"), Bare())
    bare_note = "solid run and branch, no bores"
    stated = (hollow("omit", "the branch's bore"), wall("wall", "run wall thickness"))

    def solid_spot(self, p):
        return (-p["run_len"] / 2 + 2, 0.0, -(p["pipe_d"] / 2 - p["wall"] / 2), min(1.0, p["wall"] / 4))  # the run's floor

    def bare(self, p):
        out = ["import cadquery as cq", "", "# The tee's outside only.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("pipe_d", "run_len", "branch_d", "branch_h")]
        return "\n".join(out + ['run = cq.Workplane("YZ").circle(pipe_d / 2).extrude(run_len / 2, both=True)',
                                'branch = cq.Workplane("XY").circle(branch_d / 2).extrude(branch_h)',
                                "result = run.union(branch)", ""])

    def sample(self, rng):
        pipe_d, wall = _pipe(rng)
        branch_d = pipe_d if rng.random() < 0.5 else float(rng.randrange(12, int(pipe_d) + 1, 2))
        return {"pipe_d": pipe_d, "wall": wall, "run_len": float(round(pipe_d * rng.uniform(2.0, 3.5))),
                "branch_d": branch_d, "branch_wall": min(wall, half_steps(rng, 1.5, branch_d / 8 + 1)),
                "branch_h": float(round(pipe_d / 2 + rng.uniform(10, 40)))}

    def violations(self, p):
        bad = []
        if p["branch_d"] > p["pipe_d"]:
            bad.append("branch wider than the run")
        if p["branch_wall"] * 2 >= p["branch_d"] - 4 or p["wall"] * 2 >= p["pipe_d"] - 4:
            bad.append("wall leaves no bore")
        if p["branch_h"] < p["pipe_d"] / 2 + 5:
            bad.append("branch barely clears the run")
        if p["run_len"] < p["branch_d"] + 10:
            bad.append("run too short for the branch")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "", "# Tee: a straight run along X with a branch rising along +Z from its middle.",
               f"# Frame: {self.frame}."] + [f"{k} = {n(p[k])}" for k in ("pipe_d", "wall", "run_len", "branch_d", "branch_wall", "branch_h")]
        out += ["bore_d = pipe_d - 2 * wall", "branch_bore_d = branch_d - 2 * branch_wall", "",
                "run = cq.Workplane(\"YZ\").circle(pipe_d / 2).extrude(run_len / 2, both=True)",
                "branch = cq.Workplane(\"XY\").circle(branch_d / 2).extrude(branch_h)",
                "run_bore = cq.Workplane(\"YZ\").circle(bore_d / 2).extrude(run_len / 2, both=True)"]
        if omit:
            return "\n".join(out + ["result = (", "    run.union(branch).cut(run_bore)", ")", ""])
        out += ["branch_bore = cq.Workplane(\"XY\").circle(branch_bore_d / 2).extrude(branch_h)",
                "result = (", "    run.union(branch).cut(run_bore).cut(branch_bore)", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        kind = "an equal tee" if p["branch_d"] == p["pipe_d"] else "a reducing tee"
        return f"{kind} pipe fitting"

    def dimensioned(self, p):
        return (f"A tee: a straight run {mm(p['run_len'])} long of pipe {mm(p['pipe_d'])} outside diameter with a "
                f"{mm(p['wall'])} wall, and from its middle a branch of {mm(p['branch_d'])} outside diameter with a "
                f"{mm(p['branch_wall'])} wall whose end face is {mm(p['branch_h'])} from the run's axis. The branch's bore "
                f"opens into the run's bore; both ends of the run are open.")

    def steps(self, p):
        return [f"Extrude a {mm(p['pipe_d'])} circle from the YZ plane {n(p['run_len'] / 2)} mm each way along X.",
                f"Union a {mm(p['branch_d'])} cylinder from the XY plane up to Z = {n(p['branch_h'])}.",
                f"Cut the run's bore ({mm(p['pipe_d'] - 2 * p['wall'])}) through along X, then the branch's bore "
                f"({mm(p['branch_d'] - 2 * p['branch_wall'])}) from Z = 0 to the branch's end."]

    def edits(self, p):
        return [Edit("Make the run 20 mm longer, still centred.", changed(p, run_len=p["run_len"] + 20)),
                Edit("Make the branch 10 mm taller.", changed(p, branch_h=p["branch_h"] + 10))]

    def wrong(self, p):
        return changed(p, branch_h=p["branch_h"] + 15, run_len=p["run_len"] * 0.7)

    def bbox(self, p):
        r = p["pipe_d"] / 2
        return (-p["run_len"] / 2, -r, -r, p["run_len"] / 2, r, p["branch_h"])

    def alternative(self, p):
        """The two solid cylinders unioned without cleaning, then one cut of both bores together."""
        out = ["import cadquery as cq", "", "# Tee: solid run and branch, both bores cut at once.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("pipe_d", "wall", "run_len", "branch_d", "branch_wall", "branch_h")]
        out += ["", 'outside = (cq.Workplane("YZ", origin=(-run_len / 2, 0, 0)).circle(pipe_d / 2).extrude(run_len)',
                '           .union(cq.Workplane("XY").circle(branch_d / 2).extrude(branch_h), clean=False))',
                'bores = (cq.Workplane("YZ", origin=(-run_len / 2, 0, 0)).circle(pipe_d / 2 - wall).extrude(run_len)',
                '         .union(cq.Workplane("XY").circle(branch_d / 2 - branch_wall).extrude(branch_h)))',
                "result = outside.cut(bores)", ""]
        return "\n".join(out)


class Reducer(Family):
    name = "pipe-reducer"
    noun = "a concentric pipe reducer"
    frame = "with its axis on the Z axis, the large end's face on the XY plane (Z from 0 up)"
    features = ("holes",)
    omit = "bore"
    mutations = (Resize("wall", "wall"), Resize("cone_len", "cone length"), Resize("large_d", "large end diameter"), Bare())
    bare_note = "solid, no bore"
    stated = (hollow("omit", "the bore"), wall("wall", "wall thickness"))

    def solid_spot(self, p):
        return (p["large_d"] / 2 - p["wall"] / 2, 0.0, p["large_len"] / 2, min(1.0, p["wall"] / 4))

    def sample(self, rng):
        large_d, wall = _pipe(rng)
        large_d = max(large_d, 24.0)
        least = int(2 * wall + 6 + 1) // 2 * 2
        return {"large_d": large_d, "small_d": float(rng.randrange(least, max(least + 1, int(large_d * 0.8)), 2)), "wall": wall,
                "large_len": float(rng.randrange(8, 31, 2)), "cone_len": float(rng.randrange(10, 41, 2)),
                "small_len": float(rng.randrange(8, 31, 2))}

    def violations(self, p):
        bad = []
        if p["small_d"] >= p["large_d"] - 4:
            bad.append("ends nearly the same size: not a reducer")
        if p["wall"] * 2 >= p["small_d"] - 4:
            bad.append("wall leaves no bore at the small end")
        return bad

    def script(self, p, omit=False):
        out = ["import cadquery as cq", "", "# Concentric reducer: large spigot, cone, small spigot; revolved half section.",
               f"# Frame: {self.frame}."] + [f"{k} = {n(p[k])}" for k in ("large_d", "small_d", "wall", "large_len", "cone_len", "small_len")]
        out += ["", "z1 = large_len", "z2 = large_len + cone_len", "z3 = z2 + small_len",
                "R, r = large_d / 2, small_d / 2",
                "outer = [(R, 0), (R, z1), (r, z2), (r, z3)]"]
        out.append("inner = [(0, z3), (0, 0)]" if omit else "inner = [(r - wall, z3), (r - wall, z2), (R - wall, z1), (R - wall, 0)]")
        out += ["", "result = (", '    cq.Workplane("XZ")', "    .polyline(outer + inner)", "    .close()",
                "    .revolve(360, (0, 0, 0), (0, 1, 0))", ")", ""]
        return "\n".join(out)

    def abstract(self, p):
        return "a concentric pipe reducer"

    def dimensioned(self, p):
        return (f"A concentric reducer with a uniform {mm(p['wall'])} wall: a straight large end {mm(p['large_d'])} outside "
                f"diameter and {mm(p['large_len'])} long, a conical transition {mm(p['cone_len'])} long, and a straight small "
                f"end {mm(p['small_d'])} outside diameter and {mm(p['small_len'])} long; open at both ends. The wall is "
                f"measured radially, so the bore follows the outside {mm(p['wall'])} in.")

    def steps(self, p):
        z1, z2 = p["large_len"], p["large_len"] + p["cone_len"]
        return [f"In the XZ plane draw the half section: outside radius {n(p['large_d'] / 2)} from Z = 0 to {n(z1)}, a straight line to "
                f"radius {n(p['small_d'] / 2)} at Z = {n(z2)}, then that radius up to Z = {n(z2 + p['small_len'])}; the inside edge "
                f"runs {mm(p['wall'])} (radially) inside it.", "Revolve the section 360 degrees about the Z axis."]

    def edits(self, p):
        return [Edit("Lengthen the cone by 10 mm (the straight ends stay as they are).", changed(p, cone_len=p["cone_len"] + 10)),
                Edit("Make the small end 4 mm larger in diameter.", changed(p, small_d=p["small_d"] + 4))]

    def wrong(self, p):
        return changed(p, small_d=max(12.0, p["small_d"] - 6), cone_len=p["cone_len"] + 12)

    def bbox(self, p):
        R = p["large_d"] / 2
        return (-R, -R, 0.0, R, R, p["large_len"] + p["cone_len"] + p["small_len"])

    def alternative(self, p):
        """The outside revolved solid, the bore cut out by a revolved core."""
        out = ["import cadquery as cq", "", "# Concentric reducer: solid outside, bore cut by a revolved core.", f"# Frame: {self.frame}."]
        out += [f"{k} = {n(p[k])}" for k in ("large_d", "small_d", "wall", "large_len", "cone_len", "small_len")]
        out += ["z1, z2 = large_len, large_len + cone_len", "z3 = z2 + small_len", "R, r = large_d / 2, small_d / 2", "",
                'outside = cq.Workplane("XZ").polyline([(0, 0), (R, 0), (R, z1), (r, z2), (r, z3), (0, z3)]).close()'
                '.revolve(360, (0, 0, 0), (0, 1, 0))',
                'core = cq.Workplane("XZ").polyline([(0, 0), (R - wall, 0), (R - wall, z1), (r - wall, z2), (r - wall, z3), (0, z3)])'
                '.close().revolve(360, (0, 0, 0), (0, 1, 0))',
                "result = outside.cut(core)", ""]
        return "\n".join(out)
