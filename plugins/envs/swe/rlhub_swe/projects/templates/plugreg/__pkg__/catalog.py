"""Every plugin version that could be loaded, by name: what the resolver chooses from."""

from __future__ import annotations

from .errors import __Error__
from .manifest import __load_manifest__
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
        return cls(__load_manifest__(text, source))

    def add(self, spec: PluginSpec, module=None) -> PluginSpec:
        """Add one version of a plugin (and the module its hooks are in, if any)."""
        versions = self._specs.setdefault(spec.name, {})
        if str(spec.version) in versions:
            raise __Error__(f"{spec.name} {spec.version} is already in the catalog")
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
