"""Tracing overhead per verification: the exporter on against off, measured in the same run.

Forms, one sample per call as OpenRLHF makes them (single-turn arithmetic, the cheapest verifier,
so the spans' share is the largest it gets):
  file   trainer/reward_func.py's path (hub.rewards.score_batch) in this process; tracing toggled
         between blocks (off: the API's no-op tracer; on: SDK + BatchSpanProcessor + OTLP/HTTP)
  http   two `rlhub serve` processes, one with OTEL_EXPORTER_OTLP_ENDPOINT set, one without,
         requests alternating between them in blocks
  http-sandboxed   the same two services, terminal tasks graded by unit tests in the sandbox
         (each sample adds the sandbox's spans: run, namespaces, task, teardown)
Spans go to an OTLP receiver in a process of its own (`python -m hub.testing.otlp`), as to a
collector; it decodes every export and reports how many spans arrived.
Target: on/off median ratio <= 1.02 on the reward path.

    python benchmarks/bench_tracing.py [--n 400] [--block 50] [--sandboxed 40] [--no-http]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = 1.02


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(registry: str, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # stderr to /dev/null: a pipe nobody reads would fill with log lines and stall the service
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "serve", "--registry", registry, "--port", str(port),
                             "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"`rlhub serve` exited with {proc.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
            return proc, f"http://127.0.0.1:{port}/get_reward"
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("`rlhub serve` did not answer /health within 60 s")


def alternate(forms: dict, samples: list, block: int) -> dict[str, list[list[float]]]:
    """Each form runs the same `block` samples in turn until every form has run them all: drift
    on a shared machine then falls on every form alike. Seconds per call, per block."""
    out: dict[str, list[list[float]]] = {name: [] for name in forms}
    for start in range(0, len(samples), block):
        for name, (before, call) in forms.items():
            before()
            times = []
            for s in samples[start:start + block]:
                t = time.perf_counter()
                call(s)
                times.append(time.perf_counter() - t)
            out[name].append(times)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--block", type=int, default=50)
    ap.add_argument("--registry", default=str(REPO / "registry.yaml"))
    ap.add_argument("--sandboxed", type=int, default=40, help="sandboxed samples over http (0: skip)")
    ap.add_argument("--no-http", action="store_true")
    args = ap.parse_args()

    from hub import tracing
    from hub.config.catalog import Catalog
    from hub.mixture.promptfile import sampler_for
    from hub.rewards import RewardPolicy, score_batch
    from concurrent.futures import ThreadPoolExecutor

    cat = Catalog.load(args.registry)
    labels = sampler_for(cat, seed=0, select="arith/[ams]*").sample(args.n)
    samples = []
    for label in labels:
        task = cat.task(label)
        prompt = f"<|im_start|>user\n{task.prompt_text()}<|im_end|>\n<|im_start|>assistant\n"
        samples.append((prompt + task.reference + "<|im_end|>", prompt, label))

    unit = [renv for renv in cat.select("terminal/*")  # single-turn, graded by unit tests in the sandbox
            if renv.identity.name == "unit_tests" and renv.max_turns == 1 and not renv.env.is_tool_env]
    sandboxed = []
    for i in range(args.sandboxed):
        renv = unit[i % len(unit)]
        task = cat.task(renv.label(i // len(unit)))
        prompt = f"<|im_start|>user\n{task.prompt_text()}<|im_end|>\n<|im_start|>assistant\n"
        sandboxed.append((prompt + task.reference + "<|im_end|>", prompt, renv.label(i // len(unit)).to_json()))

    policy, pool = RewardPolicy(), ThreadPoolExecutor(8)

    def via_file(s) -> None:
        out = score_batch(cat, [s[0]], [s[1]], [s[2]], policy, pool=pool)
        assert out["rewards"] == [1.0], out

    results: dict[str, dict[str, list[float]]] = {}
    rx_proc = subprocess.Popen([sys.executable, "-m", "hub.testing.otlp"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    rx_base = rx_proc.stdout.readline().strip()
    try:
        def off() -> None:
            tracing.disable()

        def on() -> None:
            if not tracing.exporting():
                tracing.enable("rlhub-bench", rx_base + "/v1/traces")

        warm = samples[:20]
        alternate({"off": (off, via_file), "on": (on, via_file)}, warm, len(warm))
        results["file"] = alternate({"off": (off, via_file), "on": (on, via_file)}, samples, args.block)
        tracing.flush()
        tracing.disable()

        if not args.no_http:
            base = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
            procs = {}
            try:
                procs["off"] = start_service(args.registry, base)
                procs["on"] = start_service(args.registry, {**base, "OTEL_EXPORTER_OTLP_ENDPOINT": rx_base,
                                                            "OTEL_SERVICE_NAME": "rlhub-bench-serve"})
                import requests

                session = requests.Session()

                def poster(url):
                    def post(s) -> None:
                        r = session.post(url, data=json.dumps({"query": [s[0]], "prompts": [s[1]], "labels": [s[2]]}),
                                         headers={"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
                                         timeout=60)
                        assert r.json()["rewards"] == [1.0], r.text
                    return post

                forms = {name: ((lambda: None), poster(url)) for name, (_, url) in procs.items()}
                alternate(forms, warm, len(warm))
                results["http"] = alternate(forms, samples, args.block)
                if sandboxed:
                    results["http-sandboxed"] = alternate(forms, sandboxed, max(1, args.block // 10))
            finally:
                for proc, _ in procs.values():
                    proc.terminate()
                    proc.wait(timeout=30)  # SIGTERM drains; the SDK exports what is batched at exit
    finally:
        received = json.loads(rx_proc.communicate("", timeout=60)[0].strip().splitlines()[-1])

    print(f"tracing overhead, {args.n} single-turn samples ({len(sandboxed)} sandboxed), one per call, "
          f"blocks of {args.block} alternating")
    print("ratio: median on / median off; paired: the median over blocks of that ratio per block (the same samples,")
    print("run back to back, so the machine's drift between blocks cancels)")
    print(f"{'form':15s} {'off_ms':>9s} {'on_ms':>9s} {'ratio':>7s} {'paired':>7s} {'overhead_us':>12s} {'target':>7s}")
    for name, blocks in results.items():
        m_off = statistics.median([x for b in blocks["off"] for x in b])
        m_on = statistics.median([x for b in blocks["on"] for x in b])
        paired = statistics.median([statistics.median(on) / statistics.median(off)
                                    for on, off in zip(blocks["on"], blocks["off"])])
        print(f"{name:15s} {m_off * 1e3:9.3f} {m_on * 1e3:9.3f} {m_on / m_off:7.3f} {paired:7.3f} "
              f"{(m_on - m_off) * 1e6:12.1f} {'ok' if paired <= TARGET else 'over':>7s}")
    traced = 2 * (args.n + 20) + len(sandboxed)  # samples run with the exporter on, warm-up included
    print(f"spans received by the OTLP receiver: {received['spans']} in {received['requests']} exports "
          f"({received['spans'] / traced:.1f} per traced sample), decode errors: {received['errors'] or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
