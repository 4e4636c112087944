"""Why a sample failed, in a few words that group well (`rlhub eval`'s table, the report): read
from the verdict as it is stored in a trajectory, whatever the verifier.

The cause comes from what the verdict itself says, before any guess: no verdict (`error`, and
what kind), a reply cut at --max-tokens, forged results (`tampering`), a time or memory limit,
a refused answer (`refused`, a gate `stage`), then the exceptions that stopped the candidate's
code (in `collect_errors`, a gate's `reason`, or every failed test's message): an import error is
"import error", never a "wrong answer". Only a graded answer that ran and was wrong is a wrong
answer. A session that ran out of turns without submitting says so after its cause.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_EXCEPTION = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Exit|Interrupt))\b")
_IMPORT = {"ImportError", "ModuleNotFoundError"}
_SYNTAX = {"SyntaxError", "IndentationError", "TabError"}
_TIMEOUT = re.compile(r"timed out|timeout|took longer than|ran past the .* limit|time limit", re.I)
_MEMORY = re.compile(r"out of memory|MemoryError|memory limit", re.I)
_GATES = {"no_code": "no code", "syntax": "syntax error", "policy": "refused: policy", "result": "no result",
          "memory": "memory limit", "timeout": "timeout", "wrong_size": "wrong answer (wrong size)",
          "invalid": "invalid part", "too_complex": "refused: too complex"}
_REASON_WORDS = 8  # an unclassified reason is grouped by its first words


def exception_in(text: Any) -> str | None:
    found = _EXCEPTION.search(str(text or ""))
    return found.group(1) if found else None


def _from_exception(kind: str | None) -> str | None:
    if kind in _IMPORT:
        return "import error"
    if kind in _SYNTAX:
        return "syntax error"
    if kind == "MemoryError":
        return "memory limit"
    if kind and kind not in ("AssertionError",):
        return f"raised {kind}"
    return None


def _failed_tests(details: dict[str, Any]) -> str | None:
    """The cause every failed test shares (the exception most of them raised), if not an assertion."""
    failures = details.get("failures")
    if not isinstance(failures, dict) or not failures:
        return None
    kinds = Counter(exception_in(m) for m in failures.values())
    kind, count = kinds.most_common(1)[0]
    if count * 2 <= len(failures):  # no exception most tests share: they ran and asserted
        return None
    return _from_exception(kind)


def failure_cause(record: dict[str, Any]) -> str | None:
    """Why a trajectory (or verdict) did not pass; None if it passed."""
    if record.get("passed") and not record.get("error"):
        return None
    error = record.get("error")
    if error:
        if _TIMEOUT.search(str(error)):
            return "no verdict: timeout"
        kind = exception_in(error) or str(error).split(":", 1)[0][:40]
        return f"no verdict: {kind}"
    turns = record.get("turns") or []
    if turns and turns[-1].get("finish_reason") == "length":
        return "truncated (max tokens)"
    details = record.get("details") if isinstance(record.get("details"), dict) else {}
    cause = _cause(details, record.get("components") or {})
    episode = details.get("episode")
    if isinstance(episode, dict) and episode.get("submitted") is False:
        cause += " (out of turns)"
    return cause


def _cause(details: dict[str, Any], components: dict[str, Any]) -> str:
    if details.get("tampering"):
        return "tampering"
    reason = str(details.get("reason") or "")
    stage = details.get("stage")
    if details.get("timed_out") or stage == "timeout" or (reason and _TIMEOUT.search(reason)):
        return "timeout"
    if stage == "memory" or _MEMORY.search(reason) or any(_MEMORY.search(str(x)) for x in details.get("limits_hit") or ()):
        return "memory limit"
    if details.get("refused"):
        return f"refused: {details['refused']}"
    stopped = [*map(str, details.get("collect_errors") or ())]
    if stage and stage != "graded":
        stopped.append(reason)
    for text in stopped:  # what stopped the code before any test or measurement
        found = _from_exception(exception_in(text))
        if found:
            return found
    if stage and stage != "graded":
        return _GATES.get(stage, f"rejected: {stage}")
    if details.get("collect_errors"):
        return "tests did not run"
    found = _failed_tests(details)
    if found:
        return found
    if "tests_total" in details or stage == "graded" or components:
        parts = {k: v for k, v in components.items() if k != "gate" and isinstance(v, (int, float))}
        if len(parts) > 1:  # a graded answer: its weakest measure says most
            return f"wrong answer (weakest: {min(parts, key=lambda k: parts[k])})"
        return "wrong answer"
    if reason:
        words = reason.split()
        return " ".join(words[:_REASON_WORDS]) + (" ..." if len(words) > _REASON_WORDS else "")
    return "wrong answer"
