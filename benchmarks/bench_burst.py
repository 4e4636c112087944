#!/usr/bin/env python3
"""A burst of 10x the service's throughput through OpenRLHF's own HTTP client: what peak shaving costs.

Starts the real `rlhub serve` (a subprocess, log to a file) with synthetic environments of known
duration (most samples short, some ten times longer), then:
  baseline  a steady load that just keeps the workers busy, for --baseline-s: the service's
            throughput and latency
  burst     requests arriving at --factor (10) x that throughput for --burst-s (60), each sent
            with OpenRLHF's `_fetch_rewards_via_http` (5 tries, 1 s apart, Retry-After ignored),
            while at most --outstanding samples wait for their reward (OpenRLHF's rollouts each
            wait for theirs; 0: no bound, an open-loop flood), then until every answer is in
Printed: throughput, 503s, the client's retries, samples lost (the client gave up), p50/p95
latency of a reward call, the deepest queue seen, samples graded twice, and the mean queue wait
of short vs long samples (the queue is drained by duration estimates).

    python benchmarks/bench_burst.py                          # 4 workers, queue 512, 640 outstanding, 60 s
    python benchmarks/bench_burst.py --burst-s 10 --outstanding 0   # open loop: what the client loses
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from hub.testing.retries import CountTries

SYNTHETIC = "hub.serve.synthetic"
SHORT, LONG = "synthetic/fast-v1", "synthetic/slow-v1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def metric_sum(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in text.splitlines():
        m = re.match(r"^([a-zA-Z_:]+)(?:\{(.*)\})? (\S+)$", line)
        if m and m.group(1) == name:
            got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
            if all(got.get(k) == v for k, v in labels.items()):
                total += float(m.group(3))
    return total


class Load:
    def __init__(self, url: str, catalog, batch: int, long_share: float) -> None:
        from openrlhf.utils.agent import SingleTurnAgentExecutor

        self.client = SingleTurnAgentExecutor(remote_rm_url=url + "/get_reward")
        self.url, self.catalog, self.batch, self.long_share = url, catalog, batch, long_share
        self.seed = 0
        self.latencies: list[float] = []
        self.graded: dict[str, int] = {}  # label -> verdicts received
        self.lost = self.given_up = self.wrong = 0

    def body(self) -> tuple[list[str], list[str]]:
        labels, queries = [], []
        for _ in range(self.batch):
            self.seed += 1
            env = LONG if (self.seed * 0.618034) % 1 < self.long_share else SHORT
            label = json.dumps({"env": env, "seed": self.seed})
            labels.append(label)
            queries.append(self.catalog.reference(label))
        return labels, queries

    async def call(self) -> None:
        labels, queries = self.body()
        t = time.perf_counter()
        try:
            out = await self.client._fetch_rewards_via_http(queries, [""] * len(queries), labels)
        except RuntimeError:  # 5 tries refused: OpenRLHF logs it and the sample has no reward
            self.lost += len(labels)
            self.given_up += 1
            return
        self.latencies.append(time.perf_counter() - t)
        for label, reward in zip(labels, out[0]["rewards"]):
            self.graded[label] = self.graded.get(label, 0) + 1
            self.wrong += reward != 1.0

    async def run(self, rate: float, seconds: float, outstanding: int) -> float:
        """Requests at `rate` samples/s for `seconds`, at most `outstanding` samples waiting
        (0: no bound); returns the time until the last answer."""
        slots = asyncio.Semaphore(max(1, outstanding // self.batch)) if outstanding else None
        start = time.perf_counter()
        tasks = []

        async def one() -> None:
            try:
                await self.call()
            finally:
                if slots:
                    slots.release()

        n = 0
        while time.perf_counter() - start < seconds:
            if slots:
                await slots.acquire()
            tasks.append(asyncio.create_task(one()))
            n += 1
            await asyncio.sleep(max(0.0, start + n * self.batch / rate - time.perf_counter()))
        await asyncio.gather(*tasks)
        return time.perf_counter() - start


async def watch_queue(url: str, peak: dict, stop: asyncio.Event) -> None:
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            try:
                async with session.get(url + "/queue", timeout=aiohttp.ClientTimeout(total=5)) as r:
                    peak["depth"] = max(peak["depth"], (await r.json())["queue"]["queued"])
            except (aiohttp.ClientError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.1)


async def phase(load: Load, url: str, rate: float, seconds: float, outstanding: int) -> dict:
    peak, stop = {"depth": 0}, asyncio.Event()
    watcher = asyncio.create_task(watch_queue(url, peak, stop))
    sent_before, graded_before, lat_before = load.seed, len(load.graded), len(load.latencies)
    took = await load.run(rate, seconds, outstanding)
    stop.set()
    await watcher
    lat = load.latencies[lat_before:]
    graded = len(load.graded) - graded_before
    return {"samples": load.seed - sent_before, "graded": graded, "rate": graded / took, "took_s": took,
            "peak": peak["depth"],
            "p50": statistics.median(lat) if lat else float("nan"),
            "p95": statistics.quantiles(lat, n=20)[-1] if len(lat) > 1 else float("nan")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--queue-limit", type=int, default=512)
    ap.add_argument("--outstanding", type=int, default=640, help="samples the trainer may have waiting (0: no bound)")
    ap.add_argument("--factor", type=float, default=10.0)
    ap.add_argument("--baseline-s", type=float, default=10.0)
    ap.add_argument("--burst-s", type=float, default=60.0)
    ap.add_argument("--batch", type=int, default=8, help="samples per request")
    ap.add_argument("--short-s", type=float, default=0.02)
    ap.add_argument("--long-s", type=float, default=0.2)
    ap.add_argument("--long-share", type=float, default=0.2)
    args = ap.parse_args()

    from hub.serve.work import load_catalog

    tmp = Path(tempfile.mkdtemp(prefix="rlhub-burst-"))
    reg = tmp / "registry.yaml"
    reg.write_text("version: 1\nenvironments:\n"
                   f'  - id: "{SHORT}"\n    verifier_config: {{"seconds": {args.short_s}}}\n'
                   f'  - id: "{LONG}"\n    verifier_config: {{"seconds": {args.long_s}}}\n')
    catalog = load_catalog(str(reg), [SYNTHETIC])
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(tmp / "serve.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--registry", str(reg), "--port", str(port),
                             "--plugin", SYNTHETIC, "--workers", str(args.workers),
                             "--queue-limit", str(args.queue_limit)], stdout=subprocess.DEVNULL, stderr=log)
    tries = CountTries()
    from openrlhf.utils.agent import logger as client_log

    client_log.handlers[:] = [tries]  # its retries are counted, not printed
    try:
        import urllib.request

        for _ in range(600):
            try:
                urllib.request.urlopen(url + "/health", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    print(f"`rlhub serve` exited; its log: {tmp / 'serve.log'}", file=sys.stderr)
                    return 1
                time.sleep(0.1)
        load = Load(url, catalog, args.batch, args.long_share)

        async def both() -> tuple[dict, dict]:
            mean_s = (1 - args.long_share) * args.short_s + args.long_share * args.long_s
            await load.run(args.workers / mean_s, 1.0, 4 * args.workers)  # learn the durations first
            # just enough waiting work to keep every worker busy
            base = await phase(load, url, 2 * args.workers / mean_s, args.baseline_s, 2 * args.workers * args.batch)
            burst = await phase(load, url, args.factor * base["rate"], args.burst_s, args.outstanding)
            return base, burst

        base, burst = asyncio.run(both())
        with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
            text = r.read().decode()
        with urllib.request.urlopen(url + "/queue", timeout=10) as r:
            accounting = json.loads(r.read())["requests"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        log.close()

    rejected = metric_sum(text, "rlhub_serve_requests_total", outcome="rejected_busy")
    runs = metric_sum(text, "rlhub_serve_verify_seconds_count")
    answered = metric_sum(text, "rlhub_serve_samples_total")
    received = len(load.graded)
    twice = sum(n - 1 for n in load.graded.values() if n > 1) + max(0.0, runs - received) + max(0.0, answered - received)
    wait = {env: metric_sum(text, "rlhub_serve_queue_wait_seconds_sum", env=env)
            / max(1.0, metric_sum(text, "rlhub_serve_queue_wait_seconds_count", env=env)) for env in (SHORT, LONG)}
    print(f"burst of {args.factor:g}x for {args.burst_s:g}s: {args.workers} workers, queue {args.queue_limit}, "
          f"outstanding {args.outstanding or 'unbounded'}, {args.batch} samples a request "
          f"({1 - args.long_share:.0%} x {args.short_s}s, {args.long_share:.0%} x {args.long_s}s)")
    print(f"{'phase':9s} {'sent':>7s} {'graded':>7s} {'graded/s':>9s} {'p50_s':>7s} {'p95_s':>7s} {'max_queue':>9s}")
    for name, ph in (("baseline", base), ("burst", burst)):
        print(f"{name:9s} {ph['samples']:7d} {ph['graded']:7d} {ph['rate']:9.1f} {ph['p50']:7.3f} {ph['p95']:7.3f} "
              f"{ph['peak']:9d}")
    print(f"offered {args.factor * base['rate']:.1f} samples/s in the burst; served {burst['rate'] / base['rate']:.2f}x "
          f"the baseline's throughput; p50 latency {burst['p50'] / base['p50']:.1f}x")
    print(f"503s {rejected:.0f}   client retries {tries.failed - load.given_up}   requests given up after 5 tries "
          f"{load.given_up}   samples lost {load.lost}   graded twice {twice:.0f}   wrong rewards {load.wrong}   "
          f"server-side lost {accounting['lost']}")
    print(f"mean queue wait: short {wait[SHORT]:.3f}s, long {wait[LONG]:.3f}s")
    return 0 if load.lost == 0 and twice == 0 and load.wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
