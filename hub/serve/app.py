"""The HTTP application: OpenRLHF's reward protocol plus health, metrics and queue state.

    POST /  and  POST /get_reward   reward a batch (200), or: 400 malformed body, 413 too large,
                                    503 + Retry-After when the queue is full or the service drains
    GET  /health                    200 {"status": "ok", ...}; 503 while draining
    GET  /metrics                   Prometheus text format
    GET  /queue                     queue state, request accounting, learned duration estimates
    /episodes ...                   the HTTP episode API (hub/serve/episode_api.py)
    /mcp/{env id}/{seed}            streamable-HTTP MCP, one session per episode (hub/mcp/http.py)
"""

from __future__ import annotations

import logging

from aiohttp import web

from .. import tracing
from . import episode_api, logs
from .protocol import BadRequest, parse_body
from .retry_line import body_key
from .scheduler import BatchTooLarge, QueueFull
from .service import RewardService

SERVICE = web.AppKey("service", RewardService)


def _error(status: int, message: str, request_id: str, **headers: str) -> web.Response:
    return web.json_response({"error": message, "request_id": request_id}, status=status,
                             headers={"X-Request-Id": request_id, **headers})


async def reward(request: web.Request) -> web.Response:
    """One request, one span: the trainer's trace continued if it sent a valid `traceparent`."""
    rid = logs.request_id_from(request.headers)
    logs.request_id_var.set(rid)
    attrs = {"http.request.method": request.method, "http.route": request.path, "rlhub.request_id": rid}
    with tracing.span(f"{request.method} {request.path}", attrs, context=tracing.extract(request.headers),
                      kind=tracing.SpanKind.SERVER) as span:
        response = await _reward(request, rid)
        if span.is_recording():
            span.set_attribute("http.response.status_code", response.status)
            if response.status >= 500:
                span.set_status(tracing.Status(tracing.StatusCode.ERROR))
        return response


async def _reward(request: web.Request, rid: str) -> web.Response:
    service = request.app[SERVICE]
    if service.draining:
        service.metrics.requests.labels("draining").inc()
        return _error(503, "service is shutting down; retry against another replica", rid, **{"Retry-After": "5"})
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge as exc:
        service.metrics.requests.labels("too_large").inc()
        return _error(413, f"body too large: {exc.text}", rid)
    try:
        batch = parse_body(raw)
    except BadRequest as exc:
        service.metrics.requests.labels("bad_request").inc()
        logs.event("request.malformed", logging.WARNING, request_id=rid, error=str(exc), bytes=len(raw))
        return _error(400, str(exc), rid)
    try:
        body = await service.score(batch, rid, body_key(raw))
    except QueueFull as exc:
        service.metrics.requests.labels("rejected_busy").inc()
        logs.event("request.rejected", logging.WARNING, request_id=rid, reason=str(exc), retry_after_s=exc.retry_after_s)
        return _error(503, str(exc), rid, **{"Retry-After": str(exc.retry_after_s)})
    except BatchTooLarge as exc:
        service.metrics.requests.labels("too_large").inc()
        return _error(413, str(exc), rid)
    return web.json_response(body, headers={"X-Request-Id": rid})


async def health(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    st = service.state()
    body = {"status": st["status"], "backend": st["backend"], "queue": st["queue"], "requests": st["requests"],
            "environments": len(service.catalog.envs)}
    return web.json_response(body, status=503 if service.draining else 200)


async def metrics(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    return web.Response(body=service.metrics.render(), headers={"Content-Type": service.metrics.content_type})


async def queue(request: web.Request) -> web.Response:
    return web.json_response(request.app[SERVICE].state())


async def mcp(request: web.Request) -> web.StreamResponse:
    """Streamable-HTTP MCP, one session per episode (hub/mcp/http.py; the SDK is imported on first use)."""
    service = request.app[SERVICE]
    if service.mcp is None:
        from ..mcp.http import MCPSessions, security_for

        service.mcp = MCPSessions(service.episodes, security=security_for(service.config.host))
    if service.draining:
        return _error(503, "service is shutting down; retry against another replica", logs.request_id_from(request.headers),
                      **{"Retry-After": "5"})
    return await service.mcp.handle(request)


def build_app(service: RewardService) -> web.Application:
    app = web.Application(client_max_size=int(service.config.max_body_mb * 2**20))
    app[SERVICE] = service
    app.router.add_post("/", reward)
    app.router.add_post("/get_reward", reward)
    app.router.add_get("/health", health)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/queue", queue)
    episode_api.add_routes(app, service)
    mcp_path = "/mcp/{env:[A-Za-z0-9_.\\-]+/[A-Za-z0-9_.\\-]+}/{seed:\\d{1,18}}"
    for method in ("POST", "GET", "DELETE"):
        app.router.add_route(method, mcp_path, mcp)

    async def on_startup(app: web.Application) -> None:
        await service.start()

    async def on_shutdown(app: web.Application) -> None:
        await service.stop()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    return app
