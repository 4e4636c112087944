"""The family catalogue: size and spread, seeded variation, hidden data kept hidden, and a
sample of families graded through the real `unit_tests` verifier (all of them: registry.yaml)."""

from __future__ import annotations

import textwrap
from collections import Counter

import pytest

import hub
from rlhub_terminal.envs import TerminalEnvironment, TerminalFamily
from rlhub_terminal.families import FAMILIES
from rlhub_terminal.plugin import SESSION_FAMILIES

DOMAINS = {"text", "logs", "formats", "algo", "dates", "numeric", "regex", "files", "cli", "bugfix", "complete",
           "shell", "sql", "static"}


def env(name: str) -> TerminalEnvironment:
    return TerminalEnvironment(f"terminal/{name}-v1", TerminalFamily(FAMILIES[name]), "single")


def test_at_least_100_families_over_every_sub_domain():
    assert len(FAMILIES) >= 100
    per_domain = Counter(f.domain for f in FAMILIES.values())
    assert set(per_domain) == DOMAINS
    assert min(per_domain.values()) >= 5, per_domain
    assert {f.language for f in FAMILIES.values()} == {"python", "bash", "sql"}
    assert set(SESSION_FAMILIES) <= set(FAMILIES)
    assert {FAMILIES[n].domain for n in SESSION_FAMILIES} == DOMAINS  # a session variant in every sub-domain


def test_registered_through_the_entry_point():
    from hub.plugins.manager import installed

    ids = set(installed().envs)
    assert {f"terminal/{n}-v1" for n in FAMILIES} <= ids
    assert {f"terminal/session-{n}-v1" for n in SESSION_FAMILIES} <= ids


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_seeded_generation(name):
    e = env(name)
    a, b, a2 = e.make_task(0), e.make_task(1), e.make_task(0)
    assert (a.prompt, a.hidden, a.reference) == (a2.prompt, a2.hidden, a2.reference)
    assert a.hidden["tests"] != b.hidden["tests"], "two seeds gave the same hidden tests"
    assert a.hidden["tests"] not in a.prompt and a.reference.strip() not in a.prompt
    assert a.reference.startswith("```") and a.hidden["solution_path"] in ("solution.py", "solution.sh", "query.sql")
    wrong = e.wrong_responses(a)
    assert wrong and all(w.strip() != a.reference.strip() for w in wrong)
    compile(a.hidden["tests"], "test_hidden.py", "exec")  # the hidden tests are valid Python


@pytest.fixture(scope="module")
def fraction_catalog(tmp_path_factory):
    path = tmp_path_factory.mktemp("reg") / "registry.yaml"
    path.write_text(textwrap.dedent("""\
        version: 1
        environments:
          - id: "terminal/*"
            verifier_config: {reward: fraction}
    """))
    return hub.load(path)


ONE_PER_DOMAIN = sorted({f.domain: n for n, f in sorted(FAMILIES.items())}.values())


def unit_test_details(verdict: hub.Verdict) -> dict:
    """The unit tests' details (a rubric's verdict keeps them under its `unit_tests` part)."""
    return verdict.details["parts"]["unit_tests"]["details"] if "parts" in verdict.details else verdict.details


@pytest.mark.parametrize("name", ONE_PER_DOMAIN)
def test_reference_passes_and_wrong_fails_in_the_sandbox(fraction_catalog, name):
    label = {"env": f"terminal/{name}-v1", "seed": 7}
    task = fraction_catalog.task(label)
    ref = fraction_catalog.verify(label, task.reference, task=task)
    assert ref.error is None and ref.passed and ref.reward == 1.0, ref.details
    for wrong in fraction_catalog.get(label["env"]).env.wrong_responses(task):
        v = fraction_catalog.verify(label, wrong, task=task)
        assert v.error is None and not v.passed and v.reward < 1.0, v.details
        assert unit_test_details(v)["tests_total"] == unit_test_details(ref)["tests_total"] >= 3


def test_fraction_reward_counts_cases(fraction_catalog):
    """The hidden tests are one test per case, so a partly right answer gets partial credit."""
    label = {"env": "terminal/greedy-wrap-v1", "seed": 0}
    task = fraction_catalog.task(label)
    v = fraction_catalog.verify(label, fraction_catalog.get(label["env"]).env.wrong_responses(task)[0], task=task)
    assert 0.0 < v.reward < 1.0, v.details
