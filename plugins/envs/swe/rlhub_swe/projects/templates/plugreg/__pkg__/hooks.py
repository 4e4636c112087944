"""Hook callers: the implementations of one hook in the order they are called, and calling them.

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
