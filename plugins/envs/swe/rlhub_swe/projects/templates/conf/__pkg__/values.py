"""Typed values from text: booleans, integers, lists, durations, sizes."""

from __future__ import annotations

import re

from .errors import ValueFormatError

TRUE = ("yes", "true", "on", "1")
FALSE = ("no", "false", "off", "0")
LIST_SEPARATOR = "__list_sep__"
_DURATION = re.compile(r"(\d+)\s*(ms|d|h|m|s)")
_UNITS_S = {"d": 86400, "h": 3600, "m": 60, "s": 1, "ms": 0.001}
_SIZES = {"": 1, "b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "kib": 1024, "mib": 1024**2, "gib": 1024**3}


def to_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE:  #@if:bug.bool_branch: if word in TRUE[:2]:
        return True
    if word in FALSE:
        return False
    raise ValueFormatError(f"not a yes/no value: {text!r}")


def to_int(text: str) -> int:
    """'1_000' -> 1000, '-7' -> -7, '0x1f' -> 31."""
    cleaned = text.strip().replace("_", "")
    try:
        return int(cleaned, 16) if cleaned.lower().startswith(("0x", "-0x")) else int(cleaned)
    except ValueError:
        raise ValueFormatError(f"not an integer: {text!r}") from None


def to_list(text: str) -> list[str]:
    """'a, b,,c' -> ['a', 'b', 'c'] (empty items dropped); a multi-line value: one item a line."""
    if "\n" in text:
        parts = text.splitlines()
    else:
        parts = text.split(LIST_SEPARATOR)
    return [p.strip() for p in parts if p.strip()]


def to_seconds(text: str) -> float:
    """'1h30m' -> 5400, '250ms' -> 0.25, '45' -> 45 (seconds)."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned.isdigit():
        return float(cleaned)
    pos, total = 0, 0.0
    for match in _DURATION.finditer(cleaned):
        if match.start() != pos:
            break
        total += int(match.group(1)) * _UNITS_S[match.group(2)]
        pos = match.end()
    if pos != len(cleaned) or not cleaned:
        raise ValueFormatError(f"not a duration: {text!r}")
    return total


def to_bytes(text: str) -> int:
    """'10KB' -> 10000, '2 MiB' -> 2097152, '512' -> 512."""
    match = re.fullmatch(r"\s*(\d+)\s*([a-zA-Z]*)\s*", text)
    if not match or match.group(2).lower() not in _SIZES:
        raise ValueFormatError(f"not a size: {text!r}")
    return int(match.group(1)) * _SIZES[match.group(2).lower()]
#@if:without.interpolation
#@else


_REFERENCE = re.compile(r"\$\{([\w.-]+)\}")


def interpolate(text: str, section: str, lookup) -> str:
    """`${key}` -> the value of `key` in `section`, `${other.key}` -> from section `other`
    (`lookup(path)` finds values). References that do not resolve stay as written."""

    def replace(match) -> str:
        name = match.group(1)
        found = lookup(f"{section}.{name}") if "." not in name else lookup(name)
        return match.group(0) if found is None else found

    return _REFERENCE.sub(replace, text)
#@end
