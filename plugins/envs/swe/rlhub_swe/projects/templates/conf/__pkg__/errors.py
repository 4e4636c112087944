"""The package's errors: every one derives from __Error__."""


class __Error__(Exception):
    """Base class of the package's errors."""


class ParseError(__Error__, ValueError):
    """Text that is not a valid document; says where (1-based line and column)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line, self.column = line, column


class ValueFormatError(__Error__, ValueError):
    """A value that is not of the type it was read as."""


class MissingKey(__Error__, KeyError):
    """A key the document does not have."""

    def __str__(self) -> str:
        return f"no key {self.args[0]!r}"


class InvalidSetting(ValueFormatError):
    """A value a setting does not allow: says which setting, the text it was given, why it is
    refused and, when there is one, the nearest value that is allowed (`suggestion`)."""

    def __init__(self, setting: str, text: str, reason: str, suggestion: int | None = None) -> None:
        hint = "" if suggestion is None else f" (nearest allowed: {suggestion})"
        super().__init__(f"{setting}: {reason}{hint}")
        self.setting, self.text, self.reason, self.suggestion = setting, text, reason, suggestion
