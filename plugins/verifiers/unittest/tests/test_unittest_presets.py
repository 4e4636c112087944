"""Dataset presets (`preset:` in a registry `dataset:` entry): three lines declare a benchmark."""

from __future__ import annotations

from pathlib import Path

import pytest

import hub
from hub.core.errors import RegistryError, TaskError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _catalog(tmp_path, entry: str):
    path = tmp_path / "registry.yaml"
    path.write_text(f"version: 1\nenvironments:\n{entry}")
    return hub.load(path)


@pytest.mark.parametrize("preset, file, style", [("humaneval", "humaneval_mini.jsonl", "check"),
                                                 ("mbpp", "mbpp_mini.jsonl", "check"),
                                                 ("apps", "apps_mini.jsonl", "stdio"),
                                                 ("livecodebench", "livecodebench_mini.jsonl", "stdio")])
def test_three_lines_declare_a_benchmark(tmp_path, preset, file, style):
    cat = _catalog(tmp_path, f"  - dataset: {{id: bench/{preset}-v1, path: {EXAMPLES / file}, preset: {preset}}}\n")
    renv = cat.get(f"bench/{preset}-v1")
    assert renv.identity.name == "unit_tests" and renv.verifier.config.style == style
    assert renv.profile.name == "pytest" and preset in renv.tags and renv.domain == "code"
    task = cat.task(renv.label(0))
    assert task.prompt.strip() and task.hidden["tests"]


def test_the_entry_overrides_and_extends_the_preset(tmp_path):
    cat = _catalog(tmp_path, f"""\
  - dataset:
      id: bench/mbpp-v1
      path: {EXAMPLES / 'mbpp_mini.jsonl'}
      preset: mbpp
      prompt_template: "Solve: {{prompt}}"
      columns: {{test_setup: task_id}}
    verifier_config: {{reward: fraction}}
    tags: [mine]
""")
    renv = cat.get("bench/mbpp-v1")
    assert renv.verifier.config.reward == "fraction" and renv.verifier.config.style == "check"
    assert {"mbpp", "mine"} <= set(renv.tags)
    with pytest.raises(TaskError, match="test_setup.str: Input should be a valid string"):  # the entry's column won, typed
        cat.task(renv.label(0))


def test_a_column_mapped_to_no_role_of_the_verifier_is_named(tmp_path):
    cat = _catalog(tmp_path, f"""\
  - dataset:
      id: bench/mbpp-v1
      path: {EXAMPLES / 'mbpp_mini.jsonl'}
      preset: mbpp
      columns: {{task: task_id}}
""")
    with pytest.raises(TaskError, match=r"bench/mbpp-v1 made task.hidden that verifier 'unit_tests' cannot use: task: unknown field"):
        cat.task(cat.get("bench/mbpp-v1").label(0))


def test_unknown_preset_is_a_clear_error(tmp_path):
    with pytest.raises(RegistryError, match=r"registry.yaml:4: .*unknown preset 'humanevl'.*did you mean 'humaneval'"):
        _catalog(tmp_path, f"  - dataset:\n      preset: humanevl\n      id: bench/x-v1\n      path: {EXAMPLES / 'humaneval_mini.jsonl'}\n")


def test_an_entry_without_preset_still_needs_a_prompt_column(tmp_path):
    with pytest.raises(RegistryError, match="columns must map at least 'prompt'"):
        _catalog(tmp_path, f"  - dataset: {{id: bench/x-v1, path: {EXAMPLES / 'humaneval_mini.jsonl'}}}\n    verifier: unit_tests\n")
