"""The catalog: a registry resolved against the installed plugins.

This is the object everything else uses: the CLI, the pytest checks, the reward service and
the trainer glue. It maps labels to tasks, verifies responses, and opens episodes.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import envconfig, registry as registry_mod
from .yamlfile import close_matches, closest, one_line
from ..core.env import Environment, Episode
from ..core.errors import RegistryError, UnknownEnvironment, UnknownVerifier, UserError
from ..plugins.manager import PluginSet, installed
from .registry import DatasetSource, EnvEntry, Registry
from ..sandbox.profile import Profile
from ..plugins.specs import EnvSpec
from ..core.task import Label, Task
from ..core.rubric import RubricSpec
from ..core.verifier import Verdict, Verifier, VerifierIdentity, VerifyContext, grade
from .rubrics import resolve_rubric
from ..assets import is_url


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
        """The environment instance; built with the registry's `env_config` (checked when the
        registry loaded) when it has one."""
        if not self.env_config:
            return self.spec.make()
        if self._env is None:
            self._env = build_env(self.spec, self.env_config, self.where)
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


def build_env(spec: EnvSpec, config: dict[str, Any], where: str) -> Environment:
    """The environment with a registry entry's `env_config`; a config it refuses is the registry's error."""
    try:
        env = spec.factory(spec.id, **config)
    except (TypeError, ValueError) as exc:
        raise RegistryError(f"{where}: env_config for {spec.id} was not accepted: {exc}") from None
    if not isinstance(env, Environment):
        raise TypeError(f"factory of {spec.id} returned {type(env).__name__}, not an Environment")
    return env


def suggest_glob(pattern: str, ids: list[str]) -> str:
    """Close matches for a glob that matched nothing: the same glob under a close namespace
    ('cadd/*' -> 'cad/*'), else the ids closest to its literal text."""
    namespace, sep, rest = pattern.partition("/")
    if sep and not any(ch in namespace for ch in "*?["):
        spaces = sorted({i.split("/", 1)[0] for i in ids})
        fixed = [f"{ns}/{rest}" for ns in closest(namespace, spaces)]
        fixed = [g for g in fixed if any(fnmatch.fnmatchcase(i, g) for i in ids)]
        if fixed:
            return f"; did you mean {', '.join(repr(g) for g in fixed)}?"
    literal = "".join(ch for ch in pattern if ch not in "*?[]")
    return close_matches(literal, ids)


class Catalog:
    def __init__(self, registry: Registry, plugins: PluginSet) -> None:
        self.registry = registry
        self.plugins = plugins
        self.envs: dict[str, ResolvedEnv] = {}
        self.asset_uses: list[tuple[str, str]] = []  # (registry file:line: field, pinned URL): `rlhub assets`
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
        for name, prof in profiles.items():
            where = self.registry.where("profiles", name) if name in reg.data.profiles else "a plugin's profile"
            self.asset_uses += [(f"{where}: profiles.{name}.mounts[{k}].src", m.src)
                                for k, m in enumerate(prof.mounts) if is_url(m.src)]

        chosen: dict[str, tuple[int, EnvEntry, EnvSpec, float]] = {}
        for i, entry in enumerate(reg.data.environments):
            entry = self._with_preset(i, entry)
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
            raise RegistryError(f"{where}: profiles.{name}.extends: unknown profile {base_name!r}{close_matches(base_name, list(known))}")
        try:
            return known[base_name].merged(name=name, **fields)
        except ValidationError as exc:
            raise RegistryError(f"{where}: profiles.{name}: {one_line(exc, Profile)}") from None

    def _with_preset(self, i: int, entry: EnvEntry) -> EnvEntry:
        """A `dataset:` entry naming a preset, filled in from it: what the entry sets wins,
        mappings (columns, verifier_config) merged key by key."""
        src = entry.dataset
        if src is None or src.preset is None:
            return entry
        preset = self.plugins.presets.get(src.preset)
        if preset is None:
            raise RegistryError(f"{self.registry.at(i, 'dataset', 'preset')}:"
                                f" unknown preset {src.preset!r}{close_matches(src.preset, sorted(self.plugins.presets))}"
                                f" (installed: {', '.join(sorted(self.plugins.presets)) or 'none'})")
        given = src.model_dump(exclude_unset=True)
        fields = {**preset.dataset, **given, "columns": {**preset.dataset.get("columns", {}), **given.get("columns", {})}}
        if "prompt" not in fields["columns"]:
            raise RegistryError(f"{self.registry.at(i, 'dataset')}: "
                                f"preset {preset.name!r} maps no 'prompt' column and the entry does not either")
        try:
            src = DatasetSource.model_validate(fields)
        except ValidationError as exc:
            raise RegistryError(f"{self.registry.at(i, 'dataset')} "
                                f"with preset {preset.name!r}: {one_line(exc)}") from None
        return entry.model_copy(update={
            "dataset": src,
            "verifier": entry.verifier or preset.verifier,
            "verifier_config": {**preset.verifier_config, **entry.verifier_config},
            "profile": entry.profile or preset.profile,
            "tags": list(dict.fromkeys([*preset.tags, *entry.tags])),
        })

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
        where = self.registry.at(i, "source")
        if not specs:
            raise RegistryError(f"{where}: {entry.id!r} comes from {entry.source}, which is not "
                                f"installed: run `rlhub install {release} --trust` (or `rlhub install --from-registry`)")
        wrong = sorted({f"{s.distribution} {s.version}" for s in specs if s.version != want})
        if wrong:
            raise RegistryError(f"{where}: the registry pins {entry.source} but {', '.join(wrong)} "
                                f"is installed: run `rlhub install {release} --trust`")

    def _match(self, i: int, entry: EnvEntry) -> list[EnvSpec]:
        pattern = entry.id
        ids = sorted(self.plugins.envs)
        if any(ch in pattern for ch in "*?["):
            matched = [env_id for env_id in ids if fnmatch.fnmatchcase(env_id, pattern)]
            if not matched and not entry.optional and not entry.source:
                raise RegistryError(
                    f"{self.registry.at(i, 'id')}: glob {pattern!r} matches no installed environment"
                    f"{suggest_glob(pattern, ids)} (install the plugin that provides it, or set `optional: true`)"
                )
            return [self.plugins.envs[m] for m in matched]
        if pattern not in self.plugins.envs:
            if entry.optional or entry.source:
                return []
            raise UnknownEnvironment(f"{self.registry.at(i, 'id')}: unknown environment {pattern!r}{close_matches(pattern, ids)}")
        return [self.plugins.envs[pattern]]

    def _dataset_spec(self, i: int, entry: EnvEntry) -> EnvSpec:
        src = entry.dataset
        assert src is not None
        where = self.registry.where("environments", i, "dataset")
        # A pinned URL stays a URL: it is fetched (once per node) when its rows or files are first needed.
        self.asset_uses += [(self.registry.at(i, "dataset", f), getattr(src, f)) for f in ("path", "assets")
                            if getattr(src, f) is not None and is_url(getattr(src, f))]
        if src.path is not None and not is_url(src.path):
            path = self.registry.resolve_path(src.path, i)
            if not path.exists():
                raise RegistryError(f"{self.registry.at(i, 'dataset', 'path')}: no such file {str(path)!r}")
            src = src.model_copy(update={"path": str(path)})
        if src.assets is not None and not is_url(src.assets):
            assets = self.registry.resolve_path(src.assets, i)
            if not assets.is_dir():
                raise RegistryError(f"{self.registry.at(i, 'dataset', 'assets')}: no such folder {str(assets)!r}")
            src = src.model_copy(update={"assets": str(assets)})
        if entry.verifier is None and entry.rubric is None:
            raise RegistryError(f"{self.registry.at(i)}: a dataset environment needs a 'verifier' (or a 'rubric')")
        if src.id in self.plugins.envs:
            raise RegistryError(f"{self.registry.at(i, 'dataset', 'id')}: {src.id!r} is already a registered environment")
        preset = self.plugins.presets.get(src.preset) if src.preset else None
        prepare = preset.prepare if preset is not None else None
        def factory(env_id: str, src: DatasetSource = src) -> Environment:
            from .datasets import DatasetEnvironment  # its readers on first use: listing reads no rows

            return DatasetEnvironment(env_id, src, where=where, prepare_row=prepare)

        return EnvSpec(
            id=src.id, factory=factory,
            verifier=entry.verifier or entry.rubric[0].verifier, domain=src.domain or src.id.split("/", 1)[0],
            distribution="registry", version="0",
        )

    def _resolve_one(self, i: int, entry: EnvEntry, spec: EnvSpec, weight: float) -> ResolvedEnv:
        where = self.registry.where("environments", i)
        if entry.rubric is not None:  # the registry's own rubric
            rubric = RubricSpec(components=entry.rubric, pass_=entry.pass_)
            verifier, identity = resolve_rubric(self, rubric, spec, i, written=True)
        elif entry.verifier is None and spec.rubric is not None:  # the environment's default rubric
            verifier, identity = resolve_rubric(self, spec.rubric, spec, i, written=False, refine=entry.verifier_config)
        else:
            vname = entry.verifier or spec.verifier
            # The registry's config refines the environment's default config for the same verifier.
            base = spec.verifier_config if vname == spec.verifier else {}
            verifier, identity = self.verifier_for(
                spec, vname, {**base, **entry.verifier_config}, ("environments", i, "verifier"),
                ("environments", i, "verifier_config"), f"environments[{i}].verifier", f"environments[{i}].verifier_config")
        pname = entry.profile or spec.profile
        profile = self.profile_named(pname, ("environments", i, "profile"), f"environments[{i}].profile")
        env_config, built = self._env_config(i, entry, spec)
        return ResolvedEnv(
            spec=spec, verifier=verifier, identity=identity, profile=profile,
            weight=weight, tags=tuple(dict.fromkeys((*spec.tags, *entry.tags))),
            max_turns=entry.limits.max_turns or spec.max_turns, max_tasks=entry.limits.max_tasks,
            where=where, env_config=env_config, _env=built,
        )

    def _env_config(self, i: int, entry: EnvEntry, spec: EnvSpec) -> tuple[dict[str, Any], Environment | None]:
        """The entry's env_config, checked now against what the environment's factory accepts
        (and the environment, when the only way to check was to build it)."""
        if not entry.env_config:
            return {}, None
        try:
            config = envconfig.check(spec.factory, entry.env_config)
        except envconfig.EnvConfigProblem as exc:
            lines = [f"{self.registry.at(i, 'env_config', *loc)} (for {spec.id}): {text.split(': ', 1)[-1]}"
                     for loc, text in exc.found]
            raise RegistryError("\n".join(lines)) from None
        if config is None:  # a factory taking **options: build the environment to find out now
            config = dict(entry.env_config)
            return config, build_env(spec, config, self.registry.at(i, "env_config"))
        return config, None

    def verifier_for(self, spec: EnvSpec, vname: str, config: dict[str, Any], at_name: tuple, at_config: tuple,
                     name_field: str, config_field: str) -> tuple[Verifier, VerifierIdentity]:
        """A registered verifier with a validated config, and its identity; errors point at the
        registry's `at_name` / `at_config` lines."""
        vspec = self.plugins.verifiers.get(vname)
        if vspec is None:
            raise UnknownVerifier(
                f"{self.registry.where(*at_name)}: {name_field}: "
                f"unknown verifier {vname!r} (for {spec.id}){close_matches(vname, sorted(self.plugins.verifiers))}"
            )
        try:
            cfg = vspec.cls.Config.model_validate(config)
        except ValidationError as exc:
            raise RegistryError(f"{self.registry.where(*at_config)}: {config_field} for {vname!r}: {one_line(exc)}") from None
        return vspec.cls(cfg), VerifierIdentity(vname, vspec.distribution, vspec.version, VerifierIdentity.hash_config(cfg))

    def profile_named(self, name: str, at: tuple, field: str) -> Profile:
        if name not in self.profiles:
            raise RegistryError(f"{self.registry.where(*at)}: {field}: "
                                f"unknown sandbox profile {name!r}{close_matches(name, sorted(self.profiles))}")
        return self.profiles[name]

    # -- use ----------------------------------------------------------------------------------
    def get(self, env_id: str) -> ResolvedEnv:
        try:
            return self.envs[env_id]
        except KeyError:
            spec = self.plugins.envs.get(env_id)
            if spec is not None:
                raise UnknownEnvironment(self._left_out(f"environment {env_id!r} is installed", [spec], env_id)) from None
            raise UnknownEnvironment(
                f"environment {env_id!r} is not in {self.registry.called}{close_matches(env_id, sorted(self.envs))}"
            ) from None

    def select(self, pattern: str | None) -> list[ResolvedEnv]:
        if not pattern:
            return list(self.envs.values())
        matched = [e for e in self.envs.values() if fnmatch.fnmatchcase(e.id, pattern)]
        if not matched:
            offered = [s for i, s in sorted(self.plugins.envs.items()) if fnmatch.fnmatchcase(i, pattern)]
            if offered:
                raise UnknownEnvironment(self._left_out(f"{pattern!r} matches {len(offered)} installed environment(s)",
                                                        offered, pattern))
            raise UnknownEnvironment(f"no environment in {self.registry.called} matches {pattern!r}"
                                     f"{suggest_glob(pattern, sorted(self.envs))}")
        return matched

    def _left_out(self, subject: str, specs: list[EnvSpec], entry: str) -> str:
        """Environments an installed plugin offers but the registry leaves out: say so, and the fix."""
        dists = ", ".join(sorted({f"{s.distribution} {s.version}" for s in specs}))
        it = "it" if len(specs) == 1 else "them"
        if self.registry.is_union:
            return (f"{subject} from {dists}, but no installed plugin's registry fragment selects {it}: list {it} "
                    f"in a registry (`- id: {entry!r}` under environments:) and pass it with --registry, "
                    f"or as ./registry.yaml")
        return (f"{subject} from {dists}, but {self.registry.called} leaves {it} out: add `- id: {entry!r}` "
                f"to its environments, or pass --registry with a registry that names {it}")

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

    def verify(self, label: Label | str | dict, response: str, task: Task | None = None,
               render_to: str | None = None) -> Verdict:
        """Grade one response. Never raises for the model's output; `error` marks no verdict.
        `render_to`: also draw the verdict there (UserError if this verifier cannot draw)."""
        label = label if isinstance(label, Label) else Label.parse(label)
        renv = self.get(label.env)
        if render_to is not None and renv.verifier.render is None:
            raise UserError(f"--render: verifier {renv.identity.name!r} of {label.env} draws no pictures")
        task = task or self.task(label)
        return grade(renv.verifier, renv.identity, task, response, VerifyContext(profile=renv.profile), render_to)

    def tools(self, label: Label | str | dict, task: Task | None = None) -> list[dict]:
        """The OpenAI function schemas of the tools the label's episode offers ([] for a text environment)."""
        label = label if isinstance(label, Label) else Label.parse(label)
        return self.get(label.env).env.tools(task or self.task(label))

    def episode(self, label: Label | str | dict) -> Episode:
        label = label if isinstance(label, Label) else Label.parse(label)
        renv = self.get(label.env)
        task = self.task(label)
        ep = renv.env.episode(task, renv.verifier, VerifyContext(profile=renv.profile))
        ep.max_turns = renv.max_turns
        ep.identity = renv.identity
        return ep
