"""Text -> __Document__."""

from __future__ import annotations

from .errors import ParseError
from .lexer import tokenize
from .nodes import __Document__, Entry
#@if:without.interpolation
#@else
from .values import interpolate
#@end

DEFAULT_SECTION = "__default_section__"


def __parse__(text: str, strict: bool = False, interpolate_values: bool = False) -> __Document__:
    """Parse a document. Entries before any section belong to DEFAULT_SECTION. With `strict`, a key
    written twice in one section is an error (otherwise the last one wins). With
    `interpolate_values`, `${key}` in a value is replaced by that key's value in the same section
    (or `${section.key}` from another), once the whole document is read."""
    doc = __Document__()
    current = None
    pending_comment = ""
    for token in tokenize(text):
        if token.kind == "comment":
            if current is None:
                doc.comments.append(token.value)
            pending_comment = token.value
        elif token.kind == "blank":
            pending_comment = ""
        elif token.kind == "section":
            if token.name in doc.sections and strict:
                raise ParseError(f"section [{token.name}] appears twice", token.line, 1)
            current = doc.section(token.name, create=True)
            pending_comment = ""
        elif token.kind == "entry":
            if current is None:
                current = doc.section(DEFAULT_SECTION, create=True)
            if strict and current.find(token.name) is not None:
                raise ParseError(f"key {token.name!r} appears twice in [{current.name}]", token.line, 1)
            current.entries.append(Entry(token.name, token.value, token.line, pending_comment))
            pending_comment = ""
        elif token.kind == "continuation":
            last = current.entries[-1]
            last.value = f"{last.value}\n{token.value}" if last.value else token.value
#@if:without.interpolation
#@else
    if interpolate_values:
        for section in doc.sections.values():
            for entry in section.entries:
                entry.value = interpolate(entry.value, section.name, doc.__lookup__)
#@end
    return doc


def parse_file(path: str, strict: bool = False) -> __Document__:
    with open(path, encoding="utf-8") as f:
        return __parse__(f.read(), strict=strict)
