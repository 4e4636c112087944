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
"""

from __future__ import annotations

import re
from string import Template

_INLINE = re.compile(r"^(?P<indent>[ \t]*)(?P<code>.*?)[ \t]*#@if:(?P<flag>[\w.-]+):[ \t]?(?P<alt>.*)$")
_OPEN = re.compile(r"^[ \t]*#@if:(?P<flag>[\w.-]+)[ \t]*$")
_ELSE = re.compile(r"^[ \t]*#@else[ \t]*$")
_END = re.compile(r"^[ \t]*#@end[ \t]*$")


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
    block: str | None = None  # the open block's flag
    keeping = True
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        m = _OPEN.match(line)
        if m:
            if block is not None:
                raise TemplateError(f"{where}:{number}: #@if inside #@if:{block} (blocks do not nest)")
            block, keeping = m.group("flag"), m.group("flag") in active
            continue
        if _ELSE.match(line):
            if block is None:
                raise TemplateError(f"{where}:{number}: #@else outside a block")
            keeping = block not in active
            continue
        if _END.match(line):
            if block is None:
                raise TemplateError(f"{where}:{number}: #@end outside a block")
            block, keeping = None, True
            continue
        if not keeping:
            continue
        m = _INLINE.match(line)
        if m:
            code = m.group("alt") if m.group("flag") in active else m.group("code")
            line = (m.group("indent") + code).rstrip() + "\n" if code.strip() else ""
        out.append(line)
    if block is not None:
        raise TemplateError(f"{where}: #@if:{block} is never closed")
    return "".join(out)


def fill(text: str, values: dict[str, object], where: str = "") -> str:
    try:
        return Template(text).substitute({k: str(v) for k, v in values.items()})
    except KeyError as exc:
        raise TemplateError(f"{where}: no value for placeholder ${exc.args[0]}") from None
    except ValueError as exc:
        raise TemplateError(f"{where}: {exc}") from None


def render(text: str, values: dict[str, object], active: frozenset[str] | set[str] = frozenset(), where: str = "") -> str:
    return fill(select(text, active, where), values, where)
