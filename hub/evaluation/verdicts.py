"""Verdicts for people: a readable view of one (`rlhub verify --explain`, `rlhub play`) and the
short reason a response failed (`rlhub eval`'s table and report count them).

Both read `Verdict.to_dict()` as it is stored in trajectories, whatever the verifier: the
pieces they know are common ones (components, tests passed, failures, collection errors, a
gate stage or reason, `X` beside `reference_X`/`expected_X`); everything else is printed as is.
Numbers are rounded here, for display only: the verdict itself is never changed.
"""

from __future__ import annotations

from typing import Any

MAX_LINES = 12  # of one traceback or long message: its last lines (where the error is)
MAX_ITEMS = 8  # failed tests listed by name
INLINE = 100  # a list or dict wider than this is shown one item a line (never cut)
_SKIP = {"verify_s", "timing_s", "tests_passed", "tests_total", "failures", "collect_errors", "stage", "reason",
         "verdict", "mismatches", "mismatch_data"}


def number(x: Any) -> str:
    """4 significant digits for floats (whole numbers from 10,000 up); everything else as it is."""
    if isinstance(x, bool) or not isinstance(x, float):
        return str(x)
    return f"{x:.4g}" if abs(x) < 1e4 else f"{x:.0f}"


def shown(value: Any) -> str:
    """A detail value on one line, whole: numbers rounded, nothing cut."""
    if isinstance(value, float):
        return number(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def item(key: str, value: Any) -> list[str]:
    """`key: value` on one line when it fits, else the value's items one a line (each whole)."""
    if isinstance(value, str) and "\n" in value:
        return [f"{key}:", *block(value)]
    line = f"{key}: {shown(value)}"
    if len(line) <= INLINE or not isinstance(value, (list, tuple, dict)) or not value:
        return [line]
    rows = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    return [f"{key}:"] + [f"  - {shown(v)}" if k is None else f"  {k}: {shown(v)}" for k, v in rows]


def mismatch_lines(details: dict[str, Any]) -> list[str]:
    """The verdict's mismatches (a mesh verdict's `mismatch_data`, else its `mismatches`), one a
    line, each whole and numbered as `verify --render` numbers them in its picture."""
    data = [m for m in details.get("mismatch_data") or () if isinstance(m, dict) and m.get("text")]
    if data:
        required = sum(bool(m.get("required", True)) for m in data)
        lines = [f"mismatches ({len(data)}; {required} fail the task, the rest only lower the score):"]
        for i, m in enumerate(data, 1):
            note = [] if m.get("required", True) else ["lowers the score only"]
            if isinstance(m.get("error"), (int, float)) and not isinstance(m.get("error"), bool):
                note.append(f"error {number(float(m['error']))}")
            lines.append(f"  {i}. {m['text']}" + (f"  [{', '.join(note)}]" if note else ""))
        return lines
    texts = [str(t) for t in details.get("mismatches") or ()]
    return [f"mismatches ({len(texts)}):", *(f"  {i}. {t}" for i, t in enumerate(texts, 1))] if texts else []


def block(text: str, indent: str = "    ", lines: int = MAX_LINES) -> list[str]:
    """A multi-line message unescaped and trimmed to its last `lines` lines."""
    rows = str(text).rstrip().splitlines()
    cut = len(rows) - lines
    head = [f"{indent}... ({cut} lines above)"] if cut > 0 else []
    return head + [indent + r for r in rows[-lines:]]


def reward_mode(config: dict[str, Any] | None) -> str:
    """What decides the reward, from the verifier's config: its reward, weight, mode, threshold settings."""
    if not config:
        return ""
    keys = [k for k in config if any(w in k for w in ("reward", "weight", "mode", "threshold"))]
    return ", ".join(f"{k}: {shown(config[k])}" for k in keys)


def explain(verdict: dict[str, Any], config: dict[str, Any] | None = None, expected: str | None = None,
            why: str | None = None) -> str:
    """A verdict (as `Verdict.to_dict()`) for a person. `config`: the verifier's config (for the
    reward mode); `expected`: the reference answer, shown when it is short; `why`: the verifier's
    account of the reward (`reward_why`)."""
    details = dict(verdict.get("details") or {})
    ident = verdict.get("verifier") or {}
    status = "NO VERDICT" if verdict.get("error") else ("PASSED" if verdict.get("passed") else "FAILED")
    lines = [f"{status}  reward {number(float(verdict.get('reward', 0.0)))}"
             + (f"  ({ident.get('name')} {ident.get('version')}, {ident.get('distribution')})" if ident else "")]
    mode = reward_mode(config)
    if mode:
        lines.append(f"reward mode: {mode}")
    if why:
        lines.append(f"why this reward: {why}")
    if verdict.get("error"):
        lines.append("error (not the model's doing; no reward is charged):")
        lines += block(verdict["error"])
    components = verdict.get("components") or {}
    if components:
        width = max(len(k) for k in components)
        lines.append("components:")
        lines += [f"  {k:<{width}}  {number(float(v))}" for k, v in components.items()]
    if "stage" in details:
        lines.append(f"stage: {details['stage']}")
    if details.get("verdict"):
        lines.append(f"verdict: {details['verdict']}")
    if "reason" in details:
        lines.append("reason:")
        lines += block(details["reason"])
    if "tests_total" in details:
        lines.append(f"tests: {details.get('tests_passed', 0)} of {details['tests_total']} passed")
    failures = details.get("failures") or {}
    if failures:
        lines.append("failed tests:")
        by_message: dict[str, list[str]] = {}
        for name, message in failures.items():  # the same message once, with every test it names
            by_message.setdefault(str(message).rstrip(), []).append(name)
        for message, names in list(by_message.items())[:MAX_ITEMS]:
            first, *rest = message.splitlines() or [""]
            who = names[0] if len(names) == 1 else f"{', '.join(names[:4])}{', ...' if len(names) > 4 else ''} ({len(names)} tests)"
            lines.append(f"  {who}: {first}")
            lines += block("\n".join(rest), indent="      ", lines=6) if rest else []
        if len(by_message) > MAX_ITEMS:
            lines.append(f"  ... and {len(by_message) - MAX_ITEMS} more")
    for error in details.get("collect_errors") or []:
        lines.append("the tests could not be collected:")
        lines += block(error)
    lines += mismatch_lines(details)
    pairs, rest = _pairs(details)
    if pairs:
        width = max(len(k) for k in pairs)
        lines.append("expected vs got:")
        lines += [f"  {k:<{width}}  expected {shown(want)}  got {shown(got)}" for k, (want, got) in pairs.items()]
    for key, value in rest.items():
        lines += item(key, value)
    if expected is not None and "\n" not in expected.strip() and len(expected.strip()) <= 200:
        lines.append(f"expected (the reference answer): {expected.strip()}")
    return "\n".join(lines)


def _pairs(details: dict[str, Any]) -> tuple[dict[str, tuple[Any, Any]], dict[str, Any]]:
    """`X` beside `reference_X` or `expected_X`, and {"expected": .., "got": ..} values; the rest."""
    pairs: dict[str, tuple[Any, Any]] = {}
    used: set[str] = set()
    for key, value in details.items():
        for prefix in ("reference_", "expected_"):
            if key.startswith(prefix) and key[len(prefix):] in details:
                name = key[len(prefix):]
                pairs[name] = (value, details[name])
                used |= {key, name}
        if isinstance(value, dict) and set(value) >= {"expected", "got"}:
            pairs[key] = (value["expected"], value["got"])
            used.add(key)
    rest = {k: v for k, v in details.items() if k not in used and k not in _SKIP}
    return pairs, rest


def failure_reason(record: dict[str, Any]) -> str | None:
    """Why a trajectory (or verdict) did not pass, in a few words that group well (causes.py)."""
    from .causes import failure_cause

    return failure_cause(record)


def reward_why(verifier: Any, verdict: dict[str, Any]) -> str | None:
    """The verifier's own account of why `verdict` earned its reward (`Verifier.explain_reward`),
    or None; an explanation that fails is left out (it is a nicety, never the verdict)."""
    method = getattr(verifier, "explain_reward", None)
    if method is None:
        return None
    try:
        return method(verdict)
    except Exception:  # noqa: BLE001
        return None
