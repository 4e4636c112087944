"""The template language of generated projects: `string.Template` placeholders plus line markers.

A project kind is written as real Python modules in which

- `$Name` / `${name}` placeholders stand for the names and constants drawn per seed (`$$` is a
  literal dollar sign);
- `code  #@if:FLAG: other code` on one line: with FLAG active the line's code becomes `other code`
  (same indentation);
- a block `#@if:FLAG` ... `#@else` ... `#@end` (markers on lines of their own): with FLAG active the
  first part is kept, otherwise the `#@else` part (which may be absent).

Flags are what makes a variant of the clean project: `bug.ID` (an injected bug), `without.ID` (a
feature not yet written). The clean project has none active. Marker lines never reach the output.

A kind's folder (projects/templates/<kind>/) holds its files in *source form*, which is valid
Python that ruff reads and that looks like the clean project: a placeholder is written `__name__`
(`__pkg__/ledger.py`, `class __Error__(Exception)`), a `$` is a dollar sign, and the lines of a
block's first part (the variant's code) are commented out, `# ` after their indentation.
`from_source` turns that into the form above.
"""

from __future__ import annotations

import functools
import re
from string import Template

_INLINE = re.compile(r"^(?P<indent>[ \t]*)(?P<code>.*?)[ \t]*#@if:(?P<flag>[\w.-]+):[ \t]?(?P<alt>.*)$")
_OPEN = re.compile(r"^[ \t]*#@if:(?P<flag>[\w.-]+)[ \t]*$")
_ELSE = re.compile(r"^[ \t]*#@else[ \t]*$")
_END = re.compile(r"^[ \t]*#@end[ \t]*$")
_BLOCK_MARKER = re.compile(r"#@(?:(?P<if>if):[\w.-]+|else|end)[ \t]*$", re.M)  # a literal first: a fast search
_COMMENTED = re.compile(r"^(?P<indent>[ \t]*)# (?P<code>.*)$", re.DOTALL)


class TemplateError(ValueError):
    """A template that does not follow the language (a kind's bug: found by the plugin's tests)."""


def flags_in(text: str) -> set[str]:
    """Every flag a template mentions."""
    found = set()
    for line in text.splitlines():
        m = _INLINE.match(line) or _OPEN.match(line)
        if m:
            found.add(m.group("flag"))
    return found


def select(text: str, active: frozenset[str] | set[str], where: str = "") -> str:
    """The text with markers resolved for the `active` flags."""
    out: list[str] = []
    for item in _parse(text, where):
        if type(item) is str:
            out.append(item)
        elif item[0] == "block":
            _, flag, then, otherwise = item
            out += [_inline(i, active) if type(i) is tuple else i for i in (then if flag in active else otherwise)]
        else:
            out.append(_inline(item, active))
    return "".join(out)


def _inline(item: tuple, active) -> str:
    _, flag, clean, alt = item
    return alt if flag in active else clean


@functools.lru_cache(maxsize=8192)
def _parse(text: str, where: str) -> tuple:
    """The template as plain runs of lines, inline markers ("inline", flag, clean line, active line)
    and blocks ("block", flag, kept, else part): parsed once per template text, since every seed of a
    kind renders the same templates (a line without "#@" is plain, without trying the patterns)."""
    items: list = []
    part: list = items  # where lines go: the top level or the open block's current part
    block = None  # the open block: ["block", flag, kept, else part]
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        if "#@" not in line:
            if part and type(part[-1]) is str:
                part[-1] += line
            else:
                part.append(line)
            continue
        m = _OPEN.match(line)
        if m:
            if block is not None:
                raise TemplateError(f"{where}:{number}: #@if inside #@if:{block[1]} (blocks do not nest)")
            block = ["block", m.group("flag"), [], []]
            items.append(block)
            part = block[2]
            continue
        if _ELSE.match(line):
            if block is None:
                raise TemplateError(f"{where}:{number}: #@else outside a block")
            part = block[3]
            continue
        if _END.match(line):
            if block is None:
                raise TemplateError(f"{where}:{number}: #@end outside a block")
            block, part = None, items
            continue
        m = _INLINE.match(line)
        if m:
            def shown(code: str) -> str:
                return (m.group("indent") + code).rstrip() + "\n" if code.strip() else ""

            part.append(("inline", m.group("flag"), shown(m.group("code")), shown(m.group("alt"))))
        elif part and type(part[-1]) is str:
            part[-1] += line
        else:
            part.append(line)
    if block is not None:
        raise TemplateError(f"{where}: #@if:{block[1]} is never closed")
    return tuple(tuple(i) if type(i) is list else i for i in items)


def from_source(text: str, placeholders: set[str] | frozenset[str], where: str = "") -> str:
    """A template file's source form (module docstring) as a template: `__name__` of each of
    `placeholders` -> `$name` (`${name}` before a letter, digit or `_`), `$` -> `$$`, and each line
    of a block's first part uncommented. Other dunders (`__init__`) are left alone."""
    out, done, first = [], 0, None  # first: where the open block's first part begins
    for m in _BLOCK_MARKER.finditer(text):  # only the marker lines are looked at: the rest is copied
        if text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip(" \t"):
            continue  # code before it: not a line of its own
        if m["if"]:
            first = m.end() + 1  # a second #@if before the #@end: _parse says blocks do not nest
        elif first is not None:
            out += [text[done:first], _uncommented(text, first, m.start(), where)]
            done, first = m.start(), None
    text = ("".join(out) + text[done:]).replace("$", "$$")
    if not placeholders:
        return text
    before_word, elsewhere = _dunders(frozenset(placeholders))
    return elsewhere.sub(r"$\1", before_word.sub(r"${\1}", text))  # C-level replacements: no call per match


def _uncommented(text: str, start: int, end: int, where: str) -> str:
    lines = text[start:end].splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.strip():
            m = _COMMENTED.match(line)
            if not m:
                number = text.count("\n", 0, start) + i + 1
                raise TemplateError(f"{where}:{number}: a line of #@if's first part must be commented out "
                                    f"('# ' after its indentation), got {line.rstrip()!r}")
            lines[i] = m["indent"] + m["code"]
    return "".join(lines)


@functools.lru_cache(maxsize=64)
def _dunders(placeholders: frozenset[str]) -> tuple[re.Pattern, re.Pattern]:
    """`__name__` of any of `placeholders` (the longest first): before a word character, anywhere."""
    names = "|".join(sorted(map(re.escape, placeholders), key=len, reverse=True))
    return re.compile(rf"__({names})__(?=\w)"), re.compile(rf"__({names})__")


def fill(text: str, values: dict[str, object], where: str = "") -> str:
    try:
        return Template(text).substitute({k: str(v) for k, v in values.items()})
    except KeyError as exc:
        raise TemplateError(f"{where}: no value for placeholder ${exc.args[0]}") from None
    except ValueError as exc:
        raise TemplateError(f"{where}: {exc}") from None


def render(text: str, values: dict[str, object], active: frozenset[str] | set[str] = frozenset(), where: str = "") -> str:
    return fill(select(text, active, where), values, where)
