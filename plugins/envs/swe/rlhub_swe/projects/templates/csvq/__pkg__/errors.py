"""The package's errors: every one derives from __Error__."""


class __Error__(Exception):
    """Base class of the package's errors."""


class QuerySyntaxError(__Error__, ValueError):
    """Query text that does not follow the grammar; says where (1-based column)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column


class CsvFormatError(__Error__, ValueError):
    """CSV text that cannot be read as a table; says which line (1-based: the header is line 1)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class UnknownColumn(__Error__, KeyError):
    """A column the table does not have."""

    def __str__(self) -> str:
        return f"no column {self.args[0]!r}"


class UnknownTable(__Error__, KeyError):
    """A table the database does not have."""

    def __str__(self) -> str:
        return f"no table {self.args[0]!r}"


class UnknownFunction(__Error__, KeyError):
    """A function name that is neither built in nor one of the conversion functions."""

    def __str__(self) -> str:
        return f"no function {self.args[0]!r}"


class TypeMismatch(__Error__, TypeError):
    """An operation on values of types it does not take, or a query that mixes them."""


class ConversionError(TypeMismatch):
    """A value a conversion function cannot take: says which function, the value and why (also
    as its args, so that a copy made from them, as pickle makes one, says the same)."""

    def __init__(self, function: str, value, reason: str) -> None:
        super().__init__(function, value, reason)
        self.function, self.value, self.reason = function, value, reason

    def __str__(self) -> str:
        return f"{self.function}() {self.reason}, got {self.value!r}"
