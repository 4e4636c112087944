"""__pkg__: read, query and write INI-like configuration files, with typed values."""

from .errors import __Error__, ParseError
from .nodes import __Document__, Entry, Section
from .parser import __parse__
from .printer import __dump__

__version__ = "0.__minor__.1"
__all__ = ["__Document__", "Entry", "__Error__", "ParseError", "Section", "__dump__", "__parse__"]
