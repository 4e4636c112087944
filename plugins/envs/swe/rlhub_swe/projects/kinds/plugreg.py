"""Project kind `plugreg`: a plugin registry (versions and version ranges, plugin specs, discovery
from a JSON manifest, a catalog, dependency resolution with backtracking, topological load order,
hooks with call ordering, enable/disable, layered settings; the shipped plugins are the units)."""

from ..model import BugSite, Feature, ProjectKind, Rename, Units

INIT = r'''"""$pkg: a plugin registry.

Plugins declare a version and requirements on other plugins (version ranges); the registry
discovers them from a manifest, resolves which version of each to load, loads them so that every
plugin comes after what it needs, calls their hooks in a defined order, switches them on and off,
and gives each its settings from layered configuration.
"""

from .catalog import Catalog
from .config import Config
from .errors import (${Error}, ConfigError, CycleError, DataError, HookError, ManifestError, NotLoaded, ResolutionError,
                     VersionError)
from .manifest import $load_manifest
from .markers import hookimpl
from .ranges import Range
from .registry import $Registry
from .resolver import $resolve
from .spec import PluginSpec, Requirement
from .versions import $Version

__version__ = "0.$minor.0"
__all__ = [
    "Catalog", "Config", "ConfigError", "CycleError", "DataError", "HookError", "ManifestError", "NotLoaded",
    "${Error}", "PluginSpec", "Range", "$Registry", "Requirement", "ResolutionError", "$Version", "VersionError",
    "hookimpl", "$load_manifest", "$resolve",
]
'''

ERRORS = r'''"""The package's errors: every one derives from ${Error} and says what was wrong and where."""


class ${Error}(Exception):
    """Base class of the package's errors."""


class VersionError(${Error}, ValueError):
    """Text that is not a version or not a version range."""


class ManifestError(${Error}, ValueError):
    """A manifest that cannot be read: the message names the source, the entry and the field."""


class ResolutionError(${Error}):
    """Requested plugins whose requirements cannot all be met; the message says which and why."""


class MissingPlugin(ResolutionError, LookupError):
    """A plugin that is asked for but is not in the catalog."""


class ConflictError(ResolutionError):
    """Plugins that cannot be loaded together."""


class CycleError(${Error}):
    """Plugins that depend on each other in a circle; the message shows the circle."""


class HookError(${Error}, TypeError):
    """A hook implementation or a hook call that does not fit the hook's specification."""


class ConfigError(${Error}, ValueError):
    """Configuration text that cannot be read, or a setting of the wrong type."""


class NotLoaded(${Error}, LookupError):
    """A plugin name the registry has not loaded."""


class DataError(${Error}, ValueError):
    """Data a plugin cannot read or cannot undo: the message names the plugin or the file, the line
    where there is one, and what was expected."""
'''

VERSIONS = r'''"""Plugin versions: `major.minor.patch` with an optional pre-release tag (`2.0.0-rc.1`), ordered
the way semantic versioning orders them."""

from __future__ import annotations

import functools
import re

from .errors import VersionError

_PATTERN = re.compile(r"^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*))?$$")
PARTS = ("major", "minor", "patch")


def _identifier_key(identifier: str) -> tuple[int, int, str]:
    """Numeric pre-release identifiers compare as numbers and come before alphanumeric ones."""
    if identifier.isdigit():
        return (0, int(identifier), "")
    return (1, 0, identifier)


@functools.total_ordering
class $Version:
    """A version. `$Version.parse('1.4')` is 1.4.0; a leading 'v' is allowed."""

    __slots__ = ("major", "minor", "patch", "pre")

    def __init__(self, major: int, minor: int = 0, patch: int = 0, pre: str = "") -> None:
        if min(major, minor, patch) < 0:
            raise VersionError(f"version numbers cannot be negative: {major}.{minor}.{patch}")
        self.major, self.minor, self.patch, self.pre = major, minor, patch, pre

    @classmethod
    def parse(cls, text: str) -> "$Version":
        match = _PATTERN.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise VersionError(f"not a version: {text!r} (expected major.minor.patch, e.g. 1.4.0 or 2.0.0-rc.1)")
        major, minor, patch, pre = match.groups()
        return cls(int(major), int(minor or 0), int(patch or 0), pre or "")

    @property
    def release(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    @property
    def is_prerelease(self) -> bool:
        return bool(self.pre)

    def _key(self) -> tuple:
        pre = tuple(_identifier_key(part) for part in self.pre.split(".")) if self.pre else ()
        return (self.release, not self.pre, pre)  #@if:bug.prerelease: return (self.release, pre)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, $Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, $Version):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        return f"{text}-{self.pre}" if self.pre else text

    def __repr__(self) -> str:
        return f"$Version('{self}')"

    def bump(self, part: str = "patch") -> "$Version":
        """The next version: 'major' -> (M+1).0.0, 'minor' -> M.(m+1).0, 'patch' -> M.m.(p+1). A
        pre-release becomes its own release when that is the next version of that kind
        (1.4.0-rc.1 -> 1.4.0 for 'minor' and 'patch', 2.0.0-rc.1 -> 2.0.0 for 'major')."""
        if part not in PARTS:
            raise VersionError(f"cannot bump {part!r}: expected one of {', '.join(PARTS)}")
        major, minor, patch = self.release
        if part == "major":
            return $Version(major if self.pre and minor == 0 and patch == 0 else major + 1)
        if part == "minor":
            return $Version(major, minor if self.pre and patch == 0 else minor + 1)
        return $Version(major, minor, patch if self.pre else patch + 1)

    def compatible_with(self, other: "$Version") -> bool:
        """Whether `other` can stand in for this version: not older, and the same major version
        (for 0.x versions: the same minor version)."""
        if other < self:
            return False
        if self.major == 0:
            return other.major == 0 and other.minor == self.minor
        return other.major == self.major


def parse_version(text) -> $Version:
    """A version from its text (a version is returned as it is)."""
    return text if isinstance(text, $Version) else $Version.parse(text)


def compare(a, b) -> int:
    """-1, 0 or 1 as version `a` is older than, the same as, or newer than `b`."""
    x, y = parse_version(a), parse_version(b)
    return (x > y) - (x < y)


def newest(versions, include_prereleases: bool = True) -> $Version | None:
    """The newest of `versions` (None for none); pre-releases left out unless `include_prereleases`."""
    candidates = [parse_version(v) for v in versions]
    if not include_prereleases:
        candidates = [v for v in candidates if not v.pre]
    return max(candidates, default=None)


def sort_versions(versions, reverse: bool = False) -> list[str]:
    """Version texts in order, oldest first (newest first with `reverse`), written out in full."""
    return [str(v) for v in sorted((parse_version(v) for v in versions), reverse=reverse)]
'''

RANGES = r'''"""Version ranges: which versions of a plugin a requirement accepts.

A range is comparators separated by commas, all of which must hold:

    >=1.2  >1.2  <=2.0  <2.0      bounds
    ==1.4.0  (or 1.4.0)  !=1.3.1   exact versions
    ^1.2.3   compatible: >=1.2.3,<2.0.0 (for 0.x: ^0.2.3 is >=0.2.3,<0.3.0)
    ~1.2.3   close: >=1.2.3,<1.3.0 (~1 is >=1.0.0,<2.0.0)
    *  or nothing: any version
"""

from __future__ import annotations

import re

from .errors import VersionError
from .versions import $Version, parse_version

_COMPARATOR = re.compile(r"^(>=|<=|==|!=|>|<|\^|~|=)?\s*(\S+)$$")


def caret_upper(version: $Version) -> $Version:
    """The first version `^version` no longer accepts."""
    if version.major:
        return $Version(version.major + 1)
    if version.minor:
        return $Version(0, version.minor + 1)
    return $Version(0, 0, version.patch + 1)


def tilde_upper(version: $Version, parts: int = 3) -> $Version:
    """The first version `~version` no longer accepts (`parts`: how many numbers were written)."""
    if parts >= 2:
        return $Version(version.major, version.minor + 1)
    return $Version(version.major + 1)


class Range:
    """A set of versions, from its text (see the module's documentation)."""

    def __init__(self, text: str = "*") -> None:
        if not isinstance(text, str):
            raise VersionError(f"a version range is text, got {type(text).__name__}")
        self.text = text.strip()
        self.lower: $Version | None = None
        self.lower_inclusive = True
        self.upper: $Version | None = None
        self.upper_inclusive = False
        self.excluded: list[$Version] = []
        if self.text in ("", "*"):
            return
        for part in self.text.split(","):
            if not part.strip():
                raise VersionError(f"not a version range: {self.text!r} (an empty comparator)")
            self._add(part.strip())

    def _add(self, part: str) -> None:
        match = _COMPARATOR.match(part)
        if match is None:
            raise VersionError(f"not a version range: {self.text!r} (bad comparator {part!r})")
        op, written = match.group(1) or "==", match.group(2)
        try:
            version = $Version.parse(written)
        except VersionError:
            raise VersionError(f"not a version range: {self.text!r} ({written!r} is not a version)") from None
        if op in ("==", "="):
            self._tighten_lower(version, True)
            self._tighten_upper(version, True)
        elif op == "!=":
            self.excluded.append(version)
        elif op == "^":
            self._tighten_lower(version, True)
            self._tighten_upper(caret_upper(version), False)
        elif op == "~":
            self._tighten_lower(version, True)
            self._tighten_upper(tilde_upper(version, written.split("-")[0].count(".") + 1), False)
        elif op in (">=", ">"):
            self._tighten_lower(version, op == ">=")
        else:
            self._tighten_upper(version, op == "<=")

    def _tighten_lower(self, version: $Version, inclusive: bool) -> None:
        """The higher lower bound wins; at the same version, the exclusive one."""
        if self.lower is None or version > self.lower or (version == self.lower and not inclusive):
            self.lower, self.lower_inclusive = version, inclusive

    def _tighten_upper(self, version: $Version, inclusive: bool) -> None:
        """The lower upper bound wins; at the same version, the exclusive one."""
        if self.upper is None or version < self.upper or (version == self.upper and not inclusive):
            self.upper, self.upper_inclusive = version, inclusive

    def contains(self, version) -> bool:
        v = parse_version(version)
        if self.lower is not None and (v < self.lower or (v == self.lower and not self.lower_inclusive)):
            return False
        if self.upper is not None and (v > self.upper or (v == self.upper and not self.upper_inclusive)):  #@if:bug.upper_bound: if self.upper is not None and v > self.upper:
            return False
        return all(v != x for x in self.excluded)

    def is_empty(self) -> bool:
        """Whether no version at all is in the range."""
        if self.lower is None or self.upper is None:
            return False
        if self.lower > self.upper:
            return True
        if self.lower == self.upper:
            return not (self.lower_inclusive and self.upper_inclusive) or any(self.lower == x for x in self.excluded)
        return False

    def intersect(self, other: "Range") -> "Range":
        """The versions both ranges accept."""
        parts = [str(r) for r in (self, other) if str(r) != "*"]
        return Range(",".join(parts) or "*")

    def filter(self, versions) -> list[str]:
        """The versions in the range, oldest first."""
        return [str(v) for v in sorted(parse_version(v) for v in versions) if self.contains(v)]

    def best(self, versions) -> str | None:
        """The newest version in the range, or None."""
        inside = self.filter(versions)
        return inside[-1] if inside else None

    def __str__(self) -> str:
        if self.lower is not None and self.lower == self.upper and self.lower_inclusive and self.upper_inclusive:
            parts = [f"=={self.lower}"]
        else:
            parts = []
            if self.lower is not None:
                parts.append((">=" if self.lower_inclusive else ">") + str(self.lower))
            if self.upper is not None:
                parts.append(("<=" if self.upper_inclusive else "<") + str(self.upper))
        parts += [f"!={x}" for x in self.excluded]
        return ",".join(parts) or "*"

    def __repr__(self) -> str:
        return f"Range({str(self)!r})"


def satisfies(version, text: str) -> bool:
    """Whether `version` is in the range written as `text`."""
    return Range(text).contains(version)
'''

SPEC = r'''"""What a plugin is: a name, a version, requirements on other plugins, the priority of its hooks,
its settings (with their defaults) and the module its code is in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ${Error}, VersionError
from .ranges import Range
from .versions import parse_version

NAME = re.compile(r"^[a-z][a-z0-9_-]*$$")
_REQUIREMENT = re.compile(r"^\s*([a-z][a-z0-9_-]*)\s*(.*?)\s*$$")


def check_name(name) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise ${Error}(f"not a plugin name: {name!r} (lower-case letters, digits, '-' and '_', starting with a letter)")
    return name


@dataclass(frozen=True)
class Requirement:
    """A plugin name and the versions of it that will do."""

    name: str
    range: Range

    def accepts(self, version) -> bool:
        return self.range.contains(version)

    def __str__(self) -> str:
        text = str(self.range)
        return self.name if text == "*" else f"{self.name}{text}"


def parse_requirement(text: str) -> Requirement:
    """'name', 'name>=1.2,<2', 'name ^1.2' or 'name==1.4.0' -> a Requirement."""
    match = _REQUIREMENT.match(text) if isinstance(text, str) else None
    if match is None:
        raise VersionError(f"not a requirement: {text!r} (expected a plugin name and an optional range, e.g. 'auth>=1.2,<2')")
    return Requirement(match.group(1), Range(match.group(2) or "*"))


def requirements(value, owner: str, what: str = "requires") -> list[Requirement]:
    """Requirements written as {name: range} or ['name>=1.0', ...], sorted by name."""
    if value is None:
        return []
    if isinstance(value, dict):
        found = [Requirement(check_name(name), Range(text or "*")) for name, text in value.items()]
    elif isinstance(value, (list, tuple)):
        found = [parse_requirement(text) for text in value]
    else:
        raise ${Error}(f"{owner}: {what} must map plugin names to ranges or list 'name>=1.0' strings, "
                       f"got {type(value).__name__}")
    names = [r.name for r in found]
    for name in names:
        if names.count(name) > 1:
            raise ${Error}(f"{owner}: {what} names {name!r} twice")
        if name == owner:
            raise ${Error}(f"{owner}: a plugin cannot name itself in {what}")
    return sorted(found, key=lambda r: r.name)


class PluginSpec:
    """One version of one plugin. `requires`: {name: range} or ['name>=1.0', ...]; `priority`:
    where its hooks are called among others (higher first); `settings`: its settings' defaults."""

    def __init__(self, name: str, version, requires=None, priority: int = 0, settings: dict | None = None,
                 description: str = "", module: str = "", conflicts=None) -> None:  #@if:without.conflicts: description: str = "", module: str = "") -> None:
        self.name = check_name(name)
        self.version = parse_version(version)
        self.requires = requirements(requires, self.name)
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ${Error}(f"{self.name}: priority must be an integer, got {priority!r}")
        self.priority = priority
        self.settings = dict(settings or {})
        self.description = description
        self.module = module
        self.conflicts = requirements(conflicts, self.name, "conflicts")  #@if:without.conflicts:

    @property
    def key(self) -> str:
        return f"{self.name}=={self.version}"

    def requirement(self, name: str) -> Requirement | None:
        return next((r for r in self.requires if r.name == name), None)

    def requires_names(self) -> list[str]:
        return [r.name for r in self.requires]

    def as_dict(self) -> dict:
        """The spec as a manifest entry (fields at their defaults left out)."""
        out: dict = {"name": self.name, "version": str(self.version)}
        if self.requires:
            out["requires"] = {r.name: str(r.range) for r in self.requires}
        if self.priority:
            out["priority"] = self.priority
        if self.settings:
            out["settings"] = dict(self.settings)
        if self.description:
            out["description"] = self.description
        if self.module:
            out["module"] = self.module
#@if:without.conflicts
#@else
        if self.conflicts:
            out["conflicts"] = {r.name: str(r.range) for r in self.conflicts}
#@end
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PluginSpec) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"PluginSpec({self.name!r}, '{self.version}')"
'''

