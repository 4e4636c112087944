"""The package's errors: every one derives from __Error__ and says what was wrong and where."""


class __Error__(Exception):
    """Base class of the package's errors."""


class VersionError(__Error__, ValueError):
    """Text that is not a version or not a version range."""


class ManifestError(__Error__, ValueError):
    """A manifest that cannot be read: the message names the source, the entry and the field."""


class ResolutionError(__Error__):
    """Requested plugins whose requirements cannot all be met; the message says which and why."""


class MissingPlugin(ResolutionError, LookupError):
    """A plugin that is asked for but is not in the catalog."""


class ConflictError(ResolutionError):
    """Plugins that cannot be loaded together."""


class CycleError(__Error__):
    """Plugins that depend on each other in a circle; the message shows the circle."""


class HookError(__Error__, TypeError):
    """A hook implementation or a hook call that does not fit the hook's specification."""


class ConfigError(__Error__, ValueError):
    """Configuration text that cannot be read, or a setting of the wrong type."""


class NotLoaded(__Error__, LookupError):
    """A plugin name the registry has not loaded."""


class DataError(__Error__, ValueError):
    """Data a plugin cannot read or cannot undo: the message names the plugin or the file, the line
    where there is one, and what was expected."""
