"""Registry mistakes are found when the registry loads, with file, line, what was expected and a
close match: env_config against the environment's factory, misspelt fields, globs, left-out ids."""

from __future__ import annotations

import textwrap
import types

import pytest

from hub import Environment, Task
from hub.config.catalog import Catalog
from hub.core.errors import RegistryError, UnknownEnvironment
from hub.plugins.manager import collect


class Countdown(Environment):
    def __init__(self, env_id: str, *, start: int = 10, step: int = 1) -> None:
        super().__init__(env_id)
        self.start, self.step = start, step

    def generate(self, rng, index):
        n = rng.randint(self.start, self.start + 5)
        return Task(prompt=f"Count down from {n} in steps of {self.step}; reply with the third number.",
                    hidden={"answer": str(n - 2 * self.step)}, reference=str(n - 2 * self.step))


class Anything(Countdown):
    pass


def _plugin() -> types.ModuleType:
    from hub import hookimpl

    module = types.ModuleType("rlhub_countdown")

    @hookimpl
    def rlhub_register_envs(register):
        register("count/down-v1", lambda env_id, *, start=10, step=1: Countdown(env_id, start=start, step=step),
                 verifier="exact_match")
        register("count/typed-v1", Countdown, verifier="exact_match")
        register("count/kwargs-v1", lambda env_id, **options: Anything(env_id, **options), verifier="exact_match")
        register("count/plain-v1", lambda env_id: Countdown(env_id), verifier="exact_match")

    module.rlhub_register_envs = rlhub_register_envs
    return module


PLUGINS = collect(extra_plugins=[("rlhub_countdown", _plugin())])


def load(tmp_path, text: str) -> Catalog:
    path = tmp_path / "registry.yaml"
    path.write_text(textwrap.dedent(text))
    return Catalog.load(path, plugins=PLUGINS)


def error(tmp_path, text: str, exc=RegistryError) -> str:
    with pytest.raises(exc) as info:
        load(tmp_path, text)
    return str(info.value)


def test_env_config_reaches_the_factory(tmp_path):
    cat = load(tmp_path, "environments:\n  - id: count/down-v1\n    env_config: {start: 100, step: 3}\n")
    task = cat.task('{"env": "count/down-v1", "seed": 1}')
    assert "steps of 3" in task.prompt and int(task.reference) >= 94


def test_unknown_env_config_key_names_file_line_accepted_keys_and_a_close_match(tmp_path):
    message = error(tmp_path, """
        environments:
          - id: count/down-v1
            env_config:
              strat: 5
    """)
    assert message == ("registry.yaml:5: environments[0].env_config.strat (for count/down-v1): unknown key; "
                       "did you mean 'start'?; accepted keys: start, step").replace("registry.yaml", str(tmp_path / "registry.yaml"))


def test_env_config_values_are_typed_by_the_factorys_annotations(tmp_path):
    message = error(tmp_path, "environments:\n  - id: count/typed-v1\n    env_config: {start: many}\n")
    assert ":3: environments[0].env_config.start (for count/typed-v1):" in message and "'many'" in message
    assert load(tmp_path, "environments:\n  - id: count/typed-v1\n    env_config: {start: '7'}\n") \
        .get("count/typed-v1").env_config == {"start": 7}


def test_a_factory_taking_kwargs_is_built_at_load_to_check_its_config(tmp_path):
    message = error(tmp_path, "environments:\n  - id: count/kwargs-v1\n    env_config: {maxx: 3}\n")
    assert ":3: environments[0].env_config: env_config for count/kwargs-v1 was not accepted" in message
    assert "maxx" in message


def test_a_glob_entry_checks_every_environment_it_matches(tmp_path):
    message = error(tmp_path, "environments:\n  - id: 'count/*'\n    env_config: {start: 3}\n")
    assert message.endswith(":3: environments[0].env_config.start (for count/plain-v1): unknown key; "
                            "accepted keys: none (this environment takes no env_config)")


