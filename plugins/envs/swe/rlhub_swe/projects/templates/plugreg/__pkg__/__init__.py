"""__pkg__: a plugin registry.

Plugins declare a version and requirements on other plugins (version ranges); the registry
discovers them from a manifest, resolves which version of each to load, loads them so that every
plugin comes after what it needs, calls their hooks in a defined order, switches them on and off,
and gives each its settings from layered configuration.
"""

from .catalog import Catalog
from .config import Config
from .errors import (__Error__, ConfigError, CycleError, DataError, HookError, ManifestError, NotLoaded, ResolutionError,
                     VersionError)
from .manifest import __load_manifest__
from .markers import hookimpl
from .ranges import Range
from .registry import __Registry__
from .resolver import __resolve__
from .spec import PluginSpec, Requirement
from .versions import __Version__

__version__ = "0.__minor__.0"
__all__ = [
    "Catalog", "Config", "ConfigError", "CycleError", "DataError", "HookError", "ManifestError", "NotLoaded",
    "__Error__", "PluginSpec", "Range", "__Registry__", "Requirement", "ResolutionError", "__Version__", "VersionError",
    "hookimpl", "__load_manifest__", "__resolve__",
]
