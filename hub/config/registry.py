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
      - dataset:                   # files in object storage, pinned (`rlhub assets push` prints the pins)
          id: mydata/swe-v1
          path: s3://bucket/swe/sha256/HEX/swe.jsonl#sha256=HEX
          assets: s3://bucket/swe/sha256/HEX/repos.tar#sha256=HEX    # a folder, as a tar archive
          preset: swebench

When several entries match one environment, the last one wins (more specific entries go last).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..core.errors import RegistryError
from ..core.files import read_text
from ..core.rubric import Names, RubricComponent
from ..plugins.specs import ENV_ID
from .yamlfile import YamlDoc, parse_yaml


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Limits(_Strict):
    max_turns: Optional[int] = Field(None, gt=0)
    max_tasks: Optional[int] = Field(None, gt=0, description="restrict seeds/rows to [0, max_tasks)")


class DatasetSource(_Strict):
    """An environment declared from a dataset: columns map to prompt, answer, tests..."""

    id: str
    path: Optional[str] = Field(None, description="a local file (relative to the registry) or a pinned URL: "
                                                  "s3://bucket/qa.jsonl#sha256=HEX (see `rlhub assets`)")
    hf: Optional[str] = None
    split: str = "train"
    format: Optional[Literal["json", "parquet", "csv"]] = None
    preset: Optional[str] = Field(None, description="a registered dataset preset (humaneval, mbpp, ...): its column map, "
                                                    "templates, verifier and profile, which this entry may override")
    columns: dict[str, str] = Field(default_factory=dict)
    prompt_template: Optional[str] = Field(None, description="e.g. 'Answer briefly: {prompt}' (any column by name)")
    reference_template: Optional[str] = Field(None, description="builds the reference response, e.g. '{prompt}{solution}'")
    domain: Optional[str] = None
    assets: Optional[str] = Field(None, description="a folder of files the rows refer to (a benchmark's repositories), "
                                                    "relative to the registry, or a pinned tar archive URL (extracted "
                                                    "once into the asset cache); rows see its absolute path as the "
                                                    "column 'assets'")

    @field_validator("path", "assets")
    @classmethod
    def _pinned(cls, v: Optional[str], info) -> Optional[str]:
        from ..assets import pinned

        return v if v is None else pinned(v, archive=info.field_name == "assets")

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
    """A parsed registry and where each part of it came from (for error messages).

    Usually one file. The default registry, when no ./registry.yaml exists, is the union of the
    core's and every installed plugin's fragment (`hub.plugins.fragments`): each entry keeps
    its own file and line, and a dataset path stays relative to the fragment that names it.
    """

    def __init__(self, data: RegistryFile, doc: YamlDoc, name: str | None = None,
                 parts: list[tuple[YamlDoc, RegistryFile]] | None = None) -> None:
        self.data = data
        self.doc = doc
        self.path = doc.path
        self.name = name or str(doc.path)  # how commands name it: a path, or the installed plugins' union
        self.parts = parts or [(doc, data)]
        self._entries = [(d, j) for d, f in self.parts for j in range(len(f.environments))]
        self.files = [d.path for d, _ in self.parts]
        self.url: str | None = None  # set when the file came from object storage (`load(URL#sha256=...)`)
        self.pin: str | None = None  # ... and the pin it was loaded by, for other nodes to fetch

    @property
    def is_union(self) -> bool:
        return len(self.parts) > 1

    @property
    def called(self) -> str:
        """How messages name it: 'registry FILE', or the installed plugins' registries."""
        return self.name if self.is_union else f"registry {self.name}"

    def where(self, *loc: Any) -> str:
        """'file:line' of the YAML node at `loc` (e.g. ('environments', 3, 'weight'))."""
        if len(loc) >= 2 and loc[0] == "environments" and isinstance(loc[1], int) and loc[1] < len(self._entries):
            doc, j = self._entries[loc[1]]
            return doc.where("environments", j, *loc[2:])
        if len(loc) >= 2 and loc[0] == "profiles":
            doc = next((d for d, f in self.parts if loc[1] in f.profiles), self.doc)
            return doc.where(*loc)
        return self.doc.where(*loc)

    def at(self, i: int, *fields: Any) -> str:
        """'file:line: environments[j].field' for entry `i` (j: its index in its own file)."""
        j = self._entries[i][1] if i < len(self._entries) else i
        path = "".join(f"[{f}]" if isinstance(f, int) else f".{f}" for f in fields)
        return f"{self.where('environments', i, *fields)}: environments[{j}]{path}"

    def resolve_path(self, p: str, entry: int | None = None) -> Path:
        """Paths in a registry are relative to the file that names them, not to the working directory."""
        path = Path(os.path.expanduser(p))
        if self.url is not None and not path.is_absolute():
            # The file sits in this node's asset cache: nothing beside it is the operator's.
            where = self.at(entry) if entry is not None else self.called
            raise RegistryError(f"{where}: {p!r} is relative, but the registry came from {self.url}: "
                                f"name files by pinned URL (`rlhub assets push` prints the pins) or absolute path")
        base = self._entries[entry][0].path if entry is not None and entry < len(self._entries) else self.path
        return path if path.is_absolute() else (base.parent / path)

    @classmethod
    def union(cls, docs: list[tuple[YamlDoc, RegistryFile]], name: str) -> "Registry":
        """One registry from several fragments: their environments in order (the last entry for an
        id wins), their profiles and sampling settings merged; a contradiction is an error."""
        profiles: dict[str, dict[str, Any]] = {}
        caps: dict[str, float] = {}
        temperature: tuple[float, YamlDoc] | None = None
        for doc, f in docs:
            for pname, fields in f.profiles.items():
                if pname in profiles and profiles[pname] != fields:
                    raise RegistryError(f"{doc.where('profiles', pname)}: profiles.{pname}: defined differently by "
                                        f"another installed plugin's registry; name it in a ./registry.yaml instead")
                profiles[pname] = fields
            for domain, cap in f.sampling.domain_caps.items():
                if caps.get(domain, cap) != cap:
                    raise RegistryError(f"{doc.where('sampling', 'domain_caps', domain)}: sampling.domain_caps.{domain}: "
                                        f"another installed plugin's registry caps it at {caps[domain]}")
                caps[domain] = cap
            if "temperature" in f.sampling.model_fields_set:
                if temperature is not None and temperature[0] != f.sampling.temperature:
                    raise RegistryError(f"{doc.where('sampling', 'temperature')}: sampling.temperature: "
                                        f"{temperature[1].path} sets {temperature[0]}; set one in a ./registry.yaml instead")
                temperature = (f.sampling.temperature, doc)
        data = RegistryFile(
            profiles=profiles, environments=[e for _, f in docs for e in f.environments],
            sampling=Sampling(temperature=temperature[0] if temperature else 1.0, domain_caps=caps))
        return cls(data, docs[0][0], name=name, parts=docs)


