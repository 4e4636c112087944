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
from ..nodes import __Document__
from ..printer import __dump__
from ..query import changes
__unit_imports__

SETTINGS = {
__unit_table__
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
        raw = doc.__lookup__(f"{section}.{name}")
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
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, "type": "object",
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
    return "\n".join(lines)


def help_all() -> str:
    """Every setting's help, by name, separated by blank lines."""
    return "\n\n".join(help_for(name) for name in sorted(SETTINGS)) + "\n"


def sample(section: str = "app") -> str:
    """A document with every setting at its default, each under a comment saying what it takes: a
    starting point for a configuration file."""
    doc = __Document__()
    for name in sorted(SETTINGS):
        module = SETTINGS[name]
        module.write(doc, section, module.DEFAULT).comment = module.describe()
    return __dump__(doc, align=True)


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
