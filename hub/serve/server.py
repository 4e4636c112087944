"""Running the service: in the foreground for `rlhub serve`, or in a background thread.

SIGTERM / SIGINT stop it gracefully: the listening socket closes, accepted requests are answered
(each within its deadline), then the workers stop and the learned estimates are saved.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import Any

from aiohttp import web

from . import logs
from .app import build_app
from .config import ServeConfig
from .service import RewardService


async def _start(service: RewardService, host: str, port: int) -> tuple[web.AppRunner, int]:
    runner = web.AppRunner(build_app(service), handler_cancellation=True, access_log=None,
                           shutdown_timeout=service.config.deadline_s + 10)
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_address=True)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    return runner, bound


def serve_forever(config: ServeConfig, catalog: Any = None, ready=None) -> None:
    """Run until SIGTERM/SIGINT. `ready(port)` is called once the port is open."""

    async def main() -> None:
        service = RewardService(config, catalog=catalog)
        runner, port = await _start(service, config.host, config.port)
        logs.event("service.listening", host=config.host, port=port, url=f"http://{config.host}:{port}/")
        if ready:
            ready(port)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        logs.event("service.draining", in_flight=service.counts["in_flight"])
        await runner.cleanup()

    asyncio.run(main())


class BackgroundServer:
    """The service on a loopback port in its own thread and event loop (tests, benchmarks)."""

    def __init__(self, config: ServeConfig, catalog: Any = None, backend: Any = None) -> None:
        self.config = config
        self.catalog = catalog
        self.backend = backend
        self.loop = asyncio.new_event_loop()
        self.service: RewardService | None = None
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self.loop.run_forever, name="rlhub-serve", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.port}"

    def start(self) -> "BackgroundServer":
        self._thread.start()

        async def boot() -> None:
            self.service = RewardService(self.config, catalog=self.catalog, backend=self.backend)
            self._runner, self.port = await _start(self.service, self.config.host, self.config.port)

        asyncio.run_coroutine_threadsafe(boot(), self.loop).result(timeout=120)
        return self

    def call(self, fn, timeout: float = 30):
        """Run `fn()` on the server's loop and return its result (to read state safely)."""

        async def run():
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(self, timeout: float = 60) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self.loop).result(timeout)
            self._runner = None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout)

    def __enter__(self) -> "BackgroundServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