MANIFEST = r'''"""Discovering plugins from a manifest: a JSON document that lists plugins and where their code is.

    {"$manifest_key": [
        {"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0"},
         "module": "myapp.plugins.auth", "priority": 10, "settings": {"realm": "main"}}
    ]}

Every error names the manifest, the entry (by position, and by name when it has one) and the field.
"""

from __future__ import annotations

import importlib
import json

from .errors import ${Error}, ManifestError, VersionError
from .spec import PluginSpec
from .versions import parse_version

KEY = "$manifest_key"
FIELDS = {
    "name": (str,),
    "version": (str,),
    "requires": (dict, list),
    "priority": (int,),
    "settings": (dict,),
    "description": (str,),
    "module": (str,),
    "conflicts": (dict, list),  #@if:without.conflicts:
}
REQUIRED = ("name", "version")
_TYPE_NAMES = {str: "a string", int: "an integer", dict: "an object", list: "a list"}


def $load_manifest(text: str, source: str = "<manifest>") -> list[PluginSpec]:
    """The plugin specs a manifest lists, in its order."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{source}: line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or KEY not in data:
        raise ManifestError(f"{source}: expected an object with a {KEY!r} list at the top")
    entries = data[KEY]
    if not isinstance(entries, list):
        raise ManifestError(f"{source}: {KEY!r} must be a list of plugins, got {type(entries).__name__}")
    specs: list[PluginSpec] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, 1):
        spec = _entry(entry, number, source)
        if spec.key in seen:
            raise ManifestError(f"{source}: entry {number} ({spec.name}): version {spec.version} is already "
                                f"listed by entry {seen[spec.key]}")
        seen[spec.key] = number
        specs.append(spec)
    return specs


def _entry(entry, number: int, source: str) -> PluginSpec:
    where = f"{source}: entry {number}"
    if not isinstance(entry, dict):
        raise ManifestError(f"{where}: expected an object, got {type(entry).__name__}")
    if isinstance(entry.get("name"), str):
        where += f" ({entry['name']})"
    for field in REQUIRED:
        if field not in entry:
            raise ManifestError(f"{where}: field {field!r} is missing")
    for field, value in entry.items():
        if field not in FIELDS:
            raise ManifestError(f"{where}: unknown field {field!r} (expected one of: {', '.join(FIELDS)})")
        types = FIELDS[field]
        if not isinstance(value, types) or isinstance(value, bool):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise ManifestError(f"{where}: field {field!r}: expected {expected}, got {type(value).__name__}")
    try:
        parse_version(entry["version"])
    except VersionError as exc:
        raise ManifestError(f"{where}: field 'version': {exc}") from None
    try:
        return PluginSpec(**entry)
    except ${Error} as exc:
        raise ManifestError(f"{where}: {exc}") from None


def load_file(path: str) -> list[PluginSpec]:
    with open(path, encoding="utf-8") as f:
        return $load_manifest(f.read(), source=path)


def import_plugin(spec: PluginSpec):
    """The module a spec names, imported (None for a spec without one)."""
    if not spec.module:
        return None
    try:
        return importlib.import_module(spec.module)
    except ImportError as exc:
        raise ManifestError(f"plugin {spec.name} {spec.version}: cannot import module {spec.module!r} ({exc})") from None


def dump_manifest(specs) -> str:
    """A manifest listing `specs`, which $load_manifest reads back as the same specs."""
    return json.dumps({KEY: [spec.as_dict() for spec in specs]}, indent=2) + "\n"
'''

CATALOG = r'''"""Every plugin version that could be loaded, by name: what the resolver chooses from."""

from __future__ import annotations

from .errors import ${Error}
from .manifest import $load_manifest
from .ranges import Range
from .spec import PluginSpec
from .versions import parse_version


class Catalog:
    def __init__(self, specs=()) -> None:
        self._specs: dict[str, dict[str, PluginSpec]] = {}
        self._modules: dict[str, object] = {}
        for spec in specs:
            self.add(spec)

    @classmethod
    def from_manifest(cls, text: str, source: str = "<manifest>") -> "Catalog":
        return cls($load_manifest(text, source))

    def add(self, spec: PluginSpec, module=None) -> PluginSpec:
        """Add one version of a plugin (and the module its hooks are in, if any)."""
        versions = self._specs.setdefault(spec.name, {})
        if str(spec.version) in versions:
            raise ${Error}(f"{spec.name} {spec.version} is already in the catalog")
        versions[str(spec.version)] = spec
        if module is not None:
            self._modules[spec.key] = module
        return spec

    def remove(self, name: str, version: str | None = None) -> int:
        """Remove one version of a plugin, or every version: how many were removed."""
        versions = self._specs.get(name, {})
        keys = [k for k in versions if version is None or k == str(parse_version(version))]
        for key in keys:
            self._modules.pop(versions.pop(key).key, None)
        if not versions:
            self._specs.pop(name, None)
        return len(keys)

    def names(self) -> list[str]:
        return sorted(self._specs)

    def versions(self, name: str) -> list[PluginSpec]:
        """Every version of the plugin, newest first (none for an unknown name)."""
        return sorted(self._specs.get(name, {}).values(), key=lambda s: s.version, reverse=True)

    def find(self, name: str, version: str) -> PluginSpec | None:
        return self._specs.get(name, {}).get(str(parse_version(version)))

    def matching(self, name: str, within="*") -> list[PluginSpec]:
        """The versions of the plugin in range `within` (a Range or its text), newest first."""
        rng = within if isinstance(within, Range) else Range(within)
        return [s for s in self.versions(name) if rng.contains(s.version)]

    def best(self, name: str, within="*") -> PluginSpec | None:
        """The newest version in range, or None."""
        found = self.matching(name, within)
        return found[0] if found else None

    def latest(self, name: str) -> PluginSpec | None:
        """The newest release; the newest pre-release when there is no release."""
        versions = self.versions(name)
        releases = [s for s in versions if not s.version.is_prerelease]
        return (releases or versions or [None])[0]

    def module(self, spec: PluginSpec):
        return self._modules.get(spec.key)

    def describe(self) -> list[str]:
        """'name: newest, ..., oldest' for every plugin."""
        return [f"{name}: " + ", ".join(str(s.version) for s in self.versions(name)) for name in self.names()]

    def __contains__(self, name: str) -> bool:
        return name in self._specs

    def __len__(self) -> int:
        return sum(len(v) for v in self._specs.values())
'''

RESOLVER = r'''"""Choosing one version of every plugin needed: the requested plugins, what they require, what
that requires, and so on, each at the newest version that every requirement on it accepts. A choice
that leaves some requirement unmet is taken back and the next older version tried."""

from __future__ import annotations

from .catalog import Catalog
from .errors import ConflictError, MissingPlugin, ResolutionError
from .ranges import Range
from .spec import PluginSpec, Requirement, parse_requirement

MAX_STEPS = $max_steps


class _Search:
    """The state of one resolution: steps taken and the most specific failure seen."""

    def __init__(self, catalog: Catalog, pins: dict[str, Range]) -> None:
        self.catalog = catalog
        self.pins = pins
        self.steps = 0
        self.failure = ""
        self.error = ResolutionError
        self.depth = -1

    def fail(self, depth: int, message: str, error=ResolutionError) -> None:
        if depth >= self.depth:
            self.depth, self.failure, self.error = depth, message, error

    def step(self, chosen: dict[str, PluginSpec], queue: list[tuple[Requirement, str]], depth: int):
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ResolutionError(f"gave up after {MAX_STEPS} steps: the requirements are too tangled to resolve")
        if not queue:
            return chosen
        (req, who), rest = queue[0], queue[1:]
        if req.name in chosen:
            picked = chosen[req.name]
            if req.accepts(picked.version):
                return self.step(chosen, rest, depth)
            self.fail(depth, f"{who} requires {req}, but {picked.name} {picked.version} was chosen")
            return None
        if req.name not in self.catalog:
            raise MissingPlugin(f"{who} requires {req.name!r}, which is not in the catalog")
        candidates = self.catalog.matching(req.name, req.range)
        if not candidates:
            available = ", ".join(str(s.version) for s in self.catalog.versions(req.name))
            self.fail(depth, f"{who} requires {req}, but the catalog has {req.name} {available}")
            return None
        pin = self.pins.get(req.name)
        if pin is not None:
            candidates = [s for s in candidates if pin.contains(s.version)]
            if not candidates:
                self.fail(depth, f"{who} requires {req}, but {req.name} is pinned to {str(pin).lstrip('=')}")
                return None
        for spec in candidates:
#@if:without.conflicts
#@else
            clash = conflict(spec, chosen)
            if clash:
                self.fail(depth, clash, ConflictError)
                continue
#@end
            more = [(r, f"{spec.name} {spec.version}") for r in spec.requires]
            found = self.step({**chosen, spec.name: spec}, rest + more, depth + 1)
            if found is not None:
                return found
        return None
#@if:without.conflicts
#@else


def conflict(spec: PluginSpec, chosen: dict[str, PluginSpec]) -> str:
    """Why `spec` cannot join the plugins `chosen` so far ('' if it can): a conflict either side declares."""
    for c in spec.conflicts:
        other = chosen.get(c.name)
        if other is not None and c.accepts(other.version):
            return f"{spec.name} {spec.version} conflicts with {other.name} {other.version}"
    for other in chosen.values():
        for c in other.conflicts:
            if c.name == spec.name and c.accepts(spec.version):
                return f"{other.name} {other.version} conflicts with {spec.name} {spec.version}"
    return ""
#@end


def $resolve(catalog: Catalog, requested, *, pinned: dict[str, str] | None = None) -> dict[str, PluginSpec]:
    """{name: spec} (by name) for the requested plugins ('name', 'name>=1.0,<2' or Requirement) and
    everything they need. `pinned`: {name: version}: the version a plugin must have if it is needed.
    MissingPlugin names a plugin the catalog lacks; ResolutionError says which requirement could not
    be met and who asked for it."""
    wanted = [(r if isinstance(r, Requirement) else parse_requirement(r), "the request") for r in requested]
    for req, _ in wanted:
        if req.name not in catalog:
            raise MissingPlugin(f"no plugin named {req.name!r} in the catalog")
    pins = {name: Range(f"=={version}") for name, version in (pinned or {}).items()}
    search = _Search(catalog, pins)
    chosen = search.step({}, wanted, 0)
    if chosen is None:
        raise search.error(search.failure or "the requirements cannot all be met")
    return dict(sorted(chosen.items()))


def describe(chosen: dict[str, PluginSpec]) -> list[str]:
    """'name version' for each chosen plugin, with what it requires."""
    lines = []
    for name, spec in sorted(chosen.items()):
        needs = ", ".join(str(r) for r in spec.requires)
        lines.append(f"{name} {spec.version}" + (f" (requires {needs})" if needs else ""))
    return lines
'''

GRAPH = r'''"""The order plugins load in: a directed graph from each plugin to the plugins that need it,
sorted so that every plugin comes after everything it depends on (ties broken by name)."""

from __future__ import annotations

import heapq

from .errors import ${Error}, CycleError


class DependencyGraph:
    def __init__(self) -> None:
        self._after: dict[str, set[str]] = {}   # name -> the plugins that need it
        self._before: dict[str, set[str]] = {}  # name -> the plugins it needs

    def add(self, name: str) -> None:
        self._after.setdefault(name, set())
        self._before.setdefault(name, set())

    def add_edge(self, first: str, then: str) -> None:
        """`then` depends on `first`: `first` loads before it."""
        if first == then:
            raise CycleError(f"dependency cycle: {first} -> {first}")
        self.add(first)
        self.add(then)
        self._after[first].add(then)
        self._before[then].add(first)

    def nodes(self) -> list[str]:
        return sorted(self._after)

    def has(self, name: str) -> bool:
        return name in self._after

    def __len__(self) -> int:
        return len(self._after)

    def requires(self, name: str) -> list[str]:
        """The plugins `name` needs directly."""
        return sorted(self._node(name, self._before))

    def needed_by(self, name: str) -> list[str]:
        """The plugins that need `name` directly."""
        return sorted(self._node(name, self._after))

    def _node(self, name: str, edges: dict[str, set[str]]) -> set[str]:
        if name not in edges:
            raise ${Error}(f"{name!r} is not in the dependency graph")
        return edges[name]

    def order(self) -> list[str]:
        """Every plugin after the plugins it needs; among those ready at once, by name."""
        waiting = {name: len(needs) for name, needs in self._before.items()}
        ready = [name for name, count in waiting.items() if count == 0]
        heapq.heapify(ready)
        out: list[str] = []
        while ready:
            name = heapq.heappop(ready)
            out.append(name)
            for after in self._after[name]:
                waiting[after] -= 1
                if waiting[after] == 0:
                    heapq.heappush(ready, after)
        if len(out) < len(waiting):
            raise CycleError("dependency cycle: " + " -> ".join(self.find_cycle()))
        return out

    def find_cycle(self) -> list[str]:
        """A cycle as [a, b, ..., a] where a needs b's ... (first by name), or [] if there is none."""
        state: dict[str, int] = {}  # 1: on the current path, 2: done
        path: list[str] = []

        def visit(name: str) -> list[str]:
            state[name] = 1
            path.append(name)
            for nxt in sorted(self._after[name]):
                if state.get(nxt) == 1:
                    return path[path.index(nxt):] + [nxt]
                if nxt not in state:
                    found = visit(nxt)
                    if found:
                        return found
            state[name] = 2
            path.pop()
            return []

        for name in self.nodes():
            if name not in state:
                found = visit(name)
                if found:
                    return found
        return []

    def layers(self) -> list[list[str]]:
        """Plugins grouped by depth: first those needing nothing, then those needing only the first
        group, and so on; each group sorted by name."""
        depth: dict[str, int] = {}
        for name in self.order():
            depth[name] = 1 + max((depth[n] for n in self._before[name]), default=-1)
        out: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
        for name in sorted(depth):
            out[depth[name]].append(name)
        return out

    def dependents(self, name: str, _seen: set | None = None) -> list[str]:  #@if:bug.shared_seen: def dependents(self, name: str, _seen: set = set()) -> list[str]:
        """Every plugin that needs `name`, directly or through others, in load order."""
        self._node(name, self._after)
        seen = set() if _seen is None else _seen  #@if:bug.shared_seen: seen = _seen
        for after in sorted(self._after[name]):
            if after not in seen:
                seen.add(after)
                self.dependents(after, seen)
        return [n for n in self.order() if n in seen]

    def dependencies(self, name: str) -> list[str]:
        """Every plugin `name` needs, directly or through others, in load order."""
        stack, seen = list(self._node(name, self._before)), set()
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(self._before[current])
        return [n for n in self.order() if n in seen]

    def subgraph(self, names) -> "DependencyGraph":
        """The graph of `names` only, with the edges between them."""
        keep = set(names)
        out = DependencyGraph()
        for name in sorted(keep):
            out.add(name)
            for after in self._node(name, self._after) & keep:
                out.add_edge(name, after)
        return out
'''

MARKERS = r'''"""Marking a plugin's functions as hook implementations, and finding them again in its module."""

from __future__ import annotations

from .errors import HookError

MARKER = "_${pkg}_hookimpl"


def hookimpl(function=None, *, priority: int | None = None, tryfirst: bool = False, trylast: bool = False,
             name: str | None = None):
    """`@hookimpl` or `@hookimpl(priority=10, trylast=True)`: mark a function as the plugin's
    implementation of the hook of the same name (or `name`). `priority`: higher is called earlier
    (default: the plugin's own priority); `tryfirst`/`trylast`: before/after all the others."""
    if tryfirst and trylast:
        raise HookError("a hook implementation cannot be both tryfirst and trylast")
    if priority is not None and (not isinstance(priority, int) or isinstance(priority, bool)):
        raise HookError(f"priority must be an integer, got {priority!r}")
    options = {"priority": priority, "tryfirst": tryfirst, "trylast": trylast, "name": name}

    def mark(f):
        setattr(f, MARKER, dict(options))
        return f

    return mark(function) if function is not None else mark


def options_of(function) -> dict | None:
    """The options a function was marked with, or None if it is not a hook implementation."""
    options = getattr(function, MARKER, None)
    return dict(options) if isinstance(options, dict) else None


def collect(namespace) -> list[tuple[str, object, dict]]:
    """(hook name, function, options) for every marked function of a module or object, by hook name."""
    found = []
    for attribute in dir(namespace):
        value = getattr(namespace, attribute, None)
        options = options_of(value) if callable(value) else None
        if options is not None:
            found.append((options["name"] or attribute, value, options))
    return sorted(found, key=lambda item: item[0])
'''

