"""Scale-out on Ray: a real two-node cluster on loopback, started (once) by these tests."""

from __future__ import annotations

import time

import pytest
import requests

ray = pytest.importorskip("ray")

from hub.testing.raycluster import local_cluster  # noqa: E402

from .helpers import batch, metric, post, queue_state  # noqa: E402

MEDIUM, SLOW, FAST = "synthetic/medium-v1", "synthetic/slow-v1", "synthetic/fast-v1"


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(workers=1) as (c, [worker]):
        yield c, worker


@pytest.fixture(scope="module")
def ray_server(cluster, tmp_path_factory):
    from hub.serve.config import ServeConfig
    from hub.serve.server import BackgroundServer
    from hub.serve.work import load_catalog

    from .helpers import SYNTHETIC, write_registry

    reg = write_registry(tmp_path_factory.mktemp("ray") / "registry.yaml",
                         {MEDIUM: {"seconds": 0.05}, SLOW: {"seconds": 1.5}})
    config = ServeConfig.build(registry=str(reg), plugins=[SYNTHETIC], port=0, backend="ray",
                               ray_address=cluster[0].address, workers=6, ray_actor_concurrency=4, retries=2)
    server = BackgroundServer(config, catalog=load_catalog(str(reg), [SYNTHETIC])).start()
    yield server
    server.stop()


def test_work_is_spread_over_both_nodes(ray_server):
    state = requests.get(ray_server.url + "/health", timeout=5).json()["backend"]
    assert state["backend"] == "ray"
    assert {a["node"] for a in state["actors"]["synthetic_timed"]} == set(
        n["NodeID"][:8] for n in ray.nodes() if n["Alive"]) and len(state["actors"]["synthetic_timed"]) == 2
    pairs = [(MEDIUM, i) for i in range(24)] + [("arith/add-v1", i) for i in range(8)]
    r = post(ray_server, batch(ray_server, pairs))
    assert r.status_code == 200 and r.json()["rewards"] == [1.0] * 32
    wrong = post(ray_server, batch(ray_server, pairs[:4], correct=False))
    assert wrong.json()["rewards"] == [0.0] * 4
    done = queue_state(ray_server)["backend"]["completed_by_node"]
    assert len(done) == 2 and all(v >= 4 for v in done.values()), done


def test_ray_actors_continue_the_request_trace_on_both_nodes(cluster, tmp_path, monkeypatch):
    """Traces: each actor continues the request's trace (its context travels in the task's
    arguments) and exports from its own process to the same OTLP receiver. Before the node-loss
    test, which leaves one node."""
    pytest.importorskip("opentelemetry.sdk")
    from hub import tracing
    from hub.serve.config import ServeConfig
    from hub.serve.server import BackgroundServer
    from hub.serve.work import load_catalog
    from hub.testing.otlp import OTLPReceiver

    from .test_traces import PARENT, TRACE, TRACEPARENT, by_name

    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "50")  # here and, through runtime_env, in the actors
    reg = tmp_path / "registry.yaml"
    reg.write_text('version: 1\nenvironments:\n  - id: "arith/*"\n')  # one verifier kind: one actor per node
    config = ServeConfig.build(registry=str(reg), port=0, backend="ray", ray_address=cluster[0].address, workers=4,
                               ray_actors_per_node=1, ray_actor_concurrency=2)
    with OTLPReceiver() as rx:
        tracing.enable("rlhub-test", rx.endpoint)
        try:
            with BackgroundServer(config, catalog=load_catalog(str(reg))) as server:
                r = post(server, batch(server, [("arith/add-v1", i) for i in range(4)]),
                         headers={"traceparent": TRACEPARENT})
                assert r.status_code == 200 and r.json()["rewards"] == [1.0] * 4
            # stopping the server flushed the actors before killing them
            spans = rx.wait_for(lambda s: len(by_name(s, "rlhub.verify")) == 4 and len(by_name(s, "rlhub.sample")) == 4)
        finally:
            tracing.disable()
    [req] = by_name(spans, "POST /get_reward")
    assert (req.trace_id, req.parent_id) == (TRACE, PARENT)
    verifies = by_name(spans, "rlhub.verify")
    assert len(verifies) == 4 and {s.trace_id for s in verifies} == {TRACE}
    assert {s.service for s in verifies} == {"rlhub-ray-worker"}  # exported by the actors' own processes
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert {s.attributes["rlhub.ray.node"] for s in verifies} == nodes and len(nodes) == 2
    samples = {s.span_id: s for s in by_name(spans, "rlhub.sample")}
    for verify in verifies:
        assert samples[verify.parent_id].parent_id == req.span_id  # the service's sample span, across Ray
        assert verify.attributes["rlhub.reward"] == 1.0 and verify.attributes["rlhub.verifier"] == "exact_match"


def test_losing_a_node_mid_task_loses_no_request(ray_server, cluster):
    import threading

    c, worker = cluster
    results = {}
    pairs = [(SLOW, i) for i in range(4)]
    th = threading.Thread(target=lambda: results.setdefault("r", post(ray_server, batch(ray_server, pairs))))
    th.start()
    deadline = time.monotonic() + 30
    while queue_state(ray_server)["queue"]["running"] < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # the samples are now running, spread over both nodes
    c.remove_node(worker, allow_graceful=False)
    th.join(60)
    out = results["r"].json()
    assert results["r"].status_code == 200
    assert out["rewards"] == [1.0] * 4, out      # every sample got its real verdict, re-run elsewhere
    assert sum(out["extra_logs"]["rlhub/retried"]) >= 1
    assert metric(ray_server, "rlhub_serve_worker_lost_total") >= 1
    # the service keeps serving on what is left
    again = post(ray_server, batch(ray_server, [(FAST, 1), ("arith/mul-v1", 2)]))
    assert again.json()["rewards"] == [1.0, 1.0]
    req = queue_state(ray_server)["requests"]
    assert req["lost"] == 0 and req["accepted"] == req["answered"]
