"""__Document__ -> text that parses back to the same document."""

from __future__ import annotations

from .lexer import quote
from .nodes import __Document__, Entry

INDENT = "__indent__"


def format_entry(key: str, value: str, align: int = 0) -> list[str]:
    """An entry as lines: `key = value`; a multi-line value continues on indented lines."""
    first, *rest = value.split("\n") if "\n" in value else [value]
    head = f"{key.ljust(align)} = {quote(first) if not rest else first}"
    return [head.rstrip()] + [INDENT + line for line in rest]


def __dump__(doc: __Document__, sort_keys: bool = False, align: bool = False) -> str:
    out: list[str] = [f"# {c}" for c in doc.comments]
    if out:
        out.append("")
    for name, section in doc.sections.items():
        out.append(f"[{name}]")
        entries: list[Entry] = sorted(section.entries, key=lambda e: e.key) if sort_keys else section.entries
        width = max((len(e.key) for e in entries), default=0) if align else 0
        for entry in entries:
            if entry.comment and entry.comment not in doc.comments:
                out.append(f"# {entry.comment}")
            out.extend(format_entry(entry.key, entry.value, width))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
