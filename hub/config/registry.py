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
      - id: "terminal/*"           # a rubric: several verifiers composed into one reward
        rubric:
          - {verifier: unit_tests, weight: 0.8}
          - {verifier: ruff, weight: 0.2, gate: unit_tests}     # counts only if unit_tests passed
        pass: unit_tests           # what `passed` means (default: every positive component)
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

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..core.errors import RegistryError
from ..core.rubric import Names, RubricComponent
from ..plugins.specs import ENV_ID
from .yamlfile import YamlDoc, load_yaml, parse_yaml


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
    columns: dict[str, str]
    prompt_template: Optional[str] = Field(None, description="e.g. 'Answer briefly: {prompt}' (any column by name)")
    reference_template: Optional[str] = Field(None, description="builds the reference response, e.g. '{prompt}{solution}'")
    domain: Optional[str] = None

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not ENV_ID.match(v):
            raise ValueError("expected an id of the form 'namespace/name-vN', e.g. 'mydata/qa-v1'")
        return v

    @field_validator("columns")
    @classmethod
    def _columns(cls, v: dict[str, str]) -> dict[str, str]:
        if "prompt" not in v:
            raise ValueError("columns must map at least 'prompt' (e.g. {prompt: question, answer: answer})")
        return v

    @model_validator(mode="after")
    def _one_source(self) -> "DatasetSource":
        if (self.path is None) == (self.hf is None):
            raise ValueError("give exactly one of 'path' (a local JSONL/Parquet file) or 'hf' (a Hub dataset id)")
        return self


class EnvEntry(_Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: Optional[str] = Field(None, description="an environment id or a glob such as 'cad/*'")
    dataset: Optional[DatasetSource] = None
    verifier: Optional[str] = None
    verifier_config: dict[str, Any] = Field(default_factory=dict)
    rubric: Optional[list[RubricComponent]] = Field(None, min_length=1, description="verifiers composed into one reward")
    pass_: Names = Field(None, alias="pass", description="with `rubric`: the component(s) that must pass")
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
        if self.rubric is not None and self.verifier is not None:
            raise ValueError("give either 'verifier' or 'rubric' (a rubric names its verifiers itself)")
        if self.rubric is not None and self.verifier_config:
            raise ValueError("with 'rubric', put each verifier's settings in its component's 'config'")
        if self.pass_ is not None and self.rubric is None:
            raise ValueError("'pass' says which rubric components must pass: it needs a 'rubric'")
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

    def __init__(self, data: RegistryFile, doc: YamlDoc) -> None:
        self.data = data
        self.doc = doc
        self.path = doc.path

    def where(self, *loc: Any) -> str:
        """'file:line' of the YAML node at `loc` (e.g. ('environments', 3, 'weight'))."""
        return self.doc.where(*loc)

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
    doc = load_yaml(path if path is not None else default_path(), "registry file", RegistryError)
    return Registry(doc.validate(RegistryFile), doc)


def parse(text: str, path: Path) -> Registry:
    doc = parse_yaml(text, path, "registry file", RegistryError)
    return Registry(doc.validate(RegistryFile), doc)
