"""Project kind `conf`: a parser and pretty-printer for an INI-like configuration format (lexer,
nodes, parser, typed values, printer, queries, and typed settings)."""

from ..model import BugSite, Feature, ProjectKind, Rename, Units

INIT = '''\
"""$pkg: read, query and write INI-like configuration files, with typed values."""

from .errors import $Error, ParseError
from .nodes import $Document, Entry, Section
from .parser import $parse
from .printer import $dump

__version__ = "0.$minor.1"
__all__ = ["$Document", "Entry", "$Error", "ParseError", "Section", "$dump", "$parse"]
'''

ERRORS = '''\
"""The package's errors: every one derives from $Error."""


class $Error(Exception):
    """Base class of the package's errors."""


class ParseError($Error, ValueError):
    """Text that is not a valid document; says where (1-based line and column)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line, self.column = line, column


class ValueFormatError($Error, ValueError):
    """A value that is not of the type it was read as."""


class MissingKey($Error, KeyError):
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
'''

LEXER = '''\
"""Lines of a document as tokens: sections, entries, comments, blank lines, continuations."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ParseError

COMMENT_MARKS = ("#", ";")


@dataclass(frozen=True)
class Token:
    kind: str       # "section" | "entry" | "comment" | "blank" | "continuation"
    line: int
    name: str = ""
    value: str = ""


def tokenize(text: str) -> list[Token]:
    tokens = []
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped:
            tokens.append(Token("blank", number))
        elif stripped.startswith(COMMENT_MARKS):
            tokens.append(Token("comment", number, value=stripped[1:].strip()))
        elif raw[:1] in (" ", "\\t") and tokens and tokens[-1].kind in ("entry", "continuation"):
            tokens.append(Token("continuation", number, value=stripped))
        elif stripped.startswith("["):
            if not stripped.endswith("]"):
                raise ParseError("a section header must end with ']'", number, len(raw.rstrip()) + 1)  #@if:bug.swap_position: raise ParseError("a section header must end with ']'", len(raw.rstrip()) + 1, number)
            name = stripped[1:-1].strip()
            if not name:
                raise ParseError("a section needs a name", number, raw.index("[") + 2)
            tokens.append(Token("section", number, name=name))
        elif "=" in stripped:
            key, value = stripped.split("=", 1)  #@if:bug.split_all: key, value = stripped.split("=")[:2]
            if not key.strip():
                raise ParseError("an entry needs a key before '='", number, raw.index("=") + 1)
            tokens.append(Token("entry", number, name=key.strip(), value=unquote(value.strip(), number)))
        else:
            column = len(raw) - len(raw.lstrip()) + 1  #@if:bug.column: column = len(raw) - len(raw.lstrip())
            raise ParseError(f"expected 'key = value' or '[section]', got {stripped[:20]!r}", number, column)
    return tokens


def unquote(value: str, line: int = 0) -> str:
    """A quoted value without its quotes, escapes resolved; an unquoted value as it is."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\\"'":
        body = value[1:-1]
        out, i = [], 0
        while i < len(body):
            ch = body[i]
            if ch == "\\\\" and i + 1 < len(body):
                nxt = body[i + 1]
                out.append({"n": "\\n", "t": "\\t"}.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out)
    if value[:1] in "\\"'" and value[-1:] != value[:1]:
        raise ParseError("a quoted value is not closed", line, 1)
    return value


def quote(value: str) -> str:
    """A value written so that it reads back as itself."""
    plain = value == value.strip() and not value.startswith(("\\"", "'", "#", ";", "[")) and "\\n" not in value
    if plain and value:
        return value
    escaped = value.replace("\\\\", "\\\\\\\\").replace("\\"", "\\\\\\"").replace("\\n", "\\\\n").replace("\\t", "\\\\t")
    return f'"{escaped}"'
'''

NODES = '''\
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
class $Document:
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

    def $lookup(self, path: str, default: str | None = None) -> str | None:
        """'section.key' -> its value (`default` if either is missing); a dotted section name
        is allowed: 'server.tls.cert' is key 'cert' of section 'server.tls'."""
        section, _, key = path.rpartition(".")  #@if:bug.lookup_key: section, _, key = path.partition(".")
        if not section or section not in self.sections:
            return default
        return self.sections[section].get(key, default)

    def as_dict(self) -> dict[str, dict[str, str]]:
        return {name: section.as_dict() for name, section in self.sections.items()}
'''

PARSER = '''\
"""Text -> $Document."""

from __future__ import annotations

from .errors import ParseError
from .lexer import tokenize
from .nodes import $Document, Entry
#@if:without.interpolation
#@else
from .values import interpolate
#@end

DEFAULT_SECTION = "$default_section"


def $parse(text: str, strict: bool = False, interpolate_values: bool = False) -> $Document:
    """Parse a document. Entries before any section belong to DEFAULT_SECTION. With `strict`, a key
    written twice in one section is an error (otherwise the last one wins). With
    `interpolate_values`, `$${key}` in a value is replaced by that key's value in the same section
    (or `$${section.key}` from another), once the whole document is read."""
    doc = $Document()
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
            last.value = f"{last.value}\\n{token.value}" if last.value else token.value
#@if:without.interpolation
#@else
    if interpolate_values:
        for section in doc.sections.values():
            for entry in section.entries:
                entry.value = interpolate(entry.value, section.name, doc.$lookup)
#@end
    return doc


def parse_file(path: str, strict: bool = False) -> $Document:
    with open(path, encoding="utf-8") as f:
        return $parse(f.read(), strict=strict)
'''

VALUES = '''\
"""Typed values from text: booleans, integers, lists, durations, sizes."""

from __future__ import annotations

import re

from .errors import ValueFormatError

TRUE = ("yes", "true", "on", "1")
FALSE = ("no", "false", "off", "0")
LIST_SEPARATOR = "$list_sep"
_DURATION = re.compile(r"(\\d+)\\s*(ms|d|h|m|s)")
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
    if "\\n" in text:
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
    match = re.fullmatch(r"\\s*(\\d+)\\s*([a-zA-Z]*)\\s*", text)
    if not match or match.group(2).lower() not in _SIZES:
        raise ValueFormatError(f"not a size: {text!r}")
    return int(match.group(1)) * _SIZES[match.group(2).lower()]
#@if:without.interpolation
#@else


_REFERENCE = re.compile(r"\\$$\\{([\\w.-]+)\\}")


def interpolate(text: str, section: str, lookup) -> str:
    """`$${key}` -> the value of `key` in `section`, `$${other.key}` -> from section `other`
    (`lookup(path)` finds values). References that do not resolve stay as written."""

    def replace(match) -> str:
        name = match.group(1)
        found = lookup(f"{section}.{name}") if "." not in name else lookup(name)
        return match.group(0) if found is None else found

    return _REFERENCE.sub(replace, text)
#@end
'''

