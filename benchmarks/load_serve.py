#!/usr/bin/env python3
"""Load test of `rlhub serve` on loopback: throughput, p50/p99 latency, accepted/answered/lost.

For each worker count (default 1, 2, 4) it starts the real `rlhub serve` (a subprocess, on a
free loopback port), sends a bounded number of OpenRLHF-shaped batches over a realistic mix of
environments from concurrent clients (honouring 503 + Retry-After), checks every reward against
the expected one, reads the server's own accounting from /queue, and stops it with SIGTERM.
With --faults the same run is repeated while verification processes are SIGKILLed mid-task.

The mix: exact-match arithmetic (most samples), a sandboxed task (real bubblewrap run), a slow
tool-like task (a child process, the one faults kill), plus terminal/* and cad/* environments
when those plugins are installed. Bounded: --requests per run and --time-limit seconds per run.

    python benchmarks/load_serve.py                       # 1, 2, 4 workers, with and without faults
    python benchmarks/load_serve.py --workers 2 --requests 40 --no-faults
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

SYNTHETIC = "hub.serve.synthetic"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_registry(path: Path, pid_dir: Path, domains: list[str]) -> None:
    lines = ["version: 1", "environments:",
             '  - id: "arith/*"', "    weight: 6.0",
             '  - id: "synthetic/medium-v1"', "    weight: 1.0",
             '    verifier_config: {"seconds": 0.05, "mode": "sandbox"}',
             '  - id: "synthetic/slow-v1"', "    weight: 0.5",
             f'    verifier_config: {{"seconds": 0.5, "mode": "process", "pid_dir": "{pid_dir}"}}']
    for pattern in domains:
        lines += [f'  - id: "{pattern}"', "    weight: 0.25", "    optional: true"]
    path.write_text("\n".join(lines) + "\n")


def make_requests(catalog, n_requests: int, batch: int, seed: int) -> list[tuple[dict, list[float]]]:
    """OpenRLHF-shaped bodies with half right, half wrong answers, and the rewards they should get."""
    rng = random.Random(seed)
    envs = [e for e in catalog.envs.values() if e.max_turns == 1]
    weights = [e.weight for e in envs]
    out = []
    for r in range(n_requests):
        queries, prompts, labels, expected = [], [], [], []
        for i in range(batch):
            env = rng.choices(envs, weights)[0]
            label = env.env.label(rng.randrange(10_000)) if env.num_tasks is None else env.env.label(
                rng.randrange(env.num_tasks))
            task = catalog.task(label)
            good = rng.random() < 0.5
            answer = task.reference if good else (env.env.wrong_responses(task) or ["no"])[0]
            prompt = f"<|im_start|>user\n{task.prompt_text()}<|im_end|>\n<|im_start|>assistant\n"
            queries.append(prompt + answer + "<|im_end|>")
            prompts.append(prompt)
            labels.append(label.to_json())
            expected.append(1.0 if good else 0.0)
        out.append(({"query": queries, "prompts": prompts, "labels": labels}, expected))
    return out


class Killer(threading.Thread):
    """SIGKILLs a random running verification process every `every` seconds."""

    def __init__(self, pid_dir: Path, every: float) -> None:
        super().__init__(daemon=True)
        self.pid_dir, self.every, self.kills = pid_dir, every, 0
        self.stop = threading.Event()

    def run(self) -> None:
        rng = random.Random(7)
        while not self.stop.wait(self.every):
            pids = [p.name for p in self.pid_dir.iterdir()]
            if pids:
                try:
                    os.kill(int(rng.choice(pids)), signal.SIGKILL)
                    self.kills += 1
                except (ProcessLookupError, ValueError):
                    pass


async def drive(url: str, work, concurrency: int, time_limit: float) -> dict:
    latencies, stats = [], {"sent": 0, "answered": 0, "rejected_503": 0, "errors": 0, "wrong_rewards": 0,
                            "flagged": 0, "samples": 0}
    queue = list(enumerate(work))
    end = time.monotonic() + time_limit

    async def client(session: aiohttp.ClientSession) -> None:
        while queue and time.monotonic() < end:
            k, (body, expected) = queue.pop(0)
            start = time.perf_counter()
            while time.monotonic() < end:
                stats["sent"] += 1
                try:
                    async with session.post(url + "/get_reward", json=body, headers={"X-Request-Id": f"load-{k}"}) as r:
                        if r.status == 503:
                            stats["rejected_503"] += 1
                            await asyncio.sleep(min(2.0, float(r.headers.get("Retry-After", "1"))))
                            continue
                        out = await r.json()
                        if r.status != 200:
                            stats["errors"] += 1
                            break
                except aiohttp.ClientError:
                    stats["errors"] += 1
                    break
                latencies.append(time.perf_counter() - start)
                stats["answered"] += 1
                stats["samples"] += len(expected)
                logs = out["extra_logs"]
                for i, want in enumerate(expected):
                    if logs["rlhub/timeout"][i] or logs["rlhub/no_verdict"][i]:
                        stats["flagged"] += 1  # a defined reward, flagged for the trainer
                    elif (out["rewards"][i] == 1.0) != (want == 1.0):  # graded rewards: a wrong answer earns < 1
                        stats["wrong_rewards"] += 1
                break

    started = time.perf_counter()
    timeout = aiohttp.ClientTimeout(total=200)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        await asyncio.gather(*(client(session) for _ in range(concurrency)))
    wall = time.perf_counter() - started
    latencies.sort()
    pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
    return {**stats, "wall_s": wall, "req_per_s": stats["answered"] / wall, "samples_per_s": stats["samples"] / wall,
            "p50_s": pct(0.50), "p99_s": pct(0.99), "mean_s": statistics.fmean(latencies) if latencies else float("nan")}


def run_one(workers: int, faults: bool, args, tmp: Path, work) -> dict:
    pid_dir = tmp / f"pids-{workers}-{int(faults)}"
    pid_dir.mkdir()
    registry = tmp / "registry.yaml"
    port = free_port()
    cmd = [sys.executable, "-m", "hub.cli", "serve", "--registry", str(registry), "--plugin", SYNTHETIC,
           "--port", str(port), "--workers", str(workers), "--queue-limit", str(args.queue_limit),
           "--deadline", str(args.deadline), "--log-level", "warning"]
    # the pid dir is per run: point the slow environment at it
    write_registry(registry, pid_dir, args.domains)
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(tmp / f"serve-{workers}-{int(faults)}.log", "w"))
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit(f"rlhub serve exited with {server.returncode}; see {tmp}/serve-*.log")
                time.sleep(0.1)
        killer = Killer(pid_dir, args.kill_every) if faults else None
        if killer:
            killer.start()
        result = asyncio.run(drive(url, work, args.concurrency, args.time_limit))
        if killer:
            killer.stop.set()
            killer.join()
        state = asyncio.run(_get_json(url + "/queue"))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    req = state["requests"]
    return {"workers": workers, "faults": faults, **result, "kills": killer.kills if faults else 0,
            "accepted": req["accepted"], "server_answered": req["answered"], "disconnected": req["disconnected"],
            "lost": req["accepted"] - req["answered"] - req["disconnected"] - req["in_flight"],
            "client_vs_server": result["answered"] - req["answered"], "exit_code": server.returncode}


async def _get_json(url: str) -> dict:
    async with aiohttp.ClientSession() as s:
        async with s.get(url) as r:
            return await r.json()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", default="1,2,4", help="comma-separated worker counts (default 1,2,4)")
    ap.add_argument("--requests", type=int, default=24, help="requests per run (default 24)")
    ap.add_argument("--batch", type=int, default=16, help="samples per request (default 16)")
    ap.add_argument("--concurrency", type=int, default=8, help="concurrent clients (default 8)")
    ap.add_argument("--queue-limit", type=int, default=64, help="server queue limit, small to exercise push-back")
    ap.add_argument("--deadline", type=float, default=30.0, help="server deadline per request, seconds")
    ap.add_argument("--time-limit", type=float, default=45.0, help="seconds per run at most (default 45)")
    ap.add_argument("--kill-every", type=float, default=0.3, help="with faults: SIGKILL a verification every N s")
    ap.add_argument("--no-faults", action="store_true", help="skip the fault-injection runs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the results as JSON lines")
    args = ap.parse_args()

    from hub.plugins.manager import installed
    from hub.serve.work import load_catalog

    args.domains = [p for p in ("terminal/*", "cad/*") if any(e.startswith(p[:-1]) for e in installed().envs)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="rlhub-load-") as tmp_name:
        tmp = Path(tmp_name)
        write_registry(tmp / "registry.yaml", tmp / "pids", args.domains)
        catalog = load_catalog(str(tmp / "registry.yaml"), [SYNTHETIC])
        work = make_requests(catalog, args.requests, args.batch, args.seed)
        mix = {}
        for body, _ in work:
            for lab in body["labels"]:
                env = json.loads(lab)["env"].split("/")[0]
                mix[env] = mix.get(env, 0) + 1
        print(f"mix over {args.requests} requests x {args.batch} samples: {mix}; extra domains: {args.domains or 'none installed'}",
              flush=True)
        for faults in ([False] if args.no_faults else [False, True]):
            for w in [int(x) for x in args.workers.split(",")]:
                row = run_one(w, faults, args, tmp, work)
                rows.append(row)
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    print(f"workers={w} faults={'on ' if faults else 'off'} "
                          f"{row['req_per_s']:6.2f} req/s {row['samples_per_s']:7.1f} samples/s "
                          f"p50={row['p50_s'] * 1000:7.1f}ms p99={row['p99_s'] * 1000:7.1f}ms "
                          f"accepted={row['accepted']} answered={row['server_answered']} lost={row['lost']} "
                          f"503s={row['rejected_503']} flagged={row['flagged']} wrong={row['wrong_rewards']} "
                          f"kills={row['kills']} unsent={args.requests - row['answered']}", flush=True)
    bad = [r for r in rows if r["lost"] or r["wrong_rewards"] or r["client_vs_server"] or r["errors"]]
    if bad:
        print(f"FAILED: {len(bad)} run(s) lost requests, gave wrong rewards or errors", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
