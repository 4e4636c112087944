"""Fixtures for the trainer tests; the helpers they import by name are in openrlhf_harness.py."""

from __future__ import annotations

import pytest
from openrlhf_harness import REPO, chatml_tokenizer


@pytest.fixture
def tokenizer():
    return chatml_tokenizer()


@pytest.fixture(autouse=True)
def fresh_trainer_state(monkeypatch):
    """Each test gets its own catalog, thread pools and settings."""
    from hub.trainers.openrlhf import reward as openrlhf_reward

    for key in ("RLHUB_REGISTRY", "RLHUB_TURN_FORMAT", "RLHUB_STEP_TIMEOUT_S", "RLHUB_REWARD_DEADLINE_S"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("RLHUB_REGISTRY", str(REPO / "registry.yaml"))
    openrlhf_reward._state.clear()
    yield
    openrlhf_reward._state.clear()
