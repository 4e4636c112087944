"""Plugin settings in layers: each plugin's defaults, then a configuration file, then overrides
given in code or as 'plugin.key=value' strings; the highest layer with a key wins. Text values
take the type of the plugin's default for that key (int, float, bool, list or str).

The file is INI text, one section per plugin, and a section [__host_section__] for the registry itself:

    [__host_section__]
    disabled = metrics, tracer

    [auth]
    retries = 5
"""

from __future__ import annotations

import configparser

from .coerce import coerce, to_list
from .errors import ConfigError

HOST_SECTION = "__host_section__"
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
        """The plugins the configuration switches off ([__host_section__] disabled = a, b)."""
        found = self.lookup(HOST_SECTION, "disabled")
        if found is None:
            return []
        value = found[0]
        return to_list(value) if isinstance(value, str) else [str(v) for v in value]
