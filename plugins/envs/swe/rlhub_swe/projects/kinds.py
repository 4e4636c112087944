"""The project kinds, by name: each is a folder, projects/templates/<kind>/, that holds the
project's files in source form (template.py) and kind.toml, what is drawn per seed and where the
tasks change it. Read through importlib.resources: the same for editable and wheel installs."""

from __future__ import annotations

import builtins
import functools
import importlib.resources

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as a package
    import tomli as tomllib
import types
from importlib.resources.abc import Traversable

from .model import BugSite, Feature, ProjectKind, Rename, Units
from .template import TemplateError, from_source

NAMES = ("ledger", "conf", "plugreg", "sched", "cli", "csvq")  # in the order the registry lists their families
MANIFEST = "kind.toml"
# placeholders every kind has: model.draw and model.render fill them in
FIXED = ("pkg", "unit", "Unit", "unit_n", "unit_imports", "unit_table", "unit_names", "unit_count")
# a placeholder `__x__` must not be a name Python gives a meaning to (`__init__`, `__name__`)
_PYTHON_DUNDERS = {n[2:-2] for n in [*dir(object), *dir(type), *dir(types.ModuleType("m")), *vars(builtins),
                                     "__main__", "__init__", "__all__", "__future__", "__version__", "__path__"]
                   if n.startswith("__") and n.endswith("__")}


@functools.cache  # one object per kind: model.render caches per kind object
def kind(name: str) -> ProjectKind:
    if name not in NAMES:
        raise ValueError(f"unknown project kind {name!r}; expected one of {', '.join(NAMES)}")
    return load(importlib.resources.files(__package__) / "templates" / name, name)


def all_kinds() -> list[ProjectKind]:
    return [kind(n) for n in NAMES]


def _field(where: str, table: dict, dotted: str, expected: type, of: type | None = None, default=None):
    """`table`'s value at the last part of `dotted`, checked for its type (and its items' types): a
    wrong one names the manifest and the field."""
    value = table.get(dotted.rsplit(".", 1)[-1], default)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if not isinstance(value, expected) or (of is not None and not all(isinstance(i, of) for i in items)):
        inner = f" of {_TOML[of][1]}" if of else ""
        raise TemplateError(f"{where}: {dotted}: expected {_TOML[expected][0]}{inner}, got {value!r}")
    return value


# what kind.toml calls them
_TOML = {dict: ("a table", "tables"), list: ("an array", "arrays"), str: ("a string", "strings"),
         int: ("an integer", "integers")}


def load(folder: Traversable, name: str) -> ProjectKind:
    """The kind in `folder`: its files decoded from source form, its manifest checked."""
    where = f"templates/{name}/{MANIFEST}"
    try:
        data = tomllib.loads(folder.joinpath(MANIFEST).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TemplateError(f"{where}: not valid TOML: {exc}") from None

    def get(table: dict, dotted: str, expected: type, of: type | None = None, default=None):
        return _field(where, table, dotted, expected, of, default)

    scalar = (str, int, float, bool)
    names = get(data, "names", dict, of=list)
    constants = get(data, "constants", dict, of=list)
    units = get(data, "units", dict)
    unit_values = get(units, "units.values", dict, of=list, default={})
    placeholders = set(FIXED) | set(names) | set(constants) | set(unit_values)
    clash = sorted(placeholders & _PYTHON_DUNDERS)
    if clash:
        raise TemplateError(f"{where}: placeholders {clash} would be written as Python's own dunders (__{clash[0]}__)")
    for table, field in ((names, "names"), (constants, "constants"), (unit_values, "units.values")):
        for placeholder, choices in table.items():
            if not choices or not all(isinstance(c, str if table is names else scalar) for c in choices):
                raise TemplateError(f"{where}: {field}.{placeholder}: expected a non-empty list of "
                                    f"{'names' if table is names else 'values'}, got {choices!r}")

    def decoded(text: str, at: str) -> str:
        return from_source(text, placeholders, f"templates/{name}/{at}")

    def read(path: str) -> str:
        file = folder.joinpath(*path.split("/"))
        if not file.is_file():
            raise TemplateError(f"{where}: lists {path}, which is not in templates/{name}/")
        return decoded(file.read_text(encoding="utf-8"), path)

    paths = get(data, "files", list, of=str)
    files = {decoded(p, MANIFEST): read(p) for p in paths}
    unit_path = get(units, "units.template", str)
    unit_dir = unit_path.rpartition("/")[0]
    count = get(units, "units.count", list, of=int)
    if len(count) != 2 or not 1 <= count[0] <= count[1]:
        raise TemplateError(f"{where}: units.count: expected [fewest, most] with 1 <= fewest <= most, got {count!r}")
    if f"{unit_dir}/__init__.py" not in paths:
        raise TemplateError(f"{where}: files must list {unit_dir}/__init__.py, the module that imports the units")
    areas = get(data, "test_areas", list, of=str)
    tests = "".join(f"#@area {area}\n" + read(f"tests/test_{area}.py").rstrip("\n") + "\n" for area in areas)
    _no_stray_files(folder, name, {MANIFEST, unit_path, *paths, *(f"tests/test_{a}.py" for a in areas)})

    def entries(field: str) -> list[tuple[str, dict]]:
        return [(f"{field}[{i}]", e) for i, e in enumerate(get(data, field, list, of=dict, default=[]))]

    def template(entry: dict, dotted: str) -> str:
        return decoded(get(entry, dotted, str), MANIFEST)

    bugs = tuple(BugSite(get(b, f"{at}.id", str), get(b, f"{at}.cls", str), template(b, f"{at}.module"),
                         template(b, f"{at}.issue")) for at, b in entries("bugs"))
    features = tuple(Feature(get(f, f"{at}.id", str),
                             tuple(decoded(x, MANIFEST) for x in get(f, f"{at}.modules", list, of=str)),
                             template(f, f"{at}.issue")) for at, f in entries("features"))
    renames = tuple(Rename(get(r, f"{at}.id", str), get(r, f"{at}.placeholder", str), get(r, f"{at}.what", str),
                           template(r, f"{at}.module"), get(r, f"{at}.owner", str, default=""))
                    for at, r in entries("renames"))
    mutation_areas = get(data, "mutation_areas", dict, of=str, default={})
    return ProjectKind(
        name=name, description=get(data, "description", str), packages=tuple(get(data, "packages", list, of=str)),
        names={k: tuple(v) for k, v in names.items()}, constants={k: tuple(v) for k, v in constants.items()},
        files=files,
        units=Units(dir=decoded(unit_dir, MANIFEST), template=read(unit_path),
                    names=tuple(get(units, "units.names", list, of=str)), count=(count[0], count[1]),
                    index=decoded(f"{unit_dir}/__init__.py", MANIFEST),
                    values={k: tuple(v) for k, v in unit_values.items()}),
        tests=tests, bugs=bugs, features=features, renames=renames,
        mutation_areas={area: decoded(path, MANIFEST) for area, path in mutation_areas.items()})


def _no_stray_files(folder: Traversable, name: str, listed: set[str], prefix: str = "") -> None:
    """Every file of the folder is one the manifest reads: a module left out of `files` would be
    missing from every project without a word."""
    for entry in folder.iterdir():
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        path = prefix + entry.name
        if entry.is_dir():
            _no_stray_files(entry, name, listed, path + "/")
        elif path not in listed:
            raise TemplateError(f"templates/{name}/{path}: not read by the kind: list it in {MANIFEST} "
                                f"(files, units.template, or tests/test_<area>.py for an area of test_areas)")