HOOKS = r'''"""Hook callers: the implementations of one hook in the order they are called, and calling them.

Call order: `tryfirst` implementations, then the others by priority (highest first), then the
`trylast` ones; at equal rank, in the order they were added (a registry adds plugins in load order).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from .errors import HookError
from .markers import collect


@dataclass(frozen=True)
class HookSpec:
    """A hook: its name, the arguments it is called with, and how its results are combined:
    all results (a list), the first one that is not None (`firstresult`), or one value passed
    through every implementation in turn (`chain`)."""

    name: str
    argnames: tuple[str, ...]
    firstresult: bool = False
    chain: bool = False
    doc: str = ""


@dataclass(frozen=True)
class HookImpl:
    plugin: str
    function: object
    argnames: tuple[str, ...]
    priority: int = 0
    tryfirst: bool = False
    trylast: bool = False
    seq: int = 0


def argnames_of(function) -> tuple[str, ...]:
    """The arguments a hook implementation takes, by name."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        raise HookError(f"{function!r} is not a function a hook can call") from None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in parameters if p.kind in kinds)


def rank(impl: HookImpl) -> tuple[int, int, int]:
    group = 0 if impl.tryfirst else 2 if impl.trylast else 1  #@if:bug.hook_order: group = 0 if impl.tryfirst or impl.trylast else 1
    return (group, -impl.priority, impl.seq)


class HookCaller:
    def __init__(self, spec: HookSpec) -> None:
        self.spec = spec
        self._impls: list[HookImpl] = []
        self._seq = 0

    @property
    def name(self) -> str:
        return self.spec.name

    def add(self, plugin: str, function, priority: int = 0, tryfirst: bool = False, trylast: bool = False) -> HookImpl:
        """Add `plugin`'s implementation of this hook."""
        if tryfirst and trylast:
            raise HookError(f"{plugin}: {self.name} cannot be both tryfirst and trylast")
        args = argnames_of(function)
        unknown = [a for a in args if a not in self.spec.argnames]
        if unknown:
            offered = ", ".join(self.spec.argnames) or "nothing"
            raise HookError(f"{plugin}: its {self.name}() takes {', '.join(unknown)}, which the hook does not pass "
                            f"(it passes: {offered})")
        if self.spec.chain and "value" not in args:
            raise HookError(f"{plugin}: {self.name} is a chain hook, its implementation must take 'value'")
        if any(i.plugin == plugin for i in self._impls):
            raise HookError(f"{plugin} already implements {self.name}")
        self._seq += 1
        impl = HookImpl(plugin, function, args, priority, tryfirst, trylast, self._seq)
        self._impls.append(impl)
        return impl

    def remove(self, plugin: str) -> bool:
        before = len(self._impls)
        self._impls = [i for i in self._impls if i.plugin != plugin]
        return len(self._impls) != before

    def implementations(self) -> list[HookImpl]:
        return sorted(self._impls, key=rank)

    def plugins(self) -> list[str]:
        """The plugins implementing the hook, in call order."""
        return [i.plugin for i in self.implementations()]

    def _arguments(self, impl: HookImpl, kwargs: dict, extra: dict | None) -> dict:
        given = {**kwargs, **((extra or {}).get(impl.plugin) or {})}
        missing = [a for a in impl.argnames if a not in given]
        if missing:
            raise HookError(f"hook {self.name} called without {', '.join(missing)} (needed by {impl.plugin})")
        return {a: given[a] for a in impl.argnames}

    def _check(self, kwargs: dict) -> None:
        unknown = sorted(set(kwargs) - set(self.spec.argnames))
        if unknown:
            raise HookError(f"hook {self.name} has no argument {', '.join(unknown)} "
                            f"(its arguments: {', '.join(self.spec.argnames) or 'none'})")

    def call(self, skip=(), extra: dict | None = None, **kwargs):
        """Call the implementations in order (those of plugins in `skip` left out). `extra`:
        {plugin: {argument: value}} for arguments that differ by plugin. Returns the results that
        are not None, or for a firstresult hook the first of them (None if there is none)."""
        self._check(kwargs)
        results = []
        for impl in self.implementations():
            if impl.plugin in skip:
                continue
            result = impl.function(**self._arguments(impl, kwargs, extra))
            if result is not None:
                if self.spec.firstresult:
                    return result
                results.append(result)
        return None if self.spec.firstresult else results

    def chain(self, value, skip=(), extra: dict | None = None, **kwargs):
        """Pass `value` through the implementations in order: each gets what the one before
        returned (an implementation returning None leaves the value as it was)."""
        self._check({**kwargs, "value": value})
        for impl in self.implementations():
            if impl.plugin in skip:
                continue
            result = impl.function(**self._arguments(impl, {**kwargs, "value": value}, extra))
            if result is not None:
                value = result
        return value

    def call_plugin(self, plugin: str, extra: dict | None = None, **kwargs):
        """Call one plugin's implementation only (None if it has none)."""
        self._check(kwargs)
        for impl in self._impls:
            if impl.plugin == plugin:
                return impl.function(**self._arguments(impl, kwargs, extra))
        return None


class HookRelay:
    """The callers of every hook a host offers, by name (also as attributes: `relay.describe`)."""

    def __init__(self, specs) -> None:
        self._callers = {spec.name: HookCaller(spec) for spec in specs}

    def __getattr__(self, name: str) -> HookCaller:
        callers = self.__dict__.get("_callers", {})
        if name in callers:
            return callers[name]
        raise AttributeError(name)

    def get(self, name: str) -> HookCaller:
        if name not in self._callers:
            raise HookError(f"no hook named {name!r} (hooks: {', '.join(sorted(self._callers))})")
        return self._callers[name]

    def names(self) -> list[str]:
        return sorted(self._callers)

    def register(self, plugin: str, namespace, default_priority: int = 0) -> list[str]:
        """Add every marked function of `namespace` (a plugin's module) to its hook's caller; the
        hooks it implements, by name. Nothing is added if one of them does not fit."""
        found = collect(namespace)
        for hook, _, _ in found:
            if hook not in self._callers:
                raise HookError(f"plugin {plugin!r} implements {hook!r}, which is not a hook "
                                f"(hooks: {', '.join(sorted(self._callers))})")
        done = []
        try:
            for hook, function, options in found:
                priority = default_priority if options["priority"] is None else options["priority"]
                self._callers[hook].add(plugin, function, priority, options["tryfirst"], options["trylast"])
                done.append(hook)
        except HookError:
            for hook in done:
                self._callers[hook].remove(plugin)
            raise
        return done

    def unregister(self, plugin: str) -> list[str]:
        return [name for name, caller in sorted(self._callers.items()) if caller.remove(plugin)]
'''

HOOKSPECS = r'''"""The hooks a registry offers its plugins, and the arguments each is called with."""

from __future__ import annotations

from .hooks import HookSpec

HOOKS = (
    HookSpec("setup", ("config",), doc="the plugin starts; `config`: its settings"),
    HookSpec("teardown", (), doc="the plugin stops"),
    HookSpec("describe", (), doc="a line about the plugin"),
    HookSpec("transform", ("value", "settings"), chain=True,
             doc="a value passed through every plugin in turn; `settings`: the plugin's own"),
    HookSpec("handles", ("path",), firstresult=True, doc="the name of the plugin that handles a file, or None"),
)


def by_name() -> dict[str, HookSpec]:
    return {spec.name: spec for spec in HOOKS}
'''

COERCE = r'''"""Settings written as text, read as the type of the setting's default."""

from __future__ import annotations

from .errors import ConfigError

TRUE = ("1", "yes", "true", "on")
FALSE = ("0", "no", "false", "off")


def to_bool(text: str, name: str = "value") -> bool:
    word = text.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ConfigError(f"{name}: expected yes/no (or true/false, on/off, 1/0), got {text!r}")


def to_int(text: str, name: str = "value") -> int:
    """'12' -> 12, '1_000' -> 1000, '0x1f' -> 31."""
    try:
        return int(text.strip(), 0)
    except ValueError:
        try:
            return int(text.strip())  # '012': base 0 refuses leading zeros
        except ValueError:
            raise ConfigError(f"{name}: expected an integer, got {text!r}") from None


def to_float(text: str, name: str = "value") -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise ConfigError(f"{name}: expected a number, got {text!r}") from None


def to_list(text: str, name: str = "value") -> list[str]:
    """'a, b,,c' -> ['a', 'b', 'c']."""
    return [item.strip() for item in text.split(",") if item.strip()]


def coerce(value, like, name: str = "value"):
    """`value` as the type of `like` when it is text; anything else as it is."""
    if not isinstance(value, str):
        return value
    if isinstance(like, bool):
        return to_bool(value, name)
    if isinstance(like, int):
        return to_int(value, name)
    if isinstance(like, float):
        return to_float(value, name)
    if isinstance(like, (list, tuple)):
        return to_list(value, name)
    return value


def render(value) -> str:
    """A value written as text that `coerce` reads back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)
'''

CONFIG = r'''"""Plugin settings in layers: each plugin's defaults, then a configuration file, then overrides
given in code or as 'plugin.key=value' strings; the highest layer with a key wins. Text values
take the type of the plugin's default for that key (int, float, bool, list or str).

The file is INI text, one section per plugin, and a section [$host_section] for the registry itself:

    [$host_section]
    disabled = metrics, tracer

    [auth]
    retries = 5
"""

from __future__ import annotations

import configparser

from .coerce import coerce, to_list
from .errors import ConfigError

HOST_SECTION = "$host_section"
LAYERS = ("override", "file", "default")


class Config:
    def __init__(self, text: str | None = None, source: str = "<config>") -> None:
        self._layers: dict[str, dict[str, dict]] = {layer: {} for layer in LAYERS}
        if text:
            self.read(text, source)

    def add_defaults(self, plugin: str, settings: dict) -> None:
        self._layers["default"][plugin] = dict(settings)

    def read(self, text: str, source: str = "<config>") -> list[str]:
        """Read INI text into the file layer (over what an earlier file set); the sections read."""
        parser = configparser.ConfigParser(interpolation=None, default_section="\x00")
        parser.optionxform = str
        try:
            parser.read_string(text, source=source)
        except configparser.Error as exc:
            raise ConfigError(f"{source}: {exc}") from None
        for section in parser.sections():
            self._layers["file"].setdefault(section, {}).update(parser.items(section))
        return parser.sections()

    def set(self, plugin: str, key: str, value) -> None:
        self._layers["override"].setdefault(plugin, {})[key] = value

    def apply(self, assignment: str) -> tuple[str, str]:
        """An override written 'plugin.key=value' (as on a command line); (plugin, key)."""
        target, sep, value = assignment.partition("=")
        plugin, dot, key = target.strip().partition(".")
        if not sep or not dot or not plugin or not key.strip():
            raise ConfigError(f"expected 'plugin.key=value', got {assignment!r}")
        self.set(plugin, key.strip(), value.strip())
        return plugin, key.strip()

    def unset(self, plugin: str, key: str) -> bool:
        """Remove an override; whether there was one."""
        return self._layers["override"].get(plugin, {}).pop(key, None) is not None

    def lookup(self, plugin: str, key: str) -> tuple[object, str] | None:
        """(the value as written, its layer) from the highest layer that has it, or None."""
        for layer in LAYERS:
            section = self._layers[layer].get(plugin, {})
            if key in section:
                return section[key], layer
        return None

    def source(self, plugin: str, key: str) -> str | None:
        found = self.lookup(plugin, key)
        return None if found is None else found[1]

    def settings(self, plugin: str) -> dict:
        """Every setting of the plugin, each from the highest layer that has it, typed."""
        defaults = self._layers["default"].get(plugin, {})
        merged: dict = {}
        for layer in reversed(LAYERS):
            merged.update(self._layers[layer].get(plugin, {}))
        out = {}
        for key, value in merged.items():
            like = defaults.get(key)  #@if:bug.file_types: like = defaults.get(plugin)
            out[key] = coerce(value, like, f"{plugin}.{key}") if like is not None else value
        return out

    def value(self, plugin: str, key: str, default=None):
        return self.settings(plugin).get(key, default)

    def problems(self, plugin: str) -> list[str]:
        """What is wrong with the plugin's settings from the file and overrides, one message each."""
        defaults = self._layers["default"].get(plugin, {})
        found = []
        for layer in ("file", "override"):
            for key, value in self._layers[layer].get(plugin, {}).items():
                if key not in defaults:
                    found.append(f"{plugin}.{key}: unknown setting (known: {', '.join(sorted(defaults)) or 'none'})")
                    continue
                try:
                    coerce(value, defaults[key], f"{plugin}.{key}")
                except ConfigError as exc:
                    found.append(str(exc))
        return sorted(set(found))

    def disabled(self) -> list[str]:
        """The plugins the configuration switches off ([$host_section] disabled = a, b)."""
        found = self.lookup(HOST_SECTION, "disabled")
        if found is None:
            return []
        value = found[0]
        return to_list(value) if isinstance(value, str) else [str(v) for v in value]
'''

REGISTRY = r'''"""$Registry: the plugins a program has loaded, their hooks and settings, and which are on."""

from __future__ import annotations

from .catalog import Catalog
from .config import Config
from .errors import ${Error}, NotLoaded
from .graph import DependencyGraph
from .hooks import HookRelay
from .hookspecs import HOOKS
from .manifest import $load_manifest, import_plugin
from .resolver import $resolve
from .spec import PluginSpec

ENABLED, DISABLED, BLOCKED, NOT_LOADED = "enabled", "disabled", "blocked", "not loaded"


class $Registry:
    """Plugins are added to the catalog (`add`, `add_module`, `discover`), then `load` resolves the
    requested ones and what they need, and registers their hooks in load order. A disabled plugin's
    hooks are not called; a plugin that needs a plugin that is not enabled is blocked."""

    def __init__(self, catalog: Catalog | None = None, config: Config | None = None, hooks=HOOKS) -> None:
        self.catalog = catalog if catalog is not None else Catalog()
        self.config = config if config is not None else Config()
        self.hooks = HookRelay(hooks)
        self.graph = DependencyGraph()
        self._loaded: dict[str, PluginSpec] = {}
        self._order: list[str] = []
        self._disabled: set[str] = set()

    # -- the catalog ----------------------------------------------------------------------------
    def add(self, spec: PluginSpec, module=None) -> PluginSpec:
        return self.catalog.add(spec, module)

    def add_module(self, module) -> PluginSpec:
        """Add the plugin a module describes in its SPEC, with the module's hook implementations."""
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, PluginSpec):
            raise ${Error}(f"module {getattr(module, '__name__', module)!r} has no SPEC describing its plugin")
        return self.catalog.add(spec, module)

    def discover(self, text: str, source: str = "<manifest>") -> list[str]:
        """Add every plugin a manifest lists, importing the modules it names; their keys."""
        specs = $load_manifest(text, source)
        modules = [import_plugin(spec) for spec in specs]
        for spec, module in zip(specs, modules):
            self.catalog.add(spec, module)
        return [spec.key for spec in specs]

    # -- loading --------------------------------------------------------------------------------
    def load(self, *requested, pinned: dict[str, str] | None = None) -> list[str]:
        """Resolve the requested plugins and what they need, and register their hooks in load
        order (what a plugin needs before it); the load order. Replaces what was loaded before."""
        chosen = $resolve(self.catalog, requested, pinned=pinned)
        graph = DependencyGraph()
        for spec in chosen.values():
            graph.add(spec.name)
            for req in spec.requires:
                graph.add_edge(req.name, spec.name)  #@if:bug.swap_edge: graph.add_edge(spec.name, req.name)
        order = graph.order()
        self.unload()
        for name in order:
            spec = chosen[name]
            self.config.add_defaults(name, spec.settings)
            module = self.catalog.module(spec)
            if module is not None:
                self.hooks.register(name, module, default_priority=spec.priority)
        self.graph, self._loaded, self._order = graph, chosen, order
        self._disabled = {name for name in self.config.disabled() if name in chosen}
        return list(order)

    def unload(self) -> None:
        for name in self._order:
            self.hooks.unregister(name)
        self.graph, self._loaded, self._order, self._disabled = DependencyGraph(), {}, [], set()

    def loaded(self) -> list[str]:
        """The loaded plugins in load order."""
        return list(self._order)

    def spec(self, name: str) -> PluginSpec:
        if name not in self._loaded:
            raise NotLoaded(f"no plugin {name!r} is loaded (loaded: {', '.join(self._order) or 'none'})")
        return self._loaded[name]

    def version(self, name: str) -> str:
        return str(self.spec(name).version)

    # -- on and off -----------------------------------------------------------------------------
    def state(self, name: str) -> str:
        """'enabled', 'disabled', 'blocked' (on, but something it needs is not enabled) or 'not loaded'."""
        if name not in self._loaded:
            return NOT_LOADED
        if name in self._disabled:
            return DISABLED
        if any(self.state(r.name) != ENABLED for r in self._loaded[name].requires):
            return BLOCKED
        return ENABLED

    def is_enabled(self, name: str) -> bool:
        return self.state(name) == ENABLED

    def enabled(self) -> list[str]:
        """The enabled plugins in load order."""
        return [name for name in self._order if self.state(name) == ENABLED]

    def $enable(self, name: str, with_dependencies: bool = False) -> list[str]:
        """Switch a plugin back on (and what it needs, `with_dependencies`); the plugins that are
        enabled now and were not before, in load order."""
        self.spec(name)
        before = set(self.enabled())
        self._disabled.discard(name)
        if with_dependencies:
            self._disabled.difference_update(self.graph.dependencies(name))
        return [n for n in self.enabled() if n not in before]

    def disable(self, name: str, cascade: bool = False) -> list[str]:
        """Switch a plugin off (and, with `cascade`, everything that needs it); the plugins switched
        off that were not off already, in load order."""
        self.spec(name)
        names = [name] + (self.graph.dependents(name) if cascade else [])
        changed = [n for n in names if n not in self._disabled]
        self._disabled.update(names)
        return changed

    # -- hooks and settings ---------------------------------------------------------------------
    def settings(self, name: str) -> dict:
        self.spec(name)
        return self.config.settings(name)

    def _skip(self) -> set[str]:
        return set(self._order) - set(self.enabled())

    def _extra(self, hook: str) -> dict:
        args = self.hooks.get(hook).spec.argnames
        per_plugin = [a for a in ("settings", "config") if a in args]
        if not per_plugin:
            return {}
        return {name: {a: self.config.settings(name) for a in per_plugin} for name in self.enabled()}

    def call(self, hook: str, **kwargs):
        """Call a hook on the enabled plugins (the results: see HookCaller.call)."""
        return self.hooks.get(hook).call(skip=self._skip(), extra=self._extra(hook), **kwargs)

    def first(self, hook: str, **kwargs):
        """The first result that is not None of a hook on the enabled plugins."""
        results = self.call(hook, **kwargs)
        if self.hooks.get(hook).spec.firstresult:
            return results
        return next(iter(results), None)

    def chain(self, hook: str, value, **kwargs):
        """Pass `value` through a chain hook of the enabled plugins."""
        return self.hooks.get(hook).chain(value, skip=self._skip(), extra=self._extra(hook), **kwargs)

    def call_plugin(self, hook: str, name: str, **kwargs):
        """One plugin's implementation of a hook (None if it has none or is not enabled)."""
        if not self.is_enabled(name):
            return None
        return self.hooks.get(hook).call_plugin(name, extra=self._extra(hook), **kwargs)
'''

