"""Wrong parts made from a family's own parameters: how a family author proves the reward
discriminates. Each family lists its mutations in `Family.mutations`; the environment turns them
into `hub.Variant`s (kind, response, size, note, max_reward) that the `wrong_fails` check
requires to fail, to score at most `max_reward`, and, within a kind, never to score higher for a
larger error.

- `Shift(what)`: move a feature pattern by d mm along X (the family's script reads `shift_x`).
- `Move(param, what, per_mm)`: move features by d mm through a position parameter (`per_mm`:
  how much the parameter changes per mm the features move).
- `Resize(param, what)`: a stated dimension off by 2 % and 5 % (at least a few tolerances;
  5 % and 10 % of an overall size where only the overall size is stated).
- `Count(param, what)`: one more (or fewer) of a counted feature.
- `Flag(key, value, kind, note)`: a script option of the family, e.g. the counterbores on the
  other face, plain holes instead of counterbores, the keyway on the other side.
- `DropFillets(param)`: the fillets left off.
- `Bare()`: the body with every feature left off (`Family.bare`): at most 0.3.

Only variants that build a sane part (the family's `violations` are empty) are used, and for
tasks graded on proportions (abstract, image) only those that break what such a prompt states:
the overall size, or a feature's kind or presence.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .family import Params
from .fmt import n

WRONG_CAP = 0.5  # a part with anything stated wrong beyond tolerance earns at most this
BARE_CAP = 0.3  # ... and a bare body with the right outer shape at most this
ABS_TOL = 0.1  # mm: the absolute grading's tolerance (see rlhub_mesh.grading)
REL_TOL = 0.002  # ... or this fraction of the part's largest extent


@dataclass(frozen=True)
class Wrong:
    """One wrong part: its parameters (or script), and what is wrong with it."""

    kind: str
    params: Params
    size: float
    note: str
    max_reward: float = WRONG_CAP
    script: str | None = None  # set when the script is not fam.script(params)
    visible_in_proportions: bool = False  # also wrong for a prompt that states only the overall size
    stated: str = ""  # the stated property (stated.Stated.label) it is a wrong variant of


class Uncovered(ValueError):
    """A family states a property that no wrong part probes: the reward is unproven there."""


def tolerance(fam, p: Params) -> float:
    x0, y0, z0, x1, y1, z1 = fam.bbox(p)
    return max(ABS_TOL, REL_TOL * max(x1 - x0, y1 - y0, z1 - z0))


def _bbox_changed(fam, p: Params, q: Params, rel: float = 0.01) -> bool:
    """The overall size differs beyond what a proportions-only grading forgives."""
    a, b = fam.bbox(p), fam.bbox(q)
    extents = [a[i + 3] - a[i] for i in range(3)]
    return any(abs(b[i] - a[i]) > max(ABS_TOL, rel * extents[i % 3]) * 1.5 for i in range(6))


@dataclass(frozen=True)
class Shift:
    what: str
    sizes: tuple[float, ...] = (2.0, 5.0)

    def make(self, fam, p: Params) -> list[Wrong]:
        return [Wrong("moved", {**p, "shift_x": d}, d, f"{self.what} moved {n(d)} mm along +X") for d in self.sizes]


@dataclass(frozen=True)
class Move:
    param: str
    what: str
    per_mm: float | Callable[[Params], float] = 1.0
    sizes: tuple[float, ...] = (2.0, 5.0)

    def make(self, fam, p: Params) -> list[Wrong]:
        per = self.per_mm(p) if callable(self.per_mm) else self.per_mm
        out = []
        for d in self.sizes:
            for sign in (1, -1):  # outwards if that builds, else inwards
                q = {**p, self.param: p[self.param] + sign * d * per}
                if not fam.violations(q):
                    out.append(Wrong("moved", q, d, f"{self.what} moved {n(d)} mm ({self.param} {n(p[self.param])} -> {n(q[self.param])})"))
                    break
        return out


@dataclass(frozen=True)
class Resize:
    param: str
    what: str
    percents: tuple[float, ...] = (2.0, 5.0)

    def make(self, fam, p: Params) -> list[Wrong]:
        value, tol = p[self.param], tolerance(fam, p)
        out = []
        for k, pct in enumerate(self.percents):
            delta = max(abs(value) * pct / 100, (3, 8)[min(k, 1)] * tol)  # a few tolerances at least
            for sign in (1, -1):
                q = {**p, self.param: round(value + sign * delta, 6)}
                if not fam.violations(q):
                    size = 100 * delta / abs(value)
                    out.append(Wrong(f"{self.param} changed", q, size,
                                     f"{self.what} {n(q[self.param])} mm instead of {n(value)} ({n(size)}% off)",
                                     visible_in_proportions=_bbox_changed(fam, p, q)))
                    break
        return out


@dataclass(frozen=True)
class Flag:
    key: str
    value: object
    kind: str
    note: str
    when: Callable[[Params], bool] = field(default=lambda p: True)
    presence: bool = False  # changes a feature's kind or presence (wrong whatever the grading)

    def make(self, fam, p: Params) -> list[Wrong]:
        if not self.when(p):
            return []
        return [Wrong(self.kind, {**p, self.key: self.value}, 1.0, self.note, visible_in_proportions=self.presence)]


@dataclass(frozen=True)
class Count:
    """One more (or fewer) of a counted feature: a single size (respacing a centred pattern
    moves every instance, so two counts are not ordered by how wrong they are)."""

    param: str
    what: str

    def make(self, fam, p: Params) -> list[Wrong]:
        for delta in (1, -1):
            q = {**p, self.param: p[self.param] + delta}
            if q[self.param] >= 1 and not fam.violations(q):
                return [Wrong(f"{self.param} count", q, 1.0, f"{q[self.param]} {self.what} instead of {p[self.param]}",
                              visible_in_proportions=True)]
        return []


@dataclass(frozen=True)
class DropFillets:
    param: str
    what: str = "the fillets"

    def make(self, fam, p: Params) -> list[Wrong]:
        if not p.get(self.param):
            return []
        return [Wrong("fillets dropped", {**p, self.param: 0.0}, 1.0, f"{self.what} left off")]


@dataclass(frozen=True)
class Bare:
    def make(self, fam, p: Params) -> list[Wrong]:
        return [Wrong("bare body", p, 1.0, f"{fam.noun} with no features: {fam.bare_note}", BARE_CAP,
                      script=fam.bare(p), visible_in_proportions=True)]


SIZED = (Shift, Move, Resize)
PROPORTION_PERCENTS = (5.0, 10.0)  # beyond a proportions-only grading's 1 % on each side
MAX_SIZED_KINDS = 2  # each costs two sandbox builds per checked task: the checks' budget


def wrongs(fam, p: Params, proportions: bool) -> list[Wrong]:
    """The family's wrong parts for these parameters: the first MAX_SIZED_KINDS sized kinds
    that apply (two sizes each), every discrete one, the bare body. With `proportions`, only
    those that break what a proportions-only prompt states."""
    out, sized = [], 0
    for mutation in fam.mutations:
        if proportions and isinstance(mutation, Resize):  # a centred extent moves each side by half
            mutation = replace(mutation, percents=PROPORTION_PERCENTS)
        made = [w for w in mutation.make(fam, p) if (w.script is not None or w.params != p)
                and (w.visible_in_proportions or not proportions)]
        if isinstance(mutation, SIZED):
            if not made or sized >= MAX_SIZED_KINDS:
                continue
            sized += 1
        out += made
    return out


# -- wrong parts derived from what the kind states (stated.py) ---------------------------------------
EXACT_RESIZE = (2.0, 5.0)  # percent, at least 3 and 8 tolerances (Resize): the absolute kinds' sizes
SIZE_FACTORS = (2, 5)  # feature sizes where proportions are graded: off by this many times `size_rel`


def _valid(fam, p: Params, q: Params) -> bool:
    return q != p and not fam.violations(q)


def _option(fam, p: Params, item, value) -> tuple[Params, str | None]:
    """The params (and script) of the part with the item's script option set."""
    if item.param == "omit":
        return p, fam.script(p, omit=True)
    return {**p, item.param: value}, None


