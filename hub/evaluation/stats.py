"""What an eval's numbers can support: stratified draws, 95 % intervals, pass@k, and run
comparisons.

- Draws are per environment (`per_env` tasks each, distinct), not by training weight: a weight
  says how often to train on an environment, not how much to trust its score.
- Means are over the samples that got a verdict; samples without one are their own count and
  rate (never a silent 0 in a mean).
- Intervals: Wilson's for pass rates (right near 0 and 1, where evals live), Student's t for mean
  rewards, Welch's for differences between two runs.
- pass@k: the unbiased estimator of Chen et al. (2021), 1 - C(n-c, k) / C(n, k), averaged over tasks.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import defaultdict
from typing import Any, Iterable

from scipy import stats as _st

from ..core.errors import UserError

Z95 = 1.959963984540054
EXAMPLE_TAG = "example"  # environments that show the machinery (arith/*): out of a default eval


def wilson(passes: int, n: int) -> tuple[float | None, float | None]:
    """The 95 % Wilson score interval of a pass rate (None without samples)."""
    if n == 0:
        return (None, None)
    p = passes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float]) -> tuple[float | None, float | None, float | None]:
    """(mean, low, high): the mean and its 95 % Student-t interval (a point for one value; None
    without values: no mean is better than a made-up 0)."""
    n = len(values)
    if n == 0:
        return (None, None, None)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = _st.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return (mean, max(0.0, mean - half), min(1.0, mean + half))


def welch(a: list[float], b: list[float]) -> tuple[float | None, float | None, float | None]:
    """(mean(b) - mean(a), low, high): the difference and its 95 % Welch interval (None if a side is empty)."""
    if not a or not b:
        return (None, None, None)
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) if len(a) > 1 else 0.0
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) if len(b) > 1 else 0.0
    se2 = va / len(a) + vb / len(b)
    if se2 == 0:
        return (mb - ma, mb - ma, mb - ma)
    dof = se2 ** 2 / ((va / len(a)) ** 2 / max(1, len(a) - 1) + (vb / len(b)) ** 2 / max(1, len(b) - 1))
    half = _st.t.ppf(0.975, max(1.0, dof)) * math.sqrt(se2)
    return (mb - ma, mb - ma - half, mb - ma + half)


def pass_at_k(n: int, c: int, k: int) -> float:
    """The chance that at least one of k of the n attempts (c of them passing) passes."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def stratified_labels(catalog, per_env: int, seed: int, select: str | None = None, tag: str | None = None,
                      n: int | None = None) -> list[str]:
    """`per_env` distinct tasks of each selected environment (drawn from (seed, env id) alone), or,
    with `n` and no `per_env`, `n` tasks spread as evenly as the environments allow: round-robin
    over domains, then over each domain's environments. Examples are left out unless a selection
    or a tag names what to evaluate."""
    envs = catalog.select(select)
    if tag:
        envs = [e for e in envs if tag in e.tags]
        if not envs:
            raise UserError(f"--tag {tag!r}: no selected environment has it")
    elif not select:
        envs = [e for e in envs if EXAMPLE_TAG not in e.tags] or envs
    if not envs:
        raise UserError("no environment selected: nothing to evaluate")
    quota = _quota(envs, per_env, n)
    labels = []
    for renv in envs:
        k = quota.get(renv.id, 0)
        if not k:
            continue
        rng = random.Random(int.from_bytes(hashlib.sha256(f"eval\x00{seed}\x00{renv.id}".encode()).digest()[:8], "big"))
        space = renv.num_tasks if renv.num_tasks is not None else 2 ** 31
        indices = rng.sample(range(space), min(k, space))
        labels += [renv.label(i).to_json() for i in indices]
    return labels


