"""__Registry__: the plugins a program has loaded, their hooks and settings, and which are on."""

from __future__ import annotations

from .catalog import Catalog
from .config import Config
from .errors import __Error__, NotLoaded
from .graph import DependencyGraph
from .hooks import HookRelay
from .hookspecs import HOOKS
from .manifest import __load_manifest__, import_plugin
from .resolver import __resolve__
from .spec import PluginSpec

ENABLED, DISABLED, BLOCKED, NOT_LOADED = "enabled", "disabled", "blocked", "not loaded"


class __Registry__:
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
            raise __Error__(f"module {getattr(module, '__name__', module)!r} has no SPEC describing its plugin")
        return self.catalog.add(spec, module)

    def discover(self, text: str, source: str = "<manifest>") -> list[str]:
        """Add every plugin a manifest lists, importing the modules it names; their keys."""
        specs = __load_manifest__(text, source)
        modules = [import_plugin(spec) for spec in specs]
        for spec, module in zip(specs, modules):
            self.catalog.add(spec, module)
        return [spec.key for spec in specs]

    # -- loading --------------------------------------------------------------------------------
    def load(self, *requested, pinned: dict[str, str] | None = None) -> list[str]:
        """Resolve the requested plugins and what they need, and register their hooks in load
        order (what a plugin needs before it); the load order. Replaces what was loaded before."""
        chosen = __resolve__(self.catalog, requested, pinned=pinned)
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

    def __enable__(self, name: str, with_dependencies: bool = False) -> list[str]:
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
