"""The plugin manager: the core's built-ins plus every installed `rlhub` entry point.

Each hook implementation is called on its own with a `register` bound to its plugin, so that
(a) every environment and verifier records the distribution and version it came from, and
(b) a plugin that fails to import or raises in a hook is reported by name and the others load.
"""

from __future__ import annotations

import importlib
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Callable

import pluggy

from . import hookspecs
from .fragments import fragment_of
from ..core.env import Environment
from ..sandbox.profile import DEFAULT_PROFILES, Profile
from .specs import EnvSpec, PresetSpec, VerifierSpec
from ..core.verifier import Verifier

# The core's own plugins: the examples, and the CLI's verbs (in the order `rlhub --help` lists them).
BUILTIN_PLUGINS = (
    "hub.plugins.builtin.arith", "hub.plugins.builtin.exact", "hub.plugins.builtin.length",
    *(f"hub.cli.commands.{verb}" for verb in ("browse", "sample", "grade", "play", "check", "serve", "mcp", "train", "evaluate", "export", "publish", "assets")),
)
CORE_DIST = "rlhub"


def _core_version() -> str:
    from ..core import __version__

    return __version__


@dataclass
class PluginInfo:
    name: str
    distribution: str
    version: str
    module: str
    envs: int = 0
    verifiers: int = 0
    error: str | None = None
    fragment: Path | None = None  # its registry fragment (package data `registry.yaml`), if it ships one


@dataclass
class PluginSet:
    """Everything the installed plugins registered."""

    envs: dict[str, EnvSpec] = field(default_factory=dict)
    verifiers: dict[str, VerifierSpec] = field(default_factory=dict)
    profiles: dict[str, Profile] = field(default_factory=lambda: dict(DEFAULT_PROFILES))
    presets: dict[str, PresetSpec] = field(default_factory=dict)
    plugins: list[PluginInfo] = field(default_factory=list)
    # (plugin, rlhub_register_commands implementation): called by the CLI when it builds its parser
    commands: list[tuple[PluginInfo, Callable[..., Any]]] = field(default_factory=list)

    @property
    def failures(self) -> list[PluginInfo]:
        return [p for p in self.plugins if p.error]


def _entry_point_plugins() -> list[tuple[str, str, str, Callable[[], Any]]]:
    found = []
    for ep in entry_points(group="rlhub"):
        dist = ep.dist.name if ep.dist else ep.value
        version = ep.dist.version if ep.dist else "0"
        found.append((ep.name, dist, version, ep.load))
    return found


def _builtin_plugins() -> list[tuple[str, str, str, Callable[[], Any]]]:
    return [
        (mod.rsplit(".", 1)[-1], CORE_DIST, _core_version(), lambda mod=mod: importlib.import_module(mod))
        for mod in BUILTIN_PLUGINS
    ]


