"""Choosing one version of every plugin needed: the requested plugins, what they require, what
that requires, and so on, each at the newest version that every requirement on it accepts. A choice
that leaves some requirement unmet is taken back and the next older version tried."""

from __future__ import annotations

from .catalog import Catalog
from .errors import ConflictError, MissingPlugin, ResolutionError
from .ranges import Range
from .spec import PluginSpec, Requirement, parse_requirement

MAX_STEPS = __max_steps__


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


def __resolve__(catalog: Catalog, requested, *, pinned: dict[str, str] | None = None) -> dict[str, PluginSpec]:
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
