"""A tiny OpenAI-compatible server for tests: an aiohttp app on a loopback port, in a thread.

    with OpenAIStub(lambda messages: "42") as stub:      # the reply to each chat request
        main(["eval", "--base-url", stub.url, "--model", stub.model, ...])

`reply(messages)` returns the text, (text, finish_reason), an assistant message with
`tool_calls` (a dict), or an aiohttp response (an endpoint failure). Usage counts one token per word (left out where `usage(messages)` is false).
Every request body is kept in `stub.requests`.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Callable

from aiohttp import web


class OpenAIStub:
    def __init__(self, reply: Callable[[list[dict]], str | tuple[str, str]], model: str = "stub-model",
                 usage: Callable[[list[dict]], bool] = lambda messages: True) -> None:
        self.reply, self.model, self.usage = reply, model, usage
        self.requests: list[dict] = []
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "test"}]})

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        if body.get("model") != self.model:
            return web.json_response({"error": {"message": f"model {body.get('model')!r} not found"}}, status=404)
        out = self.reply(body["messages"])
        if isinstance(out, web.Response):  # an endpoint failure, as the test scripts it
            return out
        if isinstance(out, dict):  # an assistant message with tool calls
            message, finish = {"role": "assistant", "content": out.get("content"), "tool_calls": out["tool_calls"]}, "tool_calls"
        else:
            text, finish = out if isinstance(out, tuple) else (out, "stop")
            message = {"role": "assistant", "content": text}
        words = len((message["content"] or "").split())
        prompt = sum(len(str(m.get("content") or "").split()) for m in body["messages"])
        usage = {"usage": {"prompt_tokens": prompt, "completion_tokens": words, "total_tokens": words + prompt}}
        return web.json_response({
            "id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": self.model,
            "choices": [{"index": 0, "finish_reason": finish, "message": message}],
            **(usage if self.usage(body["messages"]) else {})})

    async def _start(self) -> str:
        app = web.Application()
        app.router.add_get("/v1/models", self._models)
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/v1"

    def __enter__(self) -> "OpenAIStub":
        self._thread.start()
        self.url = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def __exit__(self, *exc) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


def dead_url() -> str:
    """A loopback URL nothing listens on (a port bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
