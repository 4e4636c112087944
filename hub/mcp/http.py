"""Streamable-HTTP MCP in `rlhub serve`: one MCP session per episode, at `/mcp/{env id}/{seed}`.

The client names the task by the URL it connects to (`.../mcp/arith/guess-tools-v1/3`). Its
`initialize` request (no `Mcp-Session-Id` yet) opens the episode in the service's EpisodeHost
(the same cap and idle TTL as the HTTP episode API) and a session whose id is the episode's id
(so the operator reads its verdict at `GET /episodes/{id}`); every later request of the
session carries that id. The session ends, and the episode with its sandbox is closed, when the
client deletes it, when it is idle past the TTL (also a client that vanished mid-episode), or at
shutdown. At the cap a new session gets 503 and nothing is opened; an opening request that fails
(not `initialize`, a bad Host header) leaves nothing behind either.

Responses are JSON, not SSE streams (the SDK's `json_response` mode, which its clients read: no
server-to-client messages ride a call, and a call costs a fraction of a stream; see
benchmarks/bench_tool_steps.py). The SDK's transport (`StreamableHTTPServerTransport`) and server loop speak the protocol; this
module only keeps the sessions, as the SDK's session manager does, but with a server per episode
(tools differ per episode). The service is aiohttp, the transport ASGI: `asgi_call` bridges one
request. Only the handshake era of the protocol is served (a session is the episode): a request of
the session-less 2026 era is refused with a message saying so.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import anyio
from aiohttp import web
from mcp.server.runner import serve_loop
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER, StreamableHTTPServerTransport
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from ..core.errors import UserError
from ..core.task import Label
from ..serve.episodes import EpisodeFull, EpisodeHost
from .tools import EpisodeTools, episode_server

log = logging.getLogger(__name__)
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def jsonrpc_error(status: int, message: str, code: int = -32600, headers: dict[str, str] | None = None) -> web.Response:
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    return web.json_response(body, status=status, headers=headers)


def security_for(host: str) -> TransportSecuritySettings | None:
    """DNS-rebinding protection on a loopback address, as the SDK's own app sets it up."""
    if host not in LOOPBACK:
        return None
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                                     allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"])


async def asgi_call(app: Any, request: web.Request, body: bytes, seen: dict[str, Any] | None = None) -> web.StreamResponse:
    """Run one ASGI app call for an aiohttp request (the body already read) and give its response.
    Streams (SSE) are written as the app sends them. `seen["status"]` is the status the app
    answered with, set as soon as it is sent (the handler may be cancelled after it: a client
    that closes a stream once it has its answer)."""
    seen = seen if seen is not None else {}
    peer = request.transport.get_extra_info("peername") if request.transport else None
    sock = request.transport.get_extra_info("sockname") if request.transport else None
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": f"{request.version.major}.{request.version.minor}",
             "method": request.method, "scheme": request.scheme, "path": request.path,
             "raw_path": request.raw_path.split("?", 1)[0].encode("latin-1"),
             "query_string": request.query_string.encode("latin-1"), "root_path": "",
             "headers": [(k.lower(), v) for k, v in request.raw_headers],
             "client": tuple(peer[:2]) if peer else None, "server": tuple(sock[:2]) if sock else None}
    body_sent = False
    finished = asyncio.Event()
    response: web.StreamResponse | None = None

    async def receive() -> dict[str, Any]:
        nonlocal body_sent
        if not body_sent:
            body_sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await finished.wait()  # nothing more comes: the request ends when the handler does
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal response
        if message["type"] == "http.response.start":
            seen["status"] = message["status"]
            response = web.StreamResponse(status=message["status"])
            for k, v in message.get("headers", []):
                response.headers.add(k.decode("latin-1"), v.decode("latin-1"))
        elif message["type"] == "http.response.body" and response is not None and not finished.is_set():
            try:
                if not response.prepared:
                    await response.prepare(request)
                chunk = message.get("body", b"")
                if chunk:
                    await response.write(chunk)
                if not message.get("more_body", False):
                    await response.write_eof()
            except (ConnectionError, RuntimeError):  # the client went away (it had what it needed)
                finished.set()

    try:
        await app(scope, receive, send)
    finally:
        gone = finished.is_set()
        finished.set()
    if response is None:
        return web.Response(status=500, text="the MCP transport sent no response")
    if not response.prepared and not gone:
        try:
            await response.prepare(request)
            await response.write_eof()
        except (ConnectionError, RuntimeError):
            pass
    return response


