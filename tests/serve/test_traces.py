"""Traces: what the OTLP exporter really sends, decoded by a receiver on a loopback port
(hub.testing.otlp, opentelemetry-proto's ExportTraceServiceRequest), across the real HTTP
service, the reward file's batch path and the sandbox."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
import requests

pytest.importorskip("opentelemetry.sdk")

from hub import tracing  # noqa: E402
from hub.serve import logs  # noqa: E402
from hub.testing.otlp import OTLPReceiver  # noqa: E402

from .helpers import batch, label, post  # noqa: E402

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE}-{PARENT}-01"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One service for these tests (queue_limit=2: a batch of three is refused whole)."""
    from hub.serve.config import ServeConfig
    from hub.serve.server import BackgroundServer
    from hub.serve.work import load_catalog

    from .helpers import SYNTHETIC, write_registry

    reg = write_registry(tmp_path_factory.mktemp("traces") / "registry.yaml")
    config = ServeConfig.build(registry=str(reg), plugins=[SYNTHETIC], port=0, queue_limit=2)
    with BackgroundServer(config, catalog=load_catalog(str(reg), [SYNTHETIC])) as srv:
        yield srv


@pytest.fixture
def receiver(monkeypatch):
    """Spans of this process exported to a receiver, batched for 50 ms; off again afterwards."""
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "50")
    with OTLPReceiver() as rx:
        tracing.enable("rlhub-test", rx.endpoint)
        try:
            yield rx
        finally:
            tracing.disable()
    assert not rx.errors, rx.errors


@pytest.fixture
def log_lines():
    """The service's JSON log lines, captured (debug level) while the test runs."""
    buf = io.StringIO()
    saved = logs.log.handlers[:], logs.log.level, logs.log.propagate
    logs.setup("debug", stream=buf)
    yield lambda: [json.loads(line) for line in buf.getvalue().splitlines()]
    logs.log.handlers[:], level, logs.log.propagate = saved
    logs.log.setLevel(level)


def by_name(spans, name):
    return [s for s in spans if s.name == name]


def children(spans, parent):
    return [s for s in spans if s.parent_id == parent.span_id and s.trace_id == parent.trace_id]


def test_one_trace_per_sample_across_the_service(server, receiver, log_lines):
    body = batch(server, [("arith/add-v1", 1), ("arith/mul-v1", 2)])
    body["query"].append("no answer")
    body["prompts"].append("")
    body["labels"].append('{"env": "nope/missing-v1", "seed": 1}')
    r = post(server, body, headers={"traceparent": TRACEPARENT})
    assert r.status_code == 200 and r.json()["rewards"] == [1.0, 1.0, 0.0]
    spans = receiver.wait_for(lambda s: len(by_name(s, "POST /get_reward")) == 1 and len(by_name(s, "rlhub.sample")) == 3)

    [req] = by_name(spans, "POST /get_reward")
    assert (req.trace_id, req.parent_id) == (TRACE, PARENT)  # the trainer's trace, continued
    assert req.kind == 2 and req.attributes["http.response.status_code"] == 200  # SERVER
    assert {s.trace_id for s in spans} == {TRACE}
    samples = sorted(children(spans, req), key=lambda s: s.attributes.get("rlhub.sample.index", -1))
    samples = [s for s in samples if s.name == "rlhub.sample"]
    assert [s.attributes["rlhub.sample.index"] for s in samples] == [0, 1, 2]
    for sample, env in zip(samples[:2], ("arith/add-v1", "arith/mul-v1")):
        assert sample.attributes["rlhub.env"] == env and sample.attributes["rlhub.reward"] == 1.0
        assert sample.attributes["rlhub.flags"] == [] and sample.attributes["rlhub.kind"] == "ok"
        queue, verify = sorted(children(spans, sample), key=lambda s: s.start_ns)
        assert (queue.name, verify.name) == ("rlhub.queue", "rlhub.verify") and verify.service == "rlhub-test"
        assert queue.end_ns <= verify.start_ns  # taken off the queue, then verified
        assert queue.attributes["rlhub.schedule.long"] is False and queue.attributes["rlhub.estimate_s"] > 0
        assert sample.attributes["rlhub.attempts"] == 1 and "rlhub.worker_lost" not in sample.attributes
        assert verify.attributes["rlhub.verifier"] == "exact_match"
        assert verify.attributes["rlhub.verifier.config_hash"] and verify.attributes["rlhub.reward"] == 1.0
        assert sample.start_ns <= queue.start_ns and verify.end_ns <= sample.end_ns
    bad = samples[2]
    assert bad.attributes["rlhub.kind"] == "bad_label" and bad.attributes["rlhub.flags"] == ["bad_label", "substituted"]
    assert not children(spans, bad)  # never queued

    lines = [ln for ln in log_lines() if ln.get("request_id") == TRACE]
    assert {ln["event"] for ln in lines} >= {"request.accepted", "sample.done", "request.answered"}
    assert all(ln["trace_id"] == TRACE for ln in lines)
    done = [ln for ln in lines if ln["event"] == "sample.done"]
    assert {ln["span_id"] for ln in done} == {s.span_id for s in samples[:2]}  # logged in its sample's span


