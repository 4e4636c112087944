"""Analysers in a rubric: those that read the same files share one sandbox session (the code is
written once), different files get their own, and analysers gated on a failed component never
start one."""

from __future__ import annotations

import pytest

LABEL = '{"env": "arith/add-v1", "seed": 1}'
ANSWER = ("```python\nimport subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n```\n"
          "```bash\necho $1\n```\n")


@pytest.fixture
def sessions(sandbox, monkeypatch):
    """The profiles of the sessions the real sandbox opens while a test runs."""
    opened = []
    real = sandbox.session

    def counting(profile):
        opened.append(profile.name)
        return real(profile)

    monkeypatch.setattr(sandbox, "session", counting)
    return opened


def rubric_catalog(rlhub_registry, parts: str):
    return rlhub_registry("environments:\n  - id: arith/add-v1\n    profile: static\n    rubric:\n" + parts)


def test_analysers_of_the_same_files_share_one_session(rlhub_registry, sessions):
    cat = rubric_catalog(rlhub_registry, "      - {verifier: ruff, config: {select: [F, ANN]}}\n      - {verifier: mypy}\n"
                                         "      - {verifier: bandit}\n      - {verifier: shellcheck}\n")
    v = cat.verify(LABEL, ANSWER)
    assert v.error is None, v.error
    parts = v.details["parts"]
    assert {n: p["details"]["findings_total"] > 0 for n, p in parts.items()} == {
        "ruff": True, "mypy": True, "bandit": True, "shellcheck": True}
    assert sorted(sessions) == ["static", "static"]  # solution.py once for three analysers, solution.sh once
    assert v.reward == pytest.approx(sum(v.components.values()) / 4)


def test_analysers_gated_on_a_failed_component_start_no_session(rlhub_registry, sessions):
    cat = rubric_catalog(rlhub_registry, "      - {verifier: exact_match, weight: 0.6}\n"
                                         "      - {verifier: ruff, weight: 0.2, gate: exact_match}\n"
                                         "      - {verifier: bandit, weight: 0.2, gate: exact_match}\n")
    v = cat.verify(LABEL, ANSWER)
    assert v.error is None and v.reward == 0.0 and sessions == []
    assert v.details["parts"]["bandit"]["skipped"] == "gate 'exact_match' did not pass"


def test_a_components_profile_applies_to_its_session(rlhub_registry, sessions):
    cat = rlhub_registry("profiles:\n  lint: {extends: static, wall_timeout_s: 7}\nenvironments:\n  - id: arith/add-v1\n"
                         "    rubric:\n      - {verifier: ruff, profile: lint}\n      - {verifier: bandit}\n")
    v = cat.verify(LABEL, ANSWER)
    assert v.error is None and sorted(sessions) == ["default", "lint"]  # bandit: the environment's profile
