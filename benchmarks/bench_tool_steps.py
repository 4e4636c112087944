#!/usr/bin/env python
"""Tool-step overhead: the same step (one `guess` call on arith/guess-tools-v1, no sandbox, so
what is measured is the front end) taken directly in Python, through the service's EpisodeHost
in-process, over the HTTP episode API, over MCP stdio (`rlhub mcp`) and over streamable-HTTP MCP
(`rlhub serve`; with the SDK's client, and with bare JSON-RPC POSTs: the server's share); p50/p99
of each and what each adds to the direct call. Then 64 episodes at once
over HTTP and over MCP HTTP: throughput and errors.

    python benchmarks/bench_tool_steps.py [--steps 2000] [--concurrent 64] [--steps-each 20]

The service runs in a child process (`rlhub serve`), as in production; the clients here. The
registry is the default one with the episode's turn budget raised, so one episode takes every step.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
ENV = "arith/guess-tools-v1"
SEED = 3
CALL = {"name": "guess", "arguments": {"number": 0}}  # always "higher": the episode never ends


def registry(tmp: Path) -> Path:
    path = tmp / "registry.yaml"
    path.write_text(f'version: 1\nenvironments:\n  - id: "arith/*"\n  - id: "{ENV}"\n    limits: {{max_turns: 1000000}}\n')
    return path


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summary(name: str, times: list[float], base: float | None) -> dict:
    p50, p99 = statistics.median(times) * 1e3, pct(times, 0.99) * 1e3
    added = f"+{p50 - base * 1e3:7.3f} ms" if base is not None else "        (base)"
    print(f"  {name:<22} p50 {p50:8.3f} ms   p99 {p99:8.3f} ms   added p50 {added}   ({len(times)} steps)", flush=True)
    return {"p50_ms": p50, "p99_ms": p99, "steps": len(times)}


def timed(fn, n: int, warmup: int = 50) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


# -- direct and in-process --------------------------------------------------------------------
def bench_direct(catalog, n: int) -> list[float]:
    from hub.tools import ToolCall

    ep = catalog.episode(catalog.get(ENV).label(SEED))
    ep.reset()
    call = [ToolCall(CALL["name"], CALL["arguments"], "c")]
    return timed(lambda: ep.step(call), n)


def bench_host(catalog, n: int) -> list[float]:
    from hub.serve.episodes import EpisodeHost

    host = EpisodeHost(catalog)
    eid = host.open(catalog.get(ENV).label(SEED)).id
    action = [{"id": "c", "function": CALL}]
    return timed(lambda: host.step(eid, action), n)


# -- the service in a child process ------------------------------------------------------------
class Service:
    def __init__(self, registry_path: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": f"{ROOT}:{os.environ.get('PYTHONPATH', '')}"}
        self.proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--port", str(self.port),
                                      "--registry", str(registry_path), "--log-level", "warning"],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("rlhub serve did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, conn=None):
        c = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request(method, path, body=json.dumps(body) if body is not None else None,
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        if conn is None:
            c.close()
        return r.status, json.loads(data) if data else None

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


def http_episode(service: Service, steps: int, conn=None) -> tuple[list[float], int]:
    conn = conn or http.client.HTTPConnection("127.0.0.1", service.port, timeout=60)
    status, made = service.request("POST", "/episodes", {"label": {"env": ENV, "seed": SEED}}, conn)
    if status != 201:
        return [], steps
    path = f"/episodes/{made['id']}/step"
    body = {"action": [{"id": "c", "function": CALL}]}
    times, errors = [], 0
    for _ in range(steps):
        t = time.perf_counter()
        status, out = service.request("POST", path, body, conn)
        times.append(time.perf_counter() - t)
        errors += status != 200 or out["tool_results"][0]["is_error"]
    errors += service.request("DELETE", f"/episodes/{made['id']}", None, conn)[0] != 200
    return times, errors


def bench_http(service: Service, n: int) -> list[float]:
    http_episode(service, 50)  # warm up
    times, errors = http_episode(service, n)
    assert errors == 0, errors
    return times


# -- MCP ---------------------------------------------------------------------------------------
async def mcp_steps(session, n: int) -> tuple[list[float], int]:
    await session.initialize()
    await session.list_tools()
    times, errors = [], 0
    for _ in range(n):
        t = time.perf_counter()
        r = await session.call_tool(CALL["name"], CALL["arguments"])
        times.append(time.perf_counter() - t)
        errors += bool(r.is_error)
    return times, errors


def bench_mcp_stdio(registry_path: Path, n: int) -> list[float]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "hub.cli", "mcp", ENV, "--seed", str(SEED),
                                                                 "--registry", str(registry_path)],
                                   env={**os.environ, "PYTHONPATH": f"{ROOT}:{os.environ.get('PYTHONPATH', '')}"})

    async def main():
        async with stdio_client(params, errlog=open(os.devnull, "w")) as (r, w):
            async with ClientSession(r, w) as session:
                times, errors = await mcp_steps(session, n + 50)
                assert errors == 0
                return times[50:]

    return anyio.run(main)


async def mcp_http_episode(url: str, n: int) -> tuple[list[float], int]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as (r, w, *_):
        async with ClientSession(r, w) as session:
            return await mcp_steps(session, n)


def bench_mcp_http(service: Service, n: int) -> list[float]:
    times, errors = anyio.run(mcp_http_episode, f"{service.url}/mcp/{ENV}/{SEED}", n + 50)
    assert errors == 0
    return times[50:]


def bench_mcp_http_raw(service: Service, n: int) -> list[float]:
    """tools/call as bare JSON-RPC POSTs on a kept-alive connection: the server's share of an MCP
    HTTP step, without the SDK client's own cost."""
    conn = http.client.HTTPConnection("127.0.0.1", service.port, timeout=60)
    path = f"/mcp/{ENV}/{SEED}"
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}}
    conn.request("POST", path, json.dumps(init), headers)
    r = conn.getresponse()
    r.read()
    headers = {**headers, "mcp-session-id": r.getheader("mcp-session-id"), "mcp-protocol-version": "2025-11-25"}
    conn.request("POST", path, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), headers)
    conn.getresponse().read()
    counter = iter(range(1, 10**9))

    def call():
        body = json.dumps({"jsonrpc": "2.0", "id": next(counter), "method": "tools/call",
                           "params": {"name": CALL["name"], "arguments": CALL["arguments"]}})
        conn.request("POST", path, body, headers)
        out = json.loads(conn.getresponse().read())
        assert out["result"]["isError"] is False, out

    times = timed(call, n)
    conn.request("DELETE", path, headers=headers)
    conn.getresponse().read()
    return times