def _quota(envs: list, per_env: int, n: int | None) -> dict[str, int]:
    if per_env:
        return {e.id: per_env for e in envs}
    if not n or n <= 0:
        raise UserError(f"--n must be a positive number of tasks, got {n}: nothing to evaluate")
    by_domain: dict[str, list[str]] = defaultdict(list)
    for e in envs:
        by_domain[e.domain].append(e.id)
    order = []  # domain 1's first env, domain 2's first, ..., then each domain's second, ...
    queues = [list(ids) for _, ids in sorted(by_domain.items())]
    while any(queues):
        for q in queues:
            if q:
                order.append(q.pop(0))
    quota = {e: 0 for e in order}
    for i in range(n):
        quota[order[i % len(order)]] += 1
    return quota


def fmt(x: float | None, spec: str = ".3f") -> str:
    """A figure for a table: `-` for none."""
    return "-" if x is None else format(x, spec)


def interval(ci: list[float | None], spec: str = ".3f") -> str:
    lo, hi = ci
    return "-" if lo is None else f"[{format(lo, spec)}, {format(hi, spec)}]"


def _group(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        env = r.get("env") or "?"
        groups[env].append(r)
        groups[f"{env.split('/')[0]}/*"].append(r)
        groups["all"].append(r)
    return groups


def scored(records: list[dict[str, Any]], attempts: int = 1) -> dict[str, Any]:
    """The figures of a group: counts, the no-verdict count and rate, the mean reward and pass
    rate over samples with a verdict and their 95 % intervals, pass@k for k up to `attempts`."""
    judged = [r for r in records if r.get("error") is None]
    rewards = [float(r.get("reward") or 0.0) for r in judged]
    passes = sum(bool(r.get("passed")) for r in judged)
    mean, lo, hi = mean_interval(rewards)
    plo, phi = wilson(passes, len(judged))
    out = {"n": len(records), "judged": len(judged), "no_verdict": len(records) - len(judged),
           "no_verdict_rate": (len(records) - len(judged)) / len(records) if records else 0.0,
           "reward": mean, "reward_ci": [lo, hi],
           "pass_rate": passes / len(judged) if judged else None, "pass_ci": [plo, phi]}
    if attempts > 1:
        by_task: dict[str, list[dict]] = defaultdict(list)
        for r in judged:
            by_task[r["label"]].append(r)
        for k in sorted({1, attempts} | ({2} if attempts > 2 else set())):
            per = [pass_at_k(len(rs), sum(bool(x.get("passed")) for x in rs), k) for rs in by_task.values() if len(rs) >= k]
            out[f"pass@{k}"] = sum(per) / len(per) if per else None
    return out


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Per environment, domain and overall (on the environments both runs hold): the difference
    of mean reward (b - a) and pass rate, with 95 % Welch intervals; what only one run holds."""
    ga, gb = _group(a), _group(b)
    envs_a = {k for k in ga if "/" in k and not k.endswith("/*")}
    envs_b = {k for k in gb if "/" in k and not k.endswith("/*")}
    shared = envs_a & envs_b
    both_a = [r for r in a if r.get("env") in shared]
    both_b = [r for r in b if r.get("env") in shared]
    ga, gb = _group(both_a), _group(both_b)
    rows = []
    for key in sorted(gb, key=lambda k: (k == "all", k.endswith("/*"), k)):
        if key not in ga:
            continue
        ra = [float(r.get("reward") or 0.0) for r in ga[key] if r.get("error") is None]
        rb = [float(r.get("reward") or 0.0) for r in gb[key] if r.get("error") is None]
        pa = [float(bool(r.get("passed"))) for r in ga[key] if r.get("error") is None]
        pb = [float(bool(r.get("passed"))) for r in gb[key] if r.get("error") is None]
        d, lo, hi = welch(ra, rb)
        dp, plo, phi = welch(pa, pb)
        rows.append({"env": key, "n_a": len(ra), "n_b": len(rb),
                     "reward_a": sum(ra) / len(ra) if ra else None,
                     "reward_b": sum(rb) / len(rb) if rb else None,
                     "delta": d, "delta_ci": [lo, hi], "pass_delta": dp, "pass_delta_ci": [plo, phi],
                     "significant": lo is not None and (lo > 0 or hi < 0)})
    return {"rows": rows, "only_a": sorted(envs_a - envs_b), "only_b": sorted(envs_b - envs_a)}

