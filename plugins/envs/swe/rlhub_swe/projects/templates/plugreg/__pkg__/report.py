"""What a registry holds, written for people: a table of plugins, dependency trees, counts, and
the order each hook calls its plugins in."""

from __future__ import annotations

from .registry import __Registry__

COLUMNS = ("NAME", "VERSION", "STATE", "REQUIRES")


def table(registry: __Registry__) -> str:
    """One row per loaded plugin, by name, in aligned columns."""
    rows = [COLUMNS]
    for name in sorted(registry.loaded()):
        spec = registry.spec(name)
        rows.append((name, str(spec.version), registry.state(name), ", ".join(str(r) for r in spec.requires) or "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows) + "\n"


def tree(registry: __Registry__, name: str, indent: str = "  ") -> str:
    """A plugin and what it needs, and what that needs, indented one level each (by name)."""
    lines: list[str] = []

    def walk(current: str, depth: int) -> None:
        spec = registry.spec(current)
        lines.append(f"{indent * depth}{current} {spec.version}")
        for req in spec.requires:
            walk(req.name, depth + 1)

    walk(name, 0)
    return "\n".join(lines) + "\n"


def summary(registry: __Registry__) -> dict[str, int]:
    """How many loaded plugins are in each state (states with none left out)."""
    counts: dict[str, int] = {}
    for name in registry.loaded():
        state = registry.state(name)
        counts[state] = counts.get(state, 0) + 1
    return counts


def hook_orders(registry: __Registry__) -> dict[str, list[str]]:
    """For every hook, the plugins implementing it in the order they are called."""
    return {hook: registry.hooks.get(hook).plugins() for hook in registry.hooks.names()}


def plugin_help(registry: __Registry__, name: str) -> str:
    """A loaded plugin explained: its module's `help_text` with the settings the registry gives it
    now, or its spec in one line for a plugin without one."""
    spec = registry.spec(name)
    module = registry.catalog.module(spec)
    if module is not None and hasattr(module, "help_text"):
        return module.help_text(registry.settings(name))
    return f"{spec.name} {spec.version}: {spec.description or 'no description'}\n"
