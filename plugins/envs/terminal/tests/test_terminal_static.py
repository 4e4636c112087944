"""The static-analysis families (families/static_*.py) graded for real: unit tests and an analyser
composed by the family's rubric, in the sandbox. (Every check on every family: `pytest registry.yaml
--rlhub-select 'terminal/static-*'`.)"""

from __future__ import annotations

import pytest
from terminal_helpers import body, fenced_file

from rlhub_terminal.analysis import TESTS_WEIGHT
from rlhub_terminal.families import FAMILIES

STATIC = sorted(n for n, f in FAMILIES.items() if f.domain == "static")
ONE_PER_TOOL = ["static-mypy-annotate-stats", "static-ruff-comparisons", "static-bandit-tempfile", "static-shellcheck-legacy"]


def test_at_least_20_families_over_the_four_analysers():
    assert len(STATIC) >= 20
    tools = {FAMILIES[n].rubric["components"][1]["verifier"] for n in STATIC}
    assert tools == {"mypy", "ruff", "bandit", "shellcheck"}
    for name in STATIC:
        comps = FAMILIES[name].rubric["components"]
        assert comps[0]["verifier"] == "unit_tests" and comps[1]["gate"] == "unit_tests"


def test_the_rubric_is_resolved_with_its_parts(catalog):
    renv = catalog.get("terminal/static-ruff-unused-v1")
    assert renv.identity.name == "rubric"
    assert [(p.name, p.weight, p.gates) for p in renv.verifier.parts] == [
        ("unit_tests", TESTS_WEIGHT, ()), ("ruff", pytest.approx(1 - TESTS_WEIGHT), ("unit_tests",))]
    assert renv.verifier.parts[1].profile.name == "static" and renv.profile.name == "terminal-test"


@pytest.mark.parametrize("name", ONE_PER_TOOL)
def test_reference_is_clean_and_kept_findings_cost_a_share(catalog, name):
    label = {"env": f"terminal/{name}-v1", "seed": 11}
    task = catalog.task(label)
    ref = catalog.verify(label, task.reference, task=task)
    assert ref.error is None and ref.passed and ref.reward == 1.0, ref.details
    tool = FAMILIES[name].rubric["components"][1]["verifier"]
    assert ref.details["parts"][tool]["details"]["findings_total"] == 0
    wrong = {(v.kind, v.size): v for v in catalog.get(label["env"]).env.wrong_answers(task)}
    verdicts = {key: catalog.verify(label, v.response, task=task) for key, v in wrong.items()}
    for (kind, size), v in verdicts.items():
        assert v.error is None and not v.passed and v.reward < 1.0, (kind, v.details)
    unchanged = next(v for (k, _), v in verdicts.items() if k == "unchanged")
    suppressed = next(v for (k, _), v in verdicts.items() if k == "suppressed")
    # suppression comments are taken out, and each is a finding weighing the analyser's whole share
    assert suppressed.reward <= unchanged.reward and suppressed.reward in (0.0, pytest.approx(TESTS_WEIGHT))
    assert suppressed.reward == 0.0 or "rlhub-blind-directive" in suppressed.details["parts"][tool]["details"]["rules"]
    if unchanged.details["parts"]["unit_tests"]["passed"]:  # the findings alone cost the analyser's share
        findings = unchanged.details["parts"][tool]["details"]
        assert findings["findings_total"] > 0 and TESTS_WEIGHT <= unchanged.reward < 1.0
    else:  # the findings are bugs the tests catch: the analyser is not even run
        assert unchanged.reward == 0.0 and unchanged.details["parts"][tool]["counted"] is False


def test_a_session_is_graded_by_the_rubric(catalog):
    ep = catalog.episode({"env": "terminal/session-static-ruff-unused-v1", "seed": 2})
    ep.reset()
    flawed = next(v for v in catalog.get("terminal/static-ruff-unused-v1").env.wrong_answers(ep.task)
                  if v.kind == "finding left in" and v.size == 1)
    step = ep.step(fenced_file("solution.py", body(flawed.response)) + "SUBMIT")
    assert step.done and step.verdict.error is None and not step.verdict.passed
    assert TESTS_WEIGHT < step.verdict.reward < 1.0 and step.verdict.verifier.name == "rubric"
    assert step.verdict.details["parts"]["ruff"]["details"]["findings_total"] >= 1


