"""An analyser that crashes on the model's own file (ruff's stack overflow on a 40,000-term string
annotation, mypy's segfault on the same) is the model's failure for that component: 0, named in
`details`, never "no verdict". Only a tool that fails on a trivial file too is the verifier's
(no verdict). All in the real sandbox."""

from __future__ import annotations

import pytest

from hub import Task, VerifyContext
from hub.core.verifier import grade
from rlhub_static.bandit import Bandit, runtime_sql
from rlhub_static.mypy import Mypy
from rlhub_static.plugin import STATIC_PROFILE
from rlhub_static.ruff import Ruff

MODULE = "def total(xs: list[int]) -> int:\n    return sum(xs)\n"
# Both parse as Python and import fine (an annotation string is never evaluated); ruff parses the
# string and overflows its stack, mypy segfaults on the first.
UNION = MODULE + '\n\n_z: "' + "|".join(["int"] * 40_000) + '" = 0\n'
NESTED = MODULE + '\n\n_z: "' + "list[" * 20_000 + "int" + "]" * 20_000 + '" = 0\n'


@pytest.mark.parametrize("code", [UNION, NESTED], ids=["union", "nested"])
def test_ruff_crashing_on_the_file_is_the_models_zero(analyse, code):
    v = analyse(Ruff, code, select=["F"], max_response_chars=10**6)
    assert v.error is None, v.error
    assert v.reward == 0.0 and not v.passed and v.details["limit"] == "crash"
    assert v.details["reason"].startswith("ruff could not analyse the file (signal 6")
    assert "overflowed its stack" in v.details["reason"] and "analyses a trivial file" in v.details["reason"]


def test_mypy_crashing_on_the_file_is_the_models_zero(analyse):
    v = analyse(Mypy, UNION, max_response_chars=10**6)
    assert v.error is None, v.error
    assert v.reward == 0.0 and v.details["limit"] == "crash" and "mypy could not analyse the file" in v.details["reason"]


def test_the_same_module_without_the_annotation_is_graded_normally(analyse):
    for cls in (Ruff, Mypy):
        v = analyse(cls, MODULE)
        assert v.error is None and v.reward == 1.0 and v.passed, (cls.name, v.details)


def test_a_tool_that_fails_on_a_trivial_file_too_is_no_verdict(analyse):
    v = analyse(Ruff, UNION, select=["ZZZ9"], max_response_chars=10**6)  # ruff refuses the selector on any file
    assert v.error and v.error.startswith("ruff failed (exit code 2") and "fails on a trivial file too" in v.error


def test_crashes_in_a_rubric_share_one_run_and_get_a_verdict(rlhub_registry):
    """The analysers of one file run together (WorkDir.run_all); each crash is judged on its own."""
    cat = rlhub_registry("environments:\n  - id: arith/add-v1\n    profile: static\n    rubric:\n"
                         "      - {verifier: ruff, config: {select: [F], max_response_chars: 1000000}}\n"
                         "      - {verifier: mypy, config: {max_response_chars: 1000000}}\n"
                         "      - {verifier: bandit, config: {max_response_chars: 1000000}}\n")
    v = cat.verify('{"env": "arith/add-v1", "seed": 1}', f"```python\n{UNION}```\n")
    assert v.error is None, v.error
    parts = v.details["parts"]
    assert parts["ruff"]["details"]["limit"] == "crash" and parts["mypy"]["details"]["limit"] == "crash"
    assert parts["bandit"]["reward"] == 1.0
    assert v.reward == pytest.approx(1 / 3)


def test_deeply_added_sql_literals_get_a_verdict(sandbox):
    """`"S" + "E" + ...` of 1,500 terms parses: our reading of it (runtime_sql) follows it without
    recursion; bandit's own overflows its stack on it, which is the model's 0, not no verdict."""
    query = "+".join(f'"{c}"' for c in ("SELECT name FROM t WHERE id = ? " * 50)[:1500])
    code = f"import sqlite3\n\n\ndef get(db: sqlite3.Connection, i: int) -> object:\n    return db.execute({query}, (i,))\n"
    assert runtime_sql(code, 5.0) == []  # a literal: no finding (this raised RecursionError in the grader)
    built = code.replace(query, query + " + str(i)")
    assert [f.rule for f in runtime_sql(built, 5.0)] == ["rlhub-blind-runtime-sql"]
    v = grade(Bandit(Bandit.Config()), None, Task(prompt="p"), f"```python\n{code}```\n",
              VerifyContext(profile=STATIC_PROFILE, _sandbox=sandbox))
    assert v.error is None and v.reward == 0.0 and v.details["limit"] == "crash", (v.error, v.details)
    assert "bandit could not analyse the file" in v.details["reason"]


def test_code_nested_past_the_parser_is_a_verdict(analyse):
    """20,000 `not`s overflow CPython's parser (MemoryError, not SyntaxError): it does not parse."""
    v = analyse(Ruff, "x = " + "not " * 20_000 + "1\n", max_response_chars=10**6)
    assert v.error is None and v.reward == 0.0 and v.details["reason"] == "the code does not parse as Python"
