"""The `__unit__` plugin: scales every value passing through the `transform` hook by its `factor`
setting and shifts it by its `offset`, describes itself, and handles `.__ext__` files.

A `.__ext__` file, as this plugin reads it, holds whole numbers, one a line (blank lines and lines
starting with '#' are skipped); `process` writes it back with every number transformed. The rest
of the package uses the other functions: `plugins.undo_chain` runs the transform chain backwards
through `unscale`, `plugins.chain_formula` folds every plugin's `affine` into one formula, and
`report.plugin_help` shows `help_text`.
"""

from __future__ import annotations

import sys

from ..errors import ConfigError, DataError
from ..markers import collect, hookimpl
from ..spec import PluginSpec

EXTENSION = "__ext__"
SPEC = PluginSpec(
    "__unit__",
    "__uversion__",
    requires={"core": ">=__core_min__"},
    priority=__upriority__,
    settings={"factor": __factor__, "offset": __offset__, "label": "__Unit__"},
    description="__Unit__: values times __factor__, plus __offset__; handles .__ext__ files",
    module=__name__,
)
SETTINGS_HELP = {
    "factor": "a whole number >= 0 that every value is multiplied by",
    "offset": "a whole number added after multiplying",
    "label": "the name reports show for the plugin",
}


def check(settings: dict) -> list[str]:
    """What is wrong with `settings` for this plugin, one message each (a setting left out
    counts as its default only for `label`)."""
    problems = []
    for key in ("factor", "offset"):
        value = settings.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{SPEC.name}.{key}: expected an integer, got {value!r}")
    if not problems and settings["factor"] < 0:
        problems.append(f"{SPEC.name}.factor: must not be negative, got {settings['factor']}")
    label = settings.get("label", SPEC.settings["label"])
    if not isinstance(label, str) or not label.strip():
        problems.append(f"{SPEC.name}.label: expected some text, got {label!r}")
    return problems


def checked(settings: dict | None = None) -> dict:
    """`settings` (the defaults when None) if `check` finds nothing wrong; ConfigError if it does."""
    settings = SPEC.settings if settings is None else settings
    problems = check(settings)
    if problems:
        raise ConfigError("; ".join(problems))
    return settings


def scale(value: int, settings: dict | None = None) -> int:
    """`value` as this plugin's `transform` leaves it."""
    settings = SPEC.settings if settings is None else settings
    return value * settings["factor"] + settings["offset"]


def unscale(value: int, settings: dict | None = None) -> int:
    """The value `scale` was given, from what it returned. DataError when no whole number scales
    to `value`, or when every number scales to the same one (factor 0)."""
    factor, offset = affine(settings)
    if factor == 0:
        raise DataError(f"{SPEC.name}: with factor 0 every value becomes {offset}, so {value} cannot be undone")
    if (value - offset) % factor:
        raise DataError(f"{SPEC.name}: {value} is not a value its transform gives ({formula(settings)})")
    return (value - offset) // factor


def affine(settings: dict | None = None) -> tuple[int, int]:
    """(factor, offset): what `transform` does to a value, as value * factor + offset."""
    settings = checked(settings)
    return settings["factor"], settings["offset"]


def formula(settings: dict | None = None, x: str = "x") -> str:
    """`transform` written out: 'x * 3 - 2' (a factor of 1 and an offset of 0 left out)."""
    factor, offset = affine(settings)
    text = x if factor == 1 else f"{x} * {factor}"
    return text + (f" {'+' if offset > 0 else '-'} {abs(offset)}" if offset else "")


def parse(text: str, source: str = "<text>") -> list[int]:
    """The numbers of a `.__ext__` file; DataError names the source and line of anything else."""
    numbers = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            numbers.append(int(stripped))
        except ValueError:
            raise DataError(f"{source}: line {number}: expected a whole number, got {stripped!r}") from None
    return numbers


def render(numbers, note: str = "") -> str:
    """A `.__ext__` file of `numbers`, with `note` as a comment line first; `parse` reads it back."""
    return "".join(f"{line}\n" for line in ([f"# {note}"] if note else []) + [str(n) for n in numbers])


def process(text: str, settings: dict | None = None, source: str = "<text>") -> str:
    """A `.__ext__` file as this plugin leaves it: every number transformed, and a comment saying how
    (an earlier comment line replaced)."""
    settings = checked(settings)
    numbers = [scale(n, settings) for n in parse(text, source)]
    return render(numbers, f"{SPEC.name} {SPEC.version}: {formula(settings)}")


def help_text(settings: dict | None = None) -> str:
    """The plugin for people: its spec, its hooks, and each setting with its value (the default
    where `settings` leaves it out) and what it does."""
    settings = {**SPEC.settings, **(settings or {})}
    hooks = ", ".join(name for name, _, _ in collect(sys.modules[__name__]))
    lines = [f"{SPEC.name} {SPEC.version}: {SPEC.description}",
             f"  requires: {', '.join(str(r) for r in SPEC.requires) or 'nothing'}; priority {SPEC.priority}",
             f"  hooks: {hooks}", f"  files: .{EXTENSION} (whole numbers, one a line)", "  settings:"]
    lines += [f"    {key} = {settings[key]!r}: {SETTINGS_HELP[key]}" for key in sorted(SETTINGS_HELP)]
    return "\n".join(lines) + "\n"


@hookimpl
def transform(value, settings):
    return scale(value, settings)


@hookimpl
def describe():
    return f"{SPEC.name} {SPEC.version}"


@hookimpl
def handles(path):
    return SPEC.name if path.lower().endswith("." + EXTENSION) else None


@hookimpl
def setup(config):
    checked(config)
    return SPEC.name


@hookimpl
def teardown():
    return SPEC.name
