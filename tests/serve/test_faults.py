"""Faults: a sandbox worker killed mid-task, a client that disconnects, concurrent load, shutdown."""

from __future__ import annotations

import io
import json
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from hub.serve import logs

from .helpers import batch, metric, post, queue_state, wait_for

MEDIUM, SLOW, FAST = "synthetic/medium-v1", "synthetic/slow-v1", "synthetic/fast-v1"


def _killer(pid_dir: Path, kills: int, stop: threading.Event) -> threading.Thread:
    """Kill the first `kills` verification processes that appear in pid_dir (SIGKILL)."""
    def run():
        done = 0
        seen = set()
        while done < kills and not stop.is_set():
            for f in pid_dir.iterdir():
                if f.name not in seen:
                    seen.add(f.name)
                    try:
                        os.kill(int(f.name), signal.SIGKILL)
                        done += 1
                    except (ProcessLookupError, ValueError):
                        pass
            stop.wait(0.01)
    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


@pytest.mark.parametrize("kills, expect_kind", [(1, "retried"), (2, "no_verdict")])
def test_sandbox_worker_killed_mid_task(serve, tmp_path, kills, expect_kind):
    pids = tmp_path / "pids"
    pids.mkdir()
    server = serve({MEDIUM: {"seconds": 1.0, "mode": "process", "pid_dir": str(pids)}}, workers=1, retries=1)
    stop = threading.Event()
    killer = _killer(pids, kills, stop)
    r = post(server, batch(server, [(MEDIUM, 0), (FAST, 0)]))
    stop.set()
    killer.join(5)
    out = r.json()
    assert r.status_code == 200
    if expect_kind == "retried":   # killed once: run again, the answer is the real verdict
        assert out["rewards"] == [1.0, 1.0]
        assert out["extra_logs"]["rlhub/retried"] == [1.0, 0.0]
        assert out["extra_logs"]["rlhub/no_verdict"] == [0.0, 0.0]
    else:                          # killed on every attempt: a defined no-verdict, flagged, never a crash
        assert out["rewards"] == [0.0, 1.0]
        assert out["extra_logs"]["rlhub/no_verdict"] == [1.0, 0.0]
        assert "killed by SIGKILL" in out["errors"][0]
    assert metric(server, "rlhub_serve_sandbox_failures_total", env=MEDIUM) == kills
    assert queue_state(server)["requests"]["lost"] == 0


def test_client_that_disconnects_gets_its_queued_work_withdrawn(serve):
    server = serve({SLOW: {"seconds": 0.5}}, workers=1)
    with pytest.raises(requests.exceptions.ReadTimeout):
        post(server, batch(server, [(SLOW, i) for i in range(6)]), timeout=0.3)
    state = wait_for(lambda: (s := queue_state(server))["requests"]["disconnected"] == 1 and s)
    assert state["queue"]["queued"] == 0                      # the 5 still waiting were withdrawn
    assert state["requests"]["lost"] == 0 and state["requests"]["answered"] == 0
    ok = post(server, batch(server, [(FAST, 0)]))             # and the service goes on
    assert ok.json()["rewards"] == [1.0]
    verified = metric(server, "rlhub_serve_verify_seconds_count", env=SLOW)
    assert verified <= 1, verified
    assert metric(server, "rlhub_serve_requests_total", outcome="disconnected") == 1


def test_concurrent_requests_each_answered_exactly_once(serve):
    server = serve({MEDIUM: {"seconds": 0.05}}, workers=4)
    envs = ["arith/add-v1", "arith/mul-v1", MEDIUM, FAST]

    def one(k: int):
        pairs = [(envs[(k + i) % 4], k * 10 + i) for i in range(8)]
        correct = k % 2 == 0
        r = post(server, batch(server, pairs, correct=correct), headers={"X-Request-Id": f"req-{k}"})
        return k, correct, r

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(one, range(40)))
    ids = set()
    for k, correct, r in results:
        out = r.json()
        assert r.status_code == 200 and out["request_id"] == f"req-{k}"
        assert out["rewards"] == [1.0 if correct else 0.0] * 8
        ids.add(out["request_id"])
    assert len(ids) == 40
    req = queue_state(server)["requests"]
    assert req["accepted"] == req["answered"] == 40 and req["lost"] == 0 and req["late_results"] == 0
    assert metric(server, "rlhub_serve_samples_total") == 320


def test_shutdown_answers_accepted_requests(serve):
    server = serve({SLOW: {"seconds": 0.5}}, workers=1)
    results = {}
    th = threading.Thread(target=lambda: results.setdefault("r", post(server, batch(server, [(SLOW, 0), (SLOW, 1)]))))
    th.start()
    wait_for(lambda: queue_state(server)["queue"]["running"] == 1)
    service = server.service
    server.stop()
    th.join(10)
    assert results["r"].status_code == 200 and results["r"].json()["rewards"] == [1.0, 1.0]
    assert service.counts["answered"] == service.counts["accepted"] == 1


def test_logs_follow_one_request_by_its_id(serve):
    stream = io.StringIO()
    logs.setup("debug", stream)
    try:
        server = serve(workers=2)
        post(server, batch(server, [("arith/add-v1", 1), ("arith/mul-v1", 2)]), headers={"X-Request-Id": "trace-me-42"})
        traced = post(server, batch(server, [("arith/add-v1", 3)]),
                      headers={"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
        garbage = post(server, batch(server, [("arith/add-v1", 4)]), headers={"X-Request-Id": "bad id <script>" + "x" * 300})
    finally:
        logs.setup("info")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    mine = [line for line in lines if line.get("request_id") == "trace-me-42"]
    events = [line["event"] for line in mine]
    assert events[0] == "request.accepted" and events[-1] == "request.answered"
    assert events.count("sample.done") == 2
    assert all(line["ts"] and line["level"] for line in mine)
    assert traced.json()["request_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert len(garbage.json()["request_id"]) == 32 and " " not in garbage.json()["request_id"]


def test_health_and_metrics(serve):
    server = serve(workers=3, queue_limit=50)
    post(server, batch(server, [("arith/add-v1", 1), ("arith/add-v1", 2)]))
    health = requests.get(server.url + "/health", timeout=5)
    assert health.status_code == 200
    h = health.json()
    assert h["status"] == "ok" and h["queue"]["workers"] == 3 and h["queue"]["capacity"] == 50
    assert metric(server, "rlhub_serve_requests_total", outcome="answered") == 1
    assert metric(server, "rlhub_serve_verify_seconds_count", env="arith/add-v1", verifier="exact_match") == 2
    assert metric(server, "rlhub_serve_queue_wait_seconds_count", env="arith/add-v1") == 2
    assert metric(server, "rlhub_serve_queue_capacity") == 50
    assert metric(server, "rlhub_serve_queue_depth") == 0
    text = requests.get(server.url + "/metrics", timeout=5).text
    for name in ("rlhub_serve_sandbox_failures_total", "rlhub_serve_timeouts_total", "rlhub_serve_request_seconds_bucket"):
        assert f"# TYPE {name.rsplit('_total', 1)[0].rsplit('_bucket', 1)[0]}" in text, name
