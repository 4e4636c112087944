"""The mixture sampler: labels drawn by the registry's weights, deterministic and resumable.

p(env) ~ weight ** (1 / temperature), then per-domain caps are applied by water-filling (a
capped domain is pinned at its cap and the excess goes to the others in proportion).

Draws are counter-based: the i-th environment is a pure function of (seed, i), computed with a
vectorised splitmix64 hash. An environment with unbounded seeds gets a seed hashed the same
way. An environment with a finite number of tasks (a dataset, or `limits.max_tasks`) is drawn
without replacement: its k-th draw is position k % N of a permutation of its N tasks, a fresh
one per epoch k // N, so no task repeats before every task of it was used. k is the number of
earlier draws that chose it, itself a function of (seed, i): the stream still does not depend
on how it is cut into batches, and the whole state to save with a checkpoint is
`{"seed", "drawn"}` (resuming recounts the draws per environment).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict, defaultdict
from typing import Any, Iterable

import numpy as np

from ..core.errors import UserError
from ..core.task import Label

_UNBOUNDED = 2**31 - 1  # seeds for generated environments are drawn from [0, 2**31 - 1)
_RECOUNT_CHUNK = 1 << 20  # draws recounted at a time when resuming
_PERMUTATIONS_KEPT = 8  # (environment, epoch) permutations cached
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
        self.finite = np.array([e.num_tasks is not None for e in envs])
        # a stable key per environment (never Python's hash): its permutations do not depend on
        # which other environments are in the mixture or in what order
        self._env_keys = [int.from_bytes(hashlib.sha256(i.encode()).digest()[:8], "little") for i in self.ids]
        self._permutations: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()
        keys = ["row" if e.label(0).row is not None else "seed" for e in envs]
        self._prefix = [Label.json_prefix(i, k) for i, k in zip(self.ids, keys)]
        self._cum = np.cumsum(self.probs)
        self._cum[-1] = 1.0  # guard against rounding: every u < 1 lands somewhere
        if seed < 0:
            raise UserError(f"seed must be non-negative, got {seed}")
        self.seed = seed
        self.drawn = 0
        self.counts = np.zeros(len(envs), dtype=np.int64)  # draws so far that chose each environment

    def _which(self, start: int, n: int) -> np.ndarray:
        """The environments of draws start..start+n."""
        return np.searchsorted(self._cum, _uniform(self.seed, start, n, 0), side="right")

    def sample(self, n: int) -> list[str]:
        """The next n labels, as JSON strings."""
        which = self._which(self.drawn, n)
        index = (_uniform(self.seed, self.drawn, n, 1) * self.highs[which]).astype(np.int64)
        for w in np.unique(which[self.finite[which]]).tolist():
            at = np.flatnonzero(which == w)
            index[at] = self._without_replacement(w, self.counts[w] + np.arange(len(at), dtype=np.int64))
            self.counts[w] += len(at)
        self.drawn += n
        prefix = self._prefix
        return [f"{prefix[w]}{i}}}" for w, i in zip(which.tolist(), index.tolist())]

    def _without_replacement(self, w: int, k: np.ndarray) -> np.ndarray:
        """The task index of environment w's k-th draws: epoch k // N, position k % N."""
        size = int(self.highs[w])
        epochs = k // size
        out = np.empty_like(k)
        for epoch in np.unique(epochs).tolist():
            mask = epochs == epoch
            out[mask] = self._permutation(w, epoch)[k[mask] % size]
        return out

    def _permutation(self, w: int, epoch: int) -> np.ndarray:
        """Environment w's task order in one epoch, from (seed, environment, epoch) alone."""
        key = (w, epoch)
        if key not in self._permutations:
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, self._env_keys[w], epoch])))
            self._permutations[key] = rng.permutation(int(self.highs[w]))
            while len(self._permutations) > _PERMUTATIONS_KEPT:
                self._permutations.popitem(last=False)
        return self._permutations[key]

    def state(self) -> dict[str, Any]:
        return {"seed": self.seed, "drawn": self.drawn, "ids": self.ids}

    def restore(self, state: dict[str, Any]) -> "MixtureSampler":
        if not isinstance(state, dict):
            raise UserError(f"sampler state must be a JSON object with 'seed', 'drawn' and 'ids', got {type(state).__name__}")
        if state.get("ids") != self.ids:
            raise UserError("sampler state was saved for a different set of environments; cannot resume")
        try:
            seed, drawn = int(state["seed"]), int(state["drawn"])
        except (KeyError, TypeError, ValueError):
            raise UserError("sampler state lacks a whole 'seed' and 'drawn'; was it written by --state-out?") from None
        if seed < 0 or drawn < 0:
            raise UserError(f"sampler state has a negative seed or count ({seed}, {drawn})")
        self.seed, self.drawn = seed, drawn
        self.counts[:] = 0
        self._permutations.clear()
        if self.finite.any():  # recount each environment's draws so far: the state stays two numbers
            for start in range(0, drawn, _RECOUNT_CHUNK):
                which = self._which(start, min(_RECOUNT_CHUNK, drawn - start))
                self.counts += np.bincount(which, minlength=len(self.ids))
        return self

    def dumps_state(self) -> str:
        return json.dumps(self.state())
