"""The verifier checks every environment must pass (collected by the pytest plugin).

Each check takes the catalog, a resolved environment and a task index, and raises
`CheckFailed` with a message that says what went wrong.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Callable

from ..core.variant import Variant
from ..core.task import Label, Task
from .forms import generic_forms

MALFORMED = [
    "\x00\x01\x02 garbage \ufffd",
    "```\n```",
    "I don't know.",
    "A" * 100_000,
    "<answer></answer> \\boxed{} ```python\nraise SystemExit(0)\n```",
]


class CheckFailed(AssertionError):
    pass


class CheckSkipped(Exception):
    """The check does not apply to this environment (reported as a skip, with the reason)."""


def task_digest(task: Task) -> str:
    body = json.dumps({"prompt": task.prompt, "hidden": task.hidden, "reference": task.reference},
                      sort_keys=True, default=repr)
    return hashlib.sha256(body.encode() + b"".join(task.images)).hexdigest()


def _verdict(cat, label: Label, response: str, task: Task, fresh: bool = False):
    """A verdict, memoised per (label, what the verifier reads of the response) across checks:
    the same reference is graded by several checks (and in several forms that extract to the same
    code), and sandboxed verification (a CAD part, a test suite) is the costly part. `fresh`
    bypasses the memo, for the check that verification is deterministic."""
    memo = cat.__dict__.setdefault("_check_verdicts", {})
    read_as = cat.get(label.env).verifier.response_key(task, response)
    key = (label.to_json(), read_as if read_as is not None else
           hashlib.sha256(response.encode("utf-8", "surrogatepass")).hexdigest())
    v = None if fresh else memo.get(key)
    if v is None:
        v = cat.verify(label, response, task=task)
        memo.setdefault(key, v)
    if v.error:
        raise CheckFailed(f"{label.to_json()}: no verdict: {v.error}")
    return v


def check_reference(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    if not task.reference.strip():
        raise CheckFailed(f"{label.to_json()}: the task has no reference solution")
    v = _verdict(cat, label, task.reference, task)
    if not (v.passed and v.reward == 1.0):
        raise CheckFailed(f"{label.to_json()}: reference earned reward {v.reward} passed={v.passed}: {v.details}")


def check_empty(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    for response in ("", "   \n\t "):
        v = _verdict(cat, label, response, task)
        if v.passed or v.reward >= 1.0:
            raise CheckFailed(f"{label.to_json()}: empty response {response!r} earned {v.reward}")


def check_malformed(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    for response in MALFORMED:
        v = _verdict(cat, label, response, task)
        if v.passed or v.reward >= 1.0:
            raise CheckFailed(f"{label.to_json()}: malformed response {response[:40]!r} earned {v.reward}")


def _wrong_variants(cat, renv, index: int, task: Task) -> list[Variant]:
    """The environment's wrong answers, plus the reference of a different task of it."""
    wrong = list(renv.env.wrong_answers(task))
    for other in range(index + 1, index + 6):
        if renv.num_tasks is not None and other >= renv.num_tasks:
            break
        other_ref = cat.task(renv.label(other)).reference
        if other_ref.strip() != task.reference.strip():
            wrong.append(Variant(kind="other_task", response=other_ref, note=f"the reference of task {other}"))
            break
    return wrong


def check_wrong(cat, renv, index: int) -> None:
    """Every known kind of wrong answer fails, scores below the reference (and at most its
    `max_reward`), and within a kind a larger error never scores higher than a smaller one."""
    label = renv.label(index)
    task = cat.task(label)
    wrong = _wrong_variants(cat, renv, index, task)
    if not wrong:
        raise CheckFailed(f"{label.to_json()}: no wrong answer to try (define wrong_answers on the environment)")
    ref = _verdict(cat, label, task.reference, task).reward
    _assert_rejected(cat, label, task, wrong, ref)


def _assert_rejected(cat, label: Label, task: Task, variants: list[Variant], ref: float) -> None:
    by_kind: dict[str, list[tuple[float, float, Variant]]] = {}
    problems = []
    for variant in variants:
        v = _verdict(cat, label, variant.response, task)
        what = f"{variant.kind}" + (f" ({variant.note})" if variant.note else "")
        if v.passed or v.reward >= ref:
            problems.append(f"{what} earned {v.reward:.4g} (reference {ref:.4g}, passed={v.passed})")
        elif variant.max_reward is not None and v.reward > variant.max_reward + 1e-9:
            problems.append(f"{what} earned {v.reward:.4g}, more than its cap {variant.max_reward:.4g}")
        by_kind.setdefault(variant.kind, []).append((variant.size, v.reward, variant))
    for kind, rows in by_kind.items():
        rows.sort(key=lambda r: r[0])
        for (small, r_small, _), (large, r_large, _) in zip(rows, rows[1:]):
            if large > small and r_large > r_small + 1e-9:
                problems.append(f"{kind}: an error of size {large:g} earned {r_large:.4g}, more than size {small:g} ({r_small:.4g})")
    if problems:
        raise CheckFailed(f"{label.to_json()}: " + "; ".join(problems))


