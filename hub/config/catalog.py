"""The catalog: a registry resolved against the installed plugins.

This is the object everything else uses: the CLI, the pytest checks, the reward service and
the trainer glue. It maps labels to tasks, verifies responses, and opens episodes.
"""

from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import registry as registry_mod
from .datasets import DatasetEnvironment
from .yamlfile import one_line
from ..core.env import Environment, Episode
from ..core.errors import RegistryError, UnknownEnvironment, UnknownVerifier, UserError
from ..plugins.manager import PluginSet, installed
from .registry import EnvEntry, Registry
from ..sandbox.profile import Profile
from ..plugins.specs import EnvSpec
from ..core.task import Label, Task
from ..core.verifier import Verdict, Verifier, VerifierIdentity, VerifyContext, grade


@dataclass
class ResolvedEnv:
    """One environment as a run uses it: spec + the registry's choices for it."""

    spec: EnvSpec
    verifier: Verifier
    identity: VerifierIdentity
    profile: Profile
    weight: float
    tags: tuple[str, ...]
    max_turns: int
    max_tasks: int | None = None
    where: str = ""  # registry file:line of the entry that selected it
    env_config: dict[str, Any] = field(default_factory=dict)
    _env: Environment | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def domain(self) -> str:
        return self.spec.domain

    @property
    def env(self) -> Environment:
        """The environment instance; built with the registry's `env_config` when it has one."""
        if not self.env_config:
            return self.spec.make()
        if self._env is None:
            try:
                self._env = self.spec.factory(self.spec.id, **self.env_config)
            except (TypeError, ValueError) as exc:
                raise RegistryError(f"{self.where}: env_config for {self.spec.id} was not accepted: {exc}") from None
        return self._env

    def label(self, index: int) -> Label:
        """The label of task `index` (seed for generated environments, row for datasets)."""
        return self.env.label(index)

    @property
    def num_tasks(self) -> int | None:
        """How many distinct tasks there are (None: any seed), after the registry's limits."""
        n = self.env.num_tasks
        if self.max_tasks is None:
            return n
        return self.max_tasks if n is None else min(n, self.max_tasks)


def suggest(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=3, cutoff=0.5)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


