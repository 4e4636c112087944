"""Discovering plugins from a manifest: a JSON document that lists plugins and where their code is.

    {"__manifest_key__": [
        {"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0"},
         "module": "myapp.plugins.auth", "priority": 10, "settings": {"realm": "main"}}
    ]}

Every error names the manifest, the entry (by position, and by name when it has one) and the field.
"""

from __future__ import annotations

import importlib
import json

from .errors import __Error__, ManifestError, VersionError
from .spec import PluginSpec
from .versions import parse_version

KEY = "__manifest_key__"
FIELDS = {
    "name": (str,),
    "version": (str,),
    "requires": (dict, list),
    "priority": (int,),
    "settings": (dict,),
    "description": (str,),
    "module": (str,),
    "conflicts": (dict, list),  #@if:without.conflicts:
}
REQUIRED = ("name", "version")
_TYPE_NAMES = {str: "a string", int: "an integer", dict: "an object", list: "a list"}


def __load_manifest__(text: str, source: str = "<manifest>") -> list[PluginSpec]:
    """The plugin specs a manifest lists, in its order."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{source}: line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or KEY not in data:
        raise ManifestError(f"{source}: expected an object with a {KEY!r} list at the top")
    entries = data[KEY]
    if not isinstance(entries, list):
        raise ManifestError(f"{source}: {KEY!r} must be a list of plugins, got {type(entries).__name__}")
    specs: list[PluginSpec] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, 1):
        spec = _entry(entry, number, source)
        if spec.key in seen:
            raise ManifestError(f"{source}: entry {number} ({spec.name}): version {spec.version} is already "
                                f"listed by entry {seen[spec.key]}")
        seen[spec.key] = number
        specs.append(spec)
    return specs


def _entry(entry, number: int, source: str) -> PluginSpec:
    where = f"{source}: entry {number}"
    if not isinstance(entry, dict):
        raise ManifestError(f"{where}: expected an object, got {type(entry).__name__}")
    if isinstance(entry.get("name"), str):
        where += f" ({entry['name']})"
    for field in REQUIRED:
        if field not in entry:
            raise ManifestError(f"{where}: field {field!r} is missing")
    for field, value in entry.items():
        if field not in FIELDS:
            raise ManifestError(f"{where}: unknown field {field!r} (expected one of: {', '.join(FIELDS)})")
        types = FIELDS[field]
        if not isinstance(value, types) or isinstance(value, bool):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise ManifestError(f"{where}: field {field!r}: expected {expected}, got {type(value).__name__}")
    try:
        parse_version(entry["version"])
    except VersionError as exc:
        raise ManifestError(f"{where}: field 'version': {exc}") from None
    try:
        return PluginSpec(**entry)
    except __Error__ as exc:
        raise ManifestError(f"{where}: {exc}") from None


def load_file(path: str) -> list[PluginSpec]:
    with open(path, encoding="utf-8") as f:
        return __load_manifest__(f.read(), source=path)


def import_plugin(spec: PluginSpec):
    """The module a spec names, imported (None for a spec without one)."""
    if not spec.module:
        return None
    try:
        return importlib.import_module(spec.module)
    except ImportError as exc:
        raise ManifestError(f"plugin {spec.name} {spec.version}: cannot import module {spec.module!r} ({exc})") from None


def dump_manifest(specs) -> str:
    """A manifest listing `specs`, which __load_manifest__ reads back as the same specs."""
    return json.dumps({KEY: [spec.as_dict() for spec in specs]}, indent=2) + "\n"
