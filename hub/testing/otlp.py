"""An OTLP/HTTP trace receiver on a loopback port: what a collector would get, decoded.

It answers `POST /v1/traces` as a collector does (an empty ExportTraceServiceResponse) and keeps
every span of every ExportTraceServiceRequest (opentelemetry-proto's own messages), for tests and
benchmarks to read back: ids as hex, attributes as Python values, the sender's service.name.
"""

from __future__ import annotations

import gzip
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

PATH = "/v1/traces"


@dataclass
class ReceivedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_id: str  # "" for a root span
    service: str
    start_ns: int
    end_ns: int
    kind: int
    status: int  # 0 unset, 1 ok, 2 error
    attributes: dict[str, Any] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)


def _value(v: Any) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _value(kv.value) for kv in v.kvlist_value.values}
    return getattr(v, kind) if kind else None


def decode(body: bytes) -> list[ReceivedSpan]:
    """The spans of one serialised ExportTraceServiceRequest."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    req = ExportTraceServiceRequest()
    req.ParseFromString(body)
    out = []
    for rs in req.resource_spans:
        res = {kv.key: _value(kv.value) for kv in rs.resource.attributes}
        for ss in rs.scope_spans:
            for s in ss.spans:
                out.append(ReceivedSpan(
                    name=s.name, trace_id=s.trace_id.hex(), span_id=s.span_id.hex(), parent_id=s.parent_span_id.hex(),
                    service=str(res.get("service.name", "")), start_ns=s.start_time_unix_nano,
                    end_ns=s.end_time_unix_nano, kind=s.kind, status=s.status.code,
                    attributes={kv.key: _value(kv.value) for kv in s.attributes}, events=[e.name for e in s.events]))
    return out


class OTLPReceiver:
    """`with OTLPReceiver() as rx:` point an exporter at `rx.endpoint` (or `rx.base` as
    OTEL_EXPORTER_OTLP_ENDPOINT); `rx.spans` is what arrived; `rx.wait_for(pred)` polls."""

    def __init__(self) -> None:
        self.spans: list[ReceivedSpan] = []
        self.requests = 0
        self.errors: list[str] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                enc = (self.headers.get("Content-Encoding") or "").lower()
                try:
                    if self.path != PATH:
                        raise ValueError(f"unexpected path {self.path}")
                    if enc == "gzip":
                        body = gzip.decompress(body)
                    elif enc == "deflate":
                        body = zlib.decompress(body)
                    spans = decode(body)
                except Exception as exc:  # noqa: BLE001 - reported to the test, answered 400
                    with receiver._lock:
                        receiver.errors.append(f"{type(exc).__name__}: {exc}")
                    self.send_response(400)
                    self.end_headers()
                    return
                with receiver._lock:
                    receiver.spans.extend(spans)
                    receiver.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), name="otlp-receiver",
                                        daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def endpoint(self) -> str:
        return self.base + PATH

    def snapshot(self) -> list[ReceivedSpan]:
        with self._lock:
            return list(self.spans)

    def wait_for(self, done: Callable[[list[ReceivedSpan]], bool], timeout_s: float = 20.0) -> list[ReceivedSpan]:
        """The spans once `done(spans)` holds (or all there are when `timeout_s` runs out)."""
        end = time.monotonic() + timeout_s
        while True:
            spans = self.snapshot()
            if done(spans) or time.monotonic() > end:
                return spans
            time.sleep(0.05)

    def __enter__(self) -> "OTLPReceiver":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    """`python -m hub.testing.otlp`: a receiver in its own process, as a collector would be: prints
    its base URL, then on end of stdin the number of spans it decoded (and errors), as JSON."""
    import json
    import sys

    with OTLPReceiver() as rx:
        print(rx.base, flush=True)
        sys.stdin.read()
        print(json.dumps({"spans": len(rx.snapshot()), "requests": rx.requests, "errors": rx.errors[:5]}), flush=True)


if __name__ == "__main__":
    main()
