import json
import textwrap

import pytest

from hub import hookimpl
from hub.config.catalog import Catalog
from hub.core.errors import RegistryError, UnknownEnvironment, UnknownVerifier


def write(tmp_path, text, name="registry.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def load(tmp_path, text):
    return Catalog.load(write(tmp_path, text))


def error_of(tmp_path, text, exc=RegistryError):
    with pytest.raises(exc) as info:
        load(tmp_path, text)
    return str(info.value)


def test_glob_weights_are_split_per_entry_and_last_entry_wins(tmp_path):
    cat = load(tmp_path, """
        environments:
          - id: "arith/*"
            weight: 5
          - id: arith/mul-v1
            weight: 2
            tags: [hard]
    """)
    assert cat.get("arith/mul-v1").weight == 2
    assert "hard" in cat.get("arith/mul-v1").tags
    # the glob's weight is split over the environments it holds, here all six of arith/* but mul-v1
    assert cat.get("arith/add-v1").weight == pytest.approx(5 / (len(cat.select("arith/*")) - 1))
    assert cat.get("arith/mul-v1").where.endswith(":5")


def test_malformed_yaml_names_file_and_line(tmp_path):
    msg = error_of(tmp_path, """
        environments:
          - id: arith/add-v1
            weight: [1, 2
    """)
    assert "registry.yaml:" in msg and "not valid YAML" in msg


def test_schema_errors_name_line_field_and_expectation(tmp_path):
    msg = error_of(tmp_path, """
        version: 1
        environments:
          - id: arith/add-v1
            wieght: 2
          - id: arith/sub-v1
            weight: -1
    """)
    lines = msg.splitlines()
    assert any(":5: environments.0.wieght: unknown field" in l for l in lines), msg
    assert any(":7: environments.1.weight: Input should be greater than or equal to 0" in l for l in lines), msg


def test_unknown_id_suggests_close_match(tmp_path):
    msg = error_of(tmp_path, "environments:\n  - id: arith/ad-v1\n", UnknownEnvironment)
    assert ":2:" in msg and "did you mean 'arith/add-v1'" in msg


def test_glob_matching_nothing_is_an_error_unless_optional(tmp_path):
    assert "matches no installed environment" in error_of(tmp_path, "environments:\n  - id: 'nope/*'\n")
    cat = load(tmp_path, "environments:\n  - id: 'nope/*'\n    optional: true\n  - id: arith/add-v1\n")
    assert list(cat.envs) == ["arith/add-v1"]


def test_unknown_verifier_and_bad_config(tmp_path):
    msg = error_of(tmp_path, "environments:\n  - id: arith/add-v1\n    verifier: exact_mach\n", UnknownVerifier)
    assert "did you mean 'exact_match'" in msg
    msg = error_of(tmp_path, "environments:\n  - id: arith/add-v1\n    verifier_config: {extract: everything}\n")
    assert ":3:" in msg and "extract" in msg


def test_profiles_extend_and_validate(tmp_path):
    cat = load(tmp_path, """
        profiles:
          tight: {extends: python, wall_timeout_s: 2}
        environments:
          - id: arith/add-v1
            profile: tight
    """)
    profile = cat.get("arith/add-v1").profile
    assert (profile.name, profile.wall_timeout_s, profile.memory_mb) == ("tight", 2, 512)
    assert "memory_mb" in error_of(tmp_path, """
        profiles:
          bad: {memory_mb: lots}
        environments: [{id: arith/add-v1}]
    """)
    assert "unknown sandbox profile 'tigth'" in error_of(tmp_path, """
        profiles: {tight: {}}
        environments: [{id: arith/add-v1, profile: tigth}]
    """)


def test_dataset_environment_from_jsonl(tmp_path):
    rows = [{"q": f"What is {i} squared?", "a": str(i * i)} for i in range(5)]
    (tmp_path / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    cat = load(tmp_path, """
        environments:
          - dataset:
              id: mydata/squares-v1
              path: qa.jsonl
              columns: {prompt: q, answer: a}
              prompt_template: "Reply with a number. {prompt}"
            verifier: exact_match
    """)
    env = cat.get("mydata/squares-v1")
    assert env.num_tasks == 5
    task = cat.task('{"env": "mydata/squares-v1", "row": 3}')
    assert task.prompt == "Reply with a number. What is 3 squared?"
    assert task.hidden == {"answer": "9"} and task.reference == "9"
    assert cat.verify(task.label, "9").passed
    assert not cat.verify(task.label, "10").passed
    with pytest.raises(Exception, match="out of range"):
        cat.task('{"env": "mydata/squares-v1", "row": 5}')


def test_dataset_environment_errors(tmp_path):
    msg = error_of(tmp_path, """
        environments:
          - dataset: {id: mydata/x-v1, path: missing.jsonl, columns: {prompt: q}}
            verifier: exact_match
    """)
    assert "no such file" in msg and "missing.jsonl" in msg
    (tmp_path / "d.jsonl").write_text('{"q": "hi"}\n')
    cat = load(tmp_path, """
        environments:
          - dataset: {id: mydata/x-v1, path: d.jsonl, columns: {prompt: question}}
            verifier: exact_match
    """)
    with pytest.raises(RegistryError, match=r"column\(s\) \['question'\]"):
        cat.task('{"env": "mydata/x-v1", "row": 0}')
    assert "exactly one of 'path'" in error_of(tmp_path, """
        environments:
          - dataset: {id: mydata/x-v1, columns: {prompt: q}}
            verifier: exact_match
    """)


def test_env_config_reaches_the_factory(tmp_path):
    cat = load(tmp_path, """
        environments:
          - id: arith/add-v1
            env_config: {low: 2, high: 9}
    """)
    task = cat.task('{"env": "arith/add-v1", "seed": 1}')
    assert task.metadata["a"] in range(2, 10) and task.metadata["b"] in range(2, 10), task.prompt


def test_env_config_is_checked_when_the_registry_loads(tmp_path):
    # a family's options are its configure() keywords: anything else is refused at load, named
    message = error_of(tmp_path, "environments:\n  - id: arith/add-v1\n    env_config: {hihg: 9}\n")
    assert "registry.yaml:3: environments[0].env_config.hihg (for arith/add-v1): unknown key" in message
    assert "did you mean 'high'" in message and "accepted keys: low, high" in message
    message = error_of(tmp_path, "environments:\n  - id: arith/guess-v1\n    env_config: {op: mul}\n")
    assert "takes no env_config" in message


class _QAPresets:
    """A plugin registering a dataset preset (as rlhub-unittest registers humaneval, mbpp, ...)."""

    @staticmethod
    @hookimpl
    def rlhub_register_presets(register):
        register("qa", dataset={"columns": {"prompt": "q", "answer": "a"}, "prompt_template": "Reply with a number. {prompt}",
                                "reference_template": "{doubled}"},
                 verifier="exact_match", tags=["qa"], prepare=lambda row: {**row, "doubled": row["a"]})


def test_dataset_preset_fills_the_entry_and_the_entry_wins(tmp_path):
    from hub.plugins.manager import collect

    rows = [{"q": f"What is {i} squared?", "a": str(i * i), "other": f"Q{i}"} for i in range(3)]
    (tmp_path / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    plugins = collect(extra_plugins=[("qa", _QAPresets)])
    assert plugins.presets["qa"].distribution == "<test>"
    cat = Catalog.load(write(tmp_path, """
        environments:
          - dataset: {id: mydata/squares-v1, path: qa.jsonl, preset: qa}
          - dataset: {id: mydata/other-v1, path: qa.jsonl, preset: qa, prompt_template: "{prompt}!", columns: {prompt: other}}
            tags: [mine]
    """), plugins=plugins)
    task = cat.task('{"env": "mydata/squares-v1", "row": 2}')
    assert task.prompt == "Reply with a number. What is 2 squared?" and task.reference == "4"
    assert cat.get("mydata/squares-v1").identity.name == "exact_match" and cat.verify(task.label, "4").passed
    other = cat.task('{"env": "mydata/other-v1", "row": 1}')
    assert other.prompt == "Q1!" and other.hidden == {"answer": "1"} and cat.get("mydata/other-v1").tags == ("qa", "mine")
    with pytest.raises(RegistryError, match="unknown preset 'qq'; did you mean 'qa'"):
        Catalog.load(write(tmp_path, "environments:\n  - dataset: {id: mydata/x-v1, path: qa.jsonl, preset: qq}\n"),
                     plugins=plugins)
