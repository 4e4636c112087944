"""What plugins register: environment and verifier specifications (cheap, lazy)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.env import Environment
from ..core.rubric import RubricSpec
from ..core.verifier import Verifier

ENV_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*/[a-z0-9][a-z0-9_.-]*-v[0-9]+$")


def check_env_id(env_id: str) -> None:
    if not isinstance(env_id, str) or not ENV_ID.match(env_id):
        raise ValueError(
            f"bad environment id {env_id!r}: expected 'namespace/name-vN' "
            "(lower case, e.g. 'cad/flange-v1')"
        )


@dataclass
class EnvSpec:
    id: str
    factory: Callable[[str], Environment]
    verifier: str
    verifier_config: dict[str, Any] = field(default_factory=dict)
    profile: str = "default"
    domain: str = ""
    tags: tuple[str, ...] = ()
    description: str = ""
    max_turns: int = 1
    rubric: RubricSpec | dict | None = None  # a default rubric ({"components": [...], "pass": ...}); `verifier` is its main part
    distribution: str = "rlhub"
    version: str = "0"
    _env: Environment | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_env_id(self.id)
        if not self.domain:
            self.domain = self.id.split("/", 1)[0]
        self.tags = tuple(self.tags)
        if self.rubric is not None:
            self.rubric = RubricSpec.model_validate(self.rubric)
            problems = [text for _, text in self.rubric.problems()]
            if self.verifier not in {c.verifier for c in self.rubric.components}:
                problems.append(f"its verifier {self.verifier!r} is not a component of its rubric")
            if problems:
                raise ValueError(f"environment {self.id}: bad rubric: {'; '.join(problems)}")

    def make(self) -> Environment:
        if self._env is None:
            env = self.factory(self.id)
            if not isinstance(env, Environment):
                raise TypeError(f"factory of {self.id} returned {type(env).__name__}, not an Environment")
            self._env = env
        return self._env


@dataclass
class VerifierSpec:
    name: str
    cls: type[Verifier]
    distribution: str = "rlhub"
    version: str = "0"


@dataclass
class PresetSpec:
    """A named shape of dataset (`preset:` in a registry `dataset:` entry): what the entry would
    otherwise spell out. `dataset` holds DatasetSource fields (columns, prompt_template,
    reference_template, domain); the others are the entry's own (verifier, its config, profile, tags)."""

    name: str
    dataset: dict[str, Any] = field(default_factory=dict)
    verifier: str | None = None
    verifier_config: dict[str, Any] = field(default_factory=dict)
    profile: str | None = None
    tags: tuple[str, ...] = ()
    prepare: Callable[[dict], dict] | None = None
    description: str = ""
    distribution: str = "rlhub"
    version: str = "0"