LIFECYCLE = r'''"""Starting and stopping the loaded plugins: `setup` in load order (what a plugin needs is up
before it), `teardown` in the reverse order."""

from __future__ import annotations

from .registry import $Registry


def start(registry: $Registry) -> list[str]:
    """Call every enabled plugin's `setup` with its settings, in load order; the plugins started."""
    started = []
    for name in registry.enabled():
        registry.call_plugin("setup", name)
        started.append(name)
    return started


def stop(registry: $Registry, started: list[str] | None = None) -> list[str]:
    """Call `teardown` on the started plugins (by default every enabled one), last started first;
    the plugins stopped, in that order."""
    names = list(reversed(started if started is not None else registry.enabled()))
    for name in names:
        registry.hooks.teardown.call_plugin(name)
    return names


def resume(registry: $Registry, names) -> list[str]:
    """Switch plugins back on, with what they need, and start every plugin that is enabled now and
    was not before (those that were blocked included); the plugins started, in load order."""
    woken: set[str] = set()
    for name in names:
        woken.update(registry.$enable(name, with_dependencies=True))
    started = [name for name in registry.enabled() if name in woken]
    for name in started:
        registry.call_plugin("setup", name)
    return started


def plan(registry: $Registry) -> list[str]:
    """'1. name version' for every enabled plugin, in the order `start` starts them."""
    return [f"{i}. {name} {registry.version(name)}" for i, name in enumerate(registry.enabled(), 1)]
'''

REPORT = r'''"""What a registry holds, written for people: a table of plugins, dependency trees, counts, and
the order each hook calls its plugins in."""

from __future__ import annotations

from .registry import $Registry

COLUMNS = ("NAME", "VERSION", "STATE", "REQUIRES")


def table(registry: $Registry) -> str:
    """One row per loaded plugin, by name, in aligned columns."""
    rows = [COLUMNS]
    for name in sorted(registry.loaded()):
        spec = registry.spec(name)
        rows.append((name, str(spec.version), registry.state(name), ", ".join(str(r) for r in spec.requires) or "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows) + "\n"


def tree(registry: $Registry, name: str, indent: str = "  ") -> str:
    """A plugin and what it needs, and what that needs, indented one level each (by name)."""
    lines: list[str] = []

    def walk(current: str, depth: int) -> None:
        spec = registry.spec(current)
        lines.append(f"{indent * depth}{current} {spec.version}")
        for req in spec.requires:
            walk(req.name, depth + 1)

    walk(name, 0)
    return "\n".join(lines) + "\n"


def summary(registry: $Registry) -> dict[str, int]:
    """How many loaded plugins are in each state (states with none left out)."""
    counts: dict[str, int] = {}
    for name in registry.loaded():
        state = registry.state(name)
        counts[state] = counts.get(state, 0) + 1
    return counts


def hook_orders(registry: $Registry) -> dict[str, list[str]]:
    """For every hook, the plugins implementing it in the order they are called."""
    return {hook: registry.hooks.get(hook).plugins() for hook in registry.hooks.names()}


def plugin_help(registry: $Registry, name: str) -> str:
    """A loaded plugin explained: its module's `help_text` with the settings the registry gives it
    now, or its spec in one line for a plugin without one."""
    spec = registry.spec(name)
    module = registry.catalog.module(spec)
    if module is not None and hasattr(module, "help_text"):
        return module.help_text(registry.settings(name))
    return f"{spec.name} {spec.version}: {spec.description or 'no description'}\n"
'''

CORE = r'''"""The `core` plugin: the host's own hook implementations. Every shipped plugin requires it.

Its `transform` runs first (every chain starts from an integer) and its `describe` and `handles`
run last (`handles` answers for files no other plugin takes)."""

from __future__ import annotations

from .markers import hookimpl
from .spec import PluginSpec

SPEC = PluginSpec("core", "$api_version", settings={"strict": False}, description="the host's own hooks",
                  module=__name__)


@hookimpl(tryfirst=True)
def transform(value):
    """'12' -> 12, 3.9 -> 3."""
    return int(value)


@hookimpl(trylast=True)
def describe():
    return f"core {SPEC.version}"


@hookimpl(trylast=True)
def handles(path):
    return "core"


@hookimpl
def setup(config):
    return SPEC.name
'''

PLUGINS_INDEX = r'''"""The plugins that ship with the package, one module each, and a registry with all of them."""

from __future__ import annotations

from .. import core
from ..config import Config
from ..errors import NotLoaded
from ..registry import $Registry
$unit_imports

BUILTIN = {
$unit_table
}


def plugin_names() -> list[str]:
    return sorted(BUILTIN)


def plugin_module(name: str):
    try:
        return BUILTIN[name]
    except KeyError:
        raise NotLoaded(f"no shipped plugin named {name!r}") from None


def builtin_registry(config: Config | None = None, only=None) -> $Registry:
    """A registry with `core` and every shipped plugin in its catalog, and the plugins in `only`
    (by default all of them) loaded."""
    registry = $Registry(config=config)
    registry.add_module(core)
    for name in sorted(BUILTIN):
        registry.add_module(BUILTIN[name])
    registry.load(*(sorted(BUILTIN) if only is None else only))
    return registry


def extensions() -> dict[str, list[str]]:
    """File extension -> the shipped plugins that handle it, by name."""
    out: dict[str, list[str]] = {}
    for name in sorted(BUILTIN):
        out.setdefault(BUILTIN[name].EXTENSION, []).append(name)
    return out


def transformers(registry: $Registry) -> list[str]:
    """The enabled shipped plugins in the order the `transform` hook calls them."""
    return [name for name in registry.hooks.get("transform").plugins() if name in BUILTIN and registry.is_enabled(name)]


def chain_formula(registry: $Registry) -> tuple[int, int]:
    """(factor, offset): the registry's whole `transform` chain, for whole numbers, as one
    value * factor + offset (core's own `transform` leaves whole numbers as they are)."""
    factor, offset = 1, 0
    for name in transformers(registry):
        f, o = BUILTIN[name].affine(registry.settings(name))
        factor, offset = factor * f, offset * f + o
    return factor, offset


def explain_chain(registry: $Registry) -> list[str]:
    """'N. name: x * 2 + 1', one line per plugin of the `transform` chain, in call order."""
    return [f"{i}. {name}: {BUILTIN[name].formula(registry.settings(name))}"
            for i, name in enumerate(transformers(registry), 1)]


def undo_chain(registry: $Registry, value: int) -> int:
    """The whole number `registry.chain("transform", ...)` turned into `value`: every plugin's
    `unscale`, last called first. DataError when the chain cannot give `value`."""
    for name in reversed(transformers(registry)):
        value = BUILTIN[name].unscale(value, registry.settings(name))
    return value


def process_file(registry: $Registry, path: str, text: str) -> tuple[str | None, str]:
    """(the plugin that handles `path`, the file's text as it leaves it): the first enabled plugin
    whose `handles` claims it; a file only core takes (or none does) is left as it is."""
    name = registry.first("handles", path=path)
    if name in BUILTIN:
        return name, BUILTIN[name].process(text, registry.settings(name), source=path)
    return name, text
'''

UNIT = r'''"""The `$unit` plugin: scales every value passing through the `transform` hook by its `factor`
setting and shifts it by its `offset`, describes itself, and handles `.$ext` files.

A `.$ext` file, as this plugin reads it, holds whole numbers, one a line (blank lines and lines
starting with '#' are skipped); `process` writes it back with every number transformed. The rest
of the package uses the other functions: `plugins.undo_chain` runs the transform chain backwards
through `unscale`, `plugins.chain_formula` folds every plugin's `affine` into one formula, and
`report.plugin_help` shows `help_text`.
"""

from __future__ import annotations

import sys

from ..errors import ConfigError, DataError
from ..markers import collect, hookimpl
from ..spec import PluginSpec

EXTENSION = "$ext"
SPEC = PluginSpec(
    "$unit",
    "$uversion",
    requires={"core": ">=$core_min"},
    priority=$upriority,
    settings={"factor": $factor, "offset": $offset, "label": "$Unit"},
    description="$Unit: values times $factor, plus $offset; handles .$ext files",
    module=__name__,
)
SETTINGS_HELP = {
    "factor": "a whole number >= 0 that every value is multiplied by",
    "offset": "a whole number added after multiplying",
    "label": "the name reports show for the plugin",
}


def check(settings: dict) -> list[str]:
    """What is wrong with `settings` for this plugin, one message each (a setting left out
    counts as its default only for `label`)."""
    problems = []
    for key in ("factor", "offset"):
        value = settings.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{SPEC.name}.{key}: expected an integer, got {value!r}")
    if not problems and settings["factor"] < 0:
        problems.append(f"{SPEC.name}.factor: must not be negative, got {settings['factor']}")
    label = settings.get("label", SPEC.settings["label"])
    if not isinstance(label, str) or not label.strip():
        problems.append(f"{SPEC.name}.label: expected some text, got {label!r}")
    return problems


def checked(settings: dict | None = None) -> dict:
    """`settings` (the defaults when None) if `check` finds nothing wrong; ConfigError if it does."""
    settings = SPEC.settings if settings is None else settings
    problems = check(settings)
    if problems:
        raise ConfigError("; ".join(problems))
    return settings


def scale(value: int, settings: dict | None = None) -> int:
    """`value` as this plugin's `transform` leaves it."""
    settings = SPEC.settings if settings is None else settings
    return value * settings["factor"] + settings["offset"]


def unscale(value: int, settings: dict | None = None) -> int:
    """The value `scale` was given, from what it returned. DataError when no whole number scales
    to `value`, or when every number scales to the same one (factor 0)."""
    factor, offset = affine(settings)
    if factor == 0:
        raise DataError(f"{SPEC.name}: with factor 0 every value becomes {offset}, so {value} cannot be undone")
    if (value - offset) % factor:
        raise DataError(f"{SPEC.name}: {value} is not a value its transform gives ({formula(settings)})")
    return (value - offset) // factor


def affine(settings: dict | None = None) -> tuple[int, int]:
    """(factor, offset): what `transform` does to a value, as value * factor + offset."""
    settings = checked(settings)
    return settings["factor"], settings["offset"]


def formula(settings: dict | None = None, x: str = "x") -> str:
    """`transform` written out: 'x * 3 - 2' (a factor of 1 and an offset of 0 left out)."""
    factor, offset = affine(settings)
    text = x if factor == 1 else f"{x} * {factor}"
    return text + (f" {'+' if offset > 0 else '-'} {abs(offset)}" if offset else "")


def parse(text: str, source: str = "<text>") -> list[int]:
    """The numbers of a `.$ext` file; DataError names the source and line of anything else."""
    numbers = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            numbers.append(int(stripped))
        except ValueError:
            raise DataError(f"{source}: line {number}: expected a whole number, got {stripped!r}") from None
    return numbers


def render(numbers, note: str = "") -> str:
    """A `.$ext` file of `numbers`, with `note` as a comment line first; `parse` reads it back."""
    return "".join(f"{line}\n" for line in ([f"# {note}"] if note else []) + [str(n) for n in numbers])


def process(text: str, settings: dict | None = None, source: str = "<text>") -> str:
    """A `.$ext` file as this plugin leaves it: every number transformed, and a comment saying how
    (an earlier comment line replaced)."""
    settings = checked(settings)
    numbers = [scale(n, settings) for n in parse(text, source)]
    return render(numbers, f"{SPEC.name} {SPEC.version}: {formula(settings)}")


def help_text(settings: dict | None = None) -> str:
    """The plugin for people: its spec, its hooks, and each setting with its value (the default
    where `settings` leaves it out) and what it does."""
    settings = {**SPEC.settings, **(settings or {})}
    hooks = ", ".join(name for name, _, _ in collect(sys.modules[__name__]))
    lines = [f"{SPEC.name} {SPEC.version}: {SPEC.description}",
             f"  requires: {', '.join(str(r) for r in SPEC.requires) or 'nothing'}; priority {SPEC.priority}",
             f"  hooks: {hooks}", f"  files: .{EXTENSION} (whole numbers, one a line)", "  settings:"]
    lines += [f"    {key} = {settings[key]!r}: {SETTINGS_HELP[key]}" for key in sorted(SETTINGS_HELP)]
    return "\n".join(lines) + "\n"


@hookimpl
def transform(value, settings):
    return scale(value, settings)


@hookimpl
def describe():
    return f"{SPEC.name} {SPEC.version}"


@hookimpl
def handles(path):
    return SPEC.name if path.lower().endswith("." + EXTENSION) else None


@hookimpl
def setup(config):
    checked(config)
    return SPEC.name


@hookimpl
def teardown():
    return SPEC.name
'''

README = r'''# $pkg

A plugin registry. Plugins declare a version and what they need from other plugins (version
ranges such as `>=1.2,<2`, `^1.4`, `~2.1`); the registry

- discovers plugins from a JSON manifest (`$load_manifest`, `$Registry.discover`),
- keeps every version it knows in a catalog (`Catalog`),
- resolves which version of each plugin to load, backtracking when a choice leaves a requirement
  unmet (`$resolve`),
- loads them so that each comes after what it needs (`graph.DependencyGraph`), and reports cycles,
- calls their hooks in a defined order: `tryfirst`, then by priority, then `trylast`
  (`hooks.HookCaller`; implementations are marked with `@hookimpl`),
- switches plugins off and on (`disable`, `$enable`; a plugin whose dependency is off is *blocked*),
- gives each plugin its settings from layers: its defaults, a configuration file, overrides
  (`Config`).

$unit_count plugins ship with the package (`$pkg.plugins`), besides `core`, the host's own hooks.

```python
from $pkg.plugins import builtin_registry
from $pkg import lifecycle, report

registry = builtin_registry()
print(registry.loaded())                       # core first, then every plugin that requires it
print(registry.chain("transform", 5))          # 5 passed through every plugin's transform hook
print(registry.first("handles", path="a.csv")) # the plugin that handles .csv files
registry.disable("core")                       # everything else is now blocked
print(report.table(registry), end="")
```

Each shipped plugin multiplies the values passing through `transform` by its `factor` setting and
adds its `offset`, and rewrites the files it handles (whole numbers, one a line) the same way; a
file it cannot read raises `DataError`, naming the file and the line. The chain of them reads as
one formula and runs backwards:

```python
from $pkg.plugins import chain_formula, explain_chain, process_file, undo_chain

registry = builtin_registry()
print(explain_chain(registry))                  # ['1. audit: x * 2 + 1', ...] in call order
factor, offset = chain_formula(registry)        # chain("transform", v) == v * factor + offset
print(undo_chain(registry, registry.chain("transform", 7)))   # 7
print(process_file(registry, "in.csv", "1\n2\n"))  # (the plugin that took it, the new text)
print(report.plugin_help(registry, "core"))     # a plugin, its hooks and settings, for people
```

A manifest:

```json
{"$manifest_key": [
  {"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0"},
   "module": "myapp.plugins.auth", "priority": 10, "settings": {"retries": 3}}
]}
```

Configuration (INI), one section per plugin, and `[$host_section]` for the registry itself:

```ini
[$host_section]
disabled = metrics

[auth]
retries = 5
```

Run the tests with `python -m pytest -q`.
'''

