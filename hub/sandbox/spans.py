"""A sandboxed run as spans: `sandbox.run`, with its supervisor's own steps as children.

The supervisor times its steps with its own monotonic clock (RunResult.timings: ns_ready, then
task_done, then teardown, back to back). They are laid out so the last ends when the host got
the reply; the few microseconds the reply takes to travel shift them by that much at most.
"""

from __future__ import annotations

import time
from typing import Any

from .. import tracing
from .result import RunResult

STEPS = (("ns_ready", "sandbox.namespaces"), ("task_done", "sandbox.task"), ("teardown", "sandbox.teardown"))


def run_span(profile: Any, mode: str) -> Any:
    return tracing.start("sandbox.run", attributes={"rlhub.sandbox.profile": profile.name,
                                                    "rlhub.sandbox.mode": mode})


def finish(span: Any, result: RunResult) -> None:
    """End `span` with the run's outcome, after emitting the timed steps under it."""
    if not span.is_recording():
        return
    replied = time.time_ns()
    steps = [(name, int(result.timings[key] * 1e9)) for key, name in STEPS if key in result.timings]
    t = max(replied - sum(d for _, d in steps), span.start_time or 0)
    for name, duration in steps:
        child = tracing.start(name, parent=span, start_time=t)
        t = min(t + duration, replied)
        child.end(end_time=t)
    attrs = {"rlhub.sandbox.exit_code": result.exit_code, "rlhub.sandbox.signal": result.signal,
             "rlhub.sandbox.timed_out": result.timed_out, "rlhub.sandbox.oom": result.oom,
             "rlhub.sandbox.duration_s": result.duration_s, "rlhub.sandbox.infra_error": result.infra_error}
    if result.infra_error:
        span.set_status(tracing.Status(tracing.StatusCode.ERROR, result.infra_error[:200]))
    tracing.end(span, **attrs)