# -- many at once ------------------------------------------------------------------------------
def concurrent_http(service: Service, k: int, steps: int) -> dict:
    results: list[tuple[list[float], int]] = [([], 0)] * k
    crashed = []

    def run(i):
        try:
            results[i] = http_episode(service, steps)
        except Exception as exc:  # noqa: BLE001 - counted, the bench goes on
            crashed.append(repr(exc))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(k)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t
    return report_concurrent("HTTP episode API", k, steps, wall, results, len(crashed))


def concurrent_mcp_http(service: Service, k: int, steps: int) -> dict:
    url = f"{service.url}/mcp/{ENV}/{SEED}"

    async def main():
        return await asyncio.gather(*(mcp_http_episode(url, steps) for _ in range(k)), return_exceptions=True)

    t = time.perf_counter()
    out = asyncio.run(main())
    wall = time.perf_counter() - t
    results = [r for r in out if not isinstance(r, BaseException)]
    return report_concurrent("MCP streamable HTTP", k, steps, wall, results, len(out) - len(results))


def report_concurrent(name, k, steps, wall, results, crashed) -> dict:
    times = [x for ts, _ in results for x in ts]
    errors = sum(e for _, e in results) + crashed * steps
    done = len(times)
    print(f"  {name:<22} {k} episodes x {steps} steps: {done} steps in {wall:.2f} s = {done / wall:7.1f} steps/s, "
          f"step p50 {statistics.median(times) * 1e3:.1f} ms p99 {pct(times, 0.99) * 1e3:.1f} ms, errors {errors}",
          flush=True)
    return {"episodes": k, "steps": done, "wall_s": wall, "steps_per_s": done / wall, "errors": errors}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=2000, help="steps timed per front end")
    ap.add_argument("--concurrent", type=int, default=64, help="episodes at once")
    ap.add_argument("--steps-each", type=int, default=20, help="steps of each concurrent episode")
    ap.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from hub.serve.work import load_catalog

    with tempfile.TemporaryDirectory() as tmp:
        reg = registry(Path(tmp))
        catalog = load_catalog(str(reg))
        print(f"tool-step latency, {ENV} ({os.cpu_count()} CPUs):")
        figures = {}
        direct = bench_direct(catalog, args.steps)
        figures["direct"] = summary("direct Python call", direct, None)
        base = statistics.median(direct)
        figures["in_process"] = summary("EpisodeHost in-process", bench_host(catalog, args.steps), base)
        service = Service(reg)
        try:
            figures["http"] = summary("HTTP episode API", bench_http(service, args.steps), base)
            figures["mcp_stdio"] = summary("MCP stdio", bench_mcp_stdio(reg, args.steps), base)
            figures["mcp_http"] = summary("MCP streamable HTTP", bench_mcp_http(service, args.steps), base)
            figures["mcp_http_raw"] = summary("  the same, bare JSON-RPC", bench_mcp_http_raw(service, args.steps), base)
            print(f"{args.concurrent} concurrent tool episodes:")
            figures["concurrent_http"] = concurrent_http(service, args.concurrent, args.steps_each)
            figures["concurrent_mcp_http"] = concurrent_mcp_http(service, args.concurrent, args.steps_each)
            status, state = service.request("GET", "/episodes")
            print(f"  afterwards: {state['open']} episodes open, counts {state['counts']}")
        finally:
            service.stop()
    added = figures["http"]["p50_ms"] - figures["direct"]["p50_ms"]
    print(f"HTTP adds {added:.3f} ms p50 to a direct step (target <= 2 ms): {'met' if added <= 2 else 'NOT met'}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
