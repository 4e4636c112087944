"""A real Ray cluster of several nodes on this machine (ray.cluster_utils.Cluster), for tests of
the Ray paths (`rlhub serve --backend ray`, `rlhub check --ray`)."""

from __future__ import annotations

import contextlib
from typing import Iterator

NODE = {"num_cpus": 1, "object_store_memory": 80 * 2**20}


@contextlib.contextmanager
def local_cluster(workers: int = 1, connect: bool = True, node_env: list[dict[str, str]] | None = None) -> Iterator[tuple]:
    """A head node and `workers` worker nodes of one CPU each; yields (cluster, [worker nodes])
    once every worker node really takes work (a node registers before it can run actors). With
    `connect` this process is the cluster's driver (`ray.init`) while the block runs. `node_env`:
    environment variables per node, head first (its raylet and so every worker process on it
    sees them): a node's own disk (caches, HOME) as another machine would have it."""
    import ray
    from ray.cluster_utils import Cluster
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    env = list(node_env or []) + [{}] * (workers + 1)

    def args(i: int) -> dict:
        return {**NODE, "env_vars": env[i]} if env[i] else dict(NODE)

    cluster = Cluster(initialize_head=True, head_node_args={**args(0), "include_dashboard": False})
    try:
        nodes = [cluster.add_node(**args(i + 1)) for i in range(workers)]
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, include_dashboard=False)
        try:
            probe = ray.remote(num_cpus=0)(lambda: ray.get_runtime_context().get_node_id())
            for node in nodes:
                node_id = next(n["NodeID"] for n in ray.nodes()
                               if n["Alive"] and n["NodeManagerPort"] == node.node_manager_port)
                placed = probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False))
                assert ray.get(placed.remote(), timeout=120) == node_id
        finally:
            if not connect:
                ray.shutdown()
        yield cluster, nodes
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.shutdown()