BAD_TRACEPARENTS = {
    "malformed": "not-a-traceparent",
    "short id": f"00-{TRACE[:30]}-{PARENT}-01",
    "zero trace id": f"00-{'0' * 32}-{PARENT}-01",
    "zero span id": f"00-{TRACE}-{'0' * 16}-01",
    "version ff": f"ff-{TRACE}-{PARENT}-01",
    "non-hex": f"00-{'g' * 32}-{PARENT}-01",
    "trailing data on version 00": f"00-{TRACE}-{PARENT}-01-extra",
    "huge": f"00-{TRACE}-{PARENT}-01" + "-" + "a" * 6000,
}


def test_a_bad_traceparent_starts_a_new_trace(server, receiver):
    env_seed = [("arith/add-v1", 5)]
    for name, value in BAD_TRACEPARENTS.items():
        headers = {"traceparent": value, "tracestate": "k=" + "v" * 5000 if name == "huge" else "rlhub=1"}
        r = post(server, batch(server, env_seed), headers=headers)
        assert r.status_code == 200 and r.json()["rewards"] == [1.0], name
    spans = receiver.wait_for(lambda s: len(by_name(s, "POST /get_reward")) == len(BAD_TRACEPARENTS))
    roots = by_name(spans, "POST /get_reward")
    assert len(roots) == len(BAD_TRACEPARENTS)
    assert all(s.parent_id == "" and s.trace_id != TRACE for s in roots)  # each a new root
    assert len({s.trace_id for s in roots}) == len(roots)
    # a valid one next to a hostile tracestate: the trace is continued, the tracestate dropped
    r = post(server, batch(server, env_seed), headers={"traceparent": TRACEPARENT, "tracestate": "k=" + "v" * 5000})
    assert r.status_code == 200
    spans = receiver.wait_for(lambda s: any(x.trace_id == TRACE for x in by_name(s, "POST /get_reward")))
    assert [s.parent_id for s in by_name(spans, "POST /get_reward") if s.trace_id == TRACE] == [PARENT]


def test_reward_file_batch_traces_each_sample(receiver, server):
    from hub.rewards import score_batch

    cat = server.catalog
    labels = [label("arith/add-v1", 7), "{not json"]
    with tracing.span("trainer.step") as outer:
        out = score_batch(cat, [cat.reference(labels[0]), "x"], ["", ""], labels)
    assert out["rewards"] == [1.0, 0.0]
    trace_id = format(outer.get_span_context().trace_id, "032x")
    spans = receiver.wait_for(lambda s: len(by_name(s, "rlhub.verify")) == 1 and by_name(s, "trainer.step"))
    [top] = by_name(spans, "trainer.step")
    samples = children(spans, top)
    assert {s.name for s in samples} == {"rlhub.sample"} and {s.trace_id for s in samples} == {trace_id}
    assert sorted(s.attributes["rlhub.kind"] for s in samples) == ["bad_label", "ok"]
    [good] = [s for s in samples if s.attributes["rlhub.kind"] == "ok"]
    [verify] = children(spans, good)
    assert verify.attributes["rlhub.env"] == "arith/add-v1" and verify.attributes["rlhub.reward"] == 1.0


