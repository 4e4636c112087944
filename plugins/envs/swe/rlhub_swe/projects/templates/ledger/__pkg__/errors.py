"""Every error the package raises derives from __Error__."""


class __Error__(Exception):
    """Base class of the package's errors."""


class UnknownItem(__Error__, KeyError):
    """A SKU that the catalog or the ledger does not know."""

    def __init__(self, sku: str) -> None:
        super().__init__(sku)
        self.sku = sku

    def __str__(self) -> str:
        return f"unknown item {self.sku!r}"


class InsufficientStock(__Error__):
    """An issue of more units than are on hand."""


class ChannelError(__Error__, ValueError):
    """An order a sales channel does not accept."""


class FormatError(__Error__, ValueError):
    """Text that is not an amount, or a stored ledger that cannot be read."""