def test_misspelt_fields_get_a_close_match_and_the_allowed_fields(tmp_path):
    message = error(tmp_path, """
        environments:
          - id: count/down-v1
            wieght: 2
            limits: {max_turn: 3}
    """)
    lines = message.splitlines()
    assert lines[0].endswith(":4: environments.0.wieght: unknown field; did you mean 'weight'? (expected one of: "
                             "id, dataset, verifier, verifier_config, rubric, pass, env_config, profile, weight, tags, limits, "
                             "optional, source)")
    assert ":5: environments.0.limits.max_turn: unknown field; did you mean 'max_turns', 'max_tasks'?" in lines[1]
    assert "did you mean 'max_iterations'" not in message
    profile = error(tmp_path, "profiles:\n  tight: {extends: default, memory_mbb: 64}\nenvironments:\n  - id: count/down-v1\n")
    assert "memory_mbb: unknown field; did you mean 'memory_mb'?" in profile


def test_globs_that_match_nothing_get_suggestions(tmp_path):
    message = error(tmp_path, "environments:\n  - id: 'cont/*'\n")
    assert ":2: environments[0].id: glob 'cont/*' matches no installed environment; did you mean 'count/*'?" in message
    cat = load(tmp_path, "environments:\n  - id: 'count/*'\n")
    with pytest.raises(UnknownEnvironment, match=r"matches 'count/dwn\*'; did you mean 'count/down-v1'"):
        cat.select("count/dwn*")


def test_an_installed_environment_the_registry_leaves_out_is_named_with_the_fix(tmp_path):
    cat = load(tmp_path, "environments:\n  - id: count/down-v1\n")
    with pytest.raises(UnknownEnvironment) as info:
        cat.get("count/typed-v1")
    assert "environment 'count/typed-v1' is installed from <test> 0, but registry " in str(info.value)
    assert "leaves it out: add `- id: 'count/typed-v1'` to its environments, or pass --registry" in str(info.value)
    with pytest.raises(UnknownEnvironment, match=r"'arith/\*' matches 6 installed environment\(s\) from rlhub"):
        cat.select("arith/*")


def _pushed(tmp_path, text: str) -> str:
    """A registry file pushed to a local object store; its pin."""
    from hub.assets.push import push

    src = tmp_path / "src" / "registry.yaml"
    src.parent.mkdir(parents=True)
    src.write_text(textwrap.dedent(text))
    [out] = push([str(src)], str(tmp_path / "store"))
    return out["pin"]


def test_a_registry_by_pinned_url_loads_from_the_asset_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "cache"))
    pin = _pushed(tmp_path, "environments:\n  - id: count/down-v1\n    env_config: {start: 100, step: 3}\n")
    cat = Catalog.load(pin, plugins=PLUGINS)
    assert "steps of 3" in cat.task('{"env": "count/down-v1", "seed": 1}').prompt
    assert cat.registry.url == pin.split("#")[0]


def test_a_url_registry_names_its_url_and_line_and_refuses_relative_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "cache"))
    pin = _pushed(tmp_path, "environments:\n  - id: count/down-v1\n    env_confg: {start: 3}\n")
    with pytest.raises(RegistryError) as info:
        Catalog.load(pin, plugins=PLUGINS)
    assert pin.split("#")[0] in str(info.value) and ":3" in str(info.value) and "env_config" in str(info.value)
    rel = _pushed(tmp_path / "b", "environments:\n  - dataset: {id: mydata/x-v1, path: qa.jsonl, columns: {prompt: q}}\n    verifier: exact_match\n")
    with pytest.raises(RegistryError, match="'qa.jsonl' is relative, but the registry came from .*name files by pinned URL"):
        Catalog.load(rel, plugins=PLUGINS)
    wrong = pin.split("#")[0] + "#sha256=" + "0" * 64
    with pytest.raises(RegistryError, match=f"registry {wrong}: .*"):
        Catalog.load(wrong, plugins=PLUGINS)