PYPROJECT = r'''[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$pkg"
version = "0.$minor.0"
description = "A plugin registry: versions, manifests, dependency resolution, ordered hooks, settings"
requires-python = ">=3.10"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

TESTS = r'''#@area versions
import pytest
from $pkg.errors import VersionError
from $pkg.versions import $Version, compare, newest, parse_version, sort_versions
#@test visible
def test_parse_and_print():
    assert str(parse_version("1.4.2")) == "1.4.2"
    assert str(parse_version("2.0")) == "2.0.0"
    assert str(parse_version("v3")) == "3.0.0"
    assert str(parse_version(" 1.0.0-rc.1 ")) == "1.0.0-rc.1"
    assert parse_version("1.2.3").release == (1, 2, 3)
    assert parse_version("1.2.3-beta").is_prerelease is True
    assert parse_version("1.2.3").is_prerelease is False
#@test visible
def test_bad_versions_are_refused():
    for bad in ("", "1.2.3.4", "01.2", "1.x", "-1", "1.2-", "one"):
        with pytest.raises(VersionError):
            parse_version(bad)
#@test visible
def test_compare_releases():
    assert compare("1.2.3", "1.10.0") == -1
    assert compare("2.0.0", "2.0") == 0
    assert compare("1.0.1", "1.0.0") == 1
    assert sort_versions(["1.10.0", "1.2.0", "1.9.9", "0.4"]) == ["0.4.0", "1.2.0", "1.9.9", "1.10.0"]
    assert sort_versions(["1.0", "3.1", "2.2"], reverse=True) == ["3.1.0", "2.2.0", "1.0.0"]
#@test visible
def test_bump_releases():
    version = parse_version("1.4.2")
    assert [str(version.bump(part)) for part in ("patch", "minor", "major")] == ["1.4.3", "1.5.0", "2.0.0"]
    assert str(version.bump()) == "1.4.3"
#@test catches=prerelease
def test_prerelease_sorts_before_release():
    assert compare("1.0.0-rc.1", "1.0.0") == -1
    assert compare("2.0.0", "2.0.0-alpha") == 1
    assert sort_versions(["1.0.0", "1.0.0-rc.1", "0.9.0"]) == ["0.9.0", "1.0.0-rc.1", "1.0.0"]
    assert str(newest(["2.0.0-rc.2", "2.0.0", "1.9.0"])) == "2.0.0"
#@test
def test_prerelease_identifiers():
    assert compare("1.0.0-rc.2", "1.0.0-rc.10") == -1
    assert compare("1.0.0-alpha", "1.0.0-alpha.1") == -1
    assert compare("1.0.0-alpha.beta", "1.0.0-beta") == -1
    assert compare("1.0.0-1", "1.0.0-alpha") == -1
    assert compare("1.0.0-rc.1", "1.0.0-rc.1") == 0
    assert compare("1.0.0-rc.1", "0.9.9") == 1
#@test
def test_bump_prereleases():
    assert str(parse_version("1.4.0-rc.1").bump("patch")) == "1.4.0"
    assert str(parse_version("1.4.0-rc.1").bump("minor")) == "1.4.0"
    assert str(parse_version("1.4.1-rc.1").bump("minor")) == "1.5.0"
    assert str(parse_version("1.4.1-rc.1").bump("patch")) == "1.4.1"
    assert str(parse_version("2.0.0-rc.1").bump("major")) == "2.0.0"
    assert str(parse_version("2.1.0-rc.1").bump("major")) == "3.0.0"
    assert str(parse_version("2.0.1-rc.1").bump("major")) == "3.0.0"
    with pytest.raises(VersionError):
        parse_version("1.0.0").bump("build")
#@test
def test_newest():
    assert str(newest(["1.2.0", "1.10.0", "1.9.0"])) == "1.10.0"
    assert newest([]) is None
    assert str(newest(["2.0.0-rc.1", "1.9.0"])) == "2.0.0-rc.1"
    assert str(newest(["2.0.0-rc.1", "1.9.0"], include_prereleases=False)) == "1.9.0"
    assert newest(["2.0.0-rc.1"], include_prereleases=False) is None
#@test
def test_versions_as_objects():
    assert parse_version("1.2.3") == $Version(1, 2, 3)
    assert $Version(1, 2, 3) < $Version(1, 3)
    assert not ($Version(2) < $Version(1, 9, 9))
    assert $Version(1, 2) <= $Version(1, 2, 0)
    assert repr($Version(1, 2, 3)) == "$Version('1.2.3')"
    with pytest.raises(VersionError):
        $Version(1, -2)
    with pytest.raises(VersionError):
        $Version(-1)
#@test
def test_compatible_versions():
    base = parse_version("1.2.0")
    assert [base.compatible_with(parse_version(v)) for v in ("1.2.0", "1.9.0", "2.0.0", "1.1.9")] == [True, True, False, False]
    zero = parse_version("0.2.1")
    assert [zero.compatible_with(parse_version(v)) for v in ("0.2.5", "0.3.0", "0.2.0", "1.2.1")] == [True, False, False, False]

#@area ranges
import pytest
from $pkg.errors import VersionError
from $pkg.ranges import Range, caret_upper, satisfies, tilde_upper
from $pkg.versions import parse_version
#@test visible
def test_bounds():
    r = Range(">=1.2,<2")
    assert [r.contains(v) for v in ("1.1.9", "1.2.0", "1.9.9", "2.1.0")] == [False, True, True, False]
    assert Range("<=2.0").contains("2.0.0") is True
    assert Range("<=2.0").contains("2.0.1") is False
#@test visible
def test_normalized_text():
    assert str(Range("^1.2.3")) == ">=1.2.3,<2.0.0"
    assert str(Range("~1.2")) == ">=1.2.0,<1.3.0"
    assert str(Range("*")) == "*"
    assert str(Range("==1.4")) == "==1.4.0"
    assert str(Range("1.4")) == "==1.4.0"
    assert str(Range(">1.0, !=1.3.0")) == ">1.0.0,!=1.3.0"
#@test visible
def test_any_version():
    assert Range("").contains("0.0.1") is True
    assert Range("*").contains("99.0.0") is True
    assert str(Range("  ")) == "*"
#@test visible
def test_bad_ranges():
    for bad in (">=", "1.2,,2", "=>1.0", "^x", ">=1.0 <2.0"):
        with pytest.raises(VersionError):
            Range(bad)
#@test catches=upper_bound
def test_upper_bound_is_exclusive():
    assert Range("<2.0").contains("2.0.0") is False
    assert Range(">=1.0,<1.5").contains("1.5.0") is False
    assert Range(">=1.0,<1.5").contains("1.4.99") is True
#@test catches=upper_bound
def test_caret_and_tilde_ranges():
    assert [Range("^1.2.3").contains(v) for v in ("1.2.2", "1.2.3", "1.9.0", "2.0.0")] == [False, True, True, False]
    assert [Range("^0.2.3").contains(v) for v in ("0.2.9", "0.3.0")] == [True, False]
    assert [Range("^0.0.3").contains(v) for v in ("0.0.3", "0.0.4")] == [True, False]
    assert [Range("~1.2.3").contains(v) for v in ("1.2.9", "1.3.0")] == [True, False]
    assert [Range("~1").contains(v) for v in ("1.9.0", "2.0.0")] == [True, False]
#@test
def test_upper_helpers():
    assert str(caret_upper(parse_version("1.2.3"))) == "2.0.0"
    assert str(caret_upper(parse_version("0.2.3"))) == "0.3.0"
    assert str(caret_upper(parse_version("0.0.3"))) == "0.0.4"
    assert str(tilde_upper(parse_version("1.2.3"), 3)) == "1.3.0"
    assert str(tilde_upper(parse_version("1.2.3"), 2)) == "1.3.0"
    assert str(tilde_upper(parse_version("1.2.3"), 1)) == "2.0.0"
#@test
def test_exclusions_and_exact_versions():
    assert [Range("!=1.3.0").contains(v) for v in ("1.3.0", "1.3.1", "0.1.0")] == [False, True, True]
    assert [Range("==1.4.0").contains(v) for v in ("1.4.0", "1.4.1", "1.3.9")] == [True, False, False]
    assert [Range(">1.0").contains(v) for v in ("1.0.0", "1.0.1")] == [False, True]
    assert [Range("=2.1").contains(v) for v in ("2.1.0", "2.1.1")] == [True, False]
#@test
def test_empty_ranges():
    assert Range(">=2,<1").is_empty() is True
    assert Range(">=1,<1").is_empty() is True
    assert Range(">1,<=1").is_empty() is True
    assert Range(">=1,<=1").is_empty() is False
    assert Range("==1.0,!=1.0").is_empty() is True
    assert Range(">=1").is_empty() is False
    assert Range("<1").is_empty() is False
    assert Range(">=1,<1.0.1").is_empty() is False
#@test
def test_intersect():
    assert str(Range(">=1.0").intersect(Range("<2.0"))) == ">=1.0.0,<2.0.0"
    assert str(Range("^1.2").intersect(Range("~1.4"))) == ">=1.4.0,<1.5.0"
    assert str(Range("*").intersect(Range("*"))) == "*"
    assert Range(">=2").intersect(Range("<1")).is_empty() is True
#@test catches=upper_bound
def test_filter_and_best():
    assert Range("^1.0").filter(["2.0.0", "0.9.0", "1.5.2", "1.0.0"]) == ["1.0.0", "1.5.2"]
    assert Range("<2").best(["1.5.0", "2.0.0", "1.9.1"]) == "1.9.1"
    assert Range(">=3").best(["1.5.0", "2.0.0"]) is None
#@test
def test_satisfies():
    assert satisfies("1.4.0", ">=1.0,<2") is True
    assert satisfies("2.5.0", "<2") is False
    assert satisfies(parse_version("1.0.0"), "*") is True
#@test
def test_tightest_bounds_win():
    assert str(Range(">=1.0,>=1.2,<3,<2.5")) == ">=1.2.0,<2.5.0"
    assert str(Range(">=1.2,>1.2")) == ">1.2.0"
    assert str(Range(">1.2,>=1.2")) == ">1.2.0"
    assert str(Range("<2,<=2")) == "<2.0.0"
    assert str(Range("<=2,<2")) == "<2.0.0"
    assert str(Range("<=2,<=3")) == "<=2.0.0"
    assert str(Range("~1-rc.1")) == ">=1.0.0-rc.1,<2.0.0"
    assert str(Range("~1.4.2-rc.1")) == ">=1.4.2-rc.1,<1.5.0"
    assert repr(Range("^2")) == "Range('>=2.0.0,<3.0.0')"

#@area spec
import pytest
from $pkg.errors import ${Error}, VersionError
from $pkg.spec import PluginSpec, parse_requirement
#@test visible
def test_requirements_parse():
    r = parse_requirement("auth>=1.2,<2")
    assert (r.name, str(r.range)) == ("auth", ">=1.2.0,<2.0.0")
    assert str(parse_requirement("cache")) == "cache"
    assert str(parse_requirement("db ^2.1")) == "db>=2.1.0,<3.0.0"
    assert str(parse_requirement("web-ui==1.0")) == "web-ui==1.0.0"
#@test visible
def test_spec_fields():
    spec = PluginSpec("auth", "1.4", requires={"core": ">=1.0"}, priority=5, settings={"realm": "main"})
    assert (spec.name, str(spec.version), spec.priority, spec.key) == ("auth", "1.4.0", 5, "auth==1.4.0")
    assert [str(r) for r in spec.requires] == ["core>=1.0.0"]
    assert spec.settings == {"realm": "main"}
#@test visible
def test_spec_requires_as_a_list():
    spec = PluginSpec("app", "1.0", requires=["web>=1", "db"])
    assert spec.requires_names() == ["db", "web"]
    assert str(spec.requirement("web")) == "web>=1.0.0"
    assert spec.requirement("cache") is None
#@test
def test_bad_specs():
    with pytest.raises(${Error}):
        PluginSpec("Auth", "1.0")
    with pytest.raises(${Error}):
        PluginSpec("1auth", "1.0")
    with pytest.raises(VersionError):
        PluginSpec("auth", "one")
    with pytest.raises(VersionError):
        PluginSpec("auth", "1.0", requires={"core": ">=x"})
    with pytest.raises(${Error}, match="twice"):
        PluginSpec("auth", "1.0", requires=["core", "core>=1"])
    with pytest.raises(${Error}, match="itself"):
        PluginSpec("auth", "1.0", requires={"auth": "*"})
    with pytest.raises(${Error}, match="str"):
        PluginSpec("auth", "1.0", requires="core")
    with pytest.raises(${Error}, match="priority"):
        PluginSpec("auth", "1.0", priority="high")
    with pytest.raises(VersionError):
        parse_requirement("Auth>=1")
#@test
def test_spec_as_dict_round_trip():
    spec = PluginSpec("auth", "1.4", requires={"core": "^1.0"}, priority=5, settings={"realm": "main"},
                      description="logs people in", module="app.auth")
    entry = spec.as_dict()
    assert entry == {"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0.0,<2.0.0"}, "priority": 5,
                     "settings": {"realm": "main"}, "description": "logs people in", "module": "app.auth"}
    assert PluginSpec(**entry).as_dict() == entry
    assert PluginSpec("bare", "0.1").as_dict() == {"name": "bare", "version": "0.1.0"}
#@test
def test_requirement_accepts():
    r = parse_requirement("auth~1.2")
    assert [r.accepts(v) for v in ("1.2.5", "1.3.1", "1.1.0")] == [True, False, False]
    assert parse_requirement("auth").accepts("0.0.1") is True
#@test
def test_specs_equal_by_name_and_version():
    assert PluginSpec("a", "1.0") == PluginSpec("a", "1.0.0", priority=3)
    assert not (PluginSpec("a", "1.0") == PluginSpec("a", "1.1"))
    assert repr(PluginSpec("a", "1.0")) == "PluginSpec('a', '1.0.0')"
#@test needs=conflicts
def test_spec_conflicts():
    spec = PluginSpec("a", "1.0", conflicts=["b<2", "c"])
    assert [str(c) for c in spec.conflicts] == ["b<2.0.0", "c"]
    assert spec.as_dict()["conflicts"] == {"b": "<2.0.0", "c": "*"}
    assert PluginSpec("d", "1.0", conflicts={"e": "*"}).as_dict()["conflicts"] == {"e": "*"}
    assert "conflicts" not in PluginSpec("d", "1.0").as_dict()
    with pytest.raises(${Error}, match="itself"):
        PluginSpec("a", "1.0", conflicts=["a"])

#@area manifest
import json
import pytest
from $pkg.errors import ManifestError
from $pkg.manifest import KEY, dump_manifest, $load_manifest
#@test visible
def test_manifest_entries():
    text = json.dumps({KEY: [{"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0"}},
                             {"name": "core", "version": "2.0", "settings": {"strict": True}}]})
    specs = $load_manifest(text)
    assert [s.key for s in specs] == ["auth==1.4.0", "core==2.0.0"]
    assert [str(r) for r in specs[0].requires] == ["core>=1.0.0"]
    assert specs[1].settings == {"strict": True}
#@test visible
def test_manifest_requires_as_a_list():
    text = json.dumps({KEY: [{"name": "app", "version": "1.0.0", "requires": ["web^1.2", "db"], "priority": 7}]})
    spec = $load_manifest(text)[0]
    assert [str(r) for r in spec.requires] == ["db", "web>=1.2.0,<2.0.0"]
    assert spec.priority == 7
#@test visible
def test_manifest_errors_name_the_entry_and_field():
    text = json.dumps({KEY: [{"name": "ok", "version": "1.0.0"}, {"name": "cache", "version": "1.0.0", "priority": "high"}]})
    with pytest.raises(ManifestError, match=r"plugins\.json: entry 2 \(cache\): field 'priority': expected an integer, got str"):
        $load_manifest(text, "plugins.json")
#@test
def test_manifest_bad_json():
    with pytest.raises(ManifestError, match="line 2, column 1"):
        $load_manifest('{"a":\n', "m.json")
