"""Write-the-tests grading: how many mutants of the module the model's tests kill.

Mutants are made with cosmic-ray's mutation operators (comparisons, arithmetic, numbers, booleans,
loops, conditions), a few per module, spread over its lines. The model's test file runs in the
sandbox (mutation_runner.py) against the original module, an equivalent rewrite of it, and each
mutant, each version on disk as the module's file: the original and each mutant RUNS times, the
rewrite once. Reward = mutants killed / mutants the task's own reference tests kill, gated on the
tests passing on every run of the original *and* on the equivalent rewrite with at least
`min_tests` tests: a test that pins the source text or bytecode
instead of the behaviour fails the rewrite and earns 0, and one that fails at random fails one of
those runs. A mutant counts as killed only when the tests fail on every one of its runs. Tests that
read the module's file or code objects, or the runner's memory, are refused (`refused:
reads_the_module`, 0). Only the test file counts: the model's other edits are set aside (the module
under test and the rest of the repository are graded as they were).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import random
from typing import Any

from hub import Verdict, VerifierError

RUNNER = "rlhub_swe.mutation_runner:run"
MUTANTS = 6
RUNS = 3  # runs of the model's tests on each version: the original must pass all, a mutant fail all
OPERATORS = (
    "core/ReplaceComparisonOperator_Lt_LtE", "core/ReplaceComparisonOperator_LtE_Lt", "core/ReplaceComparisonOperator_Gt_GtE",
    "core/ReplaceComparisonOperator_GtE_Gt", "core/ReplaceComparisonOperator_Eq_NotEq", "core/ReplaceComparisonOperator_NotEq_Eq",
    "core/ReplaceBinaryOperator_Add_Sub", "core/ReplaceBinaryOperator_Sub_Add", "core/ReplaceBinaryOperator_Mul_Add",
    "core/ReplaceBinaryOperator_FloorDiv_Mul", "core/NumberReplacer", "core/ReplaceTrueWithFalse",
    "core/ReplaceFalseWithTrue", "core/ZeroIterationForLoop", "core/AddNot", "core/ReplaceAndWithOr", "core/ReplaceOrWithAnd",
)


@functools.lru_cache(maxsize=64)
def mutants(source: str, count: int = MUTANTS) -> tuple[tuple[str, str], ...]:
    """((name, mutated source), ...): `count` mutants of `source`, on different lines, chosen by a
    seed taken from the source itself (the same module always gets the same mutants)."""
    from cosmic_ray.ast import ast_nodes, get_ast
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator

    tree = get_ast(source)
    positions = []  # (operator name, occurrence, line)
    for name in OPERATORS:
        op = get_operator(name)()
        occurrence = 0
        for node in ast_nodes(tree):
            for _ in op.mutation_positions(node):
                positions.append((name, occurrence, node.start_pos[0]))
                occurrence += 1
    rng = random.Random(hashlib.sha256(source.encode()).digest())
    rng.shuffle(positions)
    chosen, lines = [], set()
    for name, occurrence, line in positions:
        if line in lines or _docstring_line(source, line):
            continue
        mutated = mutate_code(source, get_operator(name)(), occurrence)
        if mutated is None or mutated == source:
            continue
        try:
            ast.parse(mutated)
        except SyntaxError:
            continue
        lines.add(line)
        chosen.append((f"{name.split('/', 1)[1]}@{line}", mutated))
        if len(chosen) == count:
            break
    return tuple(chosen)


def _docstring_line(source: str, line: int) -> bool:
    text = source.splitlines()[line - 1] if 0 < line <= len(source.splitlines()) else ""
    return text.strip().startswith(('"', "'", "#"))


class _Equivalent(ast.NodeTransformer):
    """Renames every local variable of every function and adds an unused local: the same behaviour,
    other source text, other bytecode."""

    def visit_FunctionDef(self, node):
        params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
        local = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        declared = {name for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
        rename = {name: f"{name}_v" for name in local - params - declared}
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in rename:
                n.id = rename[n.id]
            elif isinstance(n, ast.arg) and n.arg in rename:
                n.arg = rename[n.arg]
        marker = ast.parse("_unchanged = None").body[0]
        doc = 1 if (node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
                    and isinstance(node.body[0].value.value, str)) else 0
        node.body.insert(doc, marker)
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef


@functools.lru_cache(maxsize=64)
def equivalent(source: str) -> str:
    tree = _Equivalent().visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


_killable: dict[str, frozenset[str]] = {}


def _run(ctx, tree: dict[str, str], m: dict[str, Any], tests: str, versions: list[dict]) -> dict[str, Any]:
    """{"runs": {version id: [run, ...]}, "status": ...} or {"error": why there is no report}."""
    profile = ctx.profile
    runs = sum(int(v.get("repeats", 1)) for v in versions)
    result = ctx.sandbox.call(profile, RUNNER, files={}, args={
        "tree": {**tree, m["tests"]: tests}, "module_path": m["module"], "test_path": m["tests"],
        "versions": versions, "timeout_s": max(1.0, min(5.0, profile.wall_timeout_s / 8)),
        "deadline_s": max(1.0, profile.wall_timeout_s * 0.85 - 0.5 - 0.01 * runs)})
    if result.infra_error:
        raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
    value = result.value if isinstance(result.value, dict) else {}
    if not isinstance(value.get("runs"), dict):
        why = "timed out" if result.timed_out else f"exit {result.exit_code}, signal {result.signal}"
        return {"error": f"the test runs gave no report ({why})"}
    return value


def _clean(run: Any) -> dict[str, int] | None:
    if not isinstance(run, dict) or not all(isinstance(run.get(k), int) for k in ("passed", "failed", "errors")):
        return None
    return run


def _failed(run: Any, original: dict[str, int]) -> bool:
    run = _clean(run)
    return run is None or run["failed"] > 0 or run["errors"] > 0 or run["passed"] != original["passed"]


def killed(runs: Any, original: dict[str, int], repeats: int = 1) -> bool:
    """Killed: the tests failed on every one of the mutant's `repeats` runs (a list of runs, or one run)."""
    runs = runs if isinstance(runs, list) else [runs] if runs is not None else []
    return len(runs) >= repeats and all(_failed(r, original) for r in runs)


