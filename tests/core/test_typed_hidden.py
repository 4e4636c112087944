"""task.hidden is the verifier's typed contract: a malformed one is found when the task is made,
named by field, and never reaches a model as a reward."""

import types

import pytest

from hub import Environment, Task
from hub.cli import main
from hub.core.errors import TaskError
from hub.plugins.builtin.exact import ExactHidden
from hub.testing.plugins import plugin_installed


class Misspelt(Environment):
    def generate(self, rng, index):
        return Task(prompt="1+1?", hidden={"answr": "2"}, reference="2")


class Typed(Environment):
    def generate(self, rng, index):
        return Task(prompt="1+1?", hidden=ExactHidden(answer=2), reference="2")


PLUGIN_SOURCE = """
from hub import hookimpl
from test_typed_hidden import Misspelt, Typed

@hookimpl
def rlhub_register_envs(register):
    register("t/misspelt-v1", Misspelt, verifier="exact_match")
    register("t/typed-v1", Typed, verifier="exact_match")
"""
PLUGIN = types.ModuleType("typed_hidden_plugin")  # the same plugin, handed to the catalog directly
PLUGIN.__dict__.update(Misspelt=Misspelt, Typed=Typed)
exec(PLUGIN_SOURCE.replace("from test_typed_hidden import Misspelt, Typed", ""), PLUGIN.__dict__)
REGISTRY = "environments:\n  - id: 't/*'\n"


def test_a_misspelt_field_fails_at_generation_with_the_field_named(rlhub_registry):
    cat = rlhub_registry(REGISTRY, plugins=[PLUGIN])
    with pytest.raises(TaskError, match=r"t/misspelt-v1 made task.hidden that verifier 'exact_match' cannot use: "
                                        r"answer: Field required; answr: unknown field"):
        cat.task('{"env": "t/misspelt-v1", "seed": 0}')


def test_environments_can_build_the_verifiers_model(rlhub_registry):
    cat = rlhub_registry(REGISTRY, plugins=[PLUGIN])
    task = cat.task('{"env": "t/typed-v1", "seed": 0}')
    assert task.hidden == {"answer": 2}  # kept as plain data, so digests and labels stay JSON
    assert cat.verify('{"env": "t/typed-v1", "seed": 0}', "2").reward == 1.0


def test_the_reward_path_reports_it_as_no_verdict_never_a_zero(rlhub_registry):
    from hub.rewards import RewardPolicy, score_batch

    cat = rlhub_registry(REGISTRY, plugins=[PLUGIN])
    out = score_batch(cat, ["2"], [""], ['{"env": "t/misspelt-v1", "seed": 0}'], RewardPolicy())
    assert out["rewards"] == [0.0] and out["extra_logs"]["rlhub/no_verdict"] == [1.0]
    assert out["extra_logs"]["rlhub/substituted"] == [1.0]


def test_the_cli_says_so_in_one_line(tmp_path, capsys):
    with plugin_installed(tmp_path / "site", "rlhub-typed", "typed_plugin", PLUGIN_SOURCE):
        (tmp_path / "registry.yaml").write_text(REGISTRY)
        code = main(["show", "t/misspelt-v1", "--registry", str(tmp_path / "registry.yaml")])
    notes, error = capsys.readouterr().err.splitlines()  # the registry used, then the one error line
    assert code == 3 and notes.startswith("rlhub: registry: ") and "answr: unknown field" in error, error
