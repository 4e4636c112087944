"""__pkg__: a small inventory ledger: stock movements, valuation, sales channels and reports."""

from .errors import __Error__, ChannelError, UnknownItem
from .items import __Catalog__, __Item__
from .ledger import Entry, __Ledger__
from .money import __allocate__, __format_amount__, __parse_amount__

__version__ = "1.__minor__.0"
__all__ = ["__Catalog__", "ChannelError", "Entry", "__Error__", "__Item__", "__Ledger__", "UnknownItem",
           "__allocate__", "__format_amount__", "__parse_amount__"]
