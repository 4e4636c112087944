"""Verification on a Ray cluster: actors per verifier kind, spread over the nodes.

For each verifier kind (exact_match, unit_tests, mesh_iou, ...) every alive node gets
`ray_actors_per_node` actors, each a threaded actor verifying `ray_actor_concurrency` samples at
once with its own catalog and its own process-wide warm sandbox pool (so each node keeps its
pool warm). The service's scheduler stays the single queue; this backend only routes a sample
to the least busy actor of its kind.

A lost actor or node (process killed, node gone) fails the call with a Ray error, reported as
`WorkerLost`: the service runs the sample again, avoiding that actor, while Ray restarts the
actor (`max_restarts=-1`) if its node is still there. Actors are pinned to their node (a soft
affinity let Ray put them all on one node), so an actor whose node is gone stays dead and is
routed around: actors that failed are chosen last.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from typing import Any

from .. import tracing
from . import logs
from ..core.task import Label
from ..rewards import RewardPolicy
from .config import ServeConfig
from .work import Outcome, WorkerLost, WorkItem, load_catalog, verify_one


class VerifierWorker:
    """The body of one Ray actor (wrapped with `ray.remote` by the backend)."""

    def __init__(self, registry: str | None, plugins: list[str], kind: str, log_level: str, policy: RewardPolicy) -> None:
        import ray

        logs.setup(log_level)
        tracing.setup("rlhub-ray-worker")  # the service passes its OTEL_* settings on (runtime_env)
        self.policy = policy
        self.catalog = load_catalog(registry, plugins)
        self.kind = kind
        self.node = ray.get_runtime_context().get_node_id()
        self.name = f"{kind}@{self.node[:8]}:{os.getpid()}"

    def where(self) -> dict:
        return {"node": self.node, "pid": os.getpid(), "kind": self.kind}

    def verify(self, label: Label, response: str, request_id: str, trace: dict | None = None) -> dict:
        """`trace`: the caller's W3C context (hub.tracing.inject), continued here."""
        with tracing.attached(tracing.extract(trace)):
            outcome = verify_one(self.catalog, label, response, self.policy, worker=self.name,
                                 attributes={"rlhub.ray.node": self.node, "rlhub.ray.pid": os.getpid()})
            logs.event("sample.verified", logging.DEBUG, request_id=request_id, kind=outcome.kind, worker=self.name,
                       verify_s=round(outcome.verify_s, 4))
        return {**outcome.to_dict(), "node": self.node}

    def flush(self) -> bool:
        """Export the spans still batched (before the actor is killed)."""
        return tracing.flush()


def connect(address: str | None, log_to_driver: bool = True) -> bool:
    """Join the Ray cluster at `address` (or start a local one) unless this process already has;
    True if this call did (and so should `ray.shutdown()` at the end)."""
    import ray

    if ray.is_initialized():
        return False
    ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING, configure_logging=False,
             log_to_driver=log_to_driver)
    return True


def alive_nodes() -> list[dict]:
    """The cluster's live nodes, as `ray.nodes()` describes them (NodeID, Resources, ...)."""
    import ray

    return [n for n in ray.nodes() if n["Alive"]]


def pinned(remote_cls: Any, node: str, **options: Any) -> Any:
    """`remote_cls` to be started on `node` and nowhere else (a soft affinity lets Ray put every
    actor on one node); `options` as `ray.remote(...).options` takes them."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return remote_cls.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False), **options)


class _Actor:
    def __init__(self, handle: Any, kind: str, node: str) -> None:
        self.handle, self.kind, self.node = handle, kind, node
        self.in_flight = 0
        self.lost = 0


class RayBackend:
    name = "ray"

    def __init__(self, config: ServeConfig, catalog: Any) -> None:
        self.config = config
        self.kinds = sorted({env.identity.name for env in catalog.envs.values()})
        self.pools: dict[str, list[_Actor]] = {}
        self.completed_by_node: Counter[str] = Counter()
        self._started_ray = False

    async def start(self) -> None:
        import ray

        self._started_ray = connect(self.config.ray_address)
        nodes = [n["NodeID"] for n in alive_nodes()]
        remote_cls = ray.remote(VerifierWorker)
        extra = {"runtime_env": {"env_vars": tracing.otel_env()}} if tracing.exporting() else {}
        for kind in self.kinds:
            pool = self.pools[kind] = []
            for node in nodes:
                for _ in range(self.config.ray_actors_per_node):
                    handle = pinned(
                        remote_cls, node, num_cpus=self.config.ray_actor_cpus,
                        max_concurrency=self.config.ray_actor_concurrency, max_restarts=-1, max_task_retries=0,
                        **extra,
                    ).remote(self.config.registry, self.config.plugins, kind, self.config.log_level, self.config.policy())
                    pool.append(_Actor(handle, kind, node))
        everyone = [a for pool in self.pools.values() for a in pool]
        placed = await asyncio.wait_for(asyncio.gather(*[a.handle.where.remote() for a in everyone]), timeout=300)
        for actor, where in zip(everyone, placed):
            actor.node = where["node"]
        logs.event("ray.ready", nodes=len(nodes), actors=len(everyone), kinds=self.kinds)

    def _pick(self, item: WorkItem) -> _Actor:
        pool = self.pools.get(item.verifier)
        if not pool:
            raise WorkerLost(f"no Ray actor serves verifier {item.verifier!r}")
        avoid = item.extra.setdefault("avoid", set())
        candidates = [a for a in pool if id(a) not in avoid] or pool
        return min(candidates, key=lambda a: (a.lost, a.in_flight))  # an actor that failed is the last resort

    async def run(self, item: WorkItem) -> Outcome:
        from ray.exceptions import RayError, RayTaskError

        actor = self._pick(item)
        actor.in_flight += 1
        try:
            result = await actor.handle.verify.remote(item.label, item.response, item.request_id, tracing.inject())
        except RayTaskError as exc:  # verify_one does not raise: this is a bug, reported as no verdict
            return Outcome.failed("no_verdict", f"internal error in Ray actor: {exc}", self.config.policy())
        except RayError as exc:  # actor died, node lost, worker crashed, object lost...
            actor.lost += 1
            item.extra["avoid"].add(id(actor))
            logs.event("ray.worker_lost", logging.WARNING, request_id=item.request_id, node=actor.node[:8],
                       kind=actor.kind, error=f"{type(exc).__name__}: {str(exc)[:300]}")
            raise WorkerLost(f"{type(exc).__name__} on node {actor.node[:8]}") from None
        finally:
            actor.in_flight -= 1
        self.completed_by_node[result.pop("node", "?")] += 1
        return Outcome.from_dict(result)

    def state(self) -> dict:
        return {"backend": self.name, "kinds": self.kinds,
                "actors": {k: [{"node": a.node[:8], "in_flight": a.in_flight, "lost": a.lost} for a in pool]
                           for k, pool in self.pools.items()},
                "completed_by_node": {k[:8]: v for k, v in self.completed_by_node.items()}}

    async def close(self) -> None:
        import ray

        if tracing.exporting():  # killing an actor drops the spans it has not exported yet
            flushes = [a.handle.flush.remote() for pool in self.pools.values() for a in pool]
            try:
                await asyncio.wait_for(asyncio.gather(*flushes, return_exceptions=True), timeout=15)
            except asyncio.TimeoutError:
                pass
        for pool in self.pools.values():
            for actor in pool:
                try:
                    ray.kill(actor.handle)
                except Exception:  # already gone with its node
                    pass
        self.pools.clear()
        if self._started_ray:
            ray.shutdown()