def _resized(fam, p: Params, key: str, what: str, deltas: list[float]) -> list[Wrong]:
    """`key` off by each delta (outwards if that builds, else inwards; then with what follows
    from it adjusted, Family.adjusted), one wrong part per delta that gives any."""
    value, out = p[key], []
    for delta in deltas:
        for make in (lambda v: {**p, key: v}, lambda v: fam.adjusted(p, key, v)):
            q = next((q for q in (make(round(value + sign * delta, 6)) for sign in (1, -1)) if q[key] > 0 and _valid(fam, p, q)), None)
            if q is not None:
                pct = 100 * delta / abs(value)
                out.append(Wrong(f"{key} changed", q, pct, f"{what} {n(q[key])} mm instead of {n(value)} ({n(pct)}% off)"))
                break
    return out


def _sized(fam, p: Params, item, grading: dict, first_sized: bool) -> list[Wrong]:
    """A stated size off by a few of the grader's tolerances: in mm where every number is stated
    (at least 3 and 8 tolerances, 2 and 5 % of the value; 2 tolerances where nothing larger
    builds), as a proportion elsewhere (SIZE_FACTORS times size_rel of a feature size, or of the
    volume for a wall; 5 and 10 % of an overall extent)."""
    value = abs(p[item.param])
    if grading["mode"] == "absolute":
        tol = tolerance(fam, p)
        deltas = [max(value * pct / 100, k * tol) for pct, k in zip(EXACT_RESIZE, (3, 8))][:2 if first_sized else 1]
        made = _resized(fam, p, item.param, item.feature, deltas)
        return made or _resized(fam, p, item.param, item.feature, [2 * tol])
    if item.what == "extent":
        return _resized(fam, p, item.param, item.feature, [value * pct / 100 for pct in PROPORTION_PERCENTS])
    rel = grading["volume_rel"] if item.what == "wall" else grading["size_rel"]
    made = _resized(fam, p, item.param, item.feature, [k * rel * value for k in SIZE_FACTORS])
    return made or _resized(fam, p, item.param, item.feature, [1.5 * rel * value])


