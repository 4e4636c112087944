from collections import Counter
from types import SimpleNamespace

import pytest

from hub import load
from hub.core.errors import UserError
from hub.mixture.sampler import MixtureSampler, mixture


def test_same_seed_same_labels_and_resume_continues_the_stream():
    envs = load().select(None)
    a = MixtureSampler(envs, seed=7)
    first, second = a.sample(50), a.sample(50)
    b = MixtureSampler(envs, seed=7)
    assert b.sample(100) == first + second
    c = MixtureSampler(envs, seed=7)
    c.sample(50)
    resumed = MixtureSampler(envs, seed=0).restore(c.state())
    assert resumed.sample(50) == second
    assert MixtureSampler(envs, seed=8).sample(100) != first + second


def test_frequencies_follow_weights():
    envs = [SimpleNamespace(id=f"d/e{i}-v1", domain="d", weight=w, num_tasks=None,
                            label=lambda i: SimpleNamespace(row=None))
            for i, w in enumerate([1, 3])]
    counts = Counter(l.split('"')[3] for l in MixtureSampler(envs, seed=1).sample(40_000))
    assert counts["d/e1-v1"] / 40_000 == pytest.approx(0.75, abs=0.01)


def test_temperature_and_domain_caps():
    w = {"a/x-v1": 8.0, "b/y-v1": 1.0, "c/z-v1": 1.0}
    d = {"a/x-v1": "a", "b/y-v1": "b", "c/z-v1": "c"}
    assert mixture(w, d)["a/x-v1"] == pytest.approx(0.8)
    flat = mixture(w, d, temperature=1e6)
    assert flat["a/x-v1"] == pytest.approx(1 / 3, abs=1e-3)
    capped = mixture(w, d, domain_caps={"a": 0.5})
    assert capped["a/x-v1"] == pytest.approx(0.5)
    assert capped["b/y-v1"] == pytest.approx(0.25) and capped["c/z-v1"] == pytest.approx(0.25)
    assert sum(capped.values()) == pytest.approx(1.0)
    with pytest.raises(UserError, match="cannot be met"):
        mixture(w, d, domain_caps={"a": 0.2, "b": 0.2, "c": 0.2})


def test_resume_refuses_a_different_environment_set():
    envs = load().select(None)
    state = MixtureSampler(envs, seed=1).state()
    with pytest.raises(UserError, match="different set"):
        MixtureSampler(envs[:2], seed=1).restore(state)