#@test
def test_manifest_shape_errors():
    cases = [
        ([], "expected an object with a"),
        ({"other": []}, "expected an object with a"),
        ({KEY: {"name": "a"}}, "must be a list of plugins, got dict"),
        ({KEY: ["auth"]}, r"entry 1: expected an object, got str"),
        ({KEY: [{"name": "auth"}]}, r"entry 1 \(auth\): field 'version' is missing"),
        ({KEY: [{"version": "1.0"}]}, r"entry 1: field 'name' is missing"),
        ({KEY: [{"name": "auth", "version": "1.0", "colour": "red"}]}, r"entry 1 \(auth\): unknown field 'colour'"),
        ({KEY: [{"name": "auth", "version": "1.x"}]}, r"entry 1 \(auth\): field 'version': not a version"),
        ({KEY: [{"name": "auth", "version": "1.0", "priority": True}]}, r"field 'priority': expected an integer, got bool"),
        ({KEY: [{"name": "auth", "version": "1.0", "requires": "core"}]}, r"field 'requires': expected an object or a list"),
        ({KEY: [{"name": "Auth", "version": "1.0"}]}, r"entry 1 \(Auth\): not a plugin name"),
        ({KEY: [{"name": "a", "version": "1.0"}, {"name": "a", "version": "1.0.0"}]}, "already listed by entry 1"),
    ]
    for data, message in cases:
        with pytest.raises(ManifestError, match=message):
            $load_manifest(json.dumps(data), "m.json")
#@test
def test_manifest_dump_round_trip():
    text = json.dumps({KEY: [{"name": "auth", "version": "1.4.0", "requires": {"core": "^1.0"}, "priority": 3,
                              "settings": {"realm": "x"}, "module": "app.auth"}, {"name": "core", "version": "1.2.0"}]})
    specs = $load_manifest(text)
    again = $load_manifest(dump_manifest(specs))
    assert [s.as_dict() for s in again] == [s.as_dict() for s in specs]
    assert json.loads(dump_manifest(specs))[KEY][0]["requires"] == {"core": ">=1.0.0,<2.0.0"}
#@test needs=conflicts
def test_manifest_reads_conflicts():
    text = json.dumps({KEY: [{"name": "auth", "version": "1.0.0", "conflicts": {"legacy-auth": "*"}},
                             {"name": "sso", "version": "1.0.0", "conflicts": ["auth<2"]}]})
    specs = $load_manifest(text)
    assert [[str(c) for c in s.conflicts] for s in specs] == [["legacy-auth"], ["auth<2.0.0"]]
    with pytest.raises(ManifestError, match=r"field 'conflicts': expected an object or a list"):
        $load_manifest(json.dumps({KEY: [{"name": "a", "version": "1.0", "conflicts": 3}]}))

#@area catalog
import json
import pytest
from $pkg.catalog import Catalog
from $pkg.errors import ${Error}
from $pkg.manifest import KEY
from $pkg.spec import PluginSpec
#@test visible
def test_catalog_versions_newest_first():
    catalog = Catalog([PluginSpec("a", "1.0"), PluginSpec("a", "1.10.0"), PluginSpec("a", "1.2"), PluginSpec("b", "0.1")])
    assert [str(s.version) for s in catalog.versions("a")] == ["1.10.0", "1.2.0", "1.0.0"]
    assert catalog.names() == ["a", "b"]
    assert len(catalog) == 4
    assert catalog.versions("zzz") == []
#@test visible
def test_catalog_best():
    catalog = Catalog([PluginSpec("a", "1.0"), PluginSpec("a", "1.10.0"), PluginSpec("a", "1.2")])
    assert catalog.best("a", ">=1.1,<1.5").key == "a==1.2.0"
    assert catalog.best("a").key == "a==1.10.0"
    assert catalog.best("a", ">5") is None
    assert catalog.best("zzz") is None
#@test
def test_catalog_refuses_duplicates():
    catalog = Catalog([PluginSpec("a", "1.0")])
    with pytest.raises(${Error}, match="already in the catalog"):
        catalog.add(PluginSpec("a", "1.0.0"))
#@test
def test_catalog_find_and_remove():
    catalog = Catalog([PluginSpec("a", "1.0"), PluginSpec("a", "1.2"), PluginSpec("a", "2.0"), PluginSpec("b", "1.0")])
    assert catalog.find("a", "1.2").key == "a==1.2.0"
    assert catalog.find("a", "1.3") is None
    assert catalog.remove("a", "1.2") == 1
    assert catalog.find("a", "1.2.0") is None
    assert catalog.remove("a") == 2
    assert catalog.names() == ["b"]
    assert catalog.remove("a") == 0
    assert len(catalog) == 1
#@test catches=prerelease
def test_catalog_latest_release():
    catalog = Catalog([PluginSpec("a", "2.0.0-rc.1"), PluginSpec("a", "2.0.0"), PluginSpec("a", "1.9.0"),
                       PluginSpec("b", "1.0.0-beta"), PluginSpec("b", "1.0.0-alpha")])
    assert [str(s.version) for s in catalog.versions("a")] == ["2.0.0", "2.0.0-rc.1", "1.9.0"]
    assert str(catalog.latest("a").version) == "2.0.0"
    assert str(catalog.latest("b").version) == "1.0.0-beta"
    assert catalog.latest("c") is None
#@test
def test_catalog_latest_skips_prereleases():
    catalog = Catalog([PluginSpec("a", "3.0.0-rc.1"), PluginSpec("a", "2.4.0")])
    assert str(catalog.latest("a").version) == "2.4.0"
#@test catches=upper_bound
def test_catalog_matching_respects_bounds():
    catalog = Catalog([PluginSpec("a", v) for v in ("1.0.0", "1.5.0", "2.0.0", "2.0.1")])
    assert [str(s.version) for s in catalog.matching("a", "<2.0")] == ["1.5.0", "1.0.0"]
    assert [str(s.version) for s in catalog.matching("a", ">=1.5,<=2.0")] == ["2.0.0", "1.5.0"]
#@test
def test_catalog_from_manifest():
    text = json.dumps({KEY: [{"name": "a", "version": "1.0"}, {"name": "b", "version": "0.1"}, {"name": "a", "version": "1.2"}]})
    catalog = Catalog.from_manifest(text)
    assert catalog.describe() == ["a: 1.2.0, 1.0.0", "b: 0.1.0"]

#@area resolver
import pytest
from $pkg.catalog import Catalog
from $pkg.errors import ConflictError, MissingPlugin, ResolutionError
from $pkg.resolver import describe, $resolve
from $pkg.spec import PluginSpec
#@test visible
def test_resolve_picks_the_newest_that_fits():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": ">=1.1,<1.5"}), PluginSpec("lib", "1.0"),
                       PluginSpec("lib", "1.2"), PluginSpec("lib", "1.4.1"), PluginSpec("lib", "1.6")])
    chosen = $resolve(catalog, ["app"])
    assert {name: str(spec.version) for name, spec in chosen.items()} == {"app": "1.0.0", "lib": "1.4.1"}
#@test visible
def test_resolve_missing_plugins():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"ghost": "*"})])
    with pytest.raises(MissingPlugin, match="nope"):
        $resolve(catalog, ["nope"])
    with pytest.raises(MissingPlugin, match="app 1.0.0 requires 'ghost'"):
        $resolve(catalog, ["app"])
#@test
def test_resolve_backtracks():
    catalog = Catalog([PluginSpec("app", "2.0", requires={"lib": ">=2"}), PluginSpec("app", "1.0", requires={"lib": "<2"}),
                       PluginSpec("tool", "1.0", requires={"lib": "~1.5"}), PluginSpec("lib", "1.5.3"),
                       PluginSpec("lib", "2.1.0"), PluginSpec("lib", "1.4.0")])
    chosen = $resolve(catalog, ["app", "tool"])
    assert {name: str(spec.version) for name, spec in chosen.items()} == {"app": "1.0.0", "lib": "1.5.3", "tool": "1.0.0"}
    assert {n: str(s.version) for n, s in $resolve(catalog, ["app"]).items()} == {"app": "2.0.0", "lib": "2.1.0"}
#@test
def test_resolve_explains_an_unmet_requirement():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": ">=3"}), PluginSpec("lib", "1.0"), PluginSpec("lib", "2.0")])
    with pytest.raises(ResolutionError, match=r"app 1\.0\.0 requires lib>=3\.0\.0, but the catalog has lib 2\.0\.0, 1\.0\.0"):
        $resolve(catalog, ["app"])
#@test
def test_resolve_requested_ranges_and_pins():
    catalog = Catalog([PluginSpec("lib", v) for v in ("1.0", "1.2", "1.4.1", "1.6")]
                      + [PluginSpec("app", "1.0", requires={"lib": ">=1.1"})])
    assert str($resolve(catalog, ["lib<1.5"])["lib"].version) == "1.4.1"
    assert str($resolve(catalog, ["app"], pinned={"lib": "1.2"})["lib"].version) == "1.2.0"
    assert list($resolve(catalog, ["lib"], pinned={"app": "1.0"})) == ["lib"]
    with pytest.raises(ResolutionError, match="pinned to 1.0.0"):
        $resolve(catalog, ["app"], pinned={"lib": "1.0"})
#@test catches=upper_bound
def test_resolve_respects_an_exclusive_upper_bound():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": "<2.0"}), PluginSpec("lib", "1.4.0"), PluginSpec("lib", "2.0.0")])
    assert str($resolve(catalog, ["app"])["lib"].version) == "1.4.0"
#@test catches=prerelease
def test_resolve_prefers_the_release_to_its_candidate():
    catalog = Catalog([PluginSpec("lib", "2.0.0-rc.1"), PluginSpec("lib", "2.0.0"), PluginSpec("lib", "1.9.0")])
    assert str($resolve(catalog, ["lib"])["lib"].version) == "2.0.0"
#@test
def test_resolve_shared_dependency_clash():
    catalog = Catalog([PluginSpec("a", "1.0", requires={"c": "==1.0"}), PluginSpec("b", "1.0", requires={"c": "==2.0"}),
                       PluginSpec("c", "1.0"), PluginSpec("c", "2.0")])
    with pytest.raises(ResolutionError, match=r"requires c==2\.0\.0, but c 1\.0\.0 was chosen"):
        $resolve(catalog, ["a", "b"])
#@test
def test_resolve_describe():
    catalog = Catalog([PluginSpec("app", "1.0", requires={"lib": "^1.0", "db": "*"}), PluginSpec("lib", "1.2"), PluginSpec("db", "3.1")])
    assert describe($resolve(catalog, ["app"])) == ["app 1.0.0 (requires db, lib>=1.0.0,<2.0.0)", "db 3.1.0", "lib 1.2.0"]
#@test needs=conflicts
def test_resolve_refuses_conflicting_plugins():
    catalog = Catalog([PluginSpec("a", "1.0", conflicts=["b"]), PluginSpec("b", "1.0")])
    with pytest.raises(ConflictError, match=r"a 1\.0\.0 conflicts with b 1\.0\.0"):
        $resolve(catalog, ["a", "b"])
    with pytest.raises(ConflictError, match=r"a 1\.0\.0 conflicts with b 1\.0\.0"):
        $resolve(catalog, ["b", "a"])
#@test needs=conflicts
def test_resolve_avoids_a_conflicting_version():
    catalog = Catalog([PluginSpec("a", "1.0", conflicts={"b": ">=2"}), PluginSpec("b", "2.1"), PluginSpec("b", "1.5")])
    assert {n: str(s.version) for n, s in $resolve(catalog, ["a", "b"]).items()} == {"a": "1.0.0", "b": "1.5.0"}
    assert {n: str(s.version) for n, s in $resolve(catalog, ["b", "a"]).items()} == {"a": "1.0.0", "b": "1.5.0"}
    assert {n: str(s.version) for n, s in $resolve(catalog, ["b"]).items()} == {"b": "2.1.0"}

#@area graph
import pytest
from $pkg.errors import ${Error}, CycleError
from $pkg.graph import DependencyGraph
#@test visible
def test_order_puts_dependencies_first():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    assert graph.order() == ["core", "auth", "admin", "cache"]
#@test visible
def test_plugins_ready_together_are_ordered_by_name():
    graph = DependencyGraph()
    for name in ("zeta", "alpha", "mid"):
        graph.add(name)
    graph.add_edge("zeta", "beta")
    assert graph.order() == ["alpha", "mid", "zeta", "beta"]
    assert graph.nodes() == ["alpha", "beta", "mid", "zeta"]
#@test visible
def test_cycles_are_reported():
    graph = DependencyGraph()
    graph.add_edge("a", "b")
    graph.add_edge("b", "c")
    graph.add_edge("c", "a")
    with pytest.raises(CycleError, match="a -> b -> c -> a"):
        graph.order()
#@test
def test_self_dependency_and_cycles():
    graph = DependencyGraph()
    with pytest.raises(CycleError, match="x -> x"):
        graph.add_edge("x", "x")
    graph.add_edge("root", "a")
    graph.add_edge("a", "b")
    graph.add_edge("b", "c")
    assert graph.find_cycle() == []
    graph.add_edge("c", "b")
    assert graph.find_cycle() == ["b", "c", "b"]
    with pytest.raises(CycleError, match="b -> c -> b"):
        graph.order()
#@test
def test_layers():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    graph.add_edge("cache", "admin")
    graph.add("lonely")
    assert graph.layers() == [["core", "lonely"], ["auth", "cache"], ["admin"]]
    assert DependencyGraph().layers() == []
#@test
def test_direct_neighbours():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("core", "cache")
    graph.add_edge("auth", "admin")
    graph.add_edge("cache", "admin")
    assert graph.requires("admin") == ["auth", "cache"]
    assert graph.needed_by("core") == ["auth", "cache"]
    assert graph.requires("core") == []
    assert (len(graph), graph.has("auth"), graph.has("nope")) == (4, True, False)
    with pytest.raises(${Error}, match="nope"):
        graph.requires("nope")
#@test catches=shared_seen
def test_dependents_transitive():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    graph.add("other")
    assert graph.dependents("core") == ["auth", "admin", "cache"]
    assert graph.dependents("auth") == ["admin"]
    assert graph.dependents("admin") == []
    assert graph.dependents("other") == []
#@test catches=shared_seen
def test_dependents_of_separate_graphs():
    first = DependencyGraph()
    first.add_edge("x", "y")
    second = DependencyGraph()
    second.add_edge("x", "z")
    second.add_edge("y", "z")
    assert first.dependents("x") == ["y"]
    assert second.dependents("x") == ["z"]
    assert second.dependents("y") == ["z"]
    assert first.dependents("y") == []
#@test
def test_dependents_of_an_unknown_plugin():
    with pytest.raises(${Error}, match="nope"):
        DependencyGraph().dependents("nope")
#@test
def test_dependencies_transitive():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    graph.add_edge("db", "admin")
    assert graph.dependencies("admin") == ["core", "auth", "db"]
    assert graph.dependencies("cache") == ["core"]
    assert graph.dependencies("core") == []
#@test
def test_subgraph():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    sub = graph.subgraph(["auth", "admin", "cache"])
    assert sub.order() == ["auth", "admin", "cache"]
    assert sub.requires("admin") == ["auth"]
    assert sub.requires("cache") == []

#@area hooks
import pytest
from $pkg import core
from $pkg.errors import HookError
from $pkg.hooks import HookCaller, HookSpec
from $pkg.markers import hookimpl, options_of
from $pkg.plugins import plugin_module
#@test visible
def test_callers_follow_priority():
    first, second = $unit_names[0], $unit_names[1]
    caller = HookCaller(HookSpec("describe", ()))
    caller.add("one", plugin_module(first).describe, priority=1)
    caller.add("two", plugin_module(second).describe, priority=5)
    caller.add("three", core.describe)
    assert caller.plugins() == ["two", "one", "three"]
    versions = [str(plugin_module(n).SPEC.version) for n in (second, first)]
    assert caller.call() == [f"{second} {versions[0]}", f"{first} {versions[1]}", f"core {core.SPEC.version}"]
#@test visible
def test_equal_priority_keeps_the_order_added():
    caller = HookCaller(HookSpec("describe", ()))
    for plugin, name in zip(("c", "a", "b"), $unit_names):
        caller.add(plugin, plugin_module(name).describe)
    assert caller.plugins() == ["c", "a", "b"]
#@test catches=hook_order
def test_tryfirst_and_trylast():
    names = $unit_names
    caller = HookCaller(HookSpec("describe", ()))
    caller.add("late", plugin_module(names[0]).describe, priority=100, trylast=True)
    caller.add("mid", plugin_module(names[1]).describe, priority=1)
    caller.add("early", plugin_module(names[2]).describe, priority=-5, tryfirst=True)
    caller.add("low", core.describe, priority=-1)
    assert caller.plugins() == ["early", "mid", "low", "late"]
