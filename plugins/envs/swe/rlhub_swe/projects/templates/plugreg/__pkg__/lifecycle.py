"""Starting and stopping the loaded plugins: `setup` in load order (what a plugin needs is up
before it), `teardown` in the reverse order."""

from __future__ import annotations

from .registry import __Registry__


def start(registry: __Registry__) -> list[str]:
    """Call every enabled plugin's `setup` with its settings, in load order; the plugins started."""
    started = []
    for name in registry.enabled():
        registry.call_plugin("setup", name)
        started.append(name)
    return started


def stop(registry: __Registry__, started: list[str] | None = None) -> list[str]:
    """Call `teardown` on the started plugins (by default every enabled one), last started first;
    the plugins stopped, in that order."""
    names = list(reversed(started if started is not None else registry.enabled()))
    for name in names:
        registry.hooks.teardown.call_plugin(name)
    return names


def resume(registry: __Registry__, names) -> list[str]:
    """Switch plugins back on, with what they need, and start every plugin that is enabled now and
    was not before (those that were blocked included); the plugins started, in load order."""
    woken: set[str] = set()
    for name in names:
        woken.update(registry.__enable__(name, with_dependencies=True))
    started = [name for name in registry.enabled() if name in woken]
    for name in started:
        registry.call_plugin("setup", name)
    return started


def plan(registry: __Registry__) -> list[str]:
    """'1. name version' for every enabled plugin, in the order `start` starts them."""
    return [f"{i}. {name} {registry.version(name)}" for i, name in enumerate(registry.enabled(), 1)]
