"""OpenTelemetry traces: one trace per sample, from the trainer's request to the sandbox's steps.

Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: then each
process that calls `setup()` installs an SDK TracerProvider exporting over OTLP (http/protobuf,
batched in a background thread). Otherwise no SDK is imported and spans come from the API's
tracer, which is a no-op unless the embedding process (a trainer) installed a provider of its own.
OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_BSP_* and the exporter's OTEL_EXPORTER_OTLP_* settings
apply as the SDK documents them.

The context crosses boundaries as W3C `traceparent`/`tracestate`: an HTTP header into the
service (`extract`, which ignores anything malformed or oversized: a new root trace, never an
error), and a small dict in a Ray task's arguments (`inject` / `extract`). Threads do not inherit
it: `carry(fn)` binds the caller's context to a function handed to a pool.
"""

from __future__ import annotations

import contextvars
import logging
import os
import threading
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterator, Mapping

from opentelemetry import context as otel_context, trace
from opentelemetry.trace import SpanKind, Status, StatusCode  # noqa: F401  (re-exported for callers)
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

ENDPOINT_VARS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
MAX_TRACEPARENT = 128  # version 00 is 55 characters; later versions may append fields
MAX_TRACESTATE = 512  # W3C: 32 members; longer is dropped whole, as the spec allows

log = logging.getLogger("rlhub.tracing")
_propagator = TraceContextTextMapPropagator()
_lock = threading.Lock()
_state: dict[str, Any] = {"pid": None, "provider": None}
_tracer: Any = trace.get_tracer("rlhub")


def wanted() -> bool:
    """Whether this process's environment asks for traces to be exported."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return any(os.environ.get(v, "").strip() for v in ENDPOINT_VARS)


def setup(service_name: str) -> bool:
    """Export this process's spans over OTLP if the environment asks for it (once per process;
    a forked child sets up its own). True if exporting."""
    with _lock:
        if _state["pid"] == os.getpid():
            return _state["provider"] is not None
        _state["pid"], _state["provider"] = os.getpid(), None
        if not wanted():
            return False
        try:
            _enable(service_name)
        except ImportError as exc:
            log.warning("OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry SDK is missing (%s): "
                        "install rlhub[otel]; tracing stays off", exc)
            return False
        return True


def _enable(service_name: str, endpoint: str | None = None) -> Any:
    global _tracer
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    attrs = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: service_name}
    provider = TracerProvider(resource=Resource.create(attrs))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    _state["provider"], _state["endpoint"] = provider, endpoint
    _tracer = provider.get_tracer("rlhub")
    # Our own provider, not the global one: a trainer that set its own keeps it for its spans.
    return provider


def enable(service_name: str, endpoint: str) -> Any:
    """Export to `endpoint` (a full OTLP/HTTP traces URL) from now on, whatever the environment
    says (benchmarks, tests). Returns the SDK provider; `disable()` undoes it."""
    with _lock:
        disable_locked()
        _state["pid"] = os.getpid()
        return _enable(service_name, endpoint)


def disable() -> None:
    """Flush and stop exporting; spans come from the API's tracer again."""
    with _lock:
        disable_locked()


def disable_locked() -> None:
    global _tracer
    provider, _state["provider"], _state["pid"] = _state["provider"], None, None
    _tracer = trace.get_tracer("rlhub")
    if provider is not None:
        provider.shutdown()


def flush(timeout_s: float = 10.0) -> bool:
    """Export what is batched now (before a process is killed, e.g. a Ray actor)."""
    provider = _state["provider"]
    return provider.force_flush(int(timeout_s * 1000)) if provider is not None else True


def exporting() -> bool:
    return _state["provider"] is not None


def otel_env() -> dict[str, str]:
    """The OTEL_* settings of this process, for workers it starts elsewhere (Ray actors); {} when
    not exporting."""
    if not exporting():
        return {}
    env = {k: v for k, v in os.environ.items() if k.startswith("OTEL_")}
    if _state.get("endpoint"):  # set by `enable`, not by the environment
        env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = _state["endpoint"]
    return env


def tracer() -> Any:
    return _tracer


def _off() -> bool:
    """Nothing would record a span: neither our provider nor one the embedding process set. The
    API's tracer would then hand out its invalid span anyway; this skips the calls that get there."""
    return _state["provider"] is None and isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


