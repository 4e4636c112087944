"""Helpers for the reward-service tests: a real server on a loopback port, real HTTP."""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path

import requests

from hub.serve.server import BackgroundServer

SYNTHETIC = "hub.serve.synthetic"


def write_registry(path: Path, synthetic: dict[str, dict] | None = None) -> Path:
    """arith/* and synthetic/*, with some synthetic environments reconfigured (seconds, mode...)."""
    lines = ["version: 1", "environments:", '  - id: "arith/*"', '  - id: "synthetic/*"']
    for env_id, cfg in (synthetic or {}).items():
        lines += [f'  - id: "{env_id}"', f"    verifier_config: {json.dumps(cfg)}"]
    path.write_text("\n".join(lines) + "\n")
    return path


def label(env: str, seed: int) -> str:
    return json.dumps({"env": env, "seed": seed})


def reference(server: BackgroundServer, env: str, seed: int) -> str:
    return server.catalog.reference(label(env, seed))


def batch(server: BackgroundServer, envs_seeds: list[tuple[str, int]], correct: bool = True) -> dict:
    prompts = [f"<|im_start|>user\nQ{i}<|im_end|>\n<|im_start|>assistant\n" for i in range(len(envs_seeds))]
    answers = [reference(server, e, s) if correct else "wrong" for e, s in envs_seeds]
    return {"query": [p + a + "<|im_end|>" for p, a in zip(prompts, answers)], "prompts": prompts,
            "labels": [label(e, s) for e, s in envs_seeds]}


def post(server: BackgroundServer, body, path: str = "/get_reward", timeout: float = 60, **kw) -> requests.Response:
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return requests.post(server.url + path, data=data, timeout=timeout, **kw)


def queue_state(server: BackgroundServer) -> dict:
    return requests.get(server.url + "/queue", timeout=10).json()


def metric(server: BackgroundServer, name: str, **labels) -> float:
    """The value of one Prometheus sample from /metrics (0.0 if absent)."""
    text = requests.get(server.url + "/metrics", timeout=10).text
    total = 0.0
    for line in text.splitlines():
        m = re.match(r"^([a-zA-Z_:]+)(?:\{(.*)\})? (\S+)$", line)
        if not m or m.group(1) != name:
            continue
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if all(got.get(k) == v for k, v in labels.items()):
            total += float(m.group(3))
    return total


def wait_for(predicate, timeout: float = 10.0, every: float = 0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"condition not met within {timeout}s")


@contextlib.contextmanager
def timer():
    t = {"start": time.perf_counter()}
    yield t
    t["s"] = time.perf_counter() - t["start"]
