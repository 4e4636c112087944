"""Marking a plugin's functions as hook implementations, and finding them again in its module."""

from __future__ import annotations

from .errors import HookError

MARKER = "___pkg___hookimpl"


def hookimpl(function=None, *, priority: int | None = None, tryfirst: bool = False, trylast: bool = False,
             name: str | None = None):
    """`@hookimpl` or `@hookimpl(priority=10, trylast=True)`: mark a function as the plugin's
    implementation of the hook of the same name (or `name`). `priority`: higher is called earlier
    (default: the plugin's own priority); `tryfirst`/`trylast`: before/after all the others."""
    if tryfirst and trylast:
        raise HookError("a hook implementation cannot be both tryfirst and trylast")
    if priority is not None and (not isinstance(priority, int) or isinstance(priority, bool)):
        raise HookError(f"priority must be an integer, got {priority!r}")
    options = {"priority": priority, "tryfirst": tryfirst, "trylast": trylast, "name": name}

    def mark(f):
        setattr(f, MARKER, dict(options))
        return f

    return mark(function) if function is not None else mark


def options_of(function) -> dict | None:
    """The options a function was marked with, or None if it is not a hook implementation."""
    options = getattr(function, MARKER, None)
    return dict(options) if isinstance(options, dict) else None


def collect(namespace) -> list[tuple[str, object, dict]]:
    """(hook name, function, options) for every marked function of a module or object, by hook name."""
    found = []
    for attribute in dir(namespace):
        value = getattr(namespace, attribute, None)
        options = options_of(value) if callable(value) else None
        if options is not None:
            found.append((options["name"] or attribute, value, options))
    return sorted(found, key=lambda item: item[0])