class Catalog:
    def __init__(self, registry: Registry, plugins: PluginSet) -> None:
        self.registry = registry
        self.plugins = plugins
        self.envs: dict[str, ResolvedEnv] = {}
        self._resolve()

    @classmethod
    def load(cls, path: str | Path | None = None, plugins: PluginSet | None = None) -> "Catalog":
        return cls(registry_mod.load(path), plugins if plugins is not None else installed())

    # -- resolution -------------------------------------------------------------------------
    def _resolve(self) -> None:
        reg = self.registry
        profiles = dict(self.plugins.profiles)
        for name, fields in reg.data.profiles.items():
            profiles[name] = self._profile(name, dict(fields), profiles)
        self.profiles = profiles

        chosen: dict[str, tuple[int, EnvEntry, EnvSpec, float]] = {}
        for i, entry in enumerate(reg.data.environments):
            specs = self._select(i, entry)
            for spec in specs:
                chosen[spec.id] = (i, entry, spec, 0.0)
        # Weight is per entry, split over the environments it (still) owns after overrides, so
        # adding environments to a family does not change the family's share of the mixture.
        owned: dict[int, int] = {}
        for i, *_ in chosen.values():
            owned[i] = owned.get(i, 0) + 1
        for env_id, (i, entry, spec, _) in chosen.items():
            self.envs[env_id] = self._resolve_one(i, entry, spec, entry.weight / owned[i])

    def _profile(self, name: str, fields: dict, known: dict[str, Profile]) -> Profile:
        base_name = fields.pop("extends", "default")
        where = self.registry.where("profiles", name)
        if base_name not in known:
            raise RegistryError(f"{where}: profiles.{name}.extends: unknown profile {base_name!r}{suggest(base_name, list(known))}")
        try:
            return known[base_name].merged(name=name, **fields)
        except ValidationError as exc:
            raise RegistryError(f"{where}: profiles.{name}: {one_line(exc)}") from None

    def _select(self, i: int, entry: EnvEntry) -> list[EnvSpec]:
        if entry.dataset is not None:
            return [self._dataset_spec(i, entry)]
        specs = self._match(i, entry)
        if entry.source:
            self._check_source(i, entry, specs)
        return specs

    def _check_source(self, i: int, entry: EnvEntry, specs: list[EnvSpec]) -> None:
        """An entry pinned to a Hub release runs only with exactly that release installed."""
        release = entry.source.split("#", 1)[0].removeprefix("hf://")
        want = release.split("@", 1)[1].lstrip("v")
        where = self.registry.where("environments", i, "source")
        if not specs:
            raise RegistryError(f"{where}: environments[{i}]: {entry.id!r} comes from {entry.source}, which is not "
                                f"installed: run `rlhub install {release} --trust` (or `rlhub install --from-registry`)")
        wrong = sorted({f"{s.distribution} {s.version}" for s in specs if s.version != want})
        if wrong:
            raise RegistryError(f"{where}: environments[{i}]: the registry pins {entry.source} but {', '.join(wrong)} "
                                f"is installed: run `rlhub install {release} --trust`")

    def _match(self, i: int, entry: EnvEntry) -> list[EnvSpec]:
        pattern = entry.id
        ids = sorted(self.plugins.envs)
        if any(ch in pattern for ch in "*?["):
            matched = [env_id for env_id in ids if fnmatch.fnmatchcase(env_id, pattern)]
            if not matched and not entry.optional and not entry.source:
                raise RegistryError(
                    f"{self.registry.where('environments', i, 'id')}: environments[{i}].id: "
                    f"glob {pattern!r} matches no installed environment "
                    "(install the plugin that provides it, or set `optional: true`)"
                )
            return [self.plugins.envs[m] for m in matched]
        if pattern not in self.plugins.envs:
            if entry.optional or entry.source:
                return []
            raise UnknownEnvironment(
                f"{self.registry.where('environments', i, 'id')}: environments[{i}].id: "
                f"unknown environment {pattern!r}{suggest(pattern, ids)}"
            )
        return [self.plugins.envs[pattern]]

    def _dataset_spec(self, i: int, entry: EnvEntry) -> EnvSpec:
        src = entry.dataset
        assert src is not None
        where = self.registry.where("environments", i, "dataset")
        if src.path is not None:
            path = self.registry.resolve_path(src.path)
            if not path.exists():
                raise RegistryError(f"{where}: environments[{i}].dataset.path: no such file {str(path)!r}")
            src = src.model_copy(update={"path": str(path)})
        if entry.verifier is None:
            raise RegistryError(f"{where}: environments[{i}]: a dataset environment needs a 'verifier'")
        if src.id in self.plugins.envs:
            raise RegistryError(f"{where}: environments[{i}].dataset.id: {src.id!r} is already a registered environment")
        return EnvSpec(
            id=src.id, factory=lambda env_id, src=src: DatasetEnvironment(env_id, src, where=where),
            verifier=entry.verifier, domain=src.domain or src.id.split("/", 1)[0],
            distribution="registry", version="0",
        )

    def _resolve_one(self, i: int, entry: EnvEntry, spec: EnvSpec, weight: float) -> ResolvedEnv:
        where = self.registry.where("environments", i)
        vname = entry.verifier or spec.verifier
        vspec = self.plugins.verifiers.get(vname)
        if vspec is None:
            raise UnknownVerifier(
                f"{self.registry.where('environments', i, 'verifier')}: environments[{i}].verifier: "
                f"unknown verifier {vname!r} (for {spec.id}){suggest(vname, sorted(self.plugins.verifiers))}"
            )
        # The registry's config refines the environment's default config for the same verifier.
        base = spec.verifier_config if vname == spec.verifier else {}
        try:
            config = vspec.cls.Config.model_validate({**base, **entry.verifier_config})
        except ValidationError as exc:
            problems = one_line(exc)
            raise RegistryError(
                f"{self.registry.where('environments', i, 'verifier_config')}: environments[{i}].verifier_config "
                f"for {vname!r}: {problems}"
            ) from None
        pname = entry.profile or spec.profile
        if pname not in self.profiles:
            raise RegistryError(
                f"{self.registry.where('environments', i, 'profile')}: environments[{i}].profile: "
                f"unknown sandbox profile {pname!r}{suggest(pname, sorted(self.profiles))}"
            )
        identity = VerifierIdentity(vname, vspec.distribution, vspec.version, VerifierIdentity.hash_config(config))
        return ResolvedEnv(
            spec=spec, verifier=vspec.cls(config), identity=identity, profile=self.profiles[pname],
            weight=weight, tags=tuple(dict.fromkeys((*spec.tags, *entry.tags))),
            max_turns=entry.limits.max_turns or spec.max_turns, max_tasks=entry.limits.max_tasks,
            where=where, env_config=dict(entry.env_config),
        )

    # -- use ----------------------------------------------------------------------------------
    def get(self, env_id: str) -> ResolvedEnv:
        try:
            return self.envs[env_id]
        except KeyError:
            raise UnknownEnvironment(
                f"environment {env_id!r} is not in registry {self.registry.path}{suggest(env_id, sorted(self.envs))}"
            ) from None

    def select(self, pattern: str | None) -> list[ResolvedEnv]:
        if not pattern:
            return list(self.envs.values())
        matched = [e for e in self.envs.values() if fnmatch.fnmatchcase(e.id, pattern)]
        if not matched:
            raise UnknownEnvironment(f"no environment in {self.registry.path} matches {pattern!r}{suggest(pattern, sorted(self.envs))}")
        return matched

    def task(self, label: Label | str | dict) -> Task:
        label = label if isinstance(label, Label) else Label.parse(label)
        renv = self.get(label.env)
        limit = renv.num_tasks
        if limit is not None and label.index >= limit:
            raise UserError(f"label {label.to_json()}: index {label.index} out of range (this environment has {limit} tasks)")
        task = renv.env.make_task(label.index)
        renv.verifier.hidden(task)  # a malformed task.hidden is the environment's bug: found here, named
        return task

    def prepare(self, labels: list[Label | str | dict]) -> None:
        """Tell each environment which of its tasks are about to be made (`Environment.prepare`),
        so that their costly shared work starts in one batch."""
        by_env: dict[str, list[int]] = {}
        for label in labels:
            label = label if isinstance(label, Label) else Label.parse(label)
            by_env.setdefault(label.env, []).append(label.index)
        for env_id, indices in by_env.items():
            self.get(env_id).env.prepare(sorted(set(indices)))

    def reference(self, label: Label | str | dict) -> str:
        return self.task(label).reference

    def verify(self, label: Label | str | dict, response: str, task: Task | None = None) -> Verdict:
        """Grade one response. Never raises for the model's output; `error` marks no verdict."""
        label = label if isinstance(label, Label) else Label.parse(label)
        renv = self.get(label.env)
        task = task or self.task(label)
        return grade(renv.verifier, renv.identity, task, response, VerifyContext(profile=renv.profile))

    def episode(self, label: Label | str | dict) -> Episode:
        label = label if isinstance(label, Label) else Label.parse(label)
        renv = self.get(label.env)
        task = self.task(label)
        ep = renv.env.episode(task, renv.verifier, VerifyContext(profile=renv.profile))
        ep.max_turns = renv.max_turns
        ep.identity = renv.identity
        return ep