def check_right_forms(cat, renv, index: int) -> None:
    """Every accepted form of a right answer earns what the reference earns: the environment's
    own (a number written another way, a list in another order) and the generic ones (the
    reference after reasoning in <think>, its code block fenced the other ways models fence)."""
    label = renv.label(index)
    task = cat.task(label)
    forms = [("declared by the environment", f) for f in renv.env.right_answers(task)]
    forms += generic_forms(task.reference)
    ref = _verdict(cat, label, task.reference, task)
    bad = []
    for what, form in forms:
        v = _verdict(cat, label, form, task)
        if v.reward != ref.reward or v.passed != ref.passed:
            bad.append(f"{what}: {form[:120]!r} earned {v.reward:.4g} passed={v.passed}: {str(v.details)[:300]}")
    if bad:
        raise CheckFailed(f"{label.to_json()}: right answers rejected (reference {ref.reward:.4g}): " + "; ".join(bad))


def check_hacks(cat, renv, index: int) -> None:
    """The verifier's reward hacks, shaped for this task, earn nothing."""
    label = renv.label(index)
    task = cat.task(label)
    hacks = [h if h.max_reward is not None else Variant(h.kind, h.response, h.size, h.note, 0.0)
             for h in renv.verifier.hacks(task)]
    if not hacks:
        raise CheckSkipped(f"verifier {renv.identity.name} declares no reward hacks")
    _assert_rejected(cat, label, task, hacks, _verdict(cat, label, task.reference, task).reward)


def check_verifier_deterministic(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    candidates = [task.reference, *renv.env.wrong_responses(task)[:1], ""]
    for response in candidates:
        a, b = _verdict(cat, label, response, task), _verdict(cat, label, response, task, fresh=True)
        if (a.reward, a.passed, a.components) != (b.reward, b.passed, b.components):
            raise CheckFailed(f"{label.to_json()}: two verifications of the same response differ: "
                              f"{a.reward}/{a.components} vs {b.reward}/{b.components}")


def check_generation_deterministic(cat, renv, index: int, other_process: dict[str, dict] | None = None) -> None:
    label = renv.label(index)
    first, second = task_digest(cat.task(label)), task_digest(cat.task(label))
    if first != second:
        raise CheckFailed(f"{label.to_json()}: generating the task twice in one process gave different tasks")
    if other_process is None:
        return
    got = other_process.get(label.to_json()) or {"error": "no answer"}
    if "error" in got:
        raise CheckFailed(f"{label.to_json()}: another process could not generate the task: {got['error']}")
    if got["digest"] != first:
        raise CheckFailed(f"{label.to_json()}: another process (other hash seed) generated a different task")


def check_reference_fresh_process(cat, renv, index: int, other_process: dict[str, dict] | None = None) -> None:
    """The reference earns full reward also when the task is rebuilt and graded in a fresh
    interpreter with no caches (a reference whose build differs run to run fails here)."""
    label = renv.label(index).to_json()
    got = (other_process or {}).get(label)
    if got is None:
        raise CheckFailed(f"{label}: no verdict from the fresh process")
    if "reward" not in got:
        raise CheckFailed(f"{label}: a fresh process could not grade the reference: {got['error']}")
    if got["error"] or not (got["passed"] and got["reward"] == 1.0):
        raise CheckFailed(f"{label}: in a fresh process the reference earned {got['reward']} passed={got['passed']}"
                          f"{' error=' + got['error'] if got['error'] else ''}: {got['details']}")


def check_no_leak(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    prompt = task.prompt_text()
    for secret in renv.env.secrets(task):
        secret = str(secret).strip()
        if len(secret) < 4:  # too short to tell a leak from a coincidence
            continue
        if re.search(r"(?<![\w.])" + re.escape(secret) + r"(?![\w])", prompt):
            raise CheckFailed(f"{label.to_json()}: the prompt contains hidden data {secret[:80]!r}")


CHECKS: dict[str, Callable[..., None]] = {
    "reference_full_reward": check_reference,
    "empty_fails": check_empty,
    "malformed_fails": check_malformed,
    "wrong_fails": check_wrong,
    "right_forms_pass": check_right_forms,
    "hacks_fail": check_hacks,
    "verifier_deterministic": check_verifier_deterministic,
    "generation_deterministic": check_generation_deterministic,
    "reference_fresh_process": check_reference_fresh_process,
    "no_leak": check_no_leak,
}


# The checks that compare against a second interpreter (`other_process.OtherProcess`), and
# what they ask it for.
OTHER_PROCESS = {"generation_deterministic": "digests", "reference_fresh_process": "references"}


# What `rlhub check --quick` leaves out (with one seed): everything that re-verifies determinism
# or needs the second, fresh interpreter. The edit loop's tier: it proves less, and CI never runs it.
QUICK_SKIPS = ("verifier_deterministic", "generation_deterministic", "reference_fresh_process")


def planned(renv, seeds: int, quick: bool = False) -> list[tuple[str, int]]:
    """The (check, task index) pairs run for one environment, in order (`quick`: without QUICK_SKIPS)."""
    n = seeds if renv.num_tasks is None else min(seeds, renv.num_tasks)
    return [(name, index) for name in CHECKS if not (quick and name in QUICK_SKIPS) for index in range(n)]


def run_check(cat, renv, check: str, index: int, other_process: Callable[[str], dict]) -> None:
    """Run one check; raises CheckFailed or CheckSkipped. `other_process(what)` gives the second
    interpreter's answers for this environment's labels (called only by the checks that need it)."""
    what = OTHER_PROCESS.get(check)
    if what:
        CHECKS[check](cat, renv, index, other_process=other_process(what))
    else:
        CHECKS[check](cat, renv, index)
