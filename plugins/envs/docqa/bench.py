"""Benchmark: document generation time and size at 4k, 128k and 1M tokens, and verifications/s per
matcher. Prints medians over repeats and ratios against a baseline measured in the same run (the
core's plain `exact_match` verifier for matchers; the 4k document for generation), because the
machine is shared and absolute times are noisy.

    python plugins/envs/docqa/bench.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

from hub import Task
from hub.plugins.builtin.exact import ExactMatch
from hub.sandbox.profile import DEFAULT_PROFILES
from hub.core.verifier import VerifyContext
from rlhub_answer.plugin import AnswerConfig, AnswerMatch, Anls, DateMatch, ListF1, NumericMatch, TokenF1
from hub.core.family import FamilyEnvironment
from rlhub_docqa.env import DocQAFamily
from rlhub_docqa.tokens import approx_tokens


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_generation(repeats: int) -> None:
    print("generation (docqa/financials-arithmetic, median of", repeats, "seeds)")
    print(f"{'target':>9} {'median s':>9} {'x 4k':>7} {'chars':>11} {'~tokens':>9} {'words+punct':>12}")
    base = None
    for tokens in (4_000, 128_000, 1_000_000):
        env = FamilyEnvironment(f"docqa/bench-{tokens}-v1", DocQAFamily("financials", "arithmetic", tokens), "text")
        seeds = iter(range(10_000))
        t = median_time(lambda: env.make_task(next(seeds)), repeats if tokens < 1_000_000 else max(3, repeats // 2))
        text = env.make_task(0).prompt
        base = base or t
        words = len(re.findall(r"\w+|[^\w\s]", text))
        print(f"{tokens:>9,} {t:>9.3f} {t / base:>7.1f} {len(text):>11,} {approx_tokens(text):>9,} {words:>12,}")


CASES = [  # (verifier, gold, answer_type, response)
    (NumericMatch, 1_234_567, "number", r"The total is \boxed{\$1.23 million}"),
    (AnswerMatch, 12.3456, "percent", r"\boxed{12.35%}"),
    (AnswerMatch, "Acme Corporation", "text", "Final answer: acme corporation"),
    (TokenF1, "the cat sat on the mat", "text", r"\boxed{cat sat on a mat}"),
    (Anls, "Acme Corporation", "text", r"<answer>Acme Corporatoin</answer>"),
    (DateMatch, "2024-03-05", "date", r"\boxed{March 5, 2024}"),
    (ListF1, ["North", "South", "East West"], "list", r"\boxed{South; East West; North}"),
]


def bench_matchers(repeats: int, n: int = 2000) -> None:
    ctx = VerifyContext(profile=next(iter(DEFAULT_PROFILES.values())))

    def rate(verifier, task, response) -> float:
        return n / median_time(lambda: [verifier.verify(task, response, ctx) for _ in range(n)], repeats)

    baseline = rate(ExactMatch(ExactMatch.Config(extract="boxed")), Task(prompt="q", hidden={"answer": "42"}),
                    r"\boxed{42}")
    print(f"\nverifications/s (median of {repeats} x {n}); baseline core exact_match: {baseline:,.0f}/s")
    print(f"{'verifier':>16} {'type':>8} {'per s':>10} {'x baseline':>10}")
    for cls, gold, kind, response in CASES:
        v = cls(AnswerConfig())
        r = rate(v, Task(prompt="q", hidden={"answer": gold, "answer_type": kind}), response)
        print(f"{cls.name:>16} {kind:>8} {r:>10,.0f} {r / baseline:>10.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    bench_generation(args.repeats)
    bench_matchers(args.repeats)
