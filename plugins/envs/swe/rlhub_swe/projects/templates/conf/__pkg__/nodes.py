"""A document: sections of entries, in the order they were written."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import MissingKey


@dataclass
class Entry:
    key: str
    value: str
    line: int = 0
    comment: str = ""


class Section:
    def __init__(self, name: str, entries: list[Entry] | None = None) -> None:  #@if:bug.shared_entries: def __init__(self, name: str, entries: list[Entry] = []) -> None:
        self.name = name
        self.entries = [] if entries is None else entries  #@if:bug.shared_entries: self.entries = entries

    def keys(self) -> list[str]:
        return [e.key for e in self.entries]

    def find(self, key: str) -> Entry | None:
        for entry in reversed(self.entries):  # the last one written wins
            if entry.key == key:
                return entry
        return None

    def get(self, key: str, default: str | None = None) -> str | None:
        entry = self.find(key)
        return default if entry is None else entry.value

    def set(self, key: str, value: str) -> None:
        entry = self.find(key)
        if entry is None:
            self.entries.append(Entry(key, value))
        else:
            entry.value = value

    def remove(self, key: str) -> bool:
        before = len(self.entries)
        self.entries = [e for e in self.entries if e.key != key]
        return len(self.entries) != before

    def as_dict(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for entry in self.entries:
            out[entry.key] = entry.value
        return out


@dataclass
class __Document__:
    sections: dict[str, Section] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)

    def section(self, name: str, create: bool = False) -> Section:
        if name not in self.sections:
            if not create:
                raise MissingKey(name)
            self.sections[name] = Section(name, [])
        return self.sections[name]

    def names(self) -> list[str]:
        return list(self.sections)

    def __lookup__(self, path: str, default: str | None = None) -> str | None:
        """'section.key' -> its value (`default` if either is missing); a dotted section name
        is allowed: 'server.tls.cert' is key 'cert' of section 'server.tls'."""
        section, _, key = path.rpartition(".")  #@if:bug.lookup_key: section, _, key = path.partition(".")
        if not section or section not in self.sections:
            return default
        return self.sections[section].get(key, default)

    def as_dict(self) -> dict[str, dict[str, str]]:
        return {name: section.as_dict() for name, section in self.sections.items()}
