"""Test adequacy by mutation (rlhub_terminal.mutation, .adequacy, .mutation_runner): the mutants a
reference gets, how their runs are scored, and that the issue's example (a `tagged` that ignores
the caller's `out`) is now caught. Every environment's score is checked by `pytest registry.yaml`
(hub.checks.library.check_tests_adequate); these tests pin down the machinery under it."""

from __future__ import annotations

import ast

import pytest

from hub.core.verifier import VerifyContext
from rlhub_terminal.adequacy import report, score
from rlhub_terminal.family import function_spec
from rlhub_terminal.mutation import Mutant, mutants
from rlhub_unittest.plugin import PYTEST_PROFILE

TAGGED = '''
def tagged(words, out=None):
    out = [] if out is None else out
    for w in words:
        out.append("#" + w)
    return out
'''


def whats(source: str, language: str = "python") -> list[str]:
    return [m.what for m in mutants(source, language)]


def test_python_mutants_remove_statements_and_each_use_of_each_parameter():
    made = mutants(TAGGED, "python")
    got = [m.what for m in made]
    # the issue's near-miss, `out = []` whatever the caller passed, is a parameter use removed
    assert "ParameterUseRemoved: `out = [] if out is None else out` -> `out = [] if (None) is None else out`" in got
    assert "StatementRemoved: `out.append(\"#\" + w)` -> `pass`" in got
    assert "ZeroIterationForLoop: `for w in words:` -> `for w in []:`" in got
    assert "ReplaceComparisonOperator_Is_IsNot: `out = [] if out is None else out` -> `out = [] if out is not None else out`" in got
    assert "ParameterUseRemoved: `for w in words:` -> `for w in type(words)():`" in got
    assert len({m.name for m in made}) == len(made) and len({m.source for m in made}) == len(made)
    for m in made:
        ast.parse(m.source)
        assert m.source != TAGGED


def test_no_mutant_that_is_the_same_by_construction():
    src = '''
def f(x, ys):
    if x is None:
        return 0
    if isinstance(ys, list):
        return len(ys)
    return None
'''
    got = whats(src)
    assert not [w for w in got if "type(x)() is None" in w or "isinstance(type(ys)()" in w], got
    assert "StatementRemoved: `return None` -> `pass`" not in got  # the function's last line: None either way
    assert "StatementRemoved: `return 0` -> `pass`" in got


def test_bash_and_sql_mutants_change_code_not_text_or_descriptors():
    bash = '#!/bin/bash\nn=0\nif [ "$1" -lt 3 ]; then\n  echo "few: 2 left" >&2\nfi\necho $((n + 1))\n'
    got = whats(bash, "bash")
    assert "Replace `-lt` with `-le`: `if [ \"$1\" -lt 3 ]; then` -> `if [ \"$1\" -le 3 ]; then`" in got
    assert "NumberReplacer: `if [ \"$1\" -lt 3 ]; then` -> `if [ \"$1\" -lt 4 ]; then`" in got
    assert "StatementRemoved: `n=0` -> `:`" in got
    assert not [w for w in got if ">&3" in w or ">&1" in w], got  # a file descriptor is no number to move
    assert not [w for w in got if "StatementRemoved: `if" in w or "StatementRemoved: `fi" in w]
    sql = "SELECT name FROM t WHERE a > 1 AND b = 'x>y' ORDER BY name DESC;"
    got = whats(sql, "sql")
    assert "Replace `DESC` with `ASC`: `" + sql + "` -> `" + sql.replace("DESC", "ASC") + "`" in got
    assert any(w.startswith("ConditionRemoved") and "WHERE a > 1 ORDER BY" in w for w in got)
    assert not [w for w in got if "'x>=y'" in w]  # text inside a string literal stays


def _made(*whats_and_names):
    return [Mutant(name, what, "") for name, what in whats_and_names]