PRINTER = '''\
"""$Document -> text that parses back to the same document."""

from __future__ import annotations

from .lexer import quote
from .nodes import $Document, Entry

INDENT = "$indent"


def format_entry(key: str, value: str, align: int = 0) -> list[str]:
    """An entry as lines: `key = value`; a multi-line value continues on indented lines."""
    first, *rest = value.split("\\n") if "\\n" in value else [value]
    head = f"{key.ljust(align)} = {quote(first) if not rest else first}"
    return [head.rstrip()] + [INDENT + line for line in rest]


def $dump(doc: $Document, sort_keys: bool = False, align: bool = False) -> str:
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
    return "\\n".join(out).rstrip("\\n") + "\\n"
'''

QUERY = '''\
"""Reading typed settings out of a document, and combining and comparing documents."""

from __future__ import annotations

from dataclasses import dataclass

from . import values
from .errors import MissingKey
from .nodes import $Document, Section

CONVERTERS = {"bool": values.to_bool, "int": values.to_int, "list": values.to_list, "seconds": values.to_seconds,
              "bytes": values.to_bytes, "str": str}


def typed(doc: $Document, path: str, kind: str = "str", default=None):
    """The value at 'section.key' converted to `kind`; `default` when missing (MissingKey if no default)."""
    raw = doc.$lookup(path)
    if raw is None:
        if default is None:
            raise MissingKey(path)
        return default
    return CONVERTERS[kind](raw)


def merge(base: $Document, override: $Document) -> $Document:
    """A new document: `base` with every entry of `override` set over it (sections added as needed)."""
    out = $Document()
    for source in (base, override):
        for name, section in source.sections.items():
            target = out.section(name, create=True)
            for entry in section.entries:
                target.set(entry.key, entry.value)
    out.comments = list(base.comments)
    return out


def flatten(doc: $Document) -> dict[str, str]:
    """{'section.key': value} for every entry."""
    return {f"{name}.{key}": value for name, section in doc.sections.items() for key, value in section.as_dict().items()}


def missing(doc: $Document, required: list[str]) -> list[str]:
    return [path for path in required if doc.$lookup(path) is None]


def section_or_empty(doc: $Document, name: str) -> Section:
    return doc.sections.get(name) or Section(name)


def changes(old: $Document, new: $Document) -> dict[str, tuple[str | None, str | None]]:
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
'''