_NOTHING = nullcontext(trace.INVALID_SPAN)


@contextmanager
def _span(name: str, attributes: Mapping[str, Any] | None, context: Any, kind: SpanKind) -> Iterator[Any]:
    with _tracer.start_as_current_span(name, context=context, kind=kind, attributes=attributes) as s:
        yield s


def span(name: str, attributes: Mapping[str, Any] | None = None, context: Any = None,
         kind: SpanKind = SpanKind.INTERNAL) -> Any:
    """A span, current for the block; an exception escaping it is recorded and marks it failed."""
    return _NOTHING if _off() else _span(name, attributes, context, kind)


def start(name: str, parent: Any = None, attributes: Mapping[str, Any] | None = None,
          start_time: int | None = None) -> Any:
    """A span that outlives a block (ended with `end`): a child of span `parent`, else of the
    current context."""
    if _off():
        return trace.INVALID_SPAN
    ctx = trace.set_span_in_context(parent) if parent is not None else None
    return _tracer.start_span(name, context=ctx, attributes=attributes, start_time=start_time)


@contextmanager
def attached(ctx: Any) -> Iterator[None]:
    """Make context `ctx` (from `extract`) current for a block; None leaves the current one."""
    if ctx is None:
        yield
        return
    token = otel_context.attach(ctx)
    try:
        yield
    finally:
        otel_context.detach(token)


def end(s: Any, **attributes: Any) -> None:
    """End `s` once (later calls do nothing), setting `attributes` first."""
    if s is not None and s.is_recording():
        if attributes:
            s.set_attributes({k: v for k, v in attributes.items() if v is not None})
        s.end()


def use(s: Any) -> Any:
    """Make span `s` current for a block, without ending it afterwards (None or the invalid span
    of tracing off: leave the context as it is)."""
    return trace.use_span(s, end_on_exit=False) if s is not None and s.get_span_context().is_valid else _NOTHING


def context_of(s: Any) -> Any:
    return trace.set_span_in_context(s) if s is not None else None


def extract(headers: Mapping[str, str] | None) -> Any:
    """The caller's context from W3C `traceparent`/`tracestate` values (an HTTP request's headers
    or a dict from `inject`); None (a new root trace) when absent, malformed or oversized."""
    if not headers:
        return None
    try:
        parent = headers.get("traceparent")
        if not isinstance(parent, str) or not parent or len(parent) > MAX_TRACEPARENT:
            return None
        carrier = {"traceparent": parent}
        state = headers.get("tracestate")
        if isinstance(state, str) and state and len(state) <= MAX_TRACESTATE:
            carrier["tracestate"] = state
        ctx = _propagator.extract(carrier)
    except Exception:  # noqa: BLE001 - a hostile header costs its trace link, never the request
        return None
    return ctx if trace.get_current_span(ctx).get_span_context().is_valid else None


def inject(s: Any = None) -> dict[str, str]:
    """`traceparent` (and `tracestate`) of span `s`, else of the current span; {} when there is
    none to continue (tracing off)."""
    carrier: dict[str, str] = {}
    ctx = context_of(s)
    if trace.get_current_span(ctx).get_span_context().is_valid:
        _propagator.inject(carrier, context=ctx)
    return carrier


def carry(fn: Callable) -> Callable:
    """`fn` bound to the caller's context (trace and contextvars), for a thread pool."""
    if _off():
        return fn
    ctx = contextvars.copy_context()
    return lambda *a, **kw: ctx.run(fn, *a, **kw)


def log_ids() -> dict[str, str]:
    """The current trace and span ids, as a log line carries them ({} outside a trace)."""
    if _off():
        return {}
    sc = trace.get_current_span().get_span_context()
    if not sc.is_valid:
        return {}
    return {"trace_id": format(sc.trace_id, "032x"), "span_id": format(sc.span_id, "016x")}


def verifier_attributes(identity: Any) -> dict[str, str]:
    """A VerifierIdentity as span attributes (which code and settings produced a reward)."""
    if identity is None:
        return {}
    return {"rlhub.verifier": identity.name, "rlhub.verifier.distribution": identity.distribution,
            "rlhub.verifier.version": identity.version, "rlhub.verifier.config_hash": identity.config_hash}