CORE_FRAGMENT = Path(__file__).with_name("default_registry.yaml")


def local_path() -> Path | None:
    local = Path("registry.yaml")
    return local if local.is_file() else None


def default_sources() -> list[Path]:
    """The files of the default registry: ./registry.yaml, else the core's fragment and every
    installed plugin's (`rlhub plugins` lists them)."""
    local = local_path()
    if local is not None:
        return [local]
    from ..plugins.manager import installed

    return [CORE_FRAGMENT, *(p.fragment for p in installed().plugins if p.fragment is not None and not p.error)]


def _read(path: str | os.PathLike, label: str | None = None) -> tuple[YamlDoc, RegistryFile]:
    doc = parse_yaml(read_text(path, "registry file", RegistryError), path, "registry file", RegistryError, label)
    return doc, doc.validate(RegistryFile)


def load(path: str | os.PathLike | None = None) -> Registry:
    """The registry at `path`; by default ./registry.yaml, else the installed plugins' union.
    `path` may be a pinned URL (s3://bucket/registry.yaml#sha256=HEX): fetched once per node into
    the asset cache and verified, so a Ray worker that starts with an empty disk can load it."""
    from ..assets import is_url

    if path is not None and is_url(str(path)):
        from ..assets import AssetError, AssetRef, local

        try:
            ref = AssetRef.parse(str(path))
            doc, data = _read(local(str(path)), label=ref.url)
        except AssetError as exc:
            raise RegistryError(f"registry {path}: {exc}") from None
        reg = Registry(data, doc, name=ref.url)
        reg.url, reg.pin = ref.url, str(path)
        return reg
    if path is not None:
        doc, data = _read(path)
        return Registry(data, doc)
    sources = default_sources()
    if len(sources) == 1:
        doc, data = _read(sources[0])
        return Registry(data, doc)
    from ..plugins.manager import installed

    shipped = {p.fragment: p for p in installed().plugins}
    names = ["rlhub (core)"] + [f"{shipped[s].distribution} {shipped[s].version}" for s in sources[1:]]
    return Registry.union([_read(s) for s in sources],
                          name=f"the installed plugins' registries ({', '.join(names)}; no ./registry.yaml here)")


def parse(text: str, path: Path) -> Registry:
    doc = parse_yaml(text, path, "registry file", RegistryError)
    return Registry(doc.validate(RegistryFile), doc)