def test_score_counts_declared_equivalents_out_and_flags_a_wrong_declaration():
    made = _made(("a", "Op: `x < y` -> `x <= y`"), ("b", "Op: `n = 1` -> `n = 2`"), ("c", "Op: `z` -> `w`"))
    runs = {"a": {"killed": None, "passed": 3}, "b": {"killed": "test_case1"}, "c": {"killed": None, "passed": 3}}
    r = score(made, runs, {"-> `x <= y`": "distinct values"})
    assert (r["killed"], r["considered"], r["survivors"]) == (1, 2, ["Op: `z` -> `w`"]) and r["score"] == 0.5
    assert r["equivalent"] == ["Op: `x < y` -> `x <= y`: distinct values"] and not r["misdeclared"]
    r = score(made, runs, {"-> `n = 2`": "claimed, but the tests kill it", "nothing like this": "stale"})
    assert r["misdeclared"] and "killed by test_case1" in r["misdeclared"][0]
    assert r["unmatched"] == ["nothing like this"]
    r = score(made, {"a": {"killed": None, "not_run": True}}, {})  # not run is not killed: it lowers the score
    assert r["score"] == 0 and len(r["not_run"]) == 3  # a mutant with no run at all is not run either


@pytest.fixture(scope="module")
def ctx(request):
    from hub.testing.fixtures import require_sandbox

    require_sandbox(request)
    return VerifyContext(profile=PYTEST_PROFILE)


def test_weak_hidden_tests_let_the_issue_example_survive_and_the_strengthened_ones_kill_it(ctx):
    weak = function_spec("Write tagged.", "tagged", TAGGED, [], [(["a", "b"],), ([],)], show=0)
    r = report(weak, "python", "solution.py", ctx)
    assert r["error"] is None and r["score"] < 0.95
    assert "ParameterUseRemoved: `out = [] if out is None else out` -> `out = [] if (None) is None else out`" in r["survivors"]
    strong = function_spec("Write tagged.", "tagged", TAGGED, [], [(["a", "b"],), ([],), (["c"], ["x"])], show=0)
    r = report(strong, "python", "solution.py", ctx)
    assert r["error"] is None and r["score"] == 1.0 and not r["survivors"], r


def test_a_mutant_that_hangs_is_cut_short_and_counts_as_killed(ctx):
    ref = '''
def countdown(n):
    out = []
    while n > 0:
        out.append(n)
        n -= 1
    return out
'''
    spec = function_spec("Write countdown.", "countdown", ref, [], [(3,), (0,)], show=0)
    r = report(spec, "python", "solution.py", ctx)
    assert r["error"] is None and r["timeouts"] >= 1 and r["score"] == 1.0, r  # `n -= 1` removed loops forever


def test_a_reference_that_fails_its_own_tests_is_an_error_not_a_score(ctx):
    spec = function_spec("Write f.", "f", "def f(x):\n    return x + 1\n", [], [(1,)], show=0)
    spec.reference = "def f(x):\n    return x + 2\n"
    r = report(spec, "python", "solution.py", ctx)
    assert r["error"] and "reference fails" in r["error"]


@pytest.mark.parametrize("seed", [0, 4, 5, 998993180])
def test_ignoring_the_callers_out_no_longer_earns_full_reward(catalog, seed):
    from hub import Label

    label = Label(env="terminal/bugfix-mutable-default-v1", seed=seed)
    task = catalog.task(label)
    tag = task.reference.split("out.append(", 1)[1][:3]
    ignores_out = f"```python\ndef tagged(words, out=None):\n    out = []\n    for w in words:\n        out.append({tag} + w)\n    return out\n```"
    v = catalog.verify(label, ignores_out, task=task)
    assert not v.passed and v.reward < 1.0, (v.reward, v.details)
    assert catalog.verify(label, task.reference, task=task).reward == 1.0


CLAUSE_FAMILIES = ["bugfix-mutable-default", "log-session-time", "sh-lowercase-names", "cli-word-count"]


@pytest.mark.parametrize("name", CLAUSE_FAMILIES)
def test_each_stated_clause_is_in_the_prompt_and_undoing_it_fails_a_hidden_test(catalog, name):
    from hub import Label
    from rlhub_terminal.families import FAMILIES
    from rlhub_terminal.family import fenced
    from hub.core.env import rng_for

    label = Label(env=f"terminal/{name}-v1", seed=0)
    task = catalog.task(label)
    spec = FAMILIES[name].build(rng_for(label.env, 0))
    assert spec.clauses, name
    for clause, code in spec.clauses.items():
        assert clause in task.prompt_text(), clause  # verbatim: the clause is what the model reads
        assert code.strip() != spec.reference.strip(), clause  # the derivation changed something
        v = catalog.verify(label, fenced(code, FAMILIES[name].language), task=task)
        assert not v.passed and v.reward < 1.0, (clause, v.details)  # some hidden test checks the clause