#@test
def test_firstresult_hooks():
    name = $unit_names[0]
    module = plugin_module(name)
    caller = HookCaller(HookSpec("handles", ("path",), firstresult=True))
    caller.add(name, module.handles)
    assert caller.call(path="notes.unknownext") is None
    assert caller.call(path="DATA." + module.EXTENSION.upper()) == name
    caller.add("core", core.handles, priority=-1)
    assert caller.call(path="notes.unknownext") == "core"
    assert caller.call(path="x." + module.EXTENSION) == name
    plain = HookCaller(HookSpec("handles", ("path",)))
    plain.add(name, module.handles)
    plain.add("core", core.handles)
    assert plain.call(path="notes.unknownext") == ["core"]
#@test
def test_chain_hooks():
    name = $unit_names[0]
    caller = HookCaller(HookSpec("transform", ("value", "settings"), chain=True))
    caller.add(name, plugin_module(name).transform)
    caller.add("core", core.transform, tryfirst=True)
    assert caller.chain("7", extra={name: {"settings": {"factor": 3, "offset": 1}}}) == 22
    assert caller.chain(2.9, skip={name}) == 2
    assert caller.chain(5, skip={name, "core"}) == 5
#@test
def test_bad_implementations_and_calls():
    name = $unit_names[0]
    caller = HookCaller(HookSpec("describe", ()))
    with pytest.raises(HookError, match="does not pass"):
        caller.add(name, plugin_module(name).handles)
    caller.add(name, plugin_module(name).describe)
    with pytest.raises(HookError, match="already implements"):
        caller.add(name, core.describe)
    with pytest.raises(HookError, match="no argument"):
        caller.call(path="x")
    with pytest.raises(HookError, match="both"):
        caller.add("other", core.describe, tryfirst=True, trylast=True)
    chain = HookCaller(HookSpec("transform", ("value", "settings", "path"), chain=True))
    with pytest.raises(HookError, match="must take 'value'"):
        chain.add("core", core.handles)
    needs = HookCaller(HookSpec("handles", ("path",)))
    needs.add(name, plugin_module(name).handles)
    with pytest.raises(HookError, match="without path"):
        needs.call()
#@test
def test_markers():
    assert options_of(core.describe) == {"priority": None, "tryfirst": False, "trylast": True, "name": None}
    assert options_of(core.transform)["tryfirst"] is True
    assert options_of(plugin_module($unit_names[0]).check) is None
    with pytest.raises(HookError):
        hookimpl(tryfirst=True, trylast=True)
    with pytest.raises(HookError):
        hookimpl(priority="high")
#@test
def test_remove_and_call_one_plugin():
    name = $unit_names[0]
    caller = HookCaller(HookSpec("describe", ()))
    caller.add(name, plugin_module(name).describe)
    caller.add("core", core.describe)
    assert caller.call_plugin("core") == f"core {core.SPEC.version}"
    assert caller.call_plugin("nobody") is None
    assert caller.remove(name) is True
    assert caller.remove(name) is False
    assert caller.plugins() == ["core"]

#@area registry
import json
import pytest
from $pkg import core
from $pkg.config import HOST_SECTION, Config
from $pkg.errors import ${Error}, HookError, ManifestError, MissingPlugin, NotLoaded
from $pkg.manifest import KEY
from $pkg.plugins import builtin_registry, plugin_module
from $pkg.registry import $Registry
from $pkg.spec import PluginSpec
#@test visible
def test_builtin_registry_loads_everything():
    registry = builtin_registry()
    assert sorted(registry.loaded()) == sorted(["core", *$unit_names])
    assert sorted(registry.enabled()) == sorted(["core", *$unit_names])
    assert registry.state($unit_names[0]) == "enabled"
    assert registry.version("core") == str(core.SPEC.version)
#@test visible
def test_describe_every_plugin():
    registry = builtin_registry()
    expected = [f"{n} {plugin_module(n).SPEC.version}" for n in $unit_names] + [f"core {core.SPEC.version}"]
    assert sorted(registry.call("describe")) == sorted(expected)
#@test visible
def test_transform_chain_with_default_settings():
    registry = builtin_registry()
    value = 5
    for name in sorted($unit_names, key=lambda n: (-plugin_module(n).SPEC.priority, n)):
        settings = plugin_module(name).SPEC.settings
        value = value * settings["factor"] + settings["offset"]
    assert registry.chain("transform", "5") == value
#@test visible
def test_disable_and_enable():
    name = $unit_names[0]
    registry = builtin_registry()
    assert registry.disable(name) == [name]
    assert registry.disable(name) == []
    assert registry.state(name) == "disabled"
    assert name not in registry.enabled()
    assert registry.$enable(name) == [name]
    assert registry.state(name) == "enabled"
#@test visible
def test_unknown_plugin_names():
    registry = builtin_registry()
    assert registry.state("nope") == "not loaded"
    with pytest.raises(NotLoaded):
        registry.disable("nope")
    with pytest.raises(NotLoaded):
        registry.spec("nope")
#@test catches=swap_edge
def test_load_order_puts_dependencies_first():
    registry = builtin_registry()
    assert registry.loaded() == ["core", *sorted($unit_names)]
#@test catches=swap_edge
def test_load_order_of_a_chain():
    registry = $Registry()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    assert registry.load("app") == ["db", "web", "app"]
    assert registry.enabled() == ["db", "web", "app"]
#@test
def test_blocked_by_a_disabled_dependency():
    registry = $Registry()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    registry.add(PluginSpec("cli", "1.0"))
    registry.load("app", "cli")
    assert registry.disable("web") == ["web"]
    assert [registry.state(n) for n in ("db", "web", "app", "cli")] == ["enabled", "disabled", "blocked", "enabled"]
    assert sorted(registry.enabled()) == ["cli", "db"]
    registry.disable("db")
    assert sorted(registry.$enable("web")) == []
    assert sorted(registry.enabled()) == ["cli"]
#@test catches=swap_edge
def test_enable_with_dependencies():
    registry = $Registry()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    registry.load("app")
    registry.disable("db")
    registry.disable("web")
    assert registry.$enable("app") == []
    assert registry.$enable("app", with_dependencies=True) == ["db", "web", "app"]
#@test catches=shared_seen,swap_edge
def test_disable_cascades_to_dependents():
    registry = $Registry()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    registry.add(PluginSpec("cli", "1.0", requires={"db": "*"}))
    registry.load("app", "cli")
    assert sorted(registry.disable("web", cascade=True)) == ["app", "web"]
    assert registry.$enable("web") == ["web"]
    assert registry.$enable("app") == ["app"]
    assert sorted(registry.disable("cli", cascade=True)) == ["cli"]
    assert sorted(registry.disable("db", cascade=True)) == ["app", "db", "web"]
#@test catches=hook_order
def test_handles_falls_back_to_core():
    registry = builtin_registry()
    assert registry.first("handles", path="notes.unknownext") == "core"
    for name in $unit_names[:4]:
        ext = plugin_module(name).EXTENSION
        takers = sorted((-plugin_module(n).SPEC.priority, n) for n in $unit_names if plugin_module(n).EXTENSION == ext)
        assert registry.first("handles", path=f"data.{ext}") == takers[0][1]
#@test catches=hook_order
def test_core_describes_itself_last():
    registry = builtin_registry()
    assert registry.call("describe")[-1] == f"core {core.SPEC.version}"
#@test
def test_disabled_plugins_are_skipped():
    name = $unit_names[0]
    registry = builtin_registry()
    registry.disable(name)
    assert f"{name} {plugin_module(name).SPEC.version}" not in registry.call("describe")
    value = 5
    for other in sorted($unit_names[1:], key=lambda n: (-plugin_module(n).SPEC.priority, n)):
        settings = plugin_module(other).SPEC.settings
        value = value * settings["factor"] + settings["offset"]
    assert registry.chain("transform", 5) == value
    assert registry.call_plugin("describe", name) is None
    registry.disable("core")
    assert registry.call("describe") == []
    assert registry.chain("transform", "5") == "5"
#@test
def test_loading_again_replaces_what_was_loaded():
    name = $unit_names[0]
    registry = builtin_registry()
    assert sorted(registry.load(name)) == sorted(["core", name])
    assert sorted(registry.hooks.describe.plugins()) == sorted(["core", name])
    assert registry.state($unit_names[1]) == "not loaded"
    assert sorted(builtin_registry(only=[name]).loaded()) == sorted(["core", name])
#@test
def test_registry_errors():
    registry = builtin_registry()
    with pytest.raises(MissingPlugin):
        registry.load("nope")
    with pytest.raises(HookError, match="no hook named 'nohook'"):
        registry.call("nohook")
    with pytest.raises(${Error}, match="SPEC"):
        registry.add_module(json)
#@test catches=file_types
def test_chain_uses_settings_from_the_config_file():
    name = $unit_names[0]
    config = Config(f"[{name}]\nfactor = 2\noffset = 0\n")
    registry = builtin_registry(config=config)
    assert registry.settings(name)["factor"] == 2
    value = 5
    for other in sorted($unit_names, key=lambda n: (-plugin_module(n).SPEC.priority, n)):
        settings = {"factor": 2, "offset": 0} if other == name else plugin_module(other).SPEC.settings
        value = value * settings["factor"] + settings["offset"]
    assert registry.chain("transform", 5) == value
#@test
def test_config_disables_plugins():
    names = $unit_names
    config = Config(f"[{HOST_SECTION}]\ndisabled = {names[0]}, {names[1]}, unknown\n")
    registry = builtin_registry(config=config)
    assert [registry.state(n) for n in names[:3]] == ["disabled", "disabled", "enabled"]
    assert sorted(registry.enabled()) == sorted(["core", *names[2:]])
#@test
def test_discover_from_a_manifest():
    names = $unit_names[:2]
    entries = [{"name": "core", "version": str(core.SPEC.version), "module": "$pkg.core"}]
    entries += [{"name": n, "version": "9.0.0", "requires": {"core": "*"}, "module": f"$pkg.plugins.{n}", "priority": 1}
                for n in names]
    registry = $Registry()
    assert registry.discover(json.dumps({KEY: entries})) == [f"core=={core.SPEC.version}"] + [f"{n}==9.0.0" for n in names]
    assert sorted(registry.load(*names)) == sorted(["core", *names])
    assert sorted(registry.call("describe")) == sorted([f"core {core.SPEC.version}"]
                                                       + [f"{n} {plugin_module(n).SPEC.version}" for n in names])
    assert registry.version(names[0]) == "9.0.0"
#@test
def test_discover_refuses_a_missing_module():
    registry = $Registry()
    text = json.dumps({KEY: [{"name": "ghost", "version": "1.0", "module": "$pkg.plugins.no_such_plugin"}]})
    with pytest.raises(ManifestError, match=r"ghost 1\.0\.0: cannot import module"):
        registry.discover(text)
    assert registry.catalog.names() == []
#@test
def test_version_pins():
    registry = $Registry()
    for version in ("1.0", "1.2", "2.0"):
        registry.add(PluginSpec("db", version))
    registry.add(PluginSpec("app", "1.0", requires={"db": ">=1"}))
    registry.load("app", pinned={"db": "1.2"})
    assert registry.version("db") == "1.2.0"
    registry.load("app")
    assert registry.version("db") == "2.0.0"

#@area config
import pytest
from $pkg.coerce import coerce, render, to_bool, to_int, to_list
from $pkg.config import HOST_SECTION, Config
from $pkg.errors import ConfigError
#@test visible
def test_layers_in_order():
    config = Config()
    config.add_defaults("auth", {"realm": "main", "retries": 3})
    assert config.settings("auth") == {"realm": "main", "retries": 3}
    config.read("[auth]\nrealm = corp\n")
    assert config.settings("auth")["realm"] == "corp"
    assert config.source("auth", "realm") == "file"
    config.set("auth", "realm", "dev")
    assert (config.value("auth", "realm"), config.source("auth", "realm")) == ("dev", "override")
    assert config.source("auth", "retries") == "default"
    assert config.source("auth", "colour") is None
#@test visible
def test_apply_assignments():
    config = Config()
    config.add_defaults("auth", {"realm": "main"})
    assert config.apply("auth.realm = lab") == ("auth", "realm")
    assert config.value("auth", "realm") == "lab"
    for bad in ("authrealm=1", "auth.realm", ".realm=1", "auth.=1"):
        with pytest.raises(ConfigError, match="plugin.key=value"):
            config.apply(bad)
#@test visible
def test_coerce_values():
    assert coerce("yes", True) is True
    assert coerce("off", True) is False
    assert coerce("0x10", 0) == 16
    assert coerce("1_000", 0) == 1000
    assert coerce("1.5", 0.0) == 1.5
    assert coerce("a, b,,c", []) == ["a", "b", "c"]
    assert coerce("text", "default") == "text"
    assert coerce(7, "default") == 7
    assert [render(True), render(False), render(["a", "b"]), render(3)] == ["yes", "no", "a, b", "3"]
#@test catches=file_types
def test_file_values_take_the_type_of_the_default():
    config = Config()
    config.add_defaults("auth", {"retries": 3, "debug": False, "scopes": ["read"], "ratio": 0.5, "realm": "main"})
    config.read("[auth]\nretries = 5\ndebug = on\nscopes = read, write\nratio = 2\nrealm = corp\n")
    assert config.settings("auth") == {"retries": 5, "debug": True, "scopes": ["read", "write"], "ratio": 2.0, "realm": "corp"}
#@test catches=file_types
def test_override_strings_are_coerced():
    config = Config()
    config.add_defaults("auth", {"retries": 3})
    config.apply("auth.retries=7")
    assert config.value("auth", "retries") == 7
#@test
def test_values_set_in_code_keep_their_type():
    config = Config()
    config.add_defaults("auth", {"retries": 3})
    config.set("auth", "retries", 9)
    assert config.value("auth", "retries") == 9
    config.set("auth", "extra", "x")
    assert config.settings("auth") == {"retries": 9, "extra": "x"}
    assert config.unset("auth", "extra") is True
    assert config.unset("auth", "extra") is False
    assert config.value("auth", "missing", "fallback") == "fallback"
#@test
def test_bad_config_text():
    with pytest.raises(ConfigError, match="settings.ini"):
        Config("[auth\nx = 1\n", "settings.ini")
    with pytest.raises(ConfigError, match="already exists"):
        Config("[auth]\nx = 1\nx = 2\n")
    with pytest.raises(ConfigError, match="no section headers"):
        Config("x = 1\n")
#@test
def test_coerce_errors():
    with pytest.raises(ConfigError, match="auth.retries: expected an integer, got 'many'"):
        coerce("many", 3, "auth.retries")
    with pytest.raises(ConfigError, match="yes/no"):
        to_bool("maybe")
    with pytest.raises(ConfigError, match="number"):
        coerce("x", 1.0)
    assert to_int(" 012 ") == 12
    assert to_list(" , ") == []
#@test
def test_problems_name_the_setting():
    config = Config()
    config.add_defaults("auth", {"retries": 3})
    config.read("[auth]\nretries = many\ncolour = red\n")
    config.apply("auth.size=2")
    assert config.problems("auth") == ["auth.colour: unknown setting (known: retries)",
                                       "auth.retries: expected an integer, got 'many'",
                                       "auth.size: unknown setting (known: retries)"]
    assert Config().problems("auth") == []
#@test
def test_disabled_list():
    assert Config(f"[{HOST_SECTION}]\ndisabled = a, b\n").disabled() == ["a", "b"]
    assert Config().disabled() == []
    config = Config(f"[{HOST_SECTION}]\ndisabled = a\n")
    config.apply(f"{HOST_SECTION}.disabled=c, d")
    assert config.disabled() == ["c", "d"]
    config.set(HOST_SECTION, "disabled", ["e"])
    assert config.disabled() == ["e"]

#@area plugins
import pytest
from $pkg import core, lifecycle, report
from $pkg.errors import ConfigError, NotLoaded
from $pkg.errors import DataError
from $pkg.plugins import builtin_registry, extensions, plugin_module, plugin_names
from $pkg.plugins import chain_formula, explain_chain, process_file, transformers, undo_chain
from $pkg.registry import $Registry
from $pkg.spec import PluginSpec
#@test visible
def test_every_plugin_is_listed():
    assert plugin_names() == sorted($unit_names)
    with pytest.raises(NotLoaded):
        plugin_module("no-such-plugin")
#@test visible
def test_plugin_specs_match_their_modules():
    for name in $unit_names[:3]:
        module = plugin_module(name)
        assert module.SPEC.name == name
        assert module.SPEC.module == f"$pkg.plugins.{name}"
        assert module.SPEC.requires_names() == ["core"]
        assert module.check(module.SPEC.settings) == []
