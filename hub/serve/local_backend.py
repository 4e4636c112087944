"""Verification on this machine: a thread pool (the sandbox runs model output in its own processes).

A sample that overruns its request's deadline keeps its thread until the verifier returns (the
sandbox's wall-clock limit bounds that) but gives its worker slot back, so the pool has headroom
beyond the number of workers.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .. import tracing
from ..core.task import Label
from ..rewards import RewardPolicy
from .work import Outcome, WorkItem, verify_one


class LocalBackend:
    name = "local"

    def __init__(self, catalog: Any, workers: int, policy: RewardPolicy) -> None:
        self.catalog = catalog
        self.policy = policy
        self.pool = ThreadPoolExecutor(max_workers=2 * workers + 4, thread_name_prefix="rlhub-verify")

    async def start(self) -> None:
        return None

    def _verify(self, label: Label, response: str) -> Outcome:
        return verify_one(self.catalog, label, response, self.policy, worker=threading.current_thread().name)

    async def run(self, item: WorkItem) -> Outcome:
        # carry: the thread continues the worker's span (run_in_executor does not pass the context on)
        return await asyncio.get_running_loop().run_in_executor(self.pool, tracing.carry(self._verify), item.label,
                                                                item.response)

    def state(self) -> dict:
        return {"backend": self.name, "threads": self.pool._max_workers}

    async def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
