"""The plugins that ship with the package, one module each, and a registry with all of them."""

from __future__ import annotations

from .. import core
from ..config import Config
from ..errors import NotLoaded
from ..registry import __Registry__
__unit_imports__

BUILTIN = {
__unit_table__
}


def plugin_names() -> list[str]:
    return sorted(BUILTIN)


def plugin_module(name: str):
    try:
        return BUILTIN[name]
    except KeyError:
        raise NotLoaded(f"no shipped plugin named {name!r}") from None


def builtin_registry(config: Config | None = None, only=None) -> __Registry__:
    """A registry with `core` and every shipped plugin in its catalog, and the plugins in `only`
    (by default all of them) loaded."""
    registry = __Registry__(config=config)
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


def transformers(registry: __Registry__) -> list[str]:
    """The enabled shipped plugins in the order the `transform` hook calls them."""
    return [name for name in registry.hooks.get("transform").plugins() if name in BUILTIN and registry.is_enabled(name)]


def chain_formula(registry: __Registry__) -> tuple[int, int]:
    """(factor, offset): the registry's whole `transform` chain, for whole numbers, as one
    value * factor + offset (core's own `transform` leaves whole numbers as they are)."""
    factor, offset = 1, 0
    for name in transformers(registry):
        f, o = BUILTIN[name].affine(registry.settings(name))
        factor, offset = factor * f, offset * f + o
    return factor, offset


def explain_chain(registry: __Registry__) -> list[str]:
    """'N. name: x * 2 + 1', one line per plugin of the `transform` chain, in call order."""
    return [f"{i}. {name}: {BUILTIN[name].formula(registry.settings(name))}"
            for i, name in enumerate(transformers(registry), 1)]


def undo_chain(registry: __Registry__, value: int) -> int:
    """The whole number `registry.chain("transform", ...)` turned into `value`: every plugin's
    `unscale`, last called first. DataError when the chain cannot give `value`."""
    for name in reversed(transformers(registry)):
        value = BUILTIN[name].unscale(value, registry.settings(name))
    return value


def process_file(registry: __Registry__, path: str, text: str) -> tuple[str | None, str]:
    """(the plugin that handles `path`, the file's text as it leaves it): the first enabled plugin
    whose `handles` claims it; a file only core takes (or none does) is left as it is."""
    name = registry.first("handles", path=path)
    if name in BUILTIN:
        return name, BUILTIN[name].process(text, registry.settings(name), source=path)
    return name, text
