"""Conversion functions usable in queries, one module each: `SELECT name(column) FROM ...`."""

from __future__ import annotations

from ..errors import UnknownFunction
__unit_imports__

FUNCTIONS = {
__unit_table__
}


def function(name: str):
    """The module of a conversion function, by name in any case."""
    try:
        return FUNCTIONS[name.lower()]
    except KeyError:
        raise UnknownFunction(name) from None


def call_function(name: str, args: list):
    return function(name).apply(args)


def catalog() -> list[str]:
    """One line per function: what it computes."""
    return [module.describe() for _, module in sorted(FUNCTIONS.items())]


def convert_all(name: str, values: list) -> list:
    module = function(name)
    return [module.convert(v) for v in values]


def explain(name: str) -> list[str]:
    """What a function does, several lines (`--describe`)."""
    return function(name).explain()


def specs() -> list[dict]:
    """Every function as data ({"name", "factor", "offset", "digits", ...}), by name."""
    return [module.spec() for _, module in sorted(FUNCTIONS.items())]


def convert_column(name: str, values, policy: str | None = None) -> tuple[list, dict]:
    """A column's values through function `name`'s Stream with error policy `policy` (the
    function's own by default): (the output, the stream's summary)."""
    stream = function(name).Stream(policy)
    for value in values:
        stream.feed(value)
    return stream.output, stream.close()