def test_sandbox_steps_are_child_spans_with_the_supervisors_timings(receiver):
    from hub.sandbox import Profile, get_sandbox
    from hub.sandbox.result import SandboxUnavailable

    try:
        sandbox = get_sandbox()  # its first use runs a probe, outside the span below
    except SandboxUnavailable as exc:
        pytest.skip(f"no sandbox here: {exc}")
    with tracing.span("verifier") as parent:
        result = sandbox.run(Profile(name="traced", wall_timeout_s=10), argv=["/bin/sh", "-c", "echo hi"])
    assert result.ok and set(result.timings) == {"ns_ready", "task_done", "teardown"}
    parent_id = format(parent.get_span_context().span_id, "016x")
    spans = receiver.wait_for(lambda s: any(x.parent_id == parent_id for x in s) and by_name(s, "verifier"))
    [run] = [s for s in by_name(spans, "sandbox.run") if s.parent_id == parent_id]
    assert run.attributes["rlhub.sandbox.profile"] == "traced"
    assert run.attributes["rlhub.sandbox.exit_code"] == 0 and run.attributes["rlhub.sandbox.timed_out"] is False
    steps = sorted(children(spans, run), key=lambda s: s.start_ns)
    assert [s.name for s in steps] == ["sandbox.namespaces", "sandbox.task", "sandbox.teardown"]
    for step, key in zip(steps, ("ns_ready", "task_done", "teardown")):
        assert abs((step.end_ns - step.start_ns) - result.timings[key] * 1e9) <= 1000, key  # the supervisor's µs
    assert all(a.end_ns == b.start_ns for a, b in zip(steps, steps[1:]))  # back to back, as measured
    assert run.start_ns <= steps[0].start_ns and steps[-1].end_ns <= run.end_ns


def test_off_without_an_endpoint_imports_no_sdk():
    code = ("import sys; from hub import tracing; import hub.serve.service, hub.sandbox.process\n"
            "assert tracing.setup('x') is False and not tracing.exporting()\n"
            "with tracing.span('a') as s: assert not s.is_recording() and tracing.log_ids() == {}\n"
            "assert tracing.inject() == {} and tracing.otel_env() == {}\n"
            "print(sorted(m for m in sys.modules if m.startswith('opentelemetry.sdk')))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_refused_request_still_ends_its_spans(server, receiver):
    pairs = [("arith/add-v1", 1), ("arith/add-v1", 2), ("arith/add-v1", 3)]
    r = post(server, batch(server, pairs), headers={"traceparent": TRACEPARENT})
    assert r.status_code == 413
    spans = receiver.wait_for(lambda s: len(by_name(s, "rlhub.sample")) == 3 and by_name(s, "POST /get_reward"))
    [req] = by_name(spans, "POST /get_reward")
    assert req.attributes["http.response.status_code"] == 413 and req.parent_id == PARENT
    assert all(s.parent_id == req.span_id for s in by_name(spans, "rlhub.sample"))


def test_each_check_is_a_span_with_its_outcome(receiver, server):
    from hub.checks.library import planned, run_check

    cat = server.catalog
    renv = cat.get("arith/add-v1")
    check, index = next((c, i) for c, i in planned(renv, 1, True) if c == "reference_full_reward")
    run_check(cat, renv, check, index, lambda what: {})
    spans = receiver.wait_for(lambda s: by_name(s, "rlhub.check"))
    [span] = by_name(spans, "rlhub.check")
    assert span.attributes["rlhub.check.outcome"] == "passed" and span.attributes["rlhub.env"] == "arith/add-v1"
    assert span.attributes["rlhub.check"] == "reference_full_reward" and span.attributes["rlhub.verifier"] == "exact_match"
