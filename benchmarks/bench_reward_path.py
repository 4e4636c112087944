"""Overhead the reward path adds per sample, against verifying directly, in the same run.

Forms measured, one sample per call as OpenRLHF's SingleTurnAgentExecutor makes them:
  direct   catalog.verify(label, response)                     (the baseline)
  file     OpenRLHF's _fetch_rewards_via_func -> trainer/reward_func.py (thread hop + cut + policy)
  http     OpenRLHF's _fetch_rewards_via_http -> `rlhub serve` on loopback (skipped if unavailable)

    python benchmarks/bench_reward_path.py [--n 300] [--registry registry.yaml] [--no-http]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(registry: str) -> tuple[subprocess.Popen | None, str | None, str]:
    port = free_port()
    # its log goes to a file: a pipe nobody reads would fill (the service drops lines rather than
    # stall, but the bench should not measure that)
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--registry", registry, "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(300):
        if proc.poll() is not None:
            log.seek(0)
            return None, None, f"`rlhub serve` exited: {log.read().decode(errors='replace').strip()[-300:]}"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
            return proc, f"http://127.0.0.1:{port}/get_reward", ""
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    return None, None, "`rlhub serve` did not answer /health within 30 s"


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - t)
    return out


async def timed_async(fn, items) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        await fn(item)
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--registry", default=str(REPO / "registry.yaml"))
    ap.add_argument("--no-http", action="store_true")
    args = ap.parse_args()
    os.environ["RLHUB_REGISTRY"] = args.registry

    from openrlhf.utils.agent import SingleTurnAgentExecutor

    from hub.config.catalog import Catalog
    from hub.mixture.promptfile import sampler_for

    cat = Catalog.load(args.registry)
    labels = sampler_for(cat, seed=0, select="arith/[ams]*").sample(args.n)  # single-turn arithmetic
    samples = []
    for label in labels:
        task = cat.task(label)
        prompt = f"<|im_start|>user\n{task.prompt_text()}<|im_end|>\n<|im_start|>assistant\n"
        samples.append((prompt + task.reference + "<|im_end|>", prompt, label, task.reference))

    results: dict[str, list[float]] = {}
    warm = samples[:20]
    timed(lambda s: cat.verify(s[2], s[3]), warm)
    results["direct"] = timed(lambda s: cat.verify(s[2], s[3]), samples)

    file_exec = SingleTurnAgentExecutor(remote_rm_url=str(REPO / "trainer" / "reward_func.py"))

    async def via_file(s):
        out = await file_exec._fetch_rewards_via_func([s[0]], [s[1]], [s[2]])
        assert out[0]["rewards"] == [1.0], out
    asyncio.run(timed_async(via_file, warm))
    results["file"] = asyncio.run(timed_async(via_file, samples))

    note = "skipped (--no-http)"
    if not args.no_http:
        proc, url, note = start_service(args.registry)
        if proc is not None:
            try:
                http_exec = SingleTurnAgentExecutor(remote_rm_url=url)

                async def via_http(s):
                    out = await http_exec._fetch_rewards_via_http([s[0]], [s[1]], [s[2]])
                    assert out[0]["rewards"] == [1.0], out
                asyncio.run(timed_async(via_http, warm))
                results["http"] = asyncio.run(timed_async(via_http, samples))
            finally:
                proc.terminate()
                proc.wait(timeout=10)

    base = statistics.median(results["direct"])
    print(f"reward path, {args.n} single-turn samples, one per call (median per sample)")
    print(f"{'form':8s} {'median_ms':>10s} {'p90_ms':>8s} {'ratio':>7s} {'overhead_ms':>12s}")
    for name, xs in results.items():
        med = statistics.median(xs)
        p90 = statistics.quantiles(xs, n=10)[-1]
        print(f"{name:8s} {med * 1e3:10.3f} {p90 * 1e3:8.3f} {med / base:7.2f} {(med - base) * 1e3:12.3f}")
    if "http" not in results:
        print(f"http     {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
