"""The verifier checks every environment must pass (collected by the pytest plugin).

Each check takes the catalog, a resolved environment and a task index, and raises
`CheckFailed` with a message that says what went wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from typing import Callable

from .task import Label, Task

MALFORMED = [
    "\x00\x01\x02 garbage \ufffd",
    "```\n```",
    "I don't know.",
    "A" * 100_000,
    "<answer></answer> \\boxed{} ```python\nraise SystemExit(0)\n```",
]


class CheckFailed(AssertionError):
    pass


def task_digest(task: Task) -> str:
    body = json.dumps({"prompt": task.prompt, "hidden": task.hidden, "reference": task.reference},
                      sort_keys=True, default=repr)
    return hashlib.sha256(body.encode() + b"".join(task.images)).hexdigest()


def _verdict(cat, label: Label, response: str, task: Task, fresh: bool = False):
    """A verdict, memoised per (label, response) across checks: the same reference is graded by
    several checks, and sandboxed verification (a CAD part, a test suite) is the costly part.
    `fresh` bypasses the memo, for the check that verification is deterministic."""
    memo = cat.__dict__.setdefault("_check_verdicts", {})
    key = (label.to_json(), hashlib.sha256(response.encode("utf-8", "surrogatepass")).hexdigest())
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


def check_wrong(cat, renv, index: int) -> None:
    """Plausible wrong answers: the environment's own, and the reference of a different task."""
    label = renv.label(index)
    task = cat.task(label)
    wrong = list(renv.env.wrong_responses(task))
    for other in range(index + 1, index + 6):
        if renv.num_tasks is not None and other >= renv.num_tasks:
            break
        other_ref = cat.task(renv.label(other)).reference
        if other_ref.strip() != task.reference.strip():
            wrong.append(other_ref)
            break
    if not wrong:
        raise CheckFailed(f"{label.to_json()}: no wrong answer to try (define wrong_responses on the environment)")
    ref = _verdict(cat, label, task.reference, task).reward
    for response in wrong:
        v = _verdict(cat, label, response, task)
        if v.passed or v.reward >= ref:
            raise CheckFailed(f"{label.to_json()}: wrong response earned {v.reward} (reference {ref}): {response[:200]!r}")


def check_verifier_deterministic(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    candidates = [task.reference, *renv.env.wrong_responses(task)[:1], ""]
    for response in candidates:
        a, b = _verdict(cat, label, response, task), _verdict(cat, label, response, task, fresh=True)
        if (a.reward, a.passed, a.components) != (b.reward, b.passed, b.components):
            raise CheckFailed(f"{label.to_json()}: two verifications of the same response differ: "
                              f"{a.reward}/{a.components} vs {b.reward}/{b.components}")


def check_generation_deterministic(cat, renv, index: int, other_process: dict[str, str] | None = None) -> None:
    label = renv.label(index)
    first, second = task_digest(cat.task(label)), task_digest(cat.task(label))
    if first != second:
        raise CheckFailed(f"{label.to_json()}: generating the task twice in one process gave different tasks")
    if other_process is not None and other_process.get(label.to_json()) != first:
        raise CheckFailed(f"{label.to_json()}: another process (other hash seed) generated a different task")


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
    "verifier_deterministic": check_verifier_deterministic,
    "generation_deterministic": check_generation_deterministic,
    "no_leak": check_no_leak,
}


def digests_in_other_process(registry: str, labels: list[str]) -> dict[str, str]:
    """Task digests computed in a fresh interpreter with another hash seed (one process for all)."""
    code = (
        "import json, sys\n"
        "from hub.catalog import Catalog\n"
        "from hub.checks import task_digest\n"
        "cat = Catalog.load(sys.argv[1])\n"
        "labels = json.load(sys.stdin)\n"
        "json.dump({l: task_digest(cat.task(l)) for l in labels}, sys.stdout)\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run([sys.executable, "-c", code, registry], input=json.dumps(labels),
                          capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0:
        raise CheckFailed(f"generating tasks in another process failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def run_checks(registry: str | None, select: str | None, seeds: int, fail_fast: bool = False,
               verbose: bool = False, json_out: bool = False, workers: int = 0) -> int:
    """`rlhub check`: pytest over the registry file with the rlhub plugin."""
    import pytest

    from .registry import default_path

    path = str(registry or default_path())
    args = [path, f"--rlhub-registry={path}", f"--rlhub-seeds={seeds}", "-p", "no:cacheprovider",
            "--rootdir", os.path.dirname(os.path.abspath(path)) or "."]
    if select:
        args.append(f"--rlhub-select={select}")
    if fail_fast:
        args.append("-x")
    args.append("-v" if verbose else "-q")
    summary = _Summary()
    code = pytest.main(args, plugins=[summary])
    if json_out:
        print(json.dumps({"exit_code": int(code), **summary.counts, "failures": summary.failures}))
    return 0 if code == 0 else (2 if code in (3, 4) else 1)


class _Summary:
    def __init__(self) -> None:
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        self.failures: list[dict[str, str]] = []

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            self.counts[report.outcome] = self.counts.get(report.outcome, 0) + 1
            if report.failed:
                self.failures.append({"check": report.nodeid, "message": str(report.longrepr)[-1000:]})
