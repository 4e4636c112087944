"""Reading typed settings out of a document, and combining and comparing documents."""

from __future__ import annotations

from dataclasses import dataclass

from . import values
from .errors import MissingKey
from .nodes import __Document__, Section

CONVERTERS = {"bool": values.to_bool, "int": values.to_int, "list": values.to_list, "seconds": values.to_seconds,
              "bytes": values.to_bytes, "str": str}


def typed(doc: __Document__, path: str, kind: str = "str", default=None):
    """The value at 'section.key' converted to `kind`; `default` when missing (MissingKey if no default)."""
    raw = doc.__lookup__(path)
    if raw is None:
        if default is None:
            raise MissingKey(path)
        return default
    return CONVERTERS[kind](raw)


def merge(base: __Document__, override: __Document__) -> __Document__:
    """A new document: `base` with every entry of `override` set over it (sections added as needed)."""
    out = __Document__()
    for source in (base, override):
        for name, section in source.sections.items():
            target = out.section(name, create=True)
            for entry in section.entries:
                target.set(entry.key, entry.value)
    out.comments = list(base.comments)
    return out


def flatten(doc: __Document__) -> dict[str, str]:
    """{'section.key': value} for every entry."""
    return {f"{name}.{key}": value for name, section in doc.sections.items() for key, value in section.as_dict().items()}


def missing(doc: __Document__, required: list[str]) -> list[str]:
    return [path for path in required if doc.__lookup__(path) is None]


def section_or_empty(doc: __Document__, name: str) -> Section:
    return doc.sections.get(name) or Section(name)


def changes(old: __Document__, new: __Document__) -> dict[str, tuple[str | None, str | None]]:
    """{'section.key': (value in `old`, value in `new`)} for every entry added, removed or changed,
    `old`'s paths first, then the ones only `new` has; None stands for 'not there'."""
    before, after = flatten(old), flatten(new)
    out: dict[str, tuple[str | None, str | None]] = {}
    for path in [*before, *(p for p in after if p not in before)]:
        if before.get(path) != after.get(path):
            out[path] = (before.get(path), after.get(path))
    return out


@dataclass(frozen=True)
class Verdict:
    """A text judged as the value of one setting (what `settings.<name>.validate` returns): the value
    when it is allowed; otherwise the problem and, when the text is a number, the nearest allowed value."""

    setting: str
    text: str
    value: int | None
    problem: str = ""
    suggestion: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problem