@pytest.mark.parametrize("name", STATIC)
def test_response_key_is_the_code_every_part_reads(catalog, name):
    """`rlhub check` grades responses with one key once: a rubric's key is its parts' keys (the
    files an analyser writes, the solution the unit tests assemble). Every form of the reference
    shares its key; every wrong answer has another (else the checks would credit it unrun)."""
    from hub.checks.forms import generic_forms

    renv = catalog.get(f"terminal/{name}-v1")
    task = catalog.task(renv.label(0))
    key = renv.verifier.response_key(task, task.reference)
    assert key is not None and key.startswith("rubric:")
    forms = [f for _, f in generic_forms(task.reference)] + list(renv.env.right_answers(task))
    assert [renv.verifier.response_key(task, f) for f in forms] == [key] * len(forms)
    for wrong in renv.env.wrong_answers(task):
        assert renv.verifier.response_key(task, wrong.response) != key, wrong.kind
    assert renv.verifier.response_key(task, "") is None  # no code: graded (cheaply), not keyed


@pytest.mark.parametrize("name", ONE_PER_TOOL)
def test_a_form_with_the_reference_key_earns_the_reference_verdict(catalog, name):
    from hub.checks.forms import generic_forms

    label = {"env": f"terminal/{name}-v1", "seed": 3}
    task = catalog.task(label)
    thinking = dict(generic_forms(task.reference))["reasoning in <think> first"]
    ref, other = catalog.verify(label, task.reference, task=task), catalog.verify(label, thinking, task=task)
    assert ref.passed and ref.reward == 1.0
    assert (other.reward, other.passed, other.components) == (ref.reward, ref.passed, ref.components)


@pytest.mark.parametrize("name", ONE_PER_TOOL)
def test_hiding_the_findings_earns_no_more_than_leaving_them_in_plain_sight(catalog, name):
    """The module as handed out, hidden from the analyser each way it can be blinded (hiding.py),
    earns at most the tests' weight, and never more than the same module unhidden; the reference
    run where the analyser cannot see it earns the tests' weight, not 1."""
    label = {"env": f"terminal/{name}-v1", "seed": 5}
    task = catalog.task(label)
    variants = catalog.get(label["env"]).env.wrong_answers(task)
    unchanged = next(v for v in variants if v.kind == "unchanged").response
    plain = catalog.verify(label, unchanged, task=task).reward
    # the shell variants split unquoted expansions at newlines first: their plain sight is the module so
    plain_split = (catalog.verify(label, unchanged.replace("#!/bin/bash\n", "#!/bin/bash\nIFS=$'\\n'\n", 1), task=task).reward
                   if "#!/bin/bash" in unchanged else plain)
    hidden = [v for v in variants if v.kind.startswith(("hidden:", "unseen:"))]
    assert any(v.kind.startswith("hidden:") for v in hidden) and any(v.kind.startswith("unseen:") for v in hidden)
    assert len({v.kind for v in hidden}) >= 4  # the whole-module ways and at least one at the fix's lines
    for v in hidden:
        got = catalog.verify(label, v.response, task=task)
        assert got.error is None and got.reward <= TESTS_WEIGHT + 1e-9, (v.kind, got.reward, got.details)
        if v.kind.startswith("hidden:"):
            assert got.reward <= max(plain, plain_split if "IFS=$'\\n'" in v.response else plain) + 1e-9, (v.kind, got.reward, plain)
        else:  # the reference's behaviour, unseen: the tests' share only
            assert got.reward == pytest.approx(TESTS_WEIGHT), (v.kind, got.details)


@pytest.mark.parametrize("name", ["static-ruff-unused", "static-bandit-eval", "static-mypy-annotate-text"])
def test_a_clean_trailing_block_does_not_earn_the_analysers_share_for_the_unfixed_module(catalog, name):
    """The analysers read the last block, so the tests grade that same block (unit_tests'
    answer_block: last): the module as handed out, then a clean "Example usage:" block, earned 1.0
    when the tests graded the block defining the entry point and the analyser the clean one."""
    label = {"env": f"terminal/{name}-v1", "seed": 0}
    task = catalog.task(label)
    from hub.core.response import read

    prompt = task.prompt if isinstance(task.prompt, str) else task.prompt[-1]["content"]
    handed_out = f"```python\n{read(prompt).code('python')}```\n"
    module = catalog.verify(label, handed_out, task=task)
    hack = catalog.verify(label, handed_out + "\nExample usage:\n\n```python\nresult = 1\n```\n", task=task)
    assert module.error is None and module.reward < 1.0
    assert hack.error is None and not hack.passed and hack.reward <= module.reward, hack.components
    assert catalog.get(label["env"]).verifier.right_forms(task) == []  # no form the parts would read apart
