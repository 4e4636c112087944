"""Project kinds and the projects rendered from them.

A `ProjectKind` is a small real Python package written as templates (template.py): its modules,
README and pyproject, a *unit* module instantiated many times under different names (rules,
commands, formats...: how a project grows from 8 to 40 modules), its test suite as blocks, and the
places where tasks change it: bug sites (`bug.ID` flags), features (`without.ID` flags) and
renameable APIs. `render(kind, seed, variant)` draws the names and constants from the seed and
writes the files; everything is deterministic and cached.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
import sys
from dataclasses import dataclass, field

from .template import TemplateError, flags_in, render as render_text

BUG_CLASSES = ("off_by_one", "wrong_branch", "mutable_default", "wrong_key", "edge_case", "swapped_args")
_TEST = re.compile(r"^#@test(?P<opts>.*)$")
_AREA = re.compile(r"^#@area[ \t]+(?P<area>\w+)[ \t]*$")
_DEF = re.compile(r"^def (test_\w+)\(", re.M)


@dataclass(frozen=True)
class TestBlock:
    area: str
    name: str
    source: str
    visible: bool = False
    catches: tuple[str, ...] = ()   # bug ids under which this test fails
    needs: tuple[str, ...] = ()     # features without which it fails


@dataclass(frozen=True)
class BugSite:
    id: str
    cls: str          # one of BUG_CLASSES
    module: str       # path template of the file the fix touches
    issue: str        # template: the report, written as a user writes it (the symptom, not the place)


@dataclass(frozen=True)
class Feature:
    id: str
    modules: tuple[str, ...]  # path templates of the files it touches (two or more)
    issue: str


@dataclass(frozen=True)
class Rename:
    id: str
    placeholder: str   # the name being changed (one of the kind's names)
    what: str          # "function" | "class" | "method"
    module: str        # dotted module template where it is defined, e.g. "$pkg.ledger"
    owner: str = ""    # for a method: the placeholder of its class


@dataclass(frozen=True)
class Units:
    """One module template instantiated `count` times as `dir/<unit>.py`; `index` is the
    template of the module that imports them all ($unit_imports, $unit_table are filled in)."""

    dir: str
    template: str
    names: tuple[str, ...]
    count: tuple[int, int]
    index: str
    values: dict[str, tuple] = field(default_factory=dict)  # per-unit constants: placeholder -> choices


@dataclass(eq=False)  # hashed by identity: render() caches per kind object
class ProjectKind:
    name: str
    description: str
    packages: tuple[str, ...]
    names: dict[str, tuple[str, ...]]       # placeholder -> choices (identifiers)
    constants: dict[str, tuple]             # placeholder -> choices (values, written as given)
    files: dict[str, str]                   # path template -> file template
    units: Units
    tests: str                              # the test suite: `#@area NAME` headers and `#@test` blocks
    bugs: tuple[BugSite, ...]
    features: tuple[Feature, ...]
    renames: tuple[Rename, ...]
    mutation_areas: dict[str, str]          # test area -> path template of the module its tests cover

    @functools.cached_property
    def parsed(self) -> tuple[dict[str, str], tuple[TestBlock, ...]]:
        return parse_tests(self.tests, self.name)


def parse_tests(text: str, where: str) -> tuple[dict[str, str], tuple[TestBlock, ...]]:
    """(area -> header, blocks) from a kind's test template."""
    headers: dict[str, list[str]] = {}
    blocks: list[TestBlock] = []
    area, current, opts = None, None, {}
    lines: list[str] = []

    def close() -> None:
        if current is None:
            return
        source = "".join(lines).rstrip() + "\n"
        names = _DEF.findall(source)
        if len(names) != 1:
            raise TemplateError(f"{where}: a #@test block in area {area} must define one test function, found {names}")
        blocks.append(TestBlock(area, names[0], source, visible="visible" in opts, catches=tuple(opts.get("catches", ())),
                                needs=tuple(opts.get("needs", ()))))

    for line in text.splitlines(keepends=True):
        m = _AREA.match(line)
        if m:
            close()
            area, current = m.group("area"), None
            headers[area] = []
            continue
        m = _TEST.match(line)
        if m:
            close()
            if area is None:
                raise TemplateError(f"{where}: #@test before any #@area")
            opts = {}
            for word in m.group("opts").split():
                key, _, value = word.partition("=")
                opts[key] = tuple(v for v in value.split(",") if v) if value else True
            current, lines = True, []
            continue
        if current is None:
            if area is not None:
                headers[area].append(line)
        else:
            lines.append(line)
    close()
    return {a: "".join(h).strip() + "\n" for a, h in headers.items()}, tuple(blocks)


