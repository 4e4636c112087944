"""Test adequacy by mutation: how many near-misses of a task's reference its hidden tests catch.

Every mutant of the reference (rlhub_terminal.mutation) runs against the task's hidden tests in
one sandbox call (mutation_runner). A mutant that passes them all *survived*: a behaviour the
tests do not check, unless the family declares it equivalent (`Spec.equivalent`: text found in
the mutant's `what`, and the reason it cannot change the result on any input the task allows;
`A ... B` matches A followed later by B).

    score = killed / (mutants - declared equivalents)

A declaration all of whose mutants the tests kill is wrong (they are not equivalent) and is
reported as such; one that matches no mutant of this task is reported as unmatched (informative:
a seed may lack the code it names).
"""

from __future__ import annotations

import re
from typing import Any

from .family import Spec
from .mutation import mutants

RUNNER = "rlhub_terminal.mutation_runner:run"
BUDGET_S = 240.0  # one call's time for all mutants; a family that needs more has too slow a reference


def report(spec: Spec, language: str, solution_path: str, ctx) -> dict[str, Any]:
    """{"score", "killed", "considered", "survivors", "equivalent", "misdeclared", "timeouts", "error"}."""
    made = mutants(spec.reference, language)
    profile = ctx.profile.merged(wall_timeout_s=BUDGET_S + 30, cpu_s=int(BUDGET_S + 30))
    result = ctx.sandbox.call(profile, RUNNER, files={}, args={
        "tests": spec.tests, "test_ids": spec.test_ids, "solution_path": solution_path, "files": dict(spec.files),
        "reference": spec.reference, "mutants": [[m.name, m.source] for m in made], "budget_s": BUDGET_S})
    out: dict[str, Any] = {"mutants": len(made), "error": None}
    value = result.value if isinstance(result.value, dict) else None
    if result.infra_error or value is None:
        why = result.infra_error or ("timed out" if result.timed_out else f"exit {result.exit_code}: {result.stderr[-400:]!r}")
        return {**out, "error": f"the mutation run gave no report ({why})"}
    if value["reference"].get("killed") is not None:
        return {**out, "error": f"the reference fails its own hidden tests here: {value['reference']}"}
    return {**out, **score(made, value["runs"], spec.equivalent), "reference_s": value.get("reference_s")}


def score(made, runs: dict[str, dict], equivalent: dict[str, str]) -> dict[str, Any]:
    declared = {pattern: re.compile(".*?".join(map(re.escape, pattern.split(" ... ")))) for pattern in equivalent}
    killed, survivors, equal, not_run, timeouts = 0, [], [], [], 0
    used, killed_by = set(), {}  # declarations that match a survivor; and a killed mutant they match
    for m in made:
        run = runs.get(m.name) or {"killed": None, "not_run": True}
        pattern = next((p for p, rx in declared.items() if rx.search(m.what)), None)
        if run.get("not_run"):
            not_run.append(m.what)
        elif run.get("killed") is not None:
            killed += 1
            timeouts += run["killed"] == "timeout"
            if pattern is not None:
                killed_by.setdefault(pattern, f"{m.what}, killed by {run['killed']}")
        elif pattern is not None:
            equal.append(f"{m.what}: {equivalent[pattern]}")
            used.add(pattern)
        else:
            survivors.append(m.what)
    # a declaration whose every mutant is killed is wrong (or stale): the tests tell them apart
    misdeclared = [f"{p!r} ({equivalent[p]}): {why}" for p, why in killed_by.items() if p not in used]
    unmatched = [p for p in equivalent if p not in used and p not in killed_by]
    considered = len(made) - len(equal)
    return {"score": killed / considered if considered else 1.0, "killed": killed, "considered": considered,
            "survivors": survivors, "equivalent": equal, "misdeclared": misdeclared, "unmatched": unmatched,
            "not_run": not_run, "timeouts": timeouts}
