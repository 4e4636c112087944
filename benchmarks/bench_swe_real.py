"""The shipped real projects' instances (swe/real-*) and `rlhub swe build` builds, measured.

    python benchmarks/bench_swe_real.py [--per-project N] [--builds DIR ...]

  gold / empty      per project: the share of instances whose gold fix earns 1.0 and whose empty
                    answer (a comment-only change) earns 0 (both must be 100 %)
  grading           per project: swe_tests grading the gold fix, median and p90 seconds; baseline: a
                    three-test pytest file through the same harness and warm pool, in the same run
  build             for each --builds DIR (a `rlhub swe build` output): validated instances per
                    minute on this machine, and why candidates were dropped (report.json)

`uptime` is printed before and after: the figures mean little on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PYTEST_FILE = "def test_a():\n    assert 1 + 1 == 2\n\n\ndef test_b():\n    assert 'ab' + 'c' == 'abc'\n\n\ndef test_c():\n    assert [1][0] == 1\n"


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def p90(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.9 * len(xs))) - 1)]


def baseline(n: int) -> float:
    from hub.sandbox import get_sandbox
    from rlhub_swe.inprocess import HARNESS
    from rlhub_swe.plugin import SWE_PROFILE

    sandbox, times = get_sandbox(), []
    for _ in range(n):
        t = time.perf_counter()
        sandbox.call(SWE_PROFILE, HARNESS, files={"test_x.py": PYTEST_FILE}, args={"ids": ["test_x.py"], "timeout_s": 10})
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-project", type=int, default=0, help="instances per project (default: all)")
    ap.add_argument("--builds", nargs="*", default=[], metavar="DIR", help="build outputs whose report.json to summarise")
    args = ap.parse_args()
    import hub
    from rlhub_swe import real

    print(uptime())
    base = baseline(7)
    print(f"baseline: a 3-test pytest file through the harness, median {base:.3f} s")
    catalog = hub.load(None)
    print(f"{'project':<18}{'n':>5}{'gold 1.0':>10}{'empty 0':>9}{'grade p50':>11}{'p90':>8}{'x base':>8}")
    for pin in sorted(real.pins().values(), key=lambda p: p.slug):
        env = f"swe/real-{pin.slug}-diff-v1"
        n = pin.instances if not args.per_project else min(args.per_project, pin.instances)
        gold_ok = empty_ok = 0
        times = []
        for i in range(n):
            label = {"env": env, "seed": i}
            task = catalog.task(label)
            t = time.perf_counter()
            gold = catalog.verify(label, task.reference)
            times.append(time.perf_counter() - t)
            gold_ok += gold.reward == 1.0
            comment = catalog.get(env).env.wrong_answers(task)[0].response
            empty_ok += catalog.verify(label, comment).reward == 0.0
        med = statistics.median(times)
        print(f"{pin.slug:<18}{n:>5}{gold_ok / n:>10.0%}{empty_ok / n:>9.0%}{med:>10.2f}s{p90(times):>7.2f}s"
              f"{med / base:>7.1f}x")
    for d in args.builds:
        with open(os.path.join(d, "report.json"), encoding="utf-8") as f:
            r = json.load(f)
        rate = r["kept"] / (r["seconds"] / 60) if r["seconds"] else 0.0
        why = ", ".join(f"{n} {w}" for w, n in sorted(r["dropped"].items(), key=lambda x: -x[1]))
        print(f"build {r['project']} {r['version']}: {r['kept']} of {r['candidates']} candidates kept in {r['seconds']:.0f} s "
              f"({rate:.1f}/min; {r['lines']} source lines, {r['tests_kept']}/{r['tests_found']} tests kept); dropped: {why}")
    print(uptime())
    return 0


if __name__ == "__main__":
    sys.exit(main())