def _steady(runs: Any, minimum: int, repeats: int) -> tuple[dict[str, int] | None, str]:
    """(the first run, "") when every one of `repeats` runs passed the same tests, at least `minimum`;
    else (None, why not)."""
    runs = runs if isinstance(runs, list) else []
    clean = [_clean(r) for r in runs]
    for r, c in zip(runs, clean):
        if c is None or c["failed"] or c["errors"] or c["passed"] < minimum:
            return None, str(r)
    if len(runs) < repeats:
        return None, f"{len(runs)} of {repeats} runs were made: {runs}"
    if len({c["passed"] for c in clean}) > 1:
        return None, f"the runs passed different numbers of tests: {[c['passed'] for c in clean]}"
    return clean[0], ""


def killable(ctx, base: dict[str, str], m: dict[str, Any], module_source: str) -> frozenset[str]:
    """The mutants the task's own reference tests kill (computed once per task and process)."""
    key = hashlib.sha256((module_source + "\0" + m["reference"]).encode()).hexdigest()
    if key not in _killable:
        made = mutants(module_source)
        report = _run(ctx, base, m, m["reference"], [{"id": "original", "source": module_source},
                                                     *({"id": n, "source": s} for n, s in made)])
        runs = report.get("runs") or {}
        original, why = _steady(runs.get("original"), 1, 1)
        if original is None or report.get("status") != "done":
            raise VerifierError(f"the task's reference tests do not pass on the module: {why or report}")
        _killable[key] = frozenset(n for n, _ in made if killed(runs.get(n), original))
        if not _killable[key]:
            raise VerifierError("the task's reference tests kill none of the module's mutants")
    return _killable[key]


def grade_tests(verifier, task, h, base: dict[str, str], final: dict[str, str], ctx, details: dict[str, Any]) -> Verdict:
    m = h.mutation
    tests = final.get(m["tests"])
    if tests is None or not tests.strip():
        return Verdict(0.0, False, details={**details, "reason": f"no {m['tests']}: nothing to grade"})
    others = [p for p in details.get("changed", []) if p != m["tests"]]
    if others:
        details["not_counted"] = others[:20]
    module_source = base[m["module"]]
    made = mutants(module_source)
    targets = killable(ctx, base, m, module_source)
    versions = [{"id": "original", "source": module_source, "repeats": RUNS, "must_pass": True},
                {"id": "equivalent", "source": equivalent(module_source), "repeats": 1, "must_pass": True},
                *({"id": n, "source": s, "repeats": RUNS, "until_pass": True} for n, s in made if n in targets)]
    random.SystemRandom().shuffle(versions)
    report = _run(ctx, base, m, tests, versions)
    if "error" in report:
        return Verdict(0.0, False, details={**details, "reason": report["error"]})
    runs = report["runs"]
    flagged = [r["flagged"] for rs in runs.values() for r in rs if isinstance(r, dict) and r.get("status") == "flagged"]
    if flagged:
        return Verdict(0.0, False, components={"mutation_score": 0.0}, details={
            **details, "refused": "reads_the_module", "reason": f"the tests tell versions of the module apart by "
            f"something other than its behaviour: {flagged[0]}"})
    minimum = int(m.get("min_tests", 1))
    steady, problems = {}, []
    for key, name, repeats in (("original", "the module as it is", RUNS), ("equivalent", "an equivalent rewrite of the module", 1)):
        steady[key], why = _steady(runs.get(key), minimum, repeats)
        if steady[key] is None:
            every = f" on every one of {repeats} runs" if repeats > 1 else ""
            missing = why.startswith(f"{len(runs.get(key) or [])} of {repeats} runs were made")
            problems.append((missing, f"the tests must pass on {name}{every} (at least {minimum} passing): {why}"))
    if problems:  # a run that failed says more than one not made (the call stops at the first failure)
        late = " (time ran out before it: the runs took too long)" if report.get("status") == "deadline" else ""
        return Verdict(0.0, False, components={"mutation_score": 0.0}, details={**details, "reason": min(problems)[1] + late})
    original = steady["original"]
    hit = sorted(n for n, _ in made if n in targets and killed(runs.get(n), original, RUNS))
    missed = sorted(n for n in targets if n not in hit)
    score = len(hit) / len(targets)
    details.update(tests_passed=original["passed"], mutants_killed=f"{len(hit)}/{len(targets)}", survived=missed)
    return Verdict(score, score == 1.0, components={"mutation_score": score}, details=details)
