"""The mixture sampler: labels drawn by the registry's weights, deterministic and resumable.

p(env) ~ weight ** (1 / temperature), then per-domain caps are applied by water-filling (a
capped domain is pinned at its cap and the excess goes to the others in proportion).

Draws are counter-based: the i-th label is a pure function of (seed, i), computed with a
vectorised splitmix64 hash. So the stream does not depend on how it is cut into batches, and
the whole state to save with a checkpoint is `{"seed", "drawn"}`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Iterable

import numpy as np

from ..core.errors import UserError
from ..core.task import Label

_UNBOUNDED = 2**31 - 1  # seeds for generated environments are drawn from [0, 2**31 - 1)
_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser over a uint64 array (wrapping arithmetic is intended)."""
    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _uniform(seed: int, start: int, n: int, stream: int) -> np.ndarray:
    """n floats in [0, 1) for positions start..start+n of one stream of one seed."""
    pos = np.arange(start, start + n, dtype=np.uint64)
    key = _splitmix64(np.array([seed * 2 + stream], dtype=np.uint64) & _M64)
    return (_splitmix64(pos ^ key) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def mixture(weights: dict[str, float], domains: dict[str, str], temperature: float = 1.0,
            domain_caps: dict[str, float] | None = None) -> dict[str, float]:
    """Normalised probabilities per environment after temperature and domain caps."""
    tempered = {k: (w ** (1.0 / temperature) if w > 0 else 0.0) for k, w in weights.items()}
    total = sum(tempered.values())
    if total <= 0:
        raise UserError("every environment has weight 0: nothing to sample")
    probs = {k: v / total for k, v in tempered.items()}
    caps = {d: c for d, c in (domain_caps or {}).items() if d in set(domains.values())}
    pinned: dict[str, float] = {}
    while True:
        share: dict[str, float] = defaultdict(float)
        for k, p in probs.items():
            share[domains[k]] += p
        over = {d: c for d, c in caps.items() if d not in pinned and share[d] > c + 1e-12}
        if not over:
            break
        pinned.update(over)
        free = [k for k in probs if domains[k] not in pinned]
        free_mass = sum(probs[k] for k in free)
        left = 1.0 - sum(pinned.values())
        if free_mass <= 0 or left < 0:
            raise UserError(f"domain caps {caps} cannot be met: the capped domains cannot absorb all the weight")
        for d, cap in pinned.items():
            members = [k for k in probs if domains[k] == d]
            mass = sum(probs[k] for k in members)
            for k in members:
                probs[k] = probs[k] / mass * cap if mass > 0 else 0.0
        for k in free:
            probs[k] = probs[k] / free_mass * left
    return probs


class MixtureSampler:
    def __init__(self, envs: Iterable[Any], seed: int = 0, temperature: float = 1.0,
                 domain_caps: dict[str, float] | None = None) -> None:
        """`envs`: objects with `id`, `domain`, `weight`, `num_tasks` and `label(i)` (the catalog's ResolvedEnv)."""
        envs = [e for e in envs if e.weight > 0]
        if not envs:
            raise UserError("no environment with a positive weight to sample from")
        self.ids = [e.id for e in envs]
        probs = mixture({e.id: e.weight for e in envs}, {e.id: e.domain for e in envs}, temperature, domain_caps)
        self.probs = np.array([probs[i] for i in self.ids])
        self.highs = np.array([e.num_tasks or _UNBOUNDED for e in envs], dtype=np.int64)
        keys = ["row" if e.label(0).row is not None else "seed" for e in envs]
        self._prefix = [Label.json_prefix(i, k) for i, k in zip(self.ids, keys)]
        self._cum = np.cumsum(self.probs)
        self._cum[-1] = 1.0  # guard against rounding: every u < 1 lands somewhere
        if seed < 0:
            raise UserError(f"seed must be non-negative, got {seed}")
        self.seed = seed
        self.drawn = 0

    def sample(self, n: int) -> list[str]:
        """The next n labels, as JSON strings."""
        which = np.searchsorted(self._cum, _uniform(self.seed, self.drawn, n, 0), side="right")
        index = (_uniform(self.seed, self.drawn, n, 1) * self.highs[which]).astype(np.int64)
        self.drawn += n
        prefix = self._prefix
        return [f"{prefix[w]}{i}}}" for w, i in zip(which.tolist(), index.tolist())]

    def state(self) -> dict[str, Any]:
        return {"seed": self.seed, "drawn": self.drawn, "ids": self.ids}

    def restore(self, state: dict[str, Any]) -> "MixtureSampler":
        if state.get("ids") != self.ids:
            raise UserError("sampler state was saved for a different set of environments; cannot resume")
        self.seed, self.drawn = int(state["seed"]), int(state["drawn"])
        return self

    def dumps_state(self) -> str:
        return json.dumps(self.state())