class MCPSessions:
    def __init__(self, host: EpisodeHost, security: TransportSecuritySettings | None = None,
                 max_body: int = DEFAULT_MAX_REQUEST_BODY_SIZE) -> None:
        self.host = host
        self.security = security
        self.max_body = max_body
        self._sessions: dict[str, StreamableHTTPServerTransport] = {}
        self._tg: Any = None
        self._owner: asyncio.Task | None = None
        self._stop = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- life cycle ----------------------------------------------------------------------------
    async def _ensure_started(self) -> None:
        if self._tg is not None:
            return
        self._loop = asyncio.get_running_loop()
        ready = asyncio.Event()

        async def own() -> None:  # the task group of the sessions' server tasks lives in this task
            async with anyio.create_task_group() as tg:
                self._tg = tg
                ready.set()
                await self._stop.wait()
                tg.cancel_scope.cancel()

        self._owner = asyncio.create_task(own(), name="rlhub-mcp-sessions")
        await ready.wait()

    async def stop(self) -> None:
        for sid, transport in list(self._sessions.items()):
            await self._discard(sid, transport, why="shutdown")
        self._stop.set()
        if self._owner is not None:
            await asyncio.gather(self._owner, return_exceptions=True)
        self._tg = None
        # sse-starlette polls for a uvicorn shutdown in a task of its own on this loop: end it with us
        for task in asyncio.all_tasks():
            if getattr(task.get_coro(), "__qualname__", "") == "_shutdown_watcher":
                task.cancel()

    @property
    def open_sessions(self) -> int:
        return len(self._sessions)

    async def _discard(self, sid: str, transport: StreamableHTTPServerTransport, why: str = "closed") -> None:
        """Forget the session (its id answers 404 from now on), end its transport, close its episode."""
        self._sessions.pop(sid, None)
        if not transport.is_terminated:
            with anyio.CancelScope(shield=True):
                await transport.terminate()
        await asyncio.get_running_loop().run_in_executor(None, self.host.close, sid, why)

    def _end_from_host(self, sid: str) -> None:
        """The host closed the episode (idle past the TTL): end its session too (any thread)."""
        transport = self._sessions.get(sid)
        if transport is not None and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._discard(sid, transport, "expired")))

    # -- requests ------------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        version = request.headers.get("mcp-protocol-version")
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            return jsonrpc_error(400, f"protocol {version[:40]!r}: this server keeps one session per episode; "
                                      f"connect with the initialize handshake ({', '.join(HANDSHAKE_PROTOCOL_VERSIONS)})")
        if request.content_length is not None and request.content_length > self.max_body:
            return jsonrpc_error(413, f"the body is larger than {self.max_body} bytes")
        body = await request.read()
        if len(body) > self.max_body:
            return jsonrpc_error(413, f"the body is larger than {self.max_body} bytes")
        await self._ensure_started()
        sid = request.headers.get(MCP_SESSION_ID_HEADER)
        if sid is not None:
            transport = self._sessions.get(sid)
            if transport is None:
                return jsonrpc_error(404, "Session not found (ended, idle past the TTL, or the service restarted)")
            try:
                hosted = self.host.get(sid)
                hosted.last_used = self.host.clock()
            except KeyError:
                pass
            response = await asgi_call(transport.handle_request, request, body)
            if transport.is_terminated:  # the client deleted the session
                await self._discard(sid, transport)
            return response
        if request.method != "POST":
            return jsonrpc_error(400, "no Mcp-Session-Id: open a session with an initialize POST")
        return await self._open(request, body)

    async def _open(self, request: web.Request, body: bytes) -> web.StreamResponse:
        try:
            label = Label(env=request.match_info["env"], seed=int(request.match_info["seed"]))
        except (KeyError, ValueError):
            return jsonrpc_error(404, "connect to /mcp/{env id}/{seed}, e.g. /mcp/arith/guess-tools-v1/3")
        loop = asyncio.get_running_loop()
        try:
            hosted = await loop.run_in_executor(None, lambda: self.host.open(label, front="mcp"))
        except EpisodeFull as exc:
            return jsonrpc_error(503, str(exc), code=-32603, headers={"Retry-After": "5"})  # as the HTTP API's 503
        except UserError as exc:  # an unknown environment, a seed out of range
            return jsonrpc_error(404, str(exc))
        if not hosted.tools:
            await loop.run_in_executor(None, self.host.close, hosted.id)
            return jsonrpc_error(400, f"{label.env} is not a tool environment: MCP serves tool environments")
        sid = hosted.id
        tools = EpisodeTools(label=label.to_json(), prompt=hosted.observation, schemas=hosted.tools,
                             step=lambda calls: self.host.step(sid, calls))
        server = episode_server(tools)
        transport = StreamableHTTPServerTransport(mcp_session_id=sid, is_json_response_enabled=True,
                                                  event_store=None, security_settings=self.security)
        self._sessions[sid] = transport
        hosted.on_close.append(lambda: self._end_from_host(sid))

        async def run_server(*, task_status=anyio.TASK_STATUS_IGNORED) -> None:
            try:
                async with transport.connect() as (read, write):
                    task_status.started()
                    await serve_loop(server, read, write, lifespan_state={}, session_id=sid)
            except Exception:  # noqa: BLE001
                log.exception("MCP session %s crashed", sid)
            finally:
                await self._discard(sid, transport)

        seen: dict[str, Any] = {}
        try:
            await self._tg.start(run_server)
            return await asgi_call(transport.handle_request, request, body, seen)
        finally:
            if not seen.get("status") or seen["status"] >= 400:  # nothing was established: nothing stays
                await self._discard(sid, transport)

