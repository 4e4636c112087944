"""Every YAML file rlhub reads (registry, run files, serve configs) is loaded and validated here,
so each error names the file, the line and the field, and says what was expected.

    doc = load_yaml(path, "run file")                   # UserError for a missing file or bad YAML
    run = doc.validate(RunConfig)                       # UserError: "run.yaml:7: mixture.seed: ..."
    doc.where("environments", 3, "weight")              # "registry.yaml:12"
"""

from __future__ import annotations

import os
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from ..core.errors import UserError, close_matches, closest  # noqa: F401  (close_matches: the config modules' name)
from ..core.files import read_text

Model = TypeVar("Model", bound=BaseModel)


@dataclass
class YamlDoc:
    """A YAML mapping and the node tree it came from (for line numbers)."""

    path: Path
    data: dict[str, Any]
    node: yaml.Node | None
    what: str
    error: type[UserError] = UserError
    label: str | None = None  # how messages name the file when `path` is only its local copy (a URL)

    def where(self, *loc: Any) -> str:
        """'file:line' of the YAML node at `loc` (e.g. ('environments', 3, 'weight'))."""
        return f"{self.label or self.path}:{line_of(self.node, loc)}"

    def validate(self, model: type[Model], data: Any = None, at: tuple = ()) -> Model:
        """`data` (default: the whole file) as `model`; every problem on its own line."""
        try:
            return model.model_validate(self.data if data is None else data)
        except ValidationError as exc:
            found = sorted(problems(exc, at, model), key=lambda p: line_of(self.node, p[0]))  # in file order
            raise self.error("\n".join(f"{self.where(*loc)}: {text}" for loc, text in found)) from None


def parse_yaml(text: str, path: str | os.PathLike, what: str, error: type[UserError] = UserError,
               label: str | None = None) -> YamlDoc:
    path = Path(path)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise error(f"{label or path}{line}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise error(f"{label or path}:1: expected a mapping (the {what}), got {type(data).__name__}")
    return YamlDoc(path, data, node, what, error, label)


def load_yaml(path: str | os.PathLike, what: str, error: type[UserError] = UserError) -> YamlDoc:
    """A YAML file holding a mapping (an empty file is an empty one). `what`: e.g. "run file"."""
    return parse_yaml(read_text(path, what, error), path, what, error)


def fields_at(model: type[BaseModel] | None, loc: tuple) -> list[str]:
    """The field names a model accepts at `loc` (through nested models, lists, dicts, Optional)."""
    node: Any = model
    for key in loc:
        node = _unoptional(node)
        origin, args = typing.get_origin(node), typing.get_args(node)
        if isinstance(node, type) and issubclass(node, BaseModel):
            field = next((f for n, f in node.model_fields.items() if str(key) in (n, f.alias)), None)
            node = field.annotation if field is not None else None
        elif origin in (list, tuple, set, frozenset) and args:
            node = args[0]
        elif origin is dict and len(args) == 2:
            node = args[1]
        else:
            return []
    node = _unoptional(node)
    if not (isinstance(node, type) and issubclass(node, BaseModel)):
        return []
    return [f.alias or name for name, f in node.model_fields.items()]  # as written in the file (`pass`, not `pass_`)


def _unoptional(tp: Any) -> Any:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return args[0] if len(args) == 1 else tp
    return tp


def problems(exc: ValidationError, at: tuple = (), model: type[BaseModel] | None = None) -> list[tuple[tuple, str]]:
    """A pydantic error as (location, 'field.path: message (got value)') pairs; `at` is where in
    the file the validated data sits. With `model`, an unknown field gets the close matches
    among the fields allowed there."""
    out = []
    for err in exc.errors():
        raw = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-")))
        loc = at + raw
        field = ".".join(map(str, loc)) or "(top level)"
        msg = {"extra_forbidden": "unknown field", "missing": "required field is missing"}.get(err["type"], err["msg"])
        if err["type"] == "extra_forbidden" and raw:
            allowed = fields_at(model, raw[:-1])
            if allowed:
                msg += f"{close_matches(str(raw[-1]), allowed)} (expected one of: {', '.join(allowed)})"
        got = err.get("input")
        shown = "" if err["type"] in ("missing", "extra_forbidden") or isinstance(got, (dict, list)) else f" (got {got!r})"
        out.append((loc, f"{field}: {msg}{shown}"))
    return out


def one_line(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """A pydantic error as one line, for values that did not come from a file (a CLI flag)."""
    return "; ".join(text for _, text in problems(exc, model=model))


def line_of(node: yaml.Node | None, loc: tuple) -> int:
    """Follow an error location into the composed YAML tree; the deepest node found wins."""
    line = node.start_mark.line + 1 if node is not None else 1
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == str(key)), None)
            if match is None:
                key_node = next((k for k, _ in node.value if k.value == str(key)), None)
                return key_node.start_mark.line + 1 if key_node is not None else line
            node = match
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
        line = node.start_mark.line + 1
    return line
