"""The special-case rule (rlhub_swe/shapes.py: `special_cased`) on every shipped real instance.

    python benchmarks/bench_swe_special_case.py

Per project: instances, how many have a FAIL_TO_PASS input the repository lacks (the rule can
refuse a fix that picks it out), and that no gold fix is refused (an assertion). Then the rule's
cost per answer, median and p90 in milliseconds: the first answer in a process (it reads the
repository's literals) and every answer after (cached), the test patch's application included.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PROJECTS = ("cachetools", "click", "docutils", "more-itertools", "sqlparse", "toolz")


def main() -> int:
    import hub
    from rlhub_swe import shapes, trees
    from rlhub_swe.verifier import SweHidden, SweTests, _test_files

    cat = hub.load(None)
    first, again = [], []
    for project in PROJECTS:
        env, seen, active = f"swe/real-{project}-diff-v1", set(), 0
        for seed in range(10_000):
            task = cat.task({"env": env, "seed": seed})
            if task.prompt in seen:  # the seeds wrap around the instances
                break
            seen.add(task.prompt)
            h = SweHidden.model_validate(task.hidden)
            base = trees.base_tree(h.base)
            gold = SweTests._gold_tree(task, base)
            for times in (first, again):
                t0 = time.perf_counter()
                tests = _test_files(h, base)
                refused = shapes.special_cased(base, gold, gold, tests, h.fail_to_pass)
                times.append(time.perf_counter() - t0)
                assert refused is None, f"{env} seed {seed}: the gold fix is refused: {refused}"
            inputs = shapes.test_literals(tests, h.fail_to_pass)
            for tree in (base, gold):
                inputs -= {v for p, t in tree.items() if p.endswith(".py") and not shapes._is_test(p, tests)
                           for v in shapes._known(t)}
            active += bool(inputs)
        print(f"{project:15s} {len(seen):4d} instances, {active:4d} with a failing test's input the repository lacks; gold never refused")

    def q(xs, f):
        return 1000 * sorted(xs)[min(len(xs) - 1, int(len(xs) * f))]

    print(f"first answer in a process: median {1000 * statistics.median(first):.1f} ms, p90 {q(first, 0.9):.1f} ms")
    print(f"later answers:             median {1000 * statistics.median(again):.1f} ms, p90 {q(again, 0.9):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
