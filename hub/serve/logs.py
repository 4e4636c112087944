"""Structured JSON logs: one object per line, every line of a request carrying its request id.

The id is the client's `X-Request-Id`, else the trace id of a W3C `traceparent` header (so a
request can be followed across OpenTelemetry-instrumented callers), else a fresh one. It is
returned in the `X-Request-Id` response header and the body's `request_id`. Lines go through a
sink that never blocks the caller (logsink.py): a stalled stderr costs dropped lines, counted.
Inside a span (hub.tracing) a line also carries its `trace_id` and `span_id`.
"""

from __future__ import annotations

import atexit
import contextvars
import json
import logging
import re
import sys
import time
import uuid

from .. import tracing
from .logsink import DEFAULT_BUFFER_LINES, LogSink

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("rlhub_request_id", default=None)
log = logging.getLogger("rlhub.serve")

_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def request_id_from(headers) -> str:
    given = headers.get("X-Request-Id", "")
    if _SAFE_ID.match(given):
        return given
    m = _TRACEPARENT.match(headers.get("traceparent", "").strip().lower())
    if m and m.group(1) != "0" * 32:
        return m.group(1)
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(record.created, 6), "level": record.levelname.lower(), "logger": record.name,
               "event": record.getMessage()}
        rid = getattr(record, "request_id", None) or request_id_var.get()
        if rid:
            out["request_id"] = rid
        out.update(trace_fields(record))
        out.update(getattr(record, "fields", {}) or {})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


_sink: LogSink | None = None


def setup(level: str = "info", stream=None, buffer_lines: int = DEFAULT_BUFFER_LINES) -> None:
    """JSON lines to `stream` (stderr) through a non-blocking sink. The root logger gets it too
    (at WARNING) when the process has configured no logging of its own, so that no library's
    line is written from the event loop either."""
    global _sink
    old, _sink = _sink, LogSink(stream or sys.stderr, JsonFormatter(), buffer_lines)
    log.handlers[:] = [_sink.handler]
    log.setLevel(level.upper())
    log.propagate = False
    root = logging.getLogger()
    if old is not None:  # swapped before the old sink is closed, so that no line falls between
        if old.handler in root.handlers:
            root.removeHandler(old.handler)
        old.close()
    if not root.handlers:
        root.addHandler(_sink.handler)
        root.setLevel(max(root.level, logging.WARNING))


def shutdown(timeout: float = 2.0) -> None:
    """Write the lines still queued (for at most `timeout` s: a stalled stream never holds up exit)."""
    if _sink is not None:
        _sink.close(timeout)


atexit.register(shutdown)


def event(name: str, level: int = logging.INFO, request_id: str | None = None, **fields) -> None:
    if log.isEnabledFor(level):
        log.log(level, name, extra={"request_id": request_id, "fields": fields, "trace": tracing.log_ids()})


def trace_fields(record: logging.LogRecord) -> dict:
    """The trace and span ids of a line: those current where it was logged (`event` takes them
    there, so a sink formatting lines elsewhere still gets them), else those current now."""
    ids = getattr(record, "trace", None)
    return ids if ids is not None else tracing.log_ids()


def now() -> float:
    return time.time()
