"""Plugin versions: `major.minor.patch` with an optional pre-release tag (`2.0.0-rc.1`), ordered
the way semantic versioning orders them."""

from __future__ import annotations

import functools
import re

from .errors import VersionError

_PATTERN = re.compile(r"^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*))?$")
PARTS = ("major", "minor", "patch")


def _identifier_key(identifier: str) -> tuple[int, int, str]:
    """Numeric pre-release identifiers compare as numbers and come before alphanumeric ones."""
    if identifier.isdigit():
        return (0, int(identifier), "")
    return (1, 0, identifier)


@functools.total_ordering
class __Version__:
    """A version. `__Version__.parse('1.4')` is 1.4.0; a leading 'v' is allowed."""

    __slots__ = ("major", "minor", "patch", "pre")

    def __init__(self, major: int, minor: int = 0, patch: int = 0, pre: str = "") -> None:
        if min(major, minor, patch) < 0:
            raise VersionError(f"version numbers cannot be negative: {major}.{minor}.{patch}")
        self.major, self.minor, self.patch, self.pre = major, minor, patch, pre

    @classmethod
    def parse(cls, text: str) -> "__Version__":
        match = _PATTERN.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise VersionError(f"not a version: {text!r} (expected major.minor.patch, e.g. 1.4.0 or 2.0.0-rc.1)")
        major, minor, patch, pre = match.groups()
        return cls(int(major), int(minor or 0), int(patch or 0), pre or "")

    @property
    def release(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    @property
    def is_prerelease(self) -> bool:
        return bool(self.pre)

    def _key(self) -> tuple:
        pre = tuple(_identifier_key(part) for part in self.pre.split(".")) if self.pre else ()
        return (self.release, not self.pre, pre)  #@if:bug.prerelease: return (self.release, pre)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, __Version__):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, __Version__):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        return f"{text}-{self.pre}" if self.pre else text

    def __repr__(self) -> str:
        return f"__Version__('{self}')"

    def bump(self, part: str = "patch") -> "__Version__":
        """The next version: 'major' -> (M+1).0.0, 'minor' -> M.(m+1).0, 'patch' -> M.m.(p+1). A
        pre-release becomes its own release when that is the next version of that kind
        (1.4.0-rc.1 -> 1.4.0 for 'minor' and 'patch', 2.0.0-rc.1 -> 2.0.0 for 'major')."""
        if part not in PARTS:
            raise VersionError(f"cannot bump {part!r}: expected one of {', '.join(PARTS)}")
        major, minor, patch = self.release
        if part == "major":
            return __Version__(major if self.pre and minor == 0 and patch == 0 else major + 1)
        if part == "minor":
            return __Version__(major, minor if self.pre and patch == 0 else minor + 1)
        return __Version__(major, minor, patch if self.pre else patch + 1)

    def compatible_with(self, other: "__Version__") -> bool:
        """Whether `other` can stand in for this version: not older, and the same major version
        (for 0.x versions: the same minor version)."""
        if other < self:
            return False
        if self.major == 0:
            return other.major == 0 and other.minor == self.minor
        return other.major == self.major


def parse_version(text) -> __Version__:
    """A version from its text (a version is returned as it is)."""
    return text if isinstance(text, __Version__) else __Version__.parse(text)


def compare(a, b) -> int:
    """-1, 0 or 1 as version `a` is older than, the same as, or newer than `b`."""
    x, y = parse_version(a), parse_version(b)
    return (x > y) - (x < y)


def newest(versions, include_prereleases: bool = True) -> __Version__ | None:
    """The newest of `versions` (None for none); pre-releases left out unless `include_prereleases`."""
    candidates = [parse_version(v) for v in versions]
    if not include_prereleases:
        candidates = [v for v in candidates if not v.pre]
    return max(candidates, default=None)


def sort_versions(versions, reverse: bool = False) -> list[str]:
    """Version texts in order, oldest first (newest first with `reverse`), written out in full."""
    return [str(v) for v in sorted((parse_version(v) for v in versions), reverse=reverse)]
