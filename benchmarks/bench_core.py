"""Core benchmark: registry load with 1,000 environments, sampling throughput, CLI start-up.

    python benchmarks/bench_core.py [--repeat 7] [--startup]

Prints medians over repeats, with baselines measured in the same run (the machines are shared
and noisy: compare ratios, not absolute numbers across runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

from hub import Environment, Task, hookimpl
from hub.config.catalog import Catalog
from hub.plugins.manager import collect
from hub.config.registry import load as load_registry
from hub.mixture.sampler import MixtureSampler
from hub.mixture.records import prompt_records


class Synthetic(Environment):
    def generate(self, rng, index):
        a = rng.randint(0, 10**6)
        return Task(prompt=f"echo {a}", hidden={"answer": str(a)}, reference=str(a))


def thousand_env_plugin(n: int = 1000) -> types.ModuleType:
    module = types.ModuleType("bench_thousand")

    @hookimpl
    def rlhub_register_envs(register):
        for i in range(n):
            register(f"bench{i % 10}/task{i}-v1", Synthetic, verifier="exact_match", tags=("bench",))

    module.rlhub_register_envs = rlhub_register_envs
    return module


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def synthetic_envs(count: int, num_tasks: int | None) -> list[types.SimpleNamespace]:
    key = "row" if num_tasks is not None else "seed"
    return [types.SimpleNamespace(id=f"syn/e{i}-v1", domain=f"d{i % 4}", weight=1.0 + i % 3, num_tasks=num_tasks,
                                  label=lambda j, key=key: types.SimpleNamespace(row=j if key == "row" else None))
            for i in range(count)]


def sampling_without_replacement(n: int, repeat: int) -> None:
    """Finite environments (drawn without replacement) against unbounded ones (the baseline: a
    hash per draw), 100 environments each; and resuming a long stream (counts recomputed)."""
    unbounded, finite = synthetic_envs(100, None), synthetic_envs(100, 5_000)
    base = median_time(lambda: MixtureSampler(unbounded, seed=1).sample(n), repeat)
    perm = median_time(lambda: MixtureSampler(finite, seed=1).sample(n), repeat)
    state = {"seed": 1, "drawn": 10_000_000, "ids": [e.id for e in finite]}
    resume = median_time(lambda: MixtureSampler(finite, seed=0).restore(state), repeat)
    print(f"  unbounded seeds (baseline)        {n / base:12,.0f} labels/s")
    print(f"  finite, without replacement       {n / perm:12,.0f} labels/s  ({perm / base:.2f}x the baseline's time)")
    print(f"  resume after 10M draws (recount)  {resume * 1e3:8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--startup", action="store_true", help="only the CLI start-up figures")
    args = parser.parse_args()
    if args.startup:
        return startup(args.repeat)

    with tempfile.TemporaryDirectory() as tmp:
        reg = Path(tmp) / "registry.yaml"
        reg.write_text("version: 1\nenvironments:\n" + "".join(
            f"  - id: 'bench{d}/*'\n    weight: {d + 1}\n    tags: [d{d}]\n" for d in range(10)))
        module = thousand_env_plugin()
        plugins_s = median_time(lambda: collect(extra_plugins=[("bench", module)]), args.repeat)
        plugins = collect(extra_plugins=[("bench", module)])
        registry = load_registry(reg)
        resolve_s = median_time(lambda: Catalog(registry, plugins), args.repeat)
        parse_s = median_time(lambda: load_registry(reg), args.repeat)
        cat = Catalog(registry, plugins)
        print(f"registry with {len(cat.envs)} environments:")
        print(f"  plugin discovery + registration   {plugins_s * 1e3:8.1f} ms (median of {args.repeat})")
        print(f"  registry.yaml parse + validate    {parse_s * 1e3:8.1f} ms")
        print(f"  resolve against plugins           {resolve_s * 1e3:8.1f} ms")

        envs = cat.select(None)
        n = 100_000
        label_s = median_time(lambda: MixtureSampler(envs, seed=1).sample(n), args.repeat)
        labels = MixtureSampler(envs, seed=1).sample(2000)
        prompt_s = median_time(lambda: list(prompt_records(cat, labels)), args.repeat)
        print("sampling:")
        print(f"  labels only                       {n / label_s:12,.0f} labels/s")
        print(f"  labels + prompts (make_task)      {len(labels) / prompt_s:12,.0f} prompts/s")
        sampling_without_replacement(n, args.repeat)
    startup(args.repeat)


def startup(repeat: int) -> None:
    """Whole-process start-up of the CLI against `python -c pass`, pairs run in turn so that the
    ratios hold when the machine's speed drifts. Bytecode caching on (as installed), every cache
    warmed by one untimed run of each command first; "index off" is the cold path every run
    took before the start-up index (RLHUB_CACHE=off)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    off = {**env, "RLHUB_CACHE": "off"}
    commands = {
        "python -c pass (baseline)": ([sys.executable, "-c", "pass"], env),
        "import hub.config.catalog": ([sys.executable, "-c", "import hub.config.catalog"], env),
        "rlhub --help": ([sys.executable, "-m", "hub.cli", "--help"], env),
        "rlhub list": ([sys.executable, "-m", "hub.cli", "list"], env),
        "rlhub list (index off)": ([sys.executable, "-m", "hub.cli", "list"], off),
    }

    def run(cmd: list[str], env: dict[str, str]) -> float:
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        return time.perf_counter() - start

    for cmd, cmd_env in commands.values():
        run(cmd, cmd_env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (cmd, cmd_env) in commands.items():
            times[name].append(run(cmd, cmd_env))
    base = times["python -c pass (baseline)"]
    print(f"start-up (subprocess, {Path.cwd().name}/ as working folder, all installed plugins; median of {repeat}):")
    for name, ts in times.items():
        ratio = statistics.median(t / b for t, b in zip(ts, base))
        print(f"  {name:<32}  {statistics.median(ts) * 1e3:8.1f} ms  ({ratio:.1f}x baseline)")


if __name__ == "__main__":
    main()
