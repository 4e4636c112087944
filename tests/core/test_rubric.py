"""Rubrics: several verifiers composed into one reward (hub/core/rubric.py), declared in a registry
(hub/config/registry.py, resolved by hub/config/rubrics.py)."""

from __future__ import annotations

import json
import threading
import types

import pytest

from hub import Verdict, Verifier, VerifierConfig, hookimpl
from hub.cli import main
from hub.core.errors import RegistryError, UnknownVerifier
from hub.evaluation.run import rescore_one

LABEL = '{"env": "arith/add-v1", "seed": 3}'


class FixedConfig(VerifierConfig):
    reward: float = 1.0
    passed: bool = True


class Fixed(Verifier):
    """Always the configured verdict: composition is then plain arithmetic."""

    name = "fixed"
    Config = FixedConfig

    def verify(self, task, response, ctx):
        return Verdict(self.config.reward, self.config.passed)


class Crash(Verifier):
    name = "crash"

    def verify(self, task, response, ctx):
        raise RuntimeError("the tool exploded")


MEETING = threading.Barrier(2)


class Meet(Verifier):
    """Passes only if another `meet` component runs at the same time (each waits for the other)."""

    name = "meet"

    def verify(self, task, response, ctx):
        MEETING.wait(timeout=20)  # run one after the other, this times out: no verdict
        return Verdict(1.0, True)


PLUGIN = types.ModuleType("rubric_test_plugin")
PLUGIN.rlhub_register_verifiers = hookimpl(lambda register: [register(c) for c in (Fixed, Crash, Meet)])


@pytest.fixture
def catalog(rlhub_registry):
    def make(rubric: str):
        return rlhub_registry("environments:\n  - id: arith/add-v1\n" + rubric, plugins=[PLUGIN])

    return make


def reference_verdict(cat):
    return cat.verify(LABEL, cat.reference(LABEL))


def test_reward_is_the_weighted_sum_over_the_positive_weights(catalog):
    cat = catalog("""
    rubric:
      - {verifier: fixed, name: a, weight: 0.8, config: {reward: 0.5}}
      - {verifier: fixed, name: b, weight: 0.2}
      - {verifier: exact_match, weight: 1.0}
    """)
    v = reference_verdict(cat)
    assert v.error is None and v.reward == pytest.approx((0.8 * 0.5 + 0.2 + 1.0) / 2.0)
    assert v.components == {"a": 0.5, "b": 1.0, "exact_match": 1.0}
    assert v.passed  # default `pass`: every positive component passed


def test_penalties_cost_their_weight_times_the_shortfall_and_the_reward_is_clamped(catalog):
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: exact_match, weight: 1.0}
      - {verifier: fixed, name: penalty, weight: -0.4, config: {reward: 0.25, passed: false}}
    """))
    assert v.reward == pytest.approx(1.0 - 0.4 * 0.75) and v.passed  # a penalty is not in the default `pass`
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: fixed, name: gain, weight: 0.1, config: {reward: 0.5}}
      - {verifier: fixed, name: penalty, weight: -3, config: {reward: 0.0}}
    """))
    assert v.reward == 0.0 and "-> 0" in v.details["formula"]


def test_perfect_parts_earn_exactly_one(catalog):
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: exact_match, weight: 0.7}
      - {verifier: fixed, name: b, weight: 0.2}
      - {verifier: fixed, name: c, weight: 0.1}
      - {verifier: length_penalty, weight: -0.05, config: {max_tokens: 50}}
    """))
    assert v.reward == 1.0 and v.passed


def test_a_gated_component_counts_only_when_its_gate_passed(catalog):
    cat = catalog("""
    rubric:
      - {verifier: exact_match, weight: 0.5}
      - {verifier: crash, weight: 0.5, gate: exact_match}
    pass: exact_match
    """)
    v = cat.verify(LABEL, "not the answer")
    assert v.error is None and v.reward == 0.0 and not v.passed
    part = v.details["parts"]["crash"]
    assert part["counted"] is False and part["skipped"] == "gate 'exact_match' did not pass"
    assert "crash" not in v.components


def test_a_component_without_a_verdict_makes_the_rubric_no_verdict_naming_it(catalog):
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: exact_match, weight: 0.5}
      - {verifier: crash, name: analyser, weight: 0.5, gate: exact_match}
    """))
    assert v.error and "'analyser' (crash)" in v.error and "the tool exploded" in v.error
    assert v.reward == 0.0 and v.details["parts"]["exact_match"]["reward"] == 1.0