SETTINGS_INDEX = '''\
"""Typed settings by name: each module of this package reads and checks one setting.

The functions here work on all of them at once: read a section (`read_all`, the environment
overriding the document), say what is wrong with it (`problems`, `report`, `unknown`), repair it
(`fix`), describe it (`schema`, `help_all`, `sample`), save and load values (`export`, `load`) and
plan a change from one document to another in safe steps (`plan`, `rollouts`, `changelog`).
"""

from __future__ import annotations

import difflib
import json

from ..errors import InvalidSetting, MissingKey, ValueFormatError
from ..nodes import $Document
from ..printer import $dump
from ..query import changes
$unit_imports

SETTINGS = {
$unit_table
}
ENV_PREFIX = __name__.split(".")[0].upper()
"""Environment variables named `<ENV_PREFIX>_<SETTING>` override the document (see `read_all`)."""
EXPORT_VERSION = 1


def setting(name: str):
    try:
        return SETTINGS[name]
    except KeyError:
        raise MissingKey(name) from None


def read_all(doc, section: str, environ=None) -> dict[str, int]:
    """Every known setting from `section` of `doc`, each at its default when absent. With `environ`
    (a mapping such as os.environ), a non-empty `<ENV_PREFIX>_<SETTING>` variable wins over the document."""
    values = {name: module.read(doc, section) for name, module in sorted(SETTINGS.items())}
    for name, module in SETTINGS.items():
        raw = "" if environ is None else environ.get(environ_name(name), "")
        if raw.strip():
            values[name] = module.check(module.parse(raw))
    return values


def environ_name(name: str) -> str:
    """The environment variable that overrides setting `name`: `<ENV_PREFIX>_<NAME>`."""
    return f"{ENV_PREFIX}_{setting(name).NAME}".upper()


def problems(doc, section: str) -> list[str]:
    """What is wrong with the settings written in `section`, one message each."""
    found = []
    for name, module in sorted(SETTINGS.items()):
        raw = doc.$lookup(f"{section}.{name}")
        if raw is not None:
            found += module.problems(raw)
    return found


def report(doc, section: str) -> list[str]:
    """`problems` for people: a sentence per setting of `section` that is not allowed, saying the line
    it is written on and what to write instead."""
    lines = []
    for name in sorted(SETTINGS):
        module = SETTINGS[name]
        entry = module.read_entry(doc, section)
        if entry is not None and module.problems(entry.value):
            where = f"line {entry.line}: " if entry.line else ""
            lines.append(where + module.explain(entry.value))
    return lines


def unknown(doc, section: str) -> list[str]:
    """The keys of `section` that are no setting, each with the closest setting's name when one is
    near ('prot: no such setting; did you mean port?')."""
    if section not in doc.sections:
        return []
    found = []
    for key in dict.fromkeys(doc.sections[section].keys()):
        if key in SETTINGS:
            continue
        close = difflib.get_close_matches(key, sorted(SETTINGS), n=1)
        found.append(f"{key}: no such setting" + (f"; did you mean {close[0]}?" if close else ""))
    return found


def fix(doc, section: str) -> list[str]:
    """Replace, in place, every value of `section` that is not allowed: by the nearest allowed value,
    or by the default when it is not a number. Returns what was changed, one line each."""
    made = []
    for name, module in sorted(SETTINGS.items()):
        entry = module.read_entry(doc, section)
        if entry is None:
            continue
        was, verdict = entry.value, module.validate(entry.value)
        if verdict.ok:
            continue
        new = module.DEFAULT if verdict.suggestion is None else verdict.suggestion
        module.write(doc, section, new)  # the entry itself is changed
        made.append(f"{name}: {was!r} -> {module.format(new)!r}")
    return made


def schema(title: str = "settings") -> dict:
    """A JSON Schema (draft 2020-12) for a section of these settings: each one typed, no other keys."""
    return {"$$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, "type": "object",
            "properties": {name: module.schema() for name, module in sorted(SETTINGS.items())},
            "additionalProperties": False}


def help_for(name: str) -> str:
    """A few lines about setting `name`: range and default, how it is written, the first allowed
    values, the variable that overrides it, and how far a stage of a rollout moves it."""
    module = setting(name)
    lines = [module.describe(), f"  written as: {name} = {module.format(module.DEFAULT)}"]
    if module.SUFFIX:
        lines.append(f"  the {module.SUFFIX!r} suffix may be left out")
    first = module.choices(4)
    lines.append(f"  allowed: {', '.join(module.format(v) for v in first[:3])}{', ...' if len(first) > 3 else ''}")
    lines.append(f"  the environment variable {environ_name(name)} overrides the document")
    lines.append(f"  a rollout changes it by at most {module.MAX_JUMP} per stage")
    return "\\n".join(lines)


def help_all() -> str:
    """Every setting's help, by name, separated by blank lines."""
    return "\\n\\n".join(help_for(name) for name in sorted(SETTINGS)) + "\\n"


def sample(section: str = "app") -> str:
    """A document with every setting at its default, each under a comment saying what it takes: a
    starting point for a configuration file."""
    doc = $Document()
    for name in sorted(SETTINGS):
        module = SETTINGS[name]
        module.write(doc, section, module.DEFAULT).comment = module.describe()
    return $dump(doc, align=True)


def export(values: dict[str, int]) -> str:
    """Setting values (as `read_all` gives them) as JSON text that `load` reads back."""
    rows = []
    for name, value in sorted(values.items()):
        module = setting(name)
        rows.append({"name": name, "value": module.check(value), "text": module.format(value)})
    return json.dumps({"version": EXPORT_VERSION, "settings": rows}, indent=1)


def load(text: str) -> dict[str, int]:
    """Setting values from `export`'s JSON, each checked (ValueFormatError, or its InvalidSetting,
    saying what is wrong)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueFormatError(f"not exported settings: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != EXPORT_VERSION or not isinstance(data.get("settings"), list):
        raise ValueFormatError(f"not exported settings of version {EXPORT_VERSION}")
    values = {}
    for number, row in enumerate(data["settings"], 1):
        name = row.get("name") if isinstance(row, dict) else None
        if name not in SETTINGS:
            raise ValueFormatError(f"exported setting {number}: no setting named {name!r}")
        value = row.get("value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidSetting(name, repr(value), f"the value must be an integer, got {value!r}")
        values[name] = SETTINGS[name].check(value)
    return values


class Rollout:
    """A change of one setting made in stages: 'planned', 'running' while `advance()` steps through
    the setting's ramp, then 'done'. Until it is done, `rollback()` returns to the start ('rolled
    back'); a rollout that is over cannot advance. Misuse raises InvalidSetting."""

    def __init__(self, name: str, current: int, target: int) -> None:
        self.setting = setting(name)
        self.start = self.setting.check(current)
        self.stages = self.setting.ramp(current, target)
        self.value, self.taken = self.start, 0
        self.state = "planned" if self.stages else "done"

    def advance(self) -> int:
        """The next stage's value, which becomes the current one."""
        if self.state not in ("planned", "running"):
            raise InvalidSetting(self.setting.NAME, str(self.value), f"the rollout is {self.state}; it cannot advance")
        self.value = self.stages[self.taken]
        self.taken += 1
        self.state = "done" if self.taken == len(self.stages) else "running"
        return self.value

    def rollback(self) -> int:
        if self.state == "done":
            raise InvalidSetting(self.setting.NAME, str(self.value), "the rollout is done; start another to go back")
        self.value, self.state = self.start, "rolled back"
        return self.value

    def progress(self) -> str:
        done = f"stage {self.taken} of {len(self.stages)}"
        return f"{self.setting.NAME}: {done}, at {self.setting.format(self.value)} ({self.state})"


def rollouts(old, new, section: str) -> dict[str, Rollout]:
    """A staged change (each setting's Rollout, 'planned') for every setting of `section` whose value
    differs between documents `old` and `new` (defaults filled in), by name."""
    before, after = read_all(old, section), read_all(new, section)
    return {name: Rollout(name, before[name], after[name]) for name in sorted(SETTINGS) if before[name] != after[name]}


def plan(old, new, section: str) -> dict[str, list[int]]:
    """The values each changing setting passes through on the way from `old` to `new`."""
    return {name: rollout.stages for name, rollout in rollouts(old, new, section).items()}


def changelog(old, new, section: str) -> list[str]:
    """What changes in `section` from `old` to `new`, a line each: settings as their `diff` writes
    them (defaults filled in), then any other key as 'key: old -> new' ('(unset)' when missing)."""
    before, after = read_all(old, section), read_all(new, section)
    lines = [SETTINGS[name].diff(before[name], after[name]) for name in sorted(SETTINGS)
             if before[name] != after[name]]
    for path, (was, now) in changes(old, new).items():
        where, _, key = path.rpartition(".")
        if where == section and key not in SETTINGS:
            lines.append(f"{key}: {'(unset)' if was is None else was} -> {'(unset)' if now is None else now}")
    return lines
'''

