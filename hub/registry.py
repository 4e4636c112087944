"""registry.yaml: which environments a run uses, with which verifier, profile and weight.

The file is validated against a typed schema. Every error names the file, the line and the
field, and says what was expected: a bad registry never starts a run.

    version: 1
    profiles:                      # sandbox profiles (override or extend the plugins' defaults)
      tight: {extends: default, wall_timeout_s: 5, memory_mb: 256}
    sampling: {temperature: 1.0, domain_caps: {cad: 0.5}}
    environments:
      - id: "terminal/*"           # exact id or glob
        weight: 2.0                # per entry, split evenly over the environments it matches
        profile: tight
        tags: [code]
      - id: arith/add-v1
        verifier: exact_match
        verifier_config: {strip: true}
      - dataset:                   # an environment straight from a data file, no Python
          id: mydata/qa-v1
          path: data/qa.jsonl      # JSONL or Parquet (via `datasets`), or `hf: org/name`
          columns: {prompt: question, answer: answer}
        verifier: exact_match

When several entries match one environment, the last one wins (more specific entries go last).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal, Optional

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import RegistryError
from .specs import ENV_ID


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Limits(_Strict):
    max_turns: Optional[int] = Field(None, gt=0)
    max_tasks: Optional[int] = Field(None, gt=0, description="restrict seeds/rows to [0, max_tasks)")


class DatasetSource(_Strict):
    """An environment declared from a dataset: columns map to prompt, answer, tests..."""

    id: str
    path: Optional[str] = None
    hf: Optional[str] = None
    split: str = "train"
    format: Optional[Literal["json", "parquet", "csv"]] = None
    preset: Optional[str] = Field(None, description="a registered dataset preset (humaneval, mbpp, ...): its column map, "
                                                    "templates, verifier and profile, which this entry may override")
    columns: dict[str, str] = Field(default_factory=dict)
    prompt_template: Optional[str] = Field(None, description="e.g. 'Answer briefly: {prompt}' (any column by name)")
    reference_template: Optional[str] = Field(None, description="builds the reference response, e.g. '{prompt}{solution}'")
    domain: Optional[str] = None

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not ENV_ID.match(v):
            raise ValueError("expected an id of the form 'namespace/name-vN', e.g. 'mydata/qa-v1'")
        return v

    @model_validator(mode="after")
    def _one_source(self) -> "DatasetSource":
        if (self.path is None) == (self.hf is None):
            raise ValueError("give exactly one of 'path' (a local JSONL/Parquet file) or 'hf' (a Hub dataset id)")
        if self.preset is None and "prompt" not in self.columns:  # a preset maps the columns itself
            raise ValueError("columns must map at least 'prompt' (e.g. {prompt: question, answer: answer}), "
                             "or name a preset")
        return self


class EnvEntry(_Strict):
    id: Optional[str] = Field(None, description="an environment id or a glob such as 'cad/*'")
    dataset: Optional[DatasetSource] = None
    verifier: Optional[str] = None
    verifier_config: dict[str, Any] = Field(default_factory=dict)
    env_config: dict[str, Any] = Field(default_factory=dict, description="keyword arguments for the environment's factory")
    profile: Optional[str] = None
    weight: float = Field(1.0, ge=0)
    tags: list[str] = Field(default_factory=list)
    limits: Limits = Field(default_factory=Limits)
    optional: bool = Field(False, description="a glob that matches nothing is not an error")
    source: Optional[str] = Field(None, description="hf://ORG/NAME@vX.Y.Z[#sha256=...]: the Hub release providing it")

    @field_validator("source")
    @classmethod
    def _source(cls, v: Optional[str]) -> Optional[str]:
        import re

        if v is not None and not re.match(r"^hf://[\w.-]+/[\w.-]+@v?[\w.+-]+(#sha256=[0-9a-f]{64})?$", v):
            raise ValueError("expected hf://ORG/NAME@vX.Y.Z (optionally #sha256=HEX)")
        return v

    @model_validator(mode="after")
    def _one_kind(self) -> "EnvEntry":
        if (self.id is None) == (self.dataset is None):
            raise ValueError("each environment entry needs exactly one of 'id' or 'dataset'")
        return self


class Sampling(_Strict):
    temperature: float = Field(1.0, gt=0, description="p ~ weight^(1/T): T>1 flattens, T<1 sharpens")
    domain_caps: dict[str, float] = Field(default_factory=dict, description="max share per domain, in (0, 1]")

    @field_validator("domain_caps")
    @classmethod
    def _caps(cls, v: dict[str, float]) -> dict[str, float]:
        for domain, cap in v.items():
            if not 0 < cap <= 1:
                raise ValueError(f"cap for {domain!r} must be in (0, 1], got {cap}")
        return v


class RegistryFile(_Strict):
    version: Literal[1] = 1
    profiles: dict[str, dict[str, Any]] = Field(default_factory=dict)
    sampling: Sampling = Field(default_factory=Sampling)
    environments: list[EnvEntry] = Field(min_length=1)


class Registry:
    """A parsed registry file and where it came from (for error messages)."""

    def __init__(self, data: RegistryFile, path: Path, node: yaml.Node | None) -> None:
        self.data = data
        self.path = path
        self._node = node

    def where(self, *loc: Any) -> str:
        """'file:line' of the YAML node at `loc` (e.g. ('environments', 3, 'weight'))."""
        return f"{self.path}:{_line_of(self._node, loc)}"

    def resolve_path(self, p: str) -> Path:
        """Paths in a registry are relative to the registry file, not to the working directory."""
        path = Path(os.path.expanduser(p))
        return path if path.is_absolute() else (self.path.parent / path)


def default_path() -> Path:
    local = Path("registry.yaml")
    if local.is_file():
        return local
    return Path(__file__).with_name("default_registry.yaml")


def load(path: str | os.PathLike | None = None) -> Registry:
    path = Path(path) if path is not None else default_path()
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise RegistryError(f"{path}: no such registry file") from None
    except OSError as exc:
        raise RegistryError(f"{path}: cannot read registry: {exc.strerror}") from None
    return parse(text, path)


def parse(text: str, path: Path) -> Registry:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise RegistryError(f"{path}{line}: not valid YAML: {problem}") from None
    if not isinstance(raw, dict):
        raise RegistryError(f"{path}:1: expected a mapping with an 'environments' list, got {type(raw).__name__}")
    try:
        data = RegistryFile.model_validate(raw)
    except ValidationError as exc:
        raise RegistryError(_format_errors(exc, path, node)) from None
    return Registry(data, path, node)


def _format_errors(exc: ValidationError, path: Path, node: yaml.Node | None) -> str:
    lines = []
    for err in exc.errors():
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-")))
        field = ".".join(str(x) for x in loc) or "(top level)"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        elif err["type"] == "missing":
            msg = "required field is missing"
        got = err.get("input")
        shown = "" if err["type"] in ("missing", "extra_forbidden") or isinstance(got, (dict, list)) else f" (got {got!r})"
        lines.append(f"{path}:{_line_of(node, loc)}: {field}: {msg}{shown}")
    return "\n".join(lines)


def _line_of(node: yaml.Node | None, loc: tuple) -> int:
    """Follow a pydantic error location into the composed YAML tree; the deepest node found wins."""
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
