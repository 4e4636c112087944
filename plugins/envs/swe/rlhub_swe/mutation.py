"""Write-the-tests grading: how many mutants of the module the model's tests kill.

Mutants are made with cosmic-ray's mutation operators (comparisons, arithmetic, numbers, booleans,
loops, conditions), a few per module, spread over its lines. The model's test file runs in the
sandbox (mutation_runner.py) against the original module, an equivalent rewrite of it, and each
mutant. Reward = mutants killed / mutants the task's own reference tests kill, gated on the tests
passing on the original *and* on the equivalent rewrite with at least `min_tests` tests: a test
that pins the source text or bytecode instead of the behaviour fails the rewrite and earns 0.
Only the test file counts: the model's other edits are set aside (the module under test and the
rest of the repository are graded as they were).
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
    profile = ctx.profile
    timeout = max(2.0, min(5.0, profile.wall_timeout_s / (len(versions) + 2)))
    result = ctx.sandbox.call(profile, RUNNER, files={}, args={
        "tree": {**tree, m["tests"]: tests}, "module_path": m["module"], "test_path": m["tests"],
        "versions": versions, "timeout_s": timeout})
    if result.infra_error:
        raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
    runs = (result.value or {}).get("runs") if isinstance(result.value, dict) else None
    if not isinstance(runs, dict):
        why = "timed out" if result.timed_out else f"exit {result.exit_code}, signal {result.signal}"
        return {"error": f"the test runs gave no report ({why})"}
    return runs


def _clean(run: Any) -> dict[str, int] | None:
    if not isinstance(run, dict) or not all(isinstance(run.get(k), int) for k in ("passed", "failed", "errors")):
        return None
    return run


def killed(run: Any, original: dict[str, int]) -> bool:
    run = _clean(run)
    return run is None or run["failed"] > 0 or run["errors"] > 0 or run["passed"] != original["passed"]


def killable(ctx, base: dict[str, str], m: dict[str, Any], module_source: str) -> frozenset[str]:
    """The mutants the task's own reference tests kill (computed once per task and process)."""
    key = hashlib.sha256((module_source + "\0" + m["reference"]).encode()).hexdigest()
    if key not in _killable:
        made = mutants(module_source)
        runs = _run(ctx, base, m, m["reference"], [{"id": "original", "source": module_source},
                                                   *({"id": n, "source": s} for n, s in made)])
        original = _clean(runs.get("original"))
        if original is None or original["failed"] or original["errors"]:
            raise VerifierError(f"the task's reference tests do not pass on the module: {runs.get('original')}")
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
    versions = [{"id": "original", "source": module_source}, {"id": "equivalent", "source": equivalent(module_source)},
                *({"id": n, "source": s} for n, s in made)]
    random.SystemRandom().shuffle(versions)
    runs = _run(ctx, base, m, tests, versions)
    if "error" in runs:
        return Verdict(0.0, False, details={**details, "reason": runs["error"]})
    original, same = _clean(runs.get("original")), _clean(runs.get("equivalent"))
    minimum = int(m.get("min_tests", 1))
    for name, run in (("the module as it is", original), ("an equivalent rewrite of the module", same)):
        if run is None or run["failed"] or run["errors"] or run["passed"] < minimum:
            what = (runs.get("original") if name.endswith("is") else runs.get("equivalent"))
            return Verdict(0.0, False, components={"mutation_score": 0.0}, details={
                **details, "reason": f"the tests must pass on {name} (at least {minimum} passing): {what}"})
    hit = sorted(n for n, _ in made if n in targets and killed(runs.get(n), original))
    missed = sorted(n for n in targets if n not in hit)
    score = len(hit) / len(targets)
    details.update(tests_passed=original["passed"], mutants_killed=f"{len(hit)}/{len(targets)}", survived=missed)
    return Verdict(score, score == 1.0, components={"mutation_score": score}, details=details)