UNIT = '''\
"""The `$unit` setting: an integer from $low to $high in steps of $step, written with an optional
`$suffix` suffix. A change is made in stages of at most MAX_JUMP (`ramp`). Errors are
InvalidSetting, with the nearest allowed value when there is one.
"""

from __future__ import annotations

from ..errors import InvalidSetting
from ..nodes import $Document, Entry
from ..query import Verdict

NAME = "$unit"
LOW = $low
HIGH = $high
DEFAULT = $default
STEP = $step
SUFFIX = "$suffix"
MAX_JUMP = max(STEP, (HIGH - LOW) // 4 // STEP * STEP)  # a quarter of the range, on a step


def parse(text: str) -> int:
    """'$default$suffix' -> $default; underscores are allowed ('1_000'), and a leading minus sign."""
    cleaned = text.strip().lower().replace("_", "")
    if SUFFIX and cleaned.endswith(SUFFIX):
        cleaned = cleaned[: -len(SUFFIX)].strip()
    digits = cleaned[1:] if cleaned.startswith("-") else cleaned
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidSetting(NAME, text, f"not a number: {text!r}")
    return int(cleaned)


def check(value: int) -> int:
    """The value if it is in range and on a step, else InvalidSetting saying what is allowed."""
    if not LOW <= value <= HIGH:
        raise InvalidSetting(NAME, str(value), f"{value} is outside {LOW}..{HIGH}", nearest(value))
    if (value - LOW) % STEP:
        raise InvalidSetting(NAME, str(value), f"{value} is not {LOW} plus a multiple of {STEP}", nearest(value))
    return value


def clamp(value: int) -> int:
    """The largest allowed value not above `value` (LOW for anything below the range)."""
    value = min(HIGH, max(LOW, value))
    return value - (value - LOW) % STEP


def nearest(value: int) -> int:
    """The allowed value closest to `value`; halfway between two, the larger one."""
    below = clamp(value)
    above = below + STEP
    return above if above <= HIGH and above - value <= value - below else below


def read(doc: $Document, section: str) -> int:
    """The setting from `section` of `doc`, DEFAULT when absent."""
    raw = doc.$lookup(f"{section}.{NAME}")
    return DEFAULT if raw is None else check(parse(raw))


def read_entry(doc: $Document, section: str) -> Entry | None:
    """The entry that sets the setting in `section` (the last one, as `read` takes it), or None."""
    found = doc.sections.get(section)
    return None if found is None else found.find(NAME)


def write(doc: $Document, section: str, value: int) -> Entry:
    """Set the setting in `section` of `doc` (made when missing), refusing a value not allowed."""
    target = doc.section(section, create=True)
    target.set(NAME, format(check(value)))
    return target.find(NAME)


def problems(text: str) -> list[str]:
    """What is wrong with `text` as a value of the setting: [] when nothing, else one message."""
    try:
        check(parse(text))
    except InvalidSetting as exc:
        return [str(exc)]
    return []


def validate(text: str) -> Verdict:
    """`text` judged as a value of the setting, without raising."""
    try:
        return Verdict(NAME, text, check(parse(text)))
    except InvalidSetting as exc:
        return Verdict(NAME, text, None, exc.reason, exc.suggestion)


def explain(text: str) -> str:
    """A sentence for people: `text` is allowed, or what is wrong with it and what to write instead."""
    verdict, shown = validate(text), text.strip()
    if verdict.ok:
        return f"{NAME} = {shown} is allowed ({LOW}..{HIGH} in steps of {STEP})"
    instead = "a whole number" if verdict.suggestion is None else format(verdict.suggestion)
    return f"{NAME} = {shown} is not allowed: {verdict.problem}; write {instead}"


def format(value: int) -> str:
    """The value as it is written in a document."""
    return f"{value}{SUFFIX}"


def describe() -> str:
    return f"{NAME}: {LOW}..{HIGH} in steps of {STEP}, default {format(DEFAULT)}"


def choices(limit: int = 10) -> list[int]:
    """The first `limit` allowed values, smallest first."""
    return list(range(LOW, HIGH + 1, STEP)[:limit])


def scaled(value: int, percent: int) -> int:
    """`value` grown (or shrunk) by `percent` %, then brought back into range."""
    return clamp(value + value * percent // 100)


def schema() -> dict[str, object]:
    """The setting as a JSON Schema property (what editors and validators read)."""
    out: dict[str, object] = {"type": "integer", "minimum": LOW, "maximum": HIGH, "default": DEFAULT,
                              "description": describe()}
    if LOW % STEP == 0:  # JSON Schema counts multiples from 0, the setting from LOW
        out["multipleOf"] = STEP
    return out


def diff(old: int, new: int) -> str:
    """A change as people read it, '$unit: <old> -> <new> (<signed difference>)'; '' for none."""
    if old == new:
        return ""
    return f"{NAME}: {format(old)} -> {format(new)} ({new - old:+d})"


def ramp(current: int, target: int) -> list[int]:
    """The values a change from `current` to `target` passes through, each at most MAX_JUMP from
    the one before, the last one `target`; [] when there is nothing to change."""
    value, target = check(current), check(target)
    out = []
    while value != target:
        jump = min(MAX_JUMP, abs(target - value))
        value += jump if target > value else -jump
        out.append(value)
    return out

'''

README = '''\
# $pkg

Reads, queries and writes INI-like configuration files: `[sections]`, `key = value` entries,
comments (`#`, `;`), quoted values with escapes, indented continuation lines, typed values
(booleans, integers, lists, durations, sizes) and $unit_count checked integer settings.

```python
from $pkg import $parse, $dump

doc = $parse("[server]\\nport = 8080\\n")
print(doc.$lookup("server.port"))   # 8080
print($dump(doc), end="")
```

`$pkg.settings` checks a section against the known settings: `read_all(doc, "app", os.environ)`
(environment variables `<PACKAGE>_<SETTING>` win), `report` and `unknown` say what is wrong and on
which line, `fix` repairs it, `sample` writes a file of defaults, `schema` a JSON Schema, and
`plan` / `rollouts` change values in stages.

Run the tests with `python -m pytest -q`.
'''

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$pkg"
version = "0.$minor.1"
requires-python = ">=3.10"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

