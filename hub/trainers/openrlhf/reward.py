"""The reward function OpenRLHF loads from `--reward.remote_url path.py`.

OpenRLHF imports the file once per vLLM actor and calls `reward_func(queries, prompts, labels)`
in a thread, once per sample. The registry comes from the RLHUB_REGISTRY environment variable
(the file `rlhub train` writes also pins it), so the same file serves any registry.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

from ...rewards import RewardPolicy, score_batch

REGISTRY_ENV = "RLHUB_REGISTRY"  # path of the registry.yaml a training run uses
DEADLINE_ENV = "RLHUB_REWARD_DEADLINE_S"  # seconds one reward call may take (OpenRLHF waits 180 s)
WORKERS_ENV = "RLHUB_REWARD_WORKERS"  # verification threads shared by all calls in this process

_lock = threading.Lock()
_state: dict[str, Any] = {}


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"environment variable {name}={raw!r}: expected a number of seconds") from None


def catalog():
    """The catalog of $RLHUB_REGISTRY (else the default registry), loaded once per process."""
    with _lock:
        if "catalog" not in _state:
            from ... import tracing
            from ...config.catalog import Catalog

            tracing.setup("rlhub-reward")  # exports only if OTEL_EXPORTER_OTLP_ENDPOINT is set
            _state["catalog"] = Catalog.load(os.environ.get(REGISTRY_ENV) or None)
        return _state["catalog"]


def policy() -> RewardPolicy:
    return RewardPolicy(deadline_s=env_float(DEADLINE_ENV, RewardPolicy.deadline_s),
                        max_workers=int(env_float(WORKERS_ENV, 16)))


def _pool(workers: int) -> ThreadPoolExecutor:
    # One pool per process: OpenRLHF calls reward_func from many threads at once, and a pool per
    # call would spawn threads per sample.
    with _lock:
        if "pool" not in _state:
            _state["pool"] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rlhub-verify")
        return _state["pool"]


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any]) -> dict[str, Any]:
    """OpenRLHF's contract: one reward per query, always numbers, always within the deadline."""
    pol = policy()
    return score_batch(catalog(), list(queries), list(prompts), list(labels), pol, pool=_pool(pol.max_workers))
