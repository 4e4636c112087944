"""The `core` plugin: the host's own hook implementations. Every shipped plugin requires it.

Its `transform` runs first (every chain starts from an integer) and its `describe` and `handles`
run last (`handles` answers for files no other plugin takes)."""

from __future__ import annotations

from .markers import hookimpl
from .spec import PluginSpec

SPEC = PluginSpec("core", "__api_version__", settings={"strict": False}, description="the host's own hooks",
                  module=__name__)


@hookimpl(tryfirst=True)
def transform(value):
    """'12' -> 12, 3.9 -> 3."""
    return int(value)


@hookimpl(trylast=True)
def describe():
    return f"core {SPEC.version}"


@hookimpl(trylast=True)
def handles(path):
    return "core"


@hookimpl
def setup(config):
    return SPEC.name