# -- rendering ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """What differs from the clean project: flags (bugs, missing features) and renamed names."""

    flags: frozenset[str] = frozenset()
    names: tuple[tuple[str, str], ...] = ()  # (placeholder, name used instead of the drawn one)


CLEAN = Variant()


@dataclass
class Project:
    kind: str
    seed: int
    units: int
    package: str
    values: dict[str, str]
    files: dict[str, str]        # the repository: package, README, pyproject, visible tests
    hidden_tests: str            # the full test suite as one module (stand-in style)
    test_ids: tuple[str, ...]    # its test names, in order
    blocks: tuple[TestBlock, ...]

    @property
    def lines(self) -> int:
        return sum(t.count("\n") for p, t in self.files.items() if p.endswith(".py"))

    def digest(self) -> str:
        h = hashlib.sha256()
        for path in sorted(self.files):
            h.update(path.encode() + b"\0" + self.files[path].encode() + b"\0")
        return h.hexdigest()[:16]


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def draw(kind: ProjectKind, seed: int, units: int | None = None) -> tuple[dict[str, str], list[str], list[dict[str, str]]]:
    """The names and constants of project `seed`: (values, unit names, per-unit values)."""
    rng = random.Random(int.from_bytes(hashlib.sha256(f"rlhub-swe\0{kind.name}\0{seed}".encode()).digest()[:8], "big"))
    packages = [p for p in kind.packages if p not in sys.stdlib_module_names]
    values: dict[str, str] = {"pkg": rng.choice(packages)}
    taken = {values["pkg"]}
    for placeholder, choices in kind.names.items():
        free = [c for c in choices if c not in taken] or list(choices)
        values[placeholder] = rng.choice(free)
        taken.add(values[placeholder])
    for placeholder, choices in kind.constants.items():
        values[placeholder] = str(rng.choice(choices))
    u = kind.units
    lo, hi = u.count
    n = max(lo, min(hi, units)) if units is not None else rng.randint(lo, min(hi, lo + 6))
    pool = [x for x in u.names if x not in taken and x not in sys.stdlib_module_names]
    rng.shuffle(pool)
    if n > len(pool):
        raise TemplateError(f"{kind.name}: {n} units asked for, {len(pool)} unit names available")
    unit_names = sorted(pool[:n])
    per_unit = []
    for i, name in enumerate(unit_names):
        pv = {"unit": name, "Unit": _camel(name), "unit_n": str(i + 1)}
        for placeholder, choices in u.values.items():
            pv[placeholder] = str(rng.choice(choices))
        per_unit.append(pv)
    return values, unit_names, per_unit


def _renamed(values: dict[str, str], variant: Variant) -> dict[str, str]:
    return {**values, **dict(variant.names)}