TESTS = '''\
#@area lexer
import pytest
from $pkg.errors import ParseError
from $pkg.lexer import quote, tokenize, unquote
#@test visible
def test_tokens_of_a_small_document():
    kinds = [t.kind for t in tokenize("# top\\n[a]\\nx = 1\\n  more\\n\\n")]
    assert kinds == ["comment", "section", "entry", "continuation", "blank"]
#@test visible
def test_entry_value_is_unquoted():
    token = tokenize('name = "a \\\\"b\\\\" c"')[0]
    assert (token.name, token.value) == ("name", 'a "b" c')
#@test catches=split_all
def test_value_may_hold_equals_signs():
    token = tokenize("url = http://x/?a=1&b=2")[0]
    assert token.value == "http://x/?a=1&b=2"
#@test catches=column
def test_error_column_points_at_the_text():
    with pytest.raises(ParseError) as info:
        tokenize("[a]\\n   oops")
    assert (info.value.args[0].split(":")[0], "column 4" in str(info.value)) == ("line 2, column 4", True)
#@test catches=swap_position
def test_section_error_position():
    with pytest.raises(ParseError) as info:
        tokenize("[a]\\nx = 1\\n[server\\n")
    assert str(info.value).startswith("line 3, column 8:")
#@test
def test_section_errors():
    for text in ("[a", "[ ]", "= 1"):
        with pytest.raises(ParseError):
            tokenize(text)
#@test visible
def test_quote_round_trip():
    for value in ("plain", " padded ", 'say "hi"', "two\\nlines", "#not a comment", ""):
        assert unquote(quote(value)) == value

#@area parser
import pytest
from $pkg import $parse
from $pkg.errors import ParseError
from $pkg.parser import DEFAULT_SECTION
#@test visible
def test_sections_and_entries():
    doc = $parse("[server]\\nhost = example.org\\nport = 8080\\n[client]\\nretries = 3\\n")
    assert doc.names() == ["server", "client"]
    assert doc.as_dict()["server"] == {"host": "example.org", "port": "8080"}
#@test visible
def test_entries_before_any_section():
    doc = $parse("a = 1\\n[s]\\nb = 2\\n")
    assert doc.as_dict() == {DEFAULT_SECTION: {"a": "1"}, "s": {"b": "2"}}
#@test
def test_continuation_lines():
    doc = $parse("[s]\\npaths = one\\n  two\\n  three\\n")
    assert doc.$lookup("s.paths") == "one\\ntwo\\nthree"
#@test
def test_strict_refuses_repeats():
    text = "[s]\\na = 1\\na = 2\\n"
    assert $parse(text).$lookup("s.a") == "2"
    with pytest.raises(ParseError):
        $parse(text, strict=True)
#@test
def test_sections_do_not_share_entries():
    doc = $parse("[a]\\nx = 1\\n[b]\\ny = 2\\n")
    assert doc.as_dict() == {"a": {"x": "1"}, "b": {"y": "2"}}
    again = $parse("[c]\\nz = 3\\n")
    assert again.as_dict() == {"c": {"z": "3"}}
#@test
def test_comments_attach_to_entries():
    doc = $parse("# file comment\\n[s]\\n# about a\\na = 1\\n\\nb = 2\\n")
    entries = doc.sections["s"].entries
    assert doc.comments == ["file comment"]
    assert [(e.key, e.comment) for e in entries] == [("a", "about a"), ("b", "")]
#@test needs=interpolation
def test_interpolation_within_a_section():
    doc = $parse("[s]\\nroot = /srv\\ndata = $${root}/data\\nkeep = $${nothing}\\n", interpolate_values=True)
    assert doc.$lookup("s.data") == "/srv/data"
    assert doc.$lookup("s.keep") == "$${nothing}"
#@test needs=interpolation
def test_interpolation_across_sections():
    doc = $parse("[paths]\\nroot = /srv\\n[app]\\nlog = $${paths.root}/log\\n", interpolate_values=True)
    assert doc.$lookup("app.log") == "/srv/log"
    assert $parse("[a]\\nx = $${y}\\ny = 1\\n").$lookup("a.x") == "$${y}"

#@area nodes
from $pkg import $Document, $parse
from $pkg.nodes import Section
#@test visible
def test_lookup_paths():
    doc = $parse("[server.tls]\\ncert = a.pem\\n[s]\\nk = v\\n")
    assert doc.$lookup("s.k") == "v"
    assert doc.$lookup("s.missing") is None
#@test catches=lookup_key
def test_lookup_dotted_section_names():
    doc = $parse("[server.tls]\\ncert = a.pem\\n[s]\\nk = v\\n")
    assert doc.$lookup("server.tls.cert") == "a.pem"
    assert doc.$lookup("server.tls.key", "none") == "none"
#@test
def test_lookup_defaults():
    doc = $parse("[s]\\nk = v\\n[k]\\ns = w\\n")
    assert doc.$lookup("s.k") == "v"
    assert doc.$lookup("s.nope", "d") == "d"
    assert doc.$lookup("nope.k", "d") == "d"
#@test
def test_section_set_and_remove():
    section = Section("s")
    section.set("a", "1")
    section.set("a", "2")
    section.set("b", "3")
    assert section.as_dict() == {"a": "2", "b": "3"}
    assert section.remove("a") is True and section.remove("a") is False
    assert section.keys() == ["b"]
#@test catches=shared_entries
def test_new_sections_start_empty():
    first = Section("one")
    first.set("a", "1")
    assert Section("two").keys() == []
#@test
def test_document_section_creation():
    doc = $Document()
    doc.section("new", create=True).set("k", "v")
    assert doc.as_dict() == {"new": {"k": "v"}}

#@area values
import pytest
from $pkg import values
from $pkg.errors import ValueFormatError
#@test needs=interpolation
def test_values_interpolate():
    found = {"s.root": "/srv", "paths.log": "/var/log", "a.b.c": "deep"}
    asked = []

    def lookup(path):
        asked.append(path)
        return found.get(path)

    assert values.interpolate("$${root}/data", "s", lookup) == "/srv/data"
    assert values.interpolate("$${paths.log}:$${a.b.c}", "s", lookup) == "/var/log:deep"
    assert values.interpolate("$${nothing} and $${x.nothing}", "s", lookup) == "$${nothing} and $${x.nothing}"
    assert values.interpolate("no references", "s", lookup) == "no references"
    assert asked == ["s.root", "paths.log", "a.b.c", "s.nothing", "x.nothing"]
#@test visible
def test_booleans_true():
    assert [values.to_bool(v) for v in ("yes", "True", " YES ")] == [True, True, True]
#@test catches=bool_branch
def test_booleans_on_and_one():
    assert [values.to_bool(v) for v in (" on ", "1", "ON")] == [True, True, True]
#@test
def test_booleans_false():
    assert [values.to_bool(v) for v in ("no", "False", "off", "0")] == [False, False, False, False]
    assert values.to_bool("yes") is True and values.to_bool("true") is True
#@test
def test_booleans_reject():
    with pytest.raises(ValueFormatError):
        values.to_bool("maybe")
#@test visible
def test_integers():
    assert values.to_int("1_000") == 1000
    assert values.to_int("0x1f") == 31
    assert values.to_int(" -7 ") == -7
#@test visible
def test_lists():
    assert values.to_list("a$list_sep b$list_sep$list_sep c") == ["a", "b", "c"]
    assert values.to_list("one\\n two\\n\\nthree") == ["one", "two", "three"]
#@test
def test_durations():
    assert values.to_seconds("1h30m") == 5400
    assert values.to_seconds("250ms") == 0.25
    assert values.to_seconds("45") == 45
    for bad in ("", "h", "10x", "5m 3"):
        with pytest.raises(ValueFormatError):
            values.to_seconds(bad)
#@test
def test_sizes():
    assert values.to_bytes("10KB") == 10000
    assert values.to_bytes("2 MiB") == 2097152
    with pytest.raises(ValueFormatError):
        values.to_bytes("3 parsecs")

#@area printer
from $pkg import $dump, $parse
from $pkg.printer import format_entry
#@test visible
def test_dump_round_trip():
    text = "# top\\n\\n[server]\\nhost = example.org\\nport = 8080\\n\\n[empty]\\n"
    assert $dump($parse(text)) == text
#@test
def test_dump_writes_key_then_value():
    doc = $parse("[s]\\nname = value\\n")
    assert $dump(doc).splitlines() == ["[s]", "name = value"]
#@test
def test_dump_sorted_and_aligned():
    doc = $parse("[s]\\nzeta = 1\\na = 2\\n")
    assert $dump(doc, sort_keys=True, align=True).splitlines() == ["[s]", "a    = 2", "zeta = 1"]
#@test
def test_dump_multiline_and_quoted_values():
    doc = $parse('[s]\\nlist = one\\n  two\\nmsg = " spaced "\\n')
    back = $parse($dump(doc))
    assert back.as_dict() == doc.as_dict()
#@test
def test_format_entry():
    assert format_entry("k", "v") == ["k = v"]
    assert format_entry("k", "a\\nb", 3) == ["k   = a", "$indent" + "b"]

#@area query
import pytest
from $pkg import $parse
from $pkg.errors import MissingKey
from $pkg.query import flatten, merge, missing, typed
#@test visible
def test_typed_values():
    doc = $parse("[s]\\ndebug = yes\\nworkers = 4\\ntimeout = 2m\\n")
    assert typed(doc, "s.debug", "bool") is True
    assert typed(doc, "s.workers", "int") == 4
    assert typed(doc, "s.timeout", "seconds") == 120
#@test
def test_typed_missing():
    doc = $parse("[s]\\n")
    assert typed(doc, "s.x", "int", default=5) == 5
    with pytest.raises(MissingKey):
        typed(doc, "s.x", "int")
#@test visible
def test_merge_overrides():
    base = $parse("[a]\\nx = 1\\ny = 2\\n")
    over = $parse("[a]\\ny = 3\\n[b]\\nz = 4\\n")
    assert merge(base, over).as_dict() == {"a": {"x": "1", "y": "3"}, "b": {"z": "4"}}
    assert base.as_dict() == {"a": {"x": "1", "y": "2"}}
#@test catches=lookup_key
def test_flatten_and_missing():
    doc = $parse("[a]\\nx = 1\\n[b.c]\\ny = 2\\n")
    assert flatten(doc) == {"a.x": "1", "b.c.y": "2"}
    assert missing(doc, ["a.x", "a.q", "b.c.y"]) == ["a.q"]

#@area settings
import json
import pytest
from $pkg import $dump, $parse
from $pkg.errors import InvalidSetting, ValueFormatError
from $pkg.query import changes
from $pkg import settings
from $pkg.settings import SETTINGS, problems, read_all, setting
#@test visible
def test_every_setting_is_listed():
    assert sorted(SETTINGS) == sorted($unit_names)
#@test visible
def test_setting_defaults_are_allowed():
    for name in $unit_names[:3]:
        module = setting(name)
        assert module.check(module.DEFAULT) == module.DEFAULT
        assert module.parse(module.format(module.DEFAULT)) == module.DEFAULT
#@test
def test_setting_range_and_steps():
    for name in $unit_names[-2:]:
        module = setting(name)
        with pytest.raises(ValueFormatError):
            module.check(module.HIGH + module.STEP)
        assert module.clamp(module.HIGH + 100) <= module.HIGH
        assert module.choices(2) == [module.LOW, module.LOW + module.STEP]
#@test
def test_settings_from_a_document():
    name = $unit_names[0]
    module = setting(name)
    doc = $parse(f"[app]\\n{name} = {module.format(module.HIGH)}\\n{$unit_names[1]} = -99999\\n")
    values = read_all($parse("[app]\\n"), "app")
    assert values[name] == module.DEFAULT
    assert len(problems(doc, "app")) == 1
#@test visible
def test_setting_errors_say_what_is_allowed():
    module = setting($unit_names[0])
    name, low, high = module.NAME, module.LOW, module.HIGH
    with pytest.raises(InvalidSetting) as info:
        module.check(high + 1)
    assert str(info.value) == f"{name}: {high + 1} is outside {low}..{high} (nearest allowed: {high})"
    verdict = module.validate(str(high + 1))
    assert (verdict.setting, verdict.value, verdict.suggestion, verdict.ok) == (name, None, high, False)
    assert module.validate("many").suggestion is None
#@test visible
def test_sample_document_reads_back_as_the_defaults():
    text = settings.sample("app")
    doc = $parse(text)
    assert read_all(doc, "app") == read_all($parse(""), "app")
    assert problems(doc, "app") == [] and settings.unknown(doc, "app") == []
    assert f"# {setting($unit_names[0]).describe()}" in text.splitlines()
#@test
def test_nearest_allowed_value():
    for name in $unit_names[:2]:
        module = setting(name)
        low, high, step, nearest = module.LOW, module.HIGH, module.STEP, module.nearest
        allowed = range(low, low + 8 * step, step)
        for value in range(low - 1, low + step + 2):
            assert nearest(value) == min(allowed, key=lambda a: (abs(a - value), -a)), value
        assert nearest(high + 5) == high == module.clamp(high + 5)
#@test
def test_validate_and_explain():
    module = setting($unit_names[1])
    name, low, high, step, default = module.NAME, module.LOW, module.HIGH, module.STEP, module.DEFAULT
    good = module.format(default)
    verdict = module.validate(good)
    assert (verdict.setting, verdict.text, verdict.value, verdict.problem, verdict.suggestion) == (name, good, default, "", None)
    assert verdict.ok and module.explain(f" {good} ") == f"{name} = {good} is allowed ({low}..{high} in steps of {step})"
    assert module.explain(str(high + 1)) == (f"{name} = {high + 1} is not allowed: {high + 1} is outside "
                                             f"{low}..{high}; write {module.format(high)}")
    assert module.explain("lots").endswith("; write a whole number")
    for text in ("--5", "\\u00b2", "0x10"):
        assert module.problems(text) == [f"{name}: not a number: {text!r}"]
#@test
def test_write_and_read_entry():
    module = setting($unit_names[2])
    name, high = module.NAME, module.HIGH
    doc = $parse(f"[app]\\n{name} = {module.format(module.LOW)}\\n")
    assert module.read_entry(doc, "app").line == 2 and module.read_entry(doc, "other") is None
    assert module.write(doc, "app", high).line == 2 and module.read(doc, "app") == high
    module.write(doc, "new", module.DEFAULT)
    assert $parse($dump(doc)).as_dict()["new"] == {name: module.format(module.DEFAULT)}
    with pytest.raises(InvalidSetting):
        module.write(doc, "app", high + 1)
    assert module.read(doc, "app") == high
#@test
def test_environment_overrides_the_document():
    first, second = $unit_names[:2]
    one = setting(first)
    low, high = one.LOW, one.HIGH
    variable, other = settings.environ_name(first), settings.environ_name(second)
    assert variable == f"{'$pkg'.upper()}_{first.upper()}" and other == f"{'$pkg'.upper()}_{second.upper()}"
    doc = $parse(f"[app]\\n{first} = {one.format(low)}\\n")
    values = read_all(doc, "app", {variable: one.format(high), other: "  "})
    assert (values[first], values[second]) == (high, setting(second).DEFAULT)
    assert read_all(doc, "app")[first] == low
    with pytest.raises(InvalidSetting):
        read_all(doc, "app", {variable: "lots"})
#@test
def test_ramp_and_rollout():
    module = setting($unit_names[-1])
    name, low, high, default = module.NAME, module.LOW, module.HIGH, module.DEFAULT
    stages, jump = module.ramp(low, high), module.MAX_JUMP
    assert stages[-1] == high and len(stages) > 1
    assert all(0 < b - a <= jump for a, b in zip([low, *stages], stages))
    assert module.ramp(high, low)[-1] == low and module.ramp(default, default) == []
    rollout = settings.Rollout(name, low, high)
    assert rollout.state == "planned" and rollout.advance() == stages[0] and rollout.state == "running"
    while rollout.state == "running":
        rollout.advance()
    assert rollout.progress() == f"{name}: stage {len(stages)} of {len(stages)}, at {module.format(high)} (done)"
    for step in (rollout.advance, rollout.rollback):
        with pytest.raises(InvalidSetting):
            step()
    again = settings.Rollout(name, low, high)
    again.advance()
    assert again.rollback() == low and again.state == "rolled back"
    with pytest.raises(InvalidSetting):
        again.advance()
    assert settings.Rollout(name, default, default).state == "done"
#@test
def test_schema_and_help():
    full = settings.schema("app")
    assert full["additionalProperties"] is False and sorted(full["properties"]) == sorted($unit_names)
    module = setting($unit_names[0])
    name, low, high, step, default = module.NAME, module.LOW, module.HIGH, module.STEP, module.DEFAULT
    prop = full["properties"][name]
    assert (prop["minimum"], prop["maximum"], prop["default"], prop["description"]) == (low, high, default, module.describe())
    assert all(value % prop.get("multipleOf", 1) == 0 for value in range(low, low + 5 * step, step))
    text = settings.help_all()
    lines = settings.help_for(name).splitlines()
    assert text.count("\\n\\n") == len(SETTINGS) - 1 and "\\n".join(lines) in text
    assert lines[0] == module.describe() and lines[1] == f"  written as: {name} = {module.format(default)}"
    assert f"  the environment variable {settings.ENV_PREFIX}_{name.upper()} overrides the document" in lines
#@test
def test_report_unknown_keys_and_fix():
    first, second = $unit_names[:2]
    one, two = setting(first), setting(second)
    high = one.HIGH
    doc = $parse(f"[app]\\n{first} = {high + 1}\\n{second} = plenty\\n{first}x = 1\\nqqqq = 2\\n")
    expected = [f"line 2: {one.explain(str(high + 1))}", f"line 3: {two.explain('plenty')}"]
    assert sorted(settings.report(doc, "app")) == sorted(expected)
    assert settings.unknown(doc, "app") == [f"{first}x: no such setting; did you mean {first}?", "qqqq: no such setting"]
    made = settings.fix(doc, "app")
    expected = [f"{first}: '{high + 1}' -> '{one.format(high)}'", f"{second}: 'plenty' -> '{two.format(two.DEFAULT)}'"]
    assert sorted(made) == sorted(expected)
    assert problems(doc, "app") == [] and settings.report(doc, "app") == [] and settings.fix(doc, "app") == []
    assert read_all(doc, "app")[first] == high
#@test
def test_export_and_load():
    values = read_all($parse("[app]\\n"), "app")
    assert settings.load(settings.export(values)) == values
    data = json.loads(settings.export(values))
    assert data["version"] == 1 and [row["name"] for row in data["settings"]] == sorted(values)
    name = $unit_names[0]
    for bad in ("nope", "[]", '{"version": 2, "settings": []}', json.dumps({"version": 1, "settings": [{"name": "qqqq"}]})):
        with pytest.raises(ValueFormatError):
            settings.load(bad)
    for value in (setting(name).HIGH + 1, True, "1", None):
        with pytest.raises(InvalidSetting):
            settings.load(json.dumps({"version": 1, "settings": [{"name": name, "value": value}]}))
#@test
def test_plan_rollouts_and_changelog():
    name = $unit_names[0]
    module = setting(name)
    low, high = module.format(module.LOW), module.format(module.HIGH)
    old = $parse(f"[app]\\n{name} = {low}\\nmode = fast\\n")
    new = $parse(f"[app]\\n{name} = {high}\\nmode = safe\\nextra = 1\\n")
    assert settings.plan(old, new, "app") == {name: module.ramp(module.LOW, module.HIGH)}
    assert [(n, r.state) for n, r in settings.rollouts(old, new, "app").items()] == [(name, "planned")]
    change = f"{name}: {low} -> {high} (+{module.HIGH - module.LOW})"
    assert module.diff(module.LOW, module.HIGH) == change
    assert settings.changelog(old, new, "app") == [change, "mode: fast -> safe", "extra: (unset) -> 1"]
    assert changes(old, new) == {f"app.{name}": (low, high), "app.mode": ("fast", "safe"), "app.extra": (None, "1")}
    assert settings.plan(old, old, "app") == {} and settings.changelog(old, old, "app") == []
'''