def test_independent_components_run_concurrently(catalog):
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: meet, name: left}
      - {verifier: meet, name: right}
    """))
    assert v.error is None and v.reward == 1.0


def test_pass_names_what_passed_means(catalog):
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: exact_match, weight: 0.5}
      - {verifier: fixed, weight: 0.5, config: {reward: 0.3, passed: false}}
    pass: exact_match
    """))
    assert v.passed and v.reward == pytest.approx(0.65)


def test_the_verdict_keeps_each_parts_reward_details_and_identity(catalog):
    v = reference_verdict(catalog("""
    rubric:
      - {verifier: exact_match, weight: 0.6}
      - {verifier: length_penalty, weight: 0.4, gate: exact_match, config: {max_tokens: 64}}
    """))
    length = v.details["parts"]["length_penalty"]
    assert length["verifier"]["name"] == "length_penalty" and length["verifier"]["distribution"] == "rlhub"
    assert length["weight"] == 0.4 and length["gate"] == ["exact_match"] and length["details"]["max_tokens"] == 64
    assert v.verifier.name == "rubric"


def test_identity_changes_when_one_components_config_changes(catalog):
    def identity(max_tokens):
        cat = catalog(f"""
    rubric:
      - {{verifier: exact_match, weight: 0.9}}
      - {{verifier: length_penalty, weight: 0.1, config: {{max_tokens: {max_tokens}}}}}
    """)
        return cat.get("arith/add-v1").identity

    assert identity(64) == identity(64)
    assert identity(64).config_hash != identity(65).config_hash


@pytest.mark.parametrize("rubric, where, expected", [
    ("rubric:\n      - {verifier: exact_mach}", 4, "unknown verifier 'exact_mach' (for arith/add-v1); did you mean 'exact_match'"),
    ("rubric:\n      - {verifier: exact_match}\n      - {verifier: fixed, gate: exact_mtch}", 5,
     "rubric[1].gate: 'exact_mtch' is not a component of this rubric (its components: exact_match, fixed); did you mean 'exact_match'"),
    ("rubric:\n      - {verifier: exact_match, weight: heavy}", 4, "rubric.0.weight: Input should be a valid number (got 'heavy')"),
    ("rubric:\n      - {verifier: exact_match, weight: '0.5'}", 4, "Input should be a valid number (got '0.5')"),
    ("rubric:\n      - {verifier: exact_match, gate: fixed}\n      - {verifier: fixed, gate: exact_match}", 4,
     "the gates form a cycle: exact_match -> fixed -> exact_match"),
    ("rubric:\n      - {verifier: exact_match}\n    pass: exact", 5, "pass: 'exact' is not a component of this rubric; did you mean 'exact_match'"),
    ("rubric:\n      - {verifier: exact_match}\n      - {verifier: exact_match}", 5, "a second component named 'exact_match'"),
    ("rubric:\n      - {verifier: exact_match, weight: -1}", 4, "no component has a positive weight"),
    ("rubric:\n      - {verifier: exact_match, config: {extract: lastline}}", 4, "config for 'exact_match': extract"),
    ("verifier: exact_match\n    rubric:\n      - {verifier: exact_match}", 2, "give either 'verifier' or 'rubric'"),
    ("pass: exact_match", 2, "'pass' says which rubric components must pass: it needs a 'rubric'"),
])
def test_bad_rubrics_are_refused_at_load_with_file_line_and_suggestion(catalog, rubric, where, expected):
    with pytest.raises((RegistryError, UnknownVerifier)) as info:
        catalog("    " + rubric + "\n")
    message = str(info.value)
    assert f"registry.yaml:{where}:" in message and expected in message, message