def derived(fam, p: Params, kind: str, grading: dict) -> list[Wrong]:
    """Every stated property of this kind, with its wrong parts; raises Uncovered if one has none."""
    from .constructions import nurbs
    from .stated import for_kind

    out, uncovered, sized = [], [], 0
    for item in for_kind(fam, p, kind):
        made: list[Wrong] = []
        if item.what in ("count", "steps"):
            deltas = (1, -1)
            for d in deltas:
                if item.what == "count":
                    for q in ({**p, item.param: p[item.param] + d}, fam.adjusted(p, item.param, p[item.param] + d)):
                        if q[item.param] >= 1 and _valid(fam, p, q):
                            # one more, built as exact NURBS: the extra one is read whatever surface it is stored on
                            made.append(Wrong(f"{item.param} count", q, 1.0, f"{q[item.param]} {item.feature} instead of "
                                              f"{p[item.param]}" + (" (built as NURBS)" if d > 0 else ""),
                                              script=nurbs(fam.script(q)) if d > 0 else None))
                            break
                else:
                    q = {**p, item.param: d}
                    if _valid(fam, p, q):
                        made.append(Wrong("steps", q, 1.0, f"{item.feature}: one {'more' if d > 0 else 'fewer'}"))
        elif item.what == "hollow" and item.param == "void":
            made.append(Wrong("sealed void", p, 1.0, "a sealed void inside the material (right outside)", script=fam.voided(p)))
            made.append(Wrong("vented pocket", p, 1.0, "a hidden pocket inside the material, vented by a pinhole out of "
                              "the bottom (no sealed void, right outside)", script=fam.vented(p)))
        elif item.what in ("presence", "hollow", "face"):
            q, script = _option(fam, p, item, item.value)
            if script is not None or _valid(fam, p, q):
                what = {"presence": f"{item.feature} left off", "hollow": f"solid: {item.feature} left out",
                        "face": f"{item.feature}"}[item.what]
                made.append(Wrong("face" if item.what == "face" else f"{item.feature} missing", q, 1.0, what, script=script))
        elif item.what == "form":
            made = [Wrong(kind, p, 1.0, note, script=script) for kind, note, script in fam.wrong_forms(p)]
        else:
            made = _sized(fam, p, item, grading, first_sized=sized < MAX_SIZED_KINDS)
            sized += bool(made)
        if not made:
            uncovered.append(item.label)
        out += [replace(w, stated=item.label, visible_in_proportions=True) for w in made]
    if uncovered:
        raise Uncovered(f"{fam.name} ({kind}): stated but probed by no wrong part: {', '.join(uncovered)}")
    return out


def hidden(fam, p: Params, kind: str) -> list[Wrong]:
    """Wrong parts that look right from outside and that only some families can make, each in one
    kind per family (a CAD build per check: the CI budget; the grader's rule is the same in every
    kind): a wider chamber hidden inside a hole (`Family.chamber_spot`), a gear with one tooth
    cut to half height (`broken_tooth`)."""
    out = []
    if kind == fam.chamber_kind and fam.chamber_spot(p) is not None:
        out.append(Wrong("hidden chamber", p, 1.0, "a wider coaxial chamber hidden inside a hole (outside, ends and "
                         "diameter unchanged)", script=fam.chambered(p), visible_in_proportions=True))
    if kind == getattr(fam, "broken_kind", None):
        out.append(Wrong("broken tooth", p, 1.0, "one tooth cut off at half its height (count of lobes, tip and root "
                         "circles unchanged)", script=fam.broken_tooth(p), visible_in_proportions=True))
    return out
