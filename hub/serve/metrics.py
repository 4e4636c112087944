"""Prometheus metrics of the reward service (one registry per service, so tests can run several).

Environment and verifier labels only ever take values from the registry (a label naming an
unknown environment is counted under env="(unknown)"), so clients cannot blow up cardinality.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from . import logsink

UNKNOWN = "(unknown)"
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 180)


class _LogDrops(Collector):
    """The process's dropped log lines (the sink is per process, the registry per service)."""

    def collect(self):
        yield CounterMetricFamily("rlhub_serve_log_lines_dropped", "Log lines dropped because the log stream "
                                  "(stderr) did not keep up", value=logsink.dropped())


class ServeMetrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.requests = Counter("rlhub_serve_requests", "Reward requests by outcome "
                                "(answered, rejected_busy, too_large, bad_request, disconnected, draining)",
                                ["outcome"], registry=r)
        self.samples = Counter("rlhub_serve_samples", "Samples answered, by environment, verifier and outcome "
                               "(ok, timeout, no_verdict, bad_label)", ["env", "verifier", "outcome"], registry=r)
        self.timeouts = Counter("rlhub_serve_timeouts", "Samples not verified within the request deadline",
                                ["env", "verifier"], registry=r)
        self.sandbox_failures = Counter("rlhub_serve_sandbox_failures", "Verifications that reached no verdict "
                                        "(sandbox or verifier failure), per attempt", ["env", "verifier"], registry=r)
        self.worker_lost = Counter("rlhub_serve_worker_lost", "Verifications whose worker process or node was lost",
                                   ["verifier"], registry=r)
        self.prompt_mismatch = Counter("rlhub_serve_prompt_mismatch", "Samples whose query did not contain their "
                                       "prompt (a chat-template mismatch?), graded on what follows the last "
                                       "assistant turn marker", ["env"], registry=r)
        self.bad_labels = Counter("rlhub_serve_bad_labels", "Samples whose label names no task of the registry",
                                  registry=r)
        self.retries = Counter("rlhub_serve_retries", "Samples run again after a failure", ["env", "verifier"], registry=r)
        self.queue_depth = Gauge("rlhub_serve_queue_depth", "Samples waiting", registry=r)
        self.queue_capacity = Gauge("rlhub_serve_queue_capacity", "Samples the queue holds at most", registry=r)
        self.running = Gauge("rlhub_serve_running", "Samples being verified", registry=r)
        self.in_flight = Gauge("rlhub_serve_requests_in_flight", "Requests accepted and not yet answered", registry=r)
        self.estimate = Gauge("rlhub_serve_estimate_seconds", "Learned expected verification time",
                              ["env"], registry=r)
        self.verify_seconds = Histogram("rlhub_serve_verify_seconds", "Verification time of one sample",
                                        ["env", "verifier"], buckets=_LATENCY_BUCKETS, registry=r)
        self.wait_seconds = Histogram("rlhub_serve_queue_wait_seconds", "Time a sample waited in the queue",
                                      ["env", "verifier"], buckets=_LATENCY_BUCKETS, registry=r)
        self.request_seconds = Histogram("rlhub_serve_request_seconds", "Time from accepting a request to answering it",
                                         buckets=_LATENCY_BUCKETS, registry=r)

        self.episodes_open = Gauge("rlhub_serve_episodes_open", "Episodes open (HTTP episode API and MCP sessions)",
                                   registry=r)
        self.episode_events = Counter("rlhub_serve_episode_events", "Episode events (opened, steps, finished, "
                                      "closed, expired, refused_full, busy, replays, env_failed, tool_errors, "
                                      "errors)", ["event"], registry=r)
        r.register(_LogDrops())

    def render(self) -> bytes:
        return generate_latest(self.registry)
