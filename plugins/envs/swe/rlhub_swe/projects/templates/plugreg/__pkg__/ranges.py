"""Version ranges: which versions of a plugin a requirement accepts.

A range is comparators separated by commas, all of which must hold:

    >=1.2  >1.2  <=2.0  <2.0      bounds
    ==1.4.0  (or 1.4.0)  !=1.3.1   exact versions
    ^1.2.3   compatible: >=1.2.3,<2.0.0 (for 0.x: ^0.2.3 is >=0.2.3,<0.3.0)
    ~1.2.3   close: >=1.2.3,<1.3.0 (~1 is >=1.0.0,<2.0.0)
    *  or nothing: any version
"""

from __future__ import annotations

import re

from .errors import VersionError
from .versions import __Version__, parse_version

_COMPARATOR = re.compile(r"^(>=|<=|==|!=|>|<|\^|~|=)?\s*(\S+)$")


def caret_upper(version: __Version__) -> __Version__:
    """The first version `^version` no longer accepts."""
    if version.major:
        return __Version__(version.major + 1)
    if version.minor:
        return __Version__(0, version.minor + 1)
    return __Version__(0, 0, version.patch + 1)


def tilde_upper(version: __Version__, parts: int = 3) -> __Version__:
    """The first version `~version` no longer accepts (`parts`: how many numbers were written)."""
    if parts >= 2:
        return __Version__(version.major, version.minor + 1)
    return __Version__(version.major + 1)


class Range:
    """A set of versions, from its text (see the module's documentation)."""

    def __init__(self, text: str = "*") -> None:
        if not isinstance(text, str):
            raise VersionError(f"a version range is text, got {type(text).__name__}")
        self.text = text.strip()
        self.lower: __Version__ | None = None
        self.lower_inclusive = True
        self.upper: __Version__ | None = None
        self.upper_inclusive = False
        self.excluded: list[__Version__] = []
        if self.text in ("", "*"):
            return
        for part in self.text.split(","):
            if not part.strip():
                raise VersionError(f"not a version range: {self.text!r} (an empty comparator)")
            self._add(part.strip())

    def _add(self, part: str) -> None:
        match = _COMPARATOR.match(part)
        if match is None:
            raise VersionError(f"not a version range: {self.text!r} (bad comparator {part!r})")
        op, written = match.group(1) or "==", match.group(2)
        try:
            version = __Version__.parse(written)
        except VersionError:
            raise VersionError(f"not a version range: {self.text!r} ({written!r} is not a version)") from None
        if op in ("==", "="):
            self._tighten_lower(version, True)
            self._tighten_upper(version, True)
        elif op == "!=":
            self.excluded.append(version)
        elif op == "^":
            self._tighten_lower(version, True)
            self._tighten_upper(caret_upper(version), False)
        elif op == "~":
            self._tighten_lower(version, True)
            self._tighten_upper(tilde_upper(version, written.split("-")[0].count(".") + 1), False)
        elif op in (">=", ">"):
            self._tighten_lower(version, op == ">=")
        else:
            self._tighten_upper(version, op == "<=")

    def _tighten_lower(self, version: __Version__, inclusive: bool) -> None:
        """The higher lower bound wins; at the same version, the exclusive one."""
        if self.lower is None or version > self.lower or (version == self.lower and not inclusive):
            self.lower, self.lower_inclusive = version, inclusive

    def _tighten_upper(self, version: __Version__, inclusive: bool) -> None:
        """The lower upper bound wins; at the same version, the exclusive one."""
        if self.upper is None or version < self.upper or (version == self.upper and not inclusive):
            self.upper, self.upper_inclusive = version, inclusive

    def contains(self, version) -> bool:
        v = parse_version(version)
        if self.lower is not None and (v < self.lower or (v == self.lower and not self.lower_inclusive)):
            return False
        if self.upper is not None and (v > self.upper or (v == self.upper and not self.upper_inclusive)):  #@if:bug.upper_bound: if self.upper is not None and v > self.upper:
            return False
        return all(v != x for x in self.excluded)

    def is_empty(self) -> bool:
        """Whether no version at all is in the range."""
        if self.lower is None or self.upper is None:
            return False
        if self.lower > self.upper:
            return True
        if self.lower == self.upper:
            return not (self.lower_inclusive and self.upper_inclusive) or any(self.lower == x for x in self.excluded)
        return False

    def intersect(self, other: "Range") -> "Range":
        """The versions both ranges accept."""
        parts = [str(r) for r in (self, other) if str(r) != "*"]
        return Range(",".join(parts) or "*")

    def filter(self, versions) -> list[str]:
        """The versions in the range, oldest first."""
        return [str(v) for v in sorted(parse_version(v) for v in versions) if self.contains(v)]

    def best(self, versions) -> str | None:
        """The newest version in the range, or None."""
        inside = self.filter(versions)
        return inside[-1] if inside else None

    def __str__(self) -> str:
        if self.lower is not None and self.lower == self.upper and self.lower_inclusive and self.upper_inclusive:
            parts = [f"=={self.lower}"]
        else:
            parts = []
            if self.lower is not None:
                parts.append((">=" if self.lower_inclusive else ">") + str(self.lower))
            if self.upper is not None:
                parts.append(("<=" if self.upper_inclusive else "<") + str(self.upper))
        parts += [f"!={x}" for x in self.excluded]
        return ",".join(parts) or "*"

    def __repr__(self) -> str:
        return f"Range({str(self)!r})"


def satisfies(version, text: str) -> bool:
    """Whether `version` is in the range written as `text`."""
    return Range(text).contains(version)
