"""Settings written as text, read as the type of the setting's default."""

from __future__ import annotations

from .errors import ConfigError

TRUE = ("1", "yes", "true", "on")
FALSE = ("0", "no", "false", "off")


def to_bool(text: str, name: str = "value") -> bool:
    word = text.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ConfigError(f"{name}: expected yes/no (or true/false, on/off, 1/0), got {text!r}")


def to_int(text: str, name: str = "value") -> int:
    """'12' -> 12, '1_000' -> 1000, '0x1f' -> 31."""
    try:
        return int(text.strip(), 0)
    except ValueError:
        try:
            return int(text.strip())  # '012': base 0 refuses leading zeros
        except ValueError:
            raise ConfigError(f"{name}: expected an integer, got {text!r}") from None


def to_float(text: str, name: str = "value") -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise ConfigError(f"{name}: expected a number, got {text!r}") from None


def to_list(text: str, name: str = "value") -> list[str]:
    """'a, b,,c' -> ['a', 'b', 'c']."""
    return [item.strip() for item in text.split(",") if item.strip()]


def coerce(value, like, name: str = "value"):
    """`value` as the type of `like` when it is text; anything else as it is."""
    if not isinstance(value, str):
        return value
    if isinstance(like, bool):
        return to_bool(value, name)
    if isinstance(like, int):
        return to_int(value, name)
    if isinstance(like, float):
        return to_float(value, name)
    if isinstance(like, (list, tuple)):
        return to_list(value, name)
    return value


def render(value) -> str:
    """A value written as text that `coerce` reads back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)
