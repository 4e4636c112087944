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

    for key in ("RLHUB_REGISTRY", "RLHUB_TURN_FORMAT", "RLHUB_STEP_TIMEOUT_S", "RLHUB_REWARD_DEADLINE_S", "RLHUB_AGENT_WORKERS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("RLHUB_REGISTRY", str(REPO / "registry.yaml"))
    openrlhf_reward._state.clear()
    _fresh_agent_pool()
    yield
    openrlhf_reward._state.clear()
    _fresh_agent_pool()


def _fresh_agent_pool():
    """The agent's threads and slots are sized from the environment when first used."""
    from hub.trainers.openrlhf import agent

    pool, agent._pool = agent._pool, None
    agent._slots.clear()
    if pool is not None:
        pool.shutdown(wait=False)
