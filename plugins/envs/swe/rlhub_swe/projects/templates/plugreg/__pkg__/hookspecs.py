"""The hooks a registry offers its plugins, and the arguments each is called with."""

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
