"""What a plugin is: a name, a version, requirements on other plugins, the priority of its hooks,
its settings (with their defaults) and the module its code is in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import __Error__, VersionError
from .ranges import Range
from .versions import parse_version

NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_REQUIREMENT = re.compile(r"^\s*([a-z][a-z0-9_-]*)\s*(.*?)\s*$")


def check_name(name) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise __Error__(f"not a plugin name: {name!r} (lower-case letters, digits, '-' and '_', starting with a letter)")
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
        raise __Error__(f"{owner}: {what} must map plugin names to ranges or list 'name>=1.0' strings, "
                       f"got {type(value).__name__}")
    names = [r.name for r in found]
    for name in names:
        if names.count(name) > 1:
            raise __Error__(f"{owner}: {what} names {name!r} twice")
        if name == owner:
            raise __Error__(f"{owner}: a plugin cannot name itself in {what}")
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
            raise __Error__(f"{self.name}: priority must be an integer, got {priority!r}")
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