@functools.lru_cache(maxsize=64)
def render(kind: ProjectKind, seed: int, variant: Variant = CLEAN, units: int | None = None,
           drop_tests: tuple[str, ...] = ()) -> Project:
    """Project `seed` of `kind` as `variant` has it. `drop_tests`: test areas whose visible test
    file is left out (a write-the-tests task)."""
    base, unit_names, per_unit = draw(kind, seed, units)
    values = _renamed(base, variant)
    active = variant.flags
    files: dict[str, str] = {}
    u = kind.units
    unit_dir = render_text(u.dir, values, where=f"{kind.name}:units.dir")
    for pv in per_unit:
        files[f"{unit_dir}/{pv['unit']}.py"] = render_text(u.template, {**values, **pv}, active, f"{kind.name}:unit")
    module = unit_dir.replace("/", ".")
    values = {**values,
              "unit_imports": "\n".join(f"from {module} import {n}" for n in unit_names),
              "unit_table": "\n".join(f"    {n!r}: {n}," for n in unit_names),
              "unit_names": repr(unit_names), "unit_count": str(len(unit_names))}
    files[render_text(u.index, values, where=f"{kind.name}:units.index path")] = ""  # placeholder, filled below
    for path_t, text in kind.files.items():
        files[render_text(path_t, values, where=f"{kind.name}:{path_t}")] = render_text(text, values, active, f"{kind.name}:{path_t}")
    headers, blocks = kind.parsed
    missing = {f.removeprefix("without.") for f in active if f.startswith("without.")}
    by_area: dict[str, list[str]] = {}
    for block in blocks:
        if block.visible and block.area not in drop_tests and not (set(block.needs) & missing):
            by_area.setdefault(block.area, []).append(render_text(block.source, values, active, f"{kind.name}:{block.name}"))
    for area, sources in by_area.items():
        header = render_text(headers[area], values, active, f"{kind.name}:{area} header")
        files[f"tests/test_{area}.py"] = header + "\n\n" + "\n\n".join(sources)
    hidden, ids = hidden_module(kind, values, active)
    return Project(kind.name, seed, len(unit_names), values["pkg"], values, files, hidden, ids, blocks)


def hidden_module(kind: ProjectKind, values: dict[str, str], active=frozenset()) -> tuple[str, tuple[str, ...]]:
    """Every test of the suite in one module (the hidden tests run this way, from memory)."""
    headers, blocks = kind.parsed
    imports: dict[str, None] = {}
    for area, header in headers.items():
        for line in render_text(header, values, active, f"{kind.name}:{area} header").splitlines():
            if line.strip():
                imports[line] = None
    bodies = [render_text(b.source, values, active, f"{kind.name}:{b.name}") for b in blocks]
    return "\n".join(imports) + "\n\n\n" + "\n\n".join(bodies), tuple(b.name for b in blocks)


def check_kind(kind: ProjectKind) -> list[str]:
    """Problems with a kind's templates (the plugin's tests assert there are none)."""
    problems = []
    texts = {**kind.files, "unit": kind.units.template, "tests": kind.tests}
    flags = set().union(*(flags_in(t) for t in texts.values()))
    headers, blocks = kind.parsed
    names = [b.name for b in blocks]
    if len(set(names)) != len(names):
        problems.append(f"duplicate test names: {sorted({n for n in names if names.count(n) > 1})}")
    for bug in kind.bugs:
        if f"bug.{bug.id}" not in flags:
            problems.append(f"bug {bug.id}: no #@if:bug.{bug.id} in the templates")
        catching = [b for b in blocks if bug.id in b.catches]
        if not catching:
            problems.append(f"bug {bug.id}: no test catches it")
        if any(b.visible for b in catching):
            problems.append(f"bug {bug.id}: a visible test catches it (the repository's own suite must stay green)")
        if bug.cls not in BUG_CLASSES:
            problems.append(f"bug {bug.id}: unknown class {bug.cls}")
    for feature in kind.features:
        if f"without.{feature.id}" not in flags:
            problems.append(f"feature {feature.id}: no #@if:without.{feature.id} in the templates")
        if not [b for b in blocks if feature.id in b.needs and not b.visible]:
            problems.append(f"feature {feature.id}: no hidden test needs it")
        if len(feature.modules) < 2:
            problems.append(f"feature {feature.id}: touches fewer than two modules")
    for r in kind.renames:
        if r.placeholder not in kind.names:
            problems.append(f"rename {r.id}: {r.placeholder} is not one of the kind's names")
    return problems