def test_rlhub_verify_json_shows_the_parts_and_identity(tmp_path, capsys):
    registry = tmp_path / "registry.yaml"
    registry.write_text("environments:\n  - id: arith/add-v1\n    rubric:\n      - {verifier: exact_match, weight: 0.9}\n"
                        "      - {verifier: length_penalty, weight: 0.1, gate: exact_match, config: {max_tokens: 8}}\n")
    assert main(["reference", "--registry", str(registry), "--label", LABEL]) == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(capsys.readouterr().out)
    assert main(["verify", "--registry", str(registry), "--label", LABEL, "--response-file", str(answer), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reward"] == 1.0 and out["components"] == {"exact_match": 1.0, "length_penalty": 1.0}
    assert out["verifier"]["name"] == "rubric" and len(out["verifier"]["config_hash"]) == 16
    assert {n: p["verifier"]["name"] for n, p in out["details"]["parts"].items()} == {
        "exact_match": "exact_match", "length_penalty": "length_penalty"}


def test_rescore_regrades_when_one_components_config_changes(tmp_path, capsys):
    def registry(max_tokens: int):
        path = tmp_path / f"registry-{max_tokens}.yaml"
        path.write_text("environments:\n  - id: arith/add-v1\n    rubric:\n      - {verifier: exact_match, weight: 0.9}\n"
                        f"      - {{verifier: length_penalty, weight: 0.1, config: {{max_tokens: {max_tokens}}}}}\n")
        return path

    from hub.config.catalog import Catalog

    cat = Catalog.load(registry(100))
    answer = "<think>" + "carry the one, " * 10 + "</think>" + cat.reference(LABEL)  # ~40 tokens: within 100, not 20
    first = {"label": LABEL, "env": "arith/add-v1", "turns": [{"action": answer}], **cat.verify(LABEL, answer).to_dict()}
    assert first["reward"] == 1.0
    trajectories = tmp_path / "traj.jsonl"
    trajectories.write_text(json.dumps(first) + "\n")
    assert rescore_one(cat, first)["verifier_changed"] == []  # same registry: same identity
    out = tmp_path / "again.jsonl"
    assert main(["rescore", str(trajectories), "--registry", str(registry(20)), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    again = json.loads(out.read_text())
    assert again["previous"]["reward"] == 1.0 and again["reward"] < 1.0
    assert again["verifier"]["config_hash"] != first["verifier"]["config_hash"]
    assert again["verifier_changed"] == ["length_penalty"] and summary["verifier_changed"] == {"length_penalty": 1}


def test_a_dataset_environment_takes_a_rubric(tmp_path, rlhub_registry):
    (tmp_path / "qa.jsonl").write_text('{"question": "2 + 2?", "answer": "4"}\n')
    cat = rlhub_registry(f"""
    environments:
      - dataset:
          id: mydata/qa-v1
          path: {tmp_path / "qa.jsonl"}
          columns: {{prompt: question, answer: answer}}
          reference_template: "{{answer}}"
        rubric:
          - {{verifier: exact_match, weight: 0.9}}
          - {{verifier: length_penalty, weight: 0.1, config: {{max_tokens: 4}}}}
    """)
    label = '{"env": "mydata/qa-v1", "row": 0}'
    assert cat.verify(label, "4").reward == 1.0
    v = cat.verify(label, "<think>two and two make four</think>4")
    assert v.components == {"exact_match": 1.0, "length_penalty": 0.0} and v.reward == pytest.approx(0.9)
