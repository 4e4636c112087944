from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from hub import load
from hub.core.errors import UserError
from hub.mixture.sampler import MixtureSampler, mixture

REPO_REGISTRY = Path(__file__).resolve().parents[2] / "registry.yaml"


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


def _env(name: str, weight: float, num_tasks: int | None):
    key = "row" if num_tasks is not None else "seed"
    return SimpleNamespace(id=f"d/{name}-v1", domain="d", weight=weight, num_tasks=num_tasks,
                           label=lambda i, key=key: SimpleNamespace(row=i if key == "row" else None))


def _indices(labels: list[str], env: str) -> list[int]:
    import json

    return [next(v for k, v in json.loads(l).items() if k != "env") for l in labels if json.loads(l)["env"] == env]


def test_finite_environments_repeat_no_task_before_every_task_was_drawn():
    envs = [_env("small", 5.0, 12), _env("tiny", 1.0, 3), _env("open", 1.0, None)]
    labels = MixtureSampler(envs, seed=4).sample(600)
    for name, size in (("small", 12), ("tiny", 3)):
        rows = _indices(labels, f"d/{name}-v1")
        assert len(rows) > 5 * size
        epochs = [rows[i:i + size] for i in range(0, len(rows) - size + 1, size)]
        assert all(sorted(e) == list(range(size)) for e in epochs)  # each epoch: every task once
        assert len({tuple(e) for e in epochs}) > 1  # and a new order per epoch
    assert len(set(_indices(labels, "d/open-v1"))) == len(_indices(labels, "d/open-v1"))


def test_without_replacement_is_counter_based_and_resumable():
    envs = [_env("small", 2.0, 7), _env("open", 1.0, None)]
    whole = MixtureSampler(envs, seed=9).sample(300)
    a = MixtureSampler(envs, seed=9)
    assert a.sample(1) + a.sample(130) + a.sample(169) == whole  # however the stream is cut
    b = MixtureSampler(envs, seed=9)
    b.sample(131)
    state = b.state()
    assert set(state) == {"seed", "drawn", "ids"}  # the state stays small: counts are recomputed
    assert MixtureSampler(envs, seed=0).restore(state).sample(169) == whole[131:]
    assert MixtureSampler(envs, seed=10).sample(300) != whole
    # an environment's order depends on (seed, its id), not on the other environments present
    alone = MixtureSampler([_env("small", 1.0, 7)], seed=9).sample(7)
    assert _indices(alone, "d/small-v1") == _indices(whole, "d/small-v1")[:7]


def test_the_default_registry_keeps_its_example_datasets_small_and_unrepeated():
    cat = load(REPO_REGISTRY)
    labels = MixtureSampler(cat.select(None), seed=0).sample(2000)
    for env, size in (("unittest/humaneval-mini-v1", 12), ("unittest/mbpp-mini-v1", 10)):
        rows = _indices(labels, env)
        assert 0 < len(rows) < 0.02 * len(labels)
        assert len(set(rows[:size])) == len(rows[:size])


def test_a_state_that_is_not_an_object_is_a_clear_error():
    with pytest.raises(UserError, match="must be a JSON object"):
        MixtureSampler([_env("open", 1.0, None)], seed=1).restore([1, 2])