def _one_line(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    where = f" ({frame[0].filename}:{frame[0].lineno})" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"


def collect(extra_plugins: list[tuple[str, Any]] = ()) -> PluginSet:
    """Load every plugin and gather what it registers. `extra_plugins` is for tests: (name, module)."""
    pm = pluggy.PluginManager("rlhub")
    pm.add_hookspecs(hookspecs)
    result = PluginSet()
    owners: dict[str, PluginInfo] = {}
    candidates = _builtin_plugins() + _entry_point_plugins()
    candidates += [(name, "<test>", "0", lambda m=mod: m) for name, mod in extra_plugins]
    for name, dist, version, load in candidates:
        info = PluginInfo(name=name, distribution=dist, version=version, module="?")
        result.plugins.append(info)
        try:
            module = load()
            info.module = getattr(module, "__name__", repr(module))
            if dist != CORE_DIST:  # the core's own fragment is the packaged default registry
                info.fragment = fragment_of(module)
            if pm.is_registered(module):
                raise ValueError(f"module {info.module} is registered twice")
            pm.register(module, name=f"{dist}:{name}")
            owners[f"{dist}:{name}"] = info
        except Exception as exc:  # a broken plugin must not take the others down
            info.error = f"failed to load: {_one_line(exc)}"
    _run_hooks(pm, owners, result)
    result.commands = [
        (owners[impl.plugin_name], impl.function) for impl in pm.hook.rlhub_register_commands.get_hookimpls()
    ]
    return result


def _run_hooks(pm: pluggy.PluginManager, owners: dict[str, PluginInfo], result: PluginSet) -> None:
    for hook_name, make_register, table in (
        ("rlhub_register_profiles", _profile_register, "profiles"),
        ("rlhub_register_verifiers", _verifier_register, "verifiers"),
        ("rlhub_register_envs", _env_register, "envs"),
        ("rlhub_register_presets", _preset_register, "presets"),
    ):
        for impl in getattr(pm.hook, hook_name).get_hookimpls():
            info = owners[impl.plugin_name]
            if info.error:
                continue
            # All or nothing: a hook that raises half-way keeps none of what it registered, so a
            # broken plugin is visibly broken rather than quietly missing some environments.
            staged: dict[str, Any] = {}
            before = (info.envs, info.verifiers)
            try:
                impl.function(register=make_register(info, getattr(result, table), staged))
            except Exception as exc:
                info.error = f"{hook_name} raised {_one_line(exc)}"
                info.envs, info.verifiers = before
            else:
                getattr(result, table).update(staged)


def _profile_register(info: PluginInfo, known: dict[str, Profile], staged: dict[str, Profile]):
    def register(profile: Profile) -> None:
        if not isinstance(profile, Profile):
            raise TypeError(f"register() takes a hub.sandbox.Profile, got {type(profile).__name__}")
        staged[profile.name] = profile

    return register


def _verifier_register(info: PluginInfo, known: dict[str, VerifierSpec], staged: dict[str, VerifierSpec]):
    def register(cls: type[Verifier]) -> None:
        if not (isinstance(cls, type) and issubclass(cls, Verifier) and cls.name):
            raise TypeError(f"register() takes a Verifier subclass with a name, got {cls!r}")
        other = known.get(cls.name) or staged.get(cls.name)
        if other is not None:
            raise ValueError(f"verifier {cls.name!r} is already registered by {other.distribution}")
        staged[cls.name] = VerifierSpec(cls.name, cls, info.distribution, info.version)
        info.verifiers += 1

    return register


def _preset_register(info: PluginInfo, known: dict[str, PresetSpec], staged: dict[str, PresetSpec]):
    def register(name: str, *, dataset: dict[str, Any] | None = None, verifier: str | None = None,
                 verifier_config: dict[str, Any] | None = None, profile: str | None = None, tags=(),
                 prepare: Callable[[dict], dict] | None = None, description: str = "") -> None:
        other = known.get(name) or staged.get(name)
        if other is not None:
            raise ValueError(f"dataset preset {name!r} is already registered by {other.distribution}")
        staged[name] = PresetSpec(name, dict(dataset or {}), verifier, dict(verifier_config or {}), profile,
                                  tuple(tags), prepare, description, info.distribution, info.version)

    return register


def _env_register(info: PluginInfo, known: dict[str, EnvSpec], staged: dict[str, EnvSpec]):
    def register(env_id: str, factory: Callable[[str], Environment], *, verifier: str, **kwargs: Any) -> None:
        other = known.get(env_id) or staged.get(env_id)
        if other is not None:
            raise ValueError(f"environment {env_id!r} is already registered by {other.distribution}")
        staged[env_id] = EnvSpec(
            id=env_id, factory=factory, verifier=verifier,
            distribution=info.distribution, version=info.version, **kwargs,
        )
        info.envs += 1

    return register


@lru_cache(maxsize=1)
def installed() -> PluginSet:
    """The plugins of this Python environment, loaded once per process."""
    return collect()
