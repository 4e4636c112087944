"""The `__unit__` setting: an integer from __low__ to __high__ in steps of __step__, written with an optional
`__suffix__` suffix. A change is made in stages of at most MAX_JUMP (`ramp`). Errors are
InvalidSetting, with the nearest allowed value when there is one.
"""

from __future__ import annotations

from ..errors import InvalidSetting
from ..nodes import __Document__, Entry
from ..query import Verdict

NAME = "__unit__"
LOW = __low__
HIGH = __high__
DEFAULT = __default__
STEP = __step__
SUFFIX = "__suffix__"
MAX_JUMP = max(STEP, (HIGH - LOW) // 4 // STEP * STEP)  # a quarter of the range, on a step


def parse(text: str) -> int:
    """'__default____suffix__' -> __default__; underscores are allowed ('1_000'), and a leading minus sign."""
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


def read(doc: __Document__, section: str) -> int:
    """The setting from `section` of `doc`, DEFAULT when absent."""
    raw = doc.__lookup__(f"{section}.{NAME}")
    return DEFAULT if raw is None else check(parse(raw))


def read_entry(doc: __Document__, section: str) -> Entry | None:
    """The entry that sets the setting in `section` (the last one, as `read` takes it), or None."""
    found = doc.sections.get(section)
    return None if found is None else found.find(NAME)


def write(doc: __Document__, section: str, value: int) -> Entry:
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
    """A change as people read it, '__unit__: <old> -> <new> (<signed difference>)'; '' for none."""
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