KIND = ProjectKind(
    name="conf",
    description="an INI-like configuration parser and pretty-printer: lexer, nodes, parser, typed values, printer",
    packages=("confkit", "inifile", "settingsfile", "cfgtools", "keyfile", "confparse", "dotconf"),
    names={
        "Document": ("Document", "Config", "ConfigFile", "Tree"),
        "Error": ("ConfError", "ConfigError", "SettingsError"),
        "parse": ("parse", "loads", "read_config", "parse_text"),
        "dump": ("dump", "dumps", "render", "write_config"),
        "lookup": ("lookup", "get_value", "value_at", "resolve"),
    },
    constants={"default_section": ("DEFAULT", "main", "global", "root"), "list_sep": (",", ";", "|"),
               "indent": ("    ", "  ", "\\t"), "minor": (4, 5, 9, 12)},
    files={"$pkg/__init__.py": INIT, "$pkg/errors.py": ERRORS, "$pkg/lexer.py": LEXER, "$pkg/nodes.py": NODES,
           "$pkg/parser.py": PARSER, "$pkg/values.py": VALUES, "$pkg/printer.py": PRINTER, "$pkg/query.py": QUERY,
           "$pkg/settings/__init__.py": SETTINGS_INDEX, "README.md": README, "pyproject.toml": PYPROJECT},
    units=Units(dir="$pkg/settings", template=UNIT, index="$pkg/settings/__init__.py", count=(22, 31),
                names=("port", "workers", "threads", "retries", "backlog", "timeout", "keepalive", "buffer", "chunk",
                       "batch", "window", "depth", "fanout", "replicas", "shards", "ttl", "quota", "burst", "rate",
                       "interval", "grace", "delay", "jitter", "cache", "pool", "queue", "slots", "lanes", "width",
                       "height", "margin", "padding", "columns", "rows", "level", "verbosity", "priority", "weight",
                       "capacity", "limit"),
                values={"low": (0, 4, 8, 16), "high": (64, 128, 1024, 4096), "default": (32, 48, 64),
                        "step": (1, 2, 4), "suffix": ("", "s", "ms", "kb", "x")}),
    tests=TESTS,
    bugs=(
        BugSite("column", "off_by_one", "$pkg/lexer.py",
                "Error messages point one column too far left. For `[a]` followed by a line `   oops` the ParseError says "
                "column 3, but the text starts in column 4 (columns are counted from 1, like the line numbers)."),
        BugSite("bool_branch", "wrong_branch", "$pkg/values.py",
                "`values.to_bool('on')` raises ValueFormatError (\"not a yes/no value: 'on'\"), and so does `to_bool('1')`, "
                "although both are yes-values like 'yes' and 'true' (which work), and 'off' and '0' work too."),
        BugSite("shared_entries", "mutable_default", "$pkg/nodes.py",
                "A `Section` made on its own is not empty: after `Section('one').set('a', '1')`, a new `Section('two')` "
                "already has the key 'a' (and setting keys on it changes the first one). Sections read from a "
                "document are fine."),
        BugSite("lookup_key", "wrong_key", "$pkg/nodes.py",
                "`$Document.$lookup` cannot find keys of sections whose name has a dot: `[server.tls]` with "
                "`cert = a.pem` parses fine (`doc.sections` has 'server.tls') but `doc.$lookup('server.tls.cert')` "
                "returns None. Keys of plain sections (`doc.$lookup('s.k')`) are found."),
        BugSite("split_all", "edge_case", "$pkg/lexer.py",
                "A value containing '=' is cut short: `url = http://x/?a=1&b=2` is read as `http://x/?a` "
                "and everything after the second '=' is lost."),
        BugSite("swap_position", "swapped_args", "$pkg/lexer.py",
                "A section header without its closing bracket is reported at the wrong place: when the third line of a "
                "document is `[server`, the ParseError says 'line 8, column 3'. It should say line 3 (and the column "
                "just past the text, 8)."),
    ),
    features=(
        Feature("interpolation", ("$pkg/values.py", "$pkg/parser.py"),
                "Please support references between values. `$parse(text, interpolate_values=True)` should replace "
                "`$${key}` in a value with the value of `key` in the same section, and `$${section.key}` with a value "
                "from another section (dotted section names allowed), once the whole document has been read. A "
                "reference that does not resolve stays exactly as written. Put the substitution itself in "
                "`values.interpolate(text, section, lookup)` (lookup: a function from 'section.key' to the value or "
                "None). Without the flag nothing changes."),
    ),
    renames=(
        Rename("parse", "parse", "function", "$pkg.parser"),
        Rename("dump", "dump", "function", "$pkg.printer"),
        Rename("lookup", "lookup", "method", "$pkg.nodes", owner="Document"),
        Rename("Document", "Document", "class", "$pkg.nodes"),
    ),
    mutation_areas={"values": "$pkg/values.py", "lexer": "$pkg/lexer.py", "printer": "$pkg/printer.py"},
)
