"""Prometheus metrics of the reward service (one registry per service, so tests can run several).

Environment and verifier labels only ever take values from the registry (a label naming an
unknown environment is counted under env="(unknown)"), so clients cannot blow up cardinality.
The per-environment and per-domain reward series a training run watches are bounded further:
the first `max_env_labels` environments (and `max_domain_labels` domains) seen get their own
label, every later one is counted under "other", so a registry of thousands of environments
still exposes a few hundred series.
"""

from __future__ import annotations

import threading

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Summary, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from . import logsink

from ..rewards.outcome import Outcome

UNKNOWN = "(unknown)"
OTHER = "other"
MAX_ENV_LABELS = 64  # ServeConfig.metrics_env_labels
MAX_DOMAIN_LABELS = 32  # ServeConfig.metrics_domain_labels
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 180)


class _LogDrops(Collector):
    """The process's dropped log lines (the sink is per process, the registry per service)."""

    def collect(self):
        yield CounterMetricFamily("rlhub_serve_log_lines_dropped", "Log lines dropped because the log stream "
                                  "(stderr) did not keep up", value=logsink.dropped())


class ServeMetrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self, max_env_labels: int = MAX_ENV_LABELS, max_domain_labels: int = MAX_DOMAIN_LABELS) -> None:
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

        # What a run watches: mean reward = _reward_sum / _reward_count (samples with a verdict, as in
        # `rlhub eval`), pass rate = _passed / _reward_count; _samples also counts those without one.
        self._kept = {"env": _Bounded(max_env_labels), "domain": _Bounded(max_domain_labels)}
        self.graded: dict[str, tuple[Summary, Counter, Counter]] = {}
        for by in ("env", "domain"):
            self.graded[by] = (
                Summary(f"rlhub_serve_{by}_reward", f"Reward of the samples with a verdict, by {by} (sum and count; "
                        f"the first {self._kept[by].limit} {by}s seen are labelled, the rest '{OTHER}')",
                        [by], registry=r),
                Counter(f"rlhub_serve_{by}_passed", f"Samples that passed, by {by}", [by], registry=r),
                Counter(f"rlhub_serve_{by}_samples", f"Samples answered, by {by}, with or without a verdict",
                        [by], registry=r))
        self.verifier_seconds = Histogram("rlhub_serve_verifier_seconds", "Verification time of one sample, by verifier",
                                          ["verifier"], buckets=_LATENCY_BUCKETS, registry=r)

    def sample_answered(self, env: str, outcome: Outcome) -> None:
        """One answered sample in the per-environment and per-domain reward series."""
        domain = env.split("/", 1)[0] if env != UNKNOWN else UNKNOWN
        for by, value in (("env", env), ("domain", domain)):
            reward, passed, samples = self.graded[by]
            key = self._kept[by].label(value)
            samples.labels(key).inc()
            if outcome.kind == "ok":
                reward.labels(key).observe(outcome.reward)
                if outcome.passed:
                    passed.labels(key).inc()

    def verified(self, env: str, verifier: str, seconds: float) -> None:
        """One verification's duration (each attempt, also one answered too late)."""
        self.verify_seconds.labels(env, verifier).observe(seconds)
        self.verifier_seconds.labels(verifier).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Bounded:
    """A label set that keeps the first `limit` values it is given and folds the rest into OTHER."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a label set needs room for at least one value, got {limit}")
        self.limit = limit
        self._kept: set[str] = set()
        self._lock = threading.Lock()

    def label(self, value: str) -> str:
        with self._lock:
            if value in self._kept or value == UNKNOWN:  # UNKNOWN: one value, always its own, not taking a place
                return value
            if len(self._kept) < self.limit and value != OTHER:
                self._kept.add(value)
                return value
            return OTHER
