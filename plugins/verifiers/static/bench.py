"""Benchmark: median time of each analyser on a 200-line module, and of a composed rubric against
its slowest part, in one run.

    python plugins/verifiers/static/bench.py [--n 7]

Each verification goes through the real sandbox (bwrap) under the `static` profile, as a catalog
runs it. Rows, interleaved in rounds so machine noise hits all of them alike:
  ruff, mypy, bandit       one analyser alone on the Python module (its own session)
  shellcheck               alone on a 200-line bash script
  rubric (shared session)  ruff + mypy + bandit composed: one session, the module written once
  rubric (one each)        the same three, each in its own session, run concurrently (no sharing)
  <analyser> (before)       the analyser as it was before it counted what it cannot see: no blind
                           pass (rlhub_static.blind), mypy without --warn-unreachable,
                           --disallow-any-unimported and unfollowed imports, bandit without runtime SQL
Ratios: each analyser against its before row, each rubric against its slowest part, and the shared
session against one session each.
Then throughput with every core busy (as under a training run's reward service): both rubrics,
`--threads` verifications at a time.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor
import os
import statistics
import subprocess
import time

from hub import Task, VerifyContext
from hub.core.rubric import Rubric, RubricComponent, RubricSpec
from hub.core.rubric_parts import Part
from hub.core.verifier import VerifierIdentity, grade
from hub.sandbox import get_sandbox
from rlhub_static.bandit import Bandit
from rlhub_static.mypy import Mypy
from rlhub_static.plugin import STATIC_PROFILE
from rlhub_static.ruff import Ruff
from rlhub_static.shellcheck import ShellCheck


def python_module(lines: int = 200) -> str:
    """A realistic module: typed and untyped functions, a few lint, type and security findings."""
    out = ["import hashlib", "import os", "import subprocess", "from collections import Counter", "", ""]
    i = 0
    while len(out) < lines:
        if i % 5 == 0:
            out += [f"def count_{i}(words):", "    seen = Counter(words)", "    total = len(words)",
                    "    return dict(seen)", "", ""]
        elif i % 5 == 1:
            out += [f"def scale_{i}(xs: list[float], k: float) -> list[float]:", "    return [x * k for x in xs]", "", ""]
        elif i % 5 == 2:
            out += [f"def label_{i}(n: int) -> int:", '    return f"item-{n}"', "", ""]
        elif i % 5 == 3:
            out += [f"def digest_{i}(data: bytes) -> str:", "    return hashlib.md5(data).hexdigest()", "", ""]
        else:
            out += [f"def run_{i}(cmd: str) -> int:", "    if cmd == None:", "        return -1",
                    "    return subprocess.call(cmd, shell=True)", "", ""]
        i += 1
    return "\n".join(out[:lines]) + "\n"


def bash_script(lines: int = 200) -> str:
    out = ["#!/bin/bash", "total=0"]
    i = 0
    while len(out) < lines:
        out += [f"f{i}=$1", f"if [ -f $f{i} ]; then", f"  n=`cat $f{i} | wc -l`", "  total=$((total + n))", "fi",
                f'echo "file {i}: $n lines"']
        i += 1
    return "\n".join(out[:lines] + ['echo "$total"']) + "\n"


def before(cls, **config):
    """`cls` as it was before the blind pass: what it cannot see is not counted."""

    class Before(cls):
        def blind_findings(self, code):
            return []

        def extra_findings(self, code):
            return [] if cls is Bandit else super().extra_findings(code)  # bandit's runtime SQL is new

    if cls is Mypy:
        config.update(warn_unreachable=False, disallow_any_unimported=False, unfollowed_imports=False)
    return Before(cls.Config(**config))


def identity(name: str) -> VerifierIdentity:
    return VerifierIdentity(name, "rlhub-static", "bench", "-")


def rubric(profiles: list) -> Rubric:
    """ruff + mypy + bandit; components with different profiles get a session each."""
    classes = [Ruff, Mypy, Bandit]
    spec = RubricSpec(components=[RubricComponent(verifier=c.name) for c in classes])
    parts = [Part(c.name, c(c.Config(select=["E", "F", "W", "B", "UP"]) if c is Ruff else c.Config()), identity(c.name), 1.0,
                  profile=p) for c, p in zip(classes, profiles)]
    return Rubric(spec, parts)


def timed(verifier, response: str, ctx) -> float:
    start = time.perf_counter()
    v = grade(verifier, None, Task(prompt="bench"), response, ctx)
    took = time.perf_counter() - start
    assert v.error is None and v.reward < 1.0, (v.error, v.details)  # the module has findings of every kind
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=7, help="rounds (each times every row once)")
    ap.add_argument("--threads", type=int, default=2 * (os.cpu_count() or 1), help="concurrent verifications (throughput)")
    ap.add_argument("--batch", type=int, default=12, help="verifications per throughput measurement")
    args = ap.parse_args()
    sb = get_sandbox()
    ctx = VerifyContext(profile=STATIC_PROFILE, _sandbox=sb)
    module, script = python_module(), bash_script()
    py, sh = f"```python\n{module}```\n", f"```bash\n{script}```\n"
    separate = [STATIC_PROFILE.merged(name=f"static-{i}") for i in range(3)]  # equal limits, distinct sessions
    rows = {
        "ruff": (Ruff(Ruff.Config(select=["E", "F", "W", "B", "UP"])), py),
        "mypy": (Mypy(Mypy.Config()), py),
        "bandit": (Bandit(Bandit.Config()), py),
        "shellcheck": (ShellCheck(ShellCheck.Config()), sh),
        "ruff (before)": (before(Ruff, select=["E", "F", "W", "B", "UP"]), py),
        "mypy (before)": (before(Mypy), py),
        "bandit (before)": (before(Bandit), py),
        "shellcheck (before)": (before(ShellCheck), sh),
        "rubric (shared session)": (rubric([None, None, None]), py),
        "rubric (one each)": (rubric(separate), py),
    }
    for verifier, response in rows.values():  # warm-up: imports, page cache
        timed(verifier, response, ctx)
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.n):
        for name, (verifier, response) in rows.items():
            times[name].append(timed(verifier, response, ctx))
    med = {name: statistics.median(t) for name, t in times.items()}
    print(f"200-line Python module ({len(module.splitlines())} lines), 200-line bash script; {args.n} rounds, "
          f"median seconds per verification in the sandbox")
    for name, m in med.items():
        print(f"  {name:26s} {m * 1000:8.1f} ms")
    for name in ("ruff", "mypy", "bandit", "shellcheck"):
        print(f"  {name}: {med[name] / med[name + ' (before)']:.2f}x its before row")
    slowest = max(med["ruff"], med["mypy"], med["bandit"])
    total = med["ruff"] + med["mypy"] + med["bandit"]
    for name in ("rubric (shared session)", "rubric (one each)"):
        print(f"  {name}: {med[name] / slowest:.2f}x its slowest part (mypy {med['mypy'] * 1000:.0f} ms), "
              f"{med[name] / total:.2f}x the sum of its parts")
    print(f"  shared session / one session each: {med['rubric (shared session)'] / med['rubric (one each)']:.2f}x latency")
    rates: dict[str, list[float]] = {"rubric (shared session)": [], "rubric (one each)": []}
    with ThreadPoolExecutor(args.threads) as pool:
        for _ in range(3):
            for name in rates:
                verifier, response = rows[name]
                start = time.perf_counter()
                list(pool.map(lambda _: timed(verifier, response, ctx), range(args.batch)))
                rates[name].append(args.batch / (time.perf_counter() - start))
    rate = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in rate.items():
        print(f"  {name:26s} {r:6.2f} verifications/s with {args.threads} at a time")
    print(f"  shared session / one session each: {rate['rubric (shared session)'] / rate['rubric (one each)']:.2f}x throughput")
    print(f"  machine: {os.cpu_count()} cores; {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
