"""__pkg__: a command-line task manager: add, list, filter, finish, export and import tasks."""

from .errors import ConfigError, __Error__, NotFound, StoreError, UsageError
from .model import __Task__
from .store import __TaskStore__

__version__ = "0.__minor__.0"
__all__ = ["ConfigError", "__Error__", "NotFound", "StoreError", "__Task__", "__TaskStore__", "UsageError"]