#@test visible
def test_plugin_scale():
    for name in $unit_names[-2:]:
        module = plugin_module(name)
        settings = module.SPEC.settings
        assert module.scale(4) == 4 * settings["factor"] + settings["offset"]
        assert module.scale(4, {"factor": 0, "offset": 1}) == 1
#@test
def test_plugin_checks():
    module = plugin_module($unit_names[0])
    name = $unit_names[0]
    assert module.check({"factor": -1, "offset": 0}) == [f"{name}.factor: must not be negative, got -1"]
    assert module.check({"factor": "2", "offset": True}) == [f"{name}.factor: expected an integer, got '2'",
                                                             f"{name}.offset: expected an integer, got True"]
#@test
def test_extensions():
    table = extensions()
    assert sorted(n for names in table.values() for n in names) == sorted($unit_names)
    for ext, names in table.items():
        assert all(plugin_module(n).EXTENSION == ext for n in names)
#@test catches=swap_edge
def test_start_and_stop_order():
    registry = builtin_registry()
    started = lifecycle.start(registry)
    assert started == ["core", *sorted($unit_names)]
    assert lifecycle.stop(registry, started) == [*sorted($unit_names, reverse=True), "core"]
    assert lifecycle.plan(registry)[0] == f"1. core {core.SPEC.version}"
#@test
def test_start_skips_disabled_plugins():
    name = $unit_names[0]
    registry = builtin_registry()
    registry.disable(name)
    assert sorted(lifecycle.start(registry)) == sorted(["core", *$unit_names[1:]])
    assert sorted(lifecycle.stop(registry)) == sorted(["core", *$unit_names[1:]])
    assert len(lifecycle.plan(registry)) == len($unit_names)
#@test
def test_resume_starts_what_was_blocked():
    registry = builtin_registry()
    registry.disable("core")
    assert registry.enabled() == []
    assert sorted(lifecycle.resume(registry, ["core"])) == sorted(["core", *$unit_names])
    assert lifecycle.resume(registry, ["core"]) == []
    registry.disable($unit_names[0])
    assert lifecycle.resume(registry, [$unit_names[0]]) == [$unit_names[0]]
#@test
def test_start_checks_settings():
    name = $unit_names[0]
    registry = builtin_registry()
    registry.config.set(name, "factor", -3)
    with pytest.raises(ConfigError, match="must not be negative"):
        lifecycle.start(registry)
#@test
def test_report_table():
    name = $unit_names[0]
    registry = builtin_registry()
    registry.disable(name)
    lines = report.table(registry).splitlines()
    assert lines[0].split() == ["NAME", "VERSION", "STATE", "REQUIRES"]
    assert len(lines) == len($unit_names) + 2
    row = next(line for line in lines[1:] if line.split()[0] == name)
    assert row.split()[1:3] == [str(plugin_module(name).SPEC.version), "disabled"]
    assert next(line for line in lines[1:] if line.split()[0] == "core").split()[2:] == ["enabled", "-"]
    assert [line.split()[0] for line in lines[1:]] == sorted(["core", *$unit_names])
#@test
def test_report_tree():
    registry = $Registry()
    registry.add(PluginSpec("app", "1.0", requires={"web": "*", "db": "*"}))
    registry.add(PluginSpec("web", "1.1", requires={"db": "*"}))
    registry.add(PluginSpec("db", "2.0"))
    registry.load("app")
    assert report.tree(registry, "app") == "app 1.0.0\n  db 2.0.0\n  web 1.1.0\n    db 2.0.0\n"
    assert report.tree(registry, "web", indent="-") == "web 1.1.0\n-db 2.0.0\n"
#@test
def test_report_summary():
    registry = builtin_registry()
    assert report.summary(registry) == {"enabled": len($unit_names) + 1}
    registry.disable($unit_names[0])
    assert report.summary(registry) == {"enabled": len($unit_names), "disabled": 1}
    registry.disable("core")
    assert report.summary(registry) == {"disabled": 2, "blocked": len($unit_names) - 1}
#@test visible
def test_plugin_files():
    module = plugin_module($unit_names[0])
    assert module.parse("3\n\n# a note\n -4 \n") == [3, -4]
    assert module.render([1, 2], "made by hand") == "# made by hand\n1\n2\n"
    settings = {"factor": 3, "offset": -2, "label": "x"}
    out = module.process("# old note\n1\n5\n", settings)
    assert out == f"# {module.SPEC.name} {module.SPEC.version}: x * 3 - 2\n1\n13\n"
    assert module.parse(out) == [1, 13]
#@test
def test_plugin_files_say_where_they_are_wrong():
    module = plugin_module($unit_names[-1])
    with pytest.raises(DataError, match=r"^notes\.txt: line 3: expected a whole number, got '2\.5'"):
        module.parse("1\n# fine\n2.5\n", "notes.txt")
    with pytest.raises(ConfigError, match="factor: must not be negative"):
        module.process("1\n", {"factor": -1, "offset": 0})
    assert module.process("", {"factor": 1, "offset": 0}) == f"# {module.SPEC.name} {module.SPEC.version}: x\n"
#@test
def test_unscale_undoes_scale():
    for name in $unit_names[:3]:
        module = plugin_module(name)
        assert [module.unscale(module.scale(v)) for v in (-4, 0, 3)] == [-4, 0, 3]
    module = plugin_module($unit_names[0])
    name = module.SPEC.name
    with pytest.raises(DataError, match=f"^{name}: with factor 0 every value becomes 4, so 4 cannot be undone"):
        module.unscale(4, {"factor": 0, "offset": 4})
    with pytest.raises(DataError, match=rf"^{name}: 8 is not a value its transform gives \(x \* 3 \+ 1\)"):
        module.unscale(8, {"factor": 3, "offset": 1})
    assert module.unscale(7, {"factor": 3, "offset": 1}) == 2
#@test
def test_formula_and_settings_checks():
    module = plugin_module($unit_names[0])
    name = module.SPEC.name
    assert [module.formula({"factor": f, "offset": o}, "v") for f, o in ((1, 0), (2, 0), (1, -3), (4, 5))] == [
        "v", "v * 2", "v - 3", "v * 4 + 5"]
    assert module.affine() == (module.SPEC.settings["factor"], module.SPEC.settings["offset"])
    assert module.check({"factor": 1, "offset": 0, "label": " "}) == [f"{name}.label: expected some text, got ' '"]
    with pytest.raises(ConfigError, match=f"{name}.offset: expected an integer, got '1'"):
        module.formula({"factor": 1, "offset": "1"})
#@test
def test_chain_formula_is_the_chain():
    registry = builtin_registry()
    factor, offset = chain_formula(registry)
    assert [registry.chain("transform", v) for v in (0, 1, 9, -2)] == [v * factor + offset for v in (0, 1, 9, -2)]
    lines = explain_chain(registry)
    assert [line.split(":")[0] for line in lines] == [f"{i}. {n}" for i, n in enumerate(transformers(registry), 1)]
    assert sorted(transformers(registry)) == sorted($unit_names)
    name = $unit_names[0]
    registry.config.set(name, "factor", 1)
    registry.config.set(name, "offset", 0)
    registry.disable($unit_names[-1])
    assert f"{transformers(registry).index(name) + 1}. {name}: x" in explain_chain(registry)
    factor, offset = chain_formula(registry)
    assert registry.chain("transform", 6) == 6 * factor + offset
    registry.disable("core")
    assert (chain_formula(registry), explain_chain(registry), transformers(registry)) == ((1, 0), [], [])
#@test
def test_undo_chain():
    registry = builtin_registry()
    for value in (0, 7, -3):
        assert undo_chain(registry, registry.chain("transform", value)) == value
    registry.disable($unit_names[0])
    assert undo_chain(registry, registry.chain("transform", 11)) == 11
    name = $unit_names[-1]
    registry.config.set(name, "factor", 0)
    with pytest.raises(DataError, match=f"^{name}: with factor 0"):
        undo_chain(registry, registry.chain("transform", 1))
#@test catches=hook_order
def test_files_go_to_the_plugin_that_handles_them():
    registry = builtin_registry()
    name = $unit_names[0]
    ext = plugin_module(name).EXTENSION
    path = f"data/In.{ext.upper()}"
    handler, out = process_file(registry, path, "1\n# c\n2\n")
    assert handler in extensions()[ext] and handler == registry.first("handles", path=path)
    assert out == plugin_module(handler).process("1\n2\n", registry.settings(handler))
    assert process_file(registry, "notes.unknown", "x\n") == ("core", "x\n")
    for other in extensions()[ext]:
        registry.disable(other)
    assert process_file(registry, path, "1\n") == ("core", "1\n")
    registry.$enable(name)
    with pytest.raises(DataError, match=f"^{path}: line 1: expected a whole number"):
        process_file(registry, path, "one\n")
#@test
def test_plugin_help():
    registry = builtin_registry()
    name = $unit_names[0]
    module = plugin_module(name)
    registry.config.set(name, "factor", 7)
    text = report.plugin_help(registry, name)
    lines = text.splitlines()
    assert lines[0] == f"{name} {module.SPEC.version}: {module.SPEC.description}"
    assert "  hooks: describe, handles, setup, teardown, transform" in lines
    assert f"    factor = 7: {module.SETTINGS_HELP['factor']}" in lines
    assert f"    label = {module.SPEC.settings['label']!r}: {module.SETTINGS_HELP['label']}" in lines
    assert text == module.help_text({"factor": 7})
    assert report.plugin_help(registry, "core") == f"core {core.SPEC.version}: the host's own hooks\n"
    with pytest.raises(NotLoaded):
        report.plugin_help(registry, "no-such-plugin")
#@test catches=hook_order
def test_hook_call_orders():
    orders = report.hook_orders(builtin_registry())
    assert orders["describe"][-1] == "core"
    assert orders["handles"][-1] == "core"
    assert orders["transform"][0] == "core"
    assert sorted(orders["describe"]) == sorted(["core", *$unit_names])
'''


KIND = ProjectKind(
    name="plugreg",
    description="a plugin registry: versions and ranges, manifests, dependency resolution, load order, ordered hooks, "
                "enable/disable, layered settings",
    packages=("plugboard", "hookhub", "pluginkit", "addonreg", "plugdeck", "extensionhub", "modhost"),
    names={
        "Registry": ("Registry", "PluginRegistry", "PluginManager", "PluginHost"),
        "Error": ("PluginError", "RegistryError", "PlugError"),
        "Version": ("Version", "SemVer", "Release"),
        "resolve": ("resolve", "resolve_all", "pick_versions", "choose_versions"),
        "enable": ("enable", "switch_on", "turn_on", "reenable"),
        "load_manifest": ("load_manifest", "read_manifest", "parse_manifest", "manifest_specs"),
    },
    constants={"minor": (2, 4, 7, 12), "api_version": ("1.4.0", "2.0.3", "2.7.1", "3.2.0"),
               "core_min": ("1.0", "1.2", "1.4.0"), "manifest_key": ("plugins", "extensions", "addons", "entries"),
               "host_section": ("registry", "host", "loader", "main"), "max_steps": (2000, 5000, 10000)},
    files={"$pkg/__init__.py": INIT, "$pkg/errors.py": ERRORS, "$pkg/versions.py": VERSIONS, "$pkg/ranges.py": RANGES,
           "$pkg/spec.py": SPEC, "$pkg/manifest.py": MANIFEST, "$pkg/catalog.py": CATALOG, "$pkg/resolver.py": RESOLVER,
           "$pkg/graph.py": GRAPH, "$pkg/markers.py": MARKERS, "$pkg/hooks.py": HOOKS, "$pkg/hookspecs.py": HOOKSPECS,
           "$pkg/coerce.py": COERCE, "$pkg/config.py": CONFIG, "$pkg/registry.py": REGISTRY,
           "$pkg/lifecycle.py": LIFECYCLE, "$pkg/report.py": REPORT, "$pkg/core.py": CORE,
           "$pkg/plugins/__init__.py": PLUGINS_INDEX, "README.md": README, "pyproject.toml": PYPROJECT},
    units=Units(dir="$pkg/plugins", template=UNIT, index="$pkg/plugins/__init__.py", count=(13, 21),
                names=("audit", "cache", "compress", "crypto", "dedupe", "encoder", "history", "i18n", "indexer",
                       "jsonout", "linter", "logger", "markdown", "metrics", "mirror", "notify", "profiler", "quota",
                       "redact", "retry", "router", "sampler", "schema", "search", "sitemap", "spell", "stats",
                       "tagger", "thumbs", "tracer", "uploader", "validator", "watcher", "webhook", "xmlout",
                       "yamlout", "archiver", "backup", "checker", "digest"),
                values={"uversion": ("0.9.2", "1.0.0", "1.2.1", "1.4.0", "2.0.3", "2.1.0"), "factor": (1, 2, 3),
                        "offset": (-2, -1, 0, 1, 2, 5), "upriority": (0, 0, 5, 10, 20),
                        "ext": ("txt", "csv", "json", "md", "log", "xml", "yaml", "ini")}),
    tests=TESTS,
    bugs=(
        BugSite("upper_bound", "off_by_one", "$pkg/ranges.py",
                "My plugin declares `requires: {\"storage\": \">=1.0,<2.0\"}` and the registry loaded storage 2.0.0 "
                "anyway, which is exactly the release with the breaking changes the `<2.0` was there to keep out. "
                "`Range('<2.0').contains('2.0.0')` returns True. Caret ranges do it too: `^1.2.3` accepts 2.0.0, and "
                "`Range('<2').best(['1.9.1', '2.0.0'])` picks 2.0.0."),
        BugSite("hook_order", "wrong_branch", "$pkg/hooks.py",
                "Hook implementations marked `trylast=True` are being called first. The core plugin's `handles` "
                "fallback is only supposed to answer when no other plugin claims a file, but "
                "`registry.first('handles', path='report.csv')` now always returns 'core', even with a plugin for "
                "csv files loaded, and core's `describe` line comes first instead of last."),
        BugSite("shared_seen", "mutable_default", "$pkg/graph.py",
                "`disable(name, cascade=True)` switches off the wrong plugins once it has been used before. The first "
                "cascade in a process is right, but the next one also disables plugins that do not depend on the one "
                "I disabled. `DependencyGraph.dependents()` gives different answers for the same graph depending on "
                "what I asked earlier, even on a brand new graph."),
        BugSite("file_types", "wrong_key", "$pkg/config.py",
                "Settings from the config file come back as strings. The plugin's default for `retries` is 3, my file "
                "says `retries = 5`, and `config.settings('auth')['retries']` is '5' (a str), so the plugin crashes "
                "doing arithmetic with it. `config.apply('auth.retries=7')` has the same problem, and `debug = on` "
                "stays the string 'on' instead of True."),
        BugSite("prerelease", "edge_case", "$pkg/versions.py",
                "Release candidates are treated as newer than the release. With storage 2.0.0-rc.1 and 2.0.0 both in "
                "the catalog, the resolver picks 2.0.0-rc.1, and `compare('1.0.0-rc.1', '1.0.0')` returns 1. Semantic "
                "versioning says 1.0.0-rc.1 < 1.0.0."),
        BugSite("swap_edge", "swapped_args", "$pkg/registry.py",
                "Plugins are loaded before the plugins they depend on. With the shipped plugins, `registry.loaded()` "
                "lists `core` last although everything requires it, and `lifecycle.start()` sets up every plugin "
                "before core. With app -> web -> db, `registry.load('app')` returns ['app', 'web', 'db']."),
    ),
    features=(
        Feature("conflicts", ("$pkg/spec.py", "$pkg/manifest.py", "$pkg/resolver.py"),
                "Please support plugins that cannot be loaded together. A plugin spec should accept `conflicts`, written "
                "the same ways as `requires` (`{name: range}` or `['name<2', ...]`), available as `spec.conflicts` (a "
                "list of Requirement, sorted by name, like `spec.requires`), and included in `spec.as_dict()` as "
                "`{\"conflicts\": {name: range}}` only when there are any. Manifests should accept a `conflicts` field "
                "(an object or a list, checked like `requires`). The resolver must never choose two plugins where one "
                "declares a conflict whose range accepts the other's version, whichever of the two was chosen first: "
                "it should try older versions instead, and when nothing works raise `ConflictError` with a message "
                "like 'a 1.0.0 conflicts with b 1.0.0' (the plugin that declares the conflict first)."),
    ),
    renames=(
        Rename("resolve", "resolve", "function", "$pkg.resolver"),
        Rename("load_manifest", "load_manifest", "function", "$pkg.manifest"),
        Rename("Registry", "Registry", "class", "$pkg.registry"),
        Rename("enable", "enable", "method", "$pkg.registry", owner="Registry"),
    ),
    mutation_areas={"versions": "$pkg/versions.py", "ranges": "$pkg/ranges.py", "graph": "$pkg/graph.py"},
)
