"""Benchmark rlhub-terminal: verifications/s and median latency for a realistic mix of terminal
environments, cold sandbox vs warm pool, in one run; then scripted multi-turn episodes.

    python plugins/envs/terminal/bench.py [--n 48] [--threads 2] [--rounds 3] [--episodes 13]

Mix: one task per family in turn (105 families: Python functions, CLIs, bash, SQL, file-system),
two thirds reference answers and one third the family's plausible wrong answer.
  cold: a fresh bwrap sandbox per verification running `python3 -m pytest` on the same hidden
        tests (judged by pytest's exit code: the naive baseline, no tamper defences);
  warm: the registry's real path, `catalog.verify` -> `unit_tests` through the warm pool.
Rounds interleave cold and warm so the shared machine's noise hits both alike; medians over
rounds are printed with the warm/cold ratio.
Episodes: every session environment, a scripted policy that (1) lists the work dir, (2) writes
the family's wrong answer and runs a probe, reads the result, (3) writes the reference and
submits. Prints mean turns, median wall time per episode and per step.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import hub
from hub.sandbox import get_sandbox
from rlhub_terminal.families import FAMILIES
from rlhub_terminal.plugin import SESSION_FAMILIES

REGISTRY = Path(__file__).with_name("registry.yaml")
_BLOCK = re.compile(r"```[^\n]*\n(.*)```", re.S)


def mix(cat, n: int) -> list[tuple[dict, str, bool]]:
    """(label, response, is_reference) for n verifications spread over all families."""
    names = sorted(FAMILIES)
    out = []
    for i in range(n):
        label = {"env": f"terminal/{names[i % len(names)]}-v1", "seed": 1000 + i}
        task = cat.task(label)
        good = i % 3 != 2
        out.append((label, task.reference if good else cat.get(label["env"]).env.wrong_responses(task)[0], good))
    return out


def warm_one(cat, item) -> float:
    label, response, good = item
    start = time.perf_counter()
    v = cat.verify(label, response)
    assert v.error is None and v.passed == good, (label, v.details)
    return time.perf_counter() - start


def cold_one(cat, sb, item) -> float:
    label, response, good = item
    task = cat.task(label)
    h = task.hidden
    files = {h["solution_path"]: _BLOCK.search(response).group(1), "test_hidden.py": h["tests"], **h.get("files", {})}
    start = time.perf_counter()
    r = sb.run(cat.get(label["env"]).profile, ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_hidden.py"],
               files=files, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": "."})
    assert r.infra_error is None and (r.exit_code == 0) == good, (label, r.stdout[-800:], r.stderr[-300:])
    return time.perf_counter() - start


def measure(fn, items, threads: int) -> tuple[float, float]:
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        latencies = list(pool.map(fn, items))
    return len(items) / (time.perf_counter() - start), statistics.median(latencies)


PROBE = {"python": "python3 -c 'import solution' && echo imported", "bash": "bash -n solution.sh && echo parsed",
         "sql": "wc -c query.sql"}


def episode(cat, name: str, seed: int) -> tuple[int, float, list[float], bool]:
    label = {"env": f"terminal/session-{name}-v1", "seed": seed}
    ep = cat.episode(label)
    task, fam = ep.task, FAMILIES[name]
    wrong = _BLOCK.search(cat.get(label["env"]).env.wrong_responses(task)[0]).group(1)
    ref = _BLOCK.search(task.reference).group(1)
    path, lang = fam.solution_path, fam.language
    actions = [
        "```bash\nls -la\n```",
        f"```{lang} file={path}\n{wrong}```\n```bash\n{PROBE[lang]}\n```",
        f"```{lang} file={path}\n{ref}```\nSUBMIT",
    ]
    start, steps = time.perf_counter(), []
    ep.reset()
    step = None
    for action in actions:
        t = time.perf_counter()
        step = ep.step(action)
        steps.append(time.perf_counter() - t)
        if step.done:
            break
    ep.close()
    assert step is not None and step.done and step.verdict.error is None, (label, step and step.verdict)
    return ep.turn, time.perf_counter() - start, steps, step.verdict.passed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=48, help="verifications per mode and round")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2, help="concurrent verifications (cores)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--episodes", type=int, default=len(SESSION_FAMILIES), help="scripted episodes (one per session env)")
    args = ap.parse_args()

    cat = hub.load(REGISTRY)
    sb = get_sandbox()
    items = mix(cat, args.n)
    print(f"mix: {len(items)} verifications over {len({i[0]['env'] for i in items})} environments, "
          f"{sum(g for *_, g in items)} references + {sum(not g for *_, g in items)} wrong; {args.threads} threads", flush=True)
    warm_one(cat, items[0])  # start the warm workers outside the timed rounds
    cold_rate, cold_lat, warm_rate, warm_lat = [], [], [], []
    for r in range(args.rounds):
        rate, lat = measure(lambda it: cold_one(cat, sb, it), items, args.threads)
        cold_rate.append(rate); cold_lat.append(lat)
        rate, lat = measure(lambda it: warm_one(cat, it), items, args.threads)
        warm_rate.append(rate); warm_lat.append(lat)
        print(f"  round {r + 1}: cold {cold_rate[-1]:.2f}/s (median {cold_lat[-1] * 1000:.0f} ms)  "
              f"warm {warm_rate[-1]:.2f}/s (median {warm_lat[-1] * 1000:.0f} ms)", flush=True)
    cr, cl = statistics.median(cold_rate), statistics.median(cold_lat)
    wr, wl = statistics.median(warm_rate), statistics.median(warm_lat)
    print(f"cold sandbox (fresh bwrap + pytest): {cr:.2f} verifications/s, median latency {cl * 1000:.0f} ms")
    print(f"warm pool (unit_tests verifier):     {wr:.2f} verifications/s, median latency {wl * 1000:.0f} ms")
    print(f"ratio warm/cold: throughput x{wr / cr:.2f}, latency x{wl / cl:.2f}")

    names = list(SESSION_FAMILIES)[: args.episodes]
    results = [episode(cat, name, 2000 + i) for i, name in enumerate(names)]
    turns = [r[0] for r in results]
    walls = [r[1] for r in results]
    steps = [s for r in results for s in r[2]]
    print(f"episodes: {len(results)} scripted (explore, wrong attempt + probe, reference + SUBMIT), "
          f"{sum(r[3] for r in results)}/{len(results)} passed")
    print(f"  mean turns {statistics.mean(turns):.2f}; wall per episode median {statistics.median(walls):.2f} s "
          f"(min {min(walls):.2f}, max {max(walls):.2f}); per step median {statistics.median(steps) * 1000:.0f} ms")
    if hasattr(sb, "close"):
        sb.close()


if __name__ == "__main__":
    main()
