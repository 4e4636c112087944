"""OpenRLHF's reward contract, shared by the reward-function file and `rlhub serve`.

OpenRLHF sends `queries` (prompt + response, decoded with special tokens), `prompts` and
`labels`, and expects `{"rewards": [...], "scores": [...], "extra_logs": {...}}` with one number
per query. It must always get numbers, in time: an exception or a None there fails training
much later with an unrelated error. So every failure becomes a defined reward plus a flag.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from typing import Any, Sequence

from .. import tracing
from ..core.errors import UserError
from .outcome import Outcome, parse_label, verify_one
from .policy import RewardPolicy, sample_logs, score
from .query import cut

log = logging.getLogger("rlhub.rewards")


def reply(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """OpenRLHF's reply: one reward and score per sample, and one flag list per key of
    `sample_logs` in extra_logs (the agent reports the same keys per step)."""
    rewards = [o.reward for o in outcomes]
    logs = [sample_logs(o.kind, o.passed, o.prompt_mismatch) for o in outcomes]
    keys = logs[0] if logs else sample_logs("ok", False)
    extra_logs = {key: [one[key] for one in logs] for key in keys}
    return {"rewards": rewards, "scores": [score(o.kind, o.reward) for o in outcomes], "extra_logs": extra_logs}


def score_batch(catalog: Any, queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any],
                policy: RewardPolicy | None = None, pool: ThreadPoolExecutor | None = None) -> dict[str, Any]:
    """Verify a batch; always returns one reward per query within `policy.deadline_s`."""
    policy = policy or RewardPolicy()
    n = len(queries)
    if len(prompts) != n or len(labels) != n:
        raise UserError(f"queries, prompts and labels must have the same length, got {n}, {len(prompts)}, {len(labels)}")
    parsed = [parse_label(raw, policy) for raw in labels]
    cuts = [cut(queries[i], prompts[i] or "") for i in range(n)]
    # a span per sample (OpenRLHF calls with one): a child of the caller's current span, if any
    samples = [tracing.start("rlhub.sample", attributes=sample_attributes(i, p)) for i, p in enumerate(parsed)]

    def one(i: int) -> Outcome:
        with tracing.use(samples[i]):
            return verify_one(catalog, parsed[i], cuts[i].response, policy)

    own_pool = pool is None
    pool = pool or ThreadPoolExecutor(max_workers=max(1, min(policy.max_workers, n)))
    outcomes: list[Outcome] = []
    try:
        futures = {i: pool.submit(one, i) for i, p in enumerate(parsed) if not isinstance(p, Outcome)}
        end = time.monotonic() + policy.deadline_s
        for i, label in enumerate(parsed):
            if isinstance(label, Outcome):
                outcomes.append(label)
                continue
            try:
                outcomes.append(futures[i].result(timeout=max(0.0, end - time.monotonic())))
            except FutureTimeout:
                futures[i].cancel()
                outcomes.append(Outcome.failed("timeout", f"no verdict within {policy.deadline_s:g} s", policy))
    finally:
        if own_pool:
            pool.shutdown(wait=False, cancel_futures=True)
    warn_bad_labels([o for o in outcomes if o.kind == "bad_label"])
    for o, c, span in zip(outcomes, cuts, samples):
        o.prompt_mismatch = c.prompt_mismatch
        end_sample(span, o)
    return reply(outcomes)


def sample_attributes(index: int, label: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {"rlhub.sample.index": index}
    if label is not None and not isinstance(label, Outcome):
        attrs["rlhub.env"] = label.env
        attrs["rlhub.label"] = label.to_json()[:200]
    return attrs


def end_sample(span: Any, outcome: Outcome) -> None:
    """End a sample's span with its verdict (the reply's reward and flags) as attributes."""
    if span.is_recording():
        tracing.end(span, **outcome.span_attributes())


def warn_bad_labels(outcomes: Sequence[Outcome]) -> None:
    """Bad labels are the data's fault, not the model's: worth a warning, once per batch."""
    if outcomes:
        log.warning("%d sample(s) with a bad label (reward %s, flagged rlhub/bad_label); the first: %s",
                    len(outcomes), outcomes[0].reward, outcomes[0].error)
