"""Benchmark semantics: our own problems in HumanEval, MBPP, APPS and LiveCodeBench shapes,
declared as `dataset:` entries with presets (registry.yaml), graded as the benchmarks' own
harnesses grade them (examples/make_conformance.py checked that): canonical 1.0, broken 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hub

HERE = Path(__file__).resolve().parents[1]
FILES = {"unittest/conformance-humaneval-v1": "conformance_humaneval.jsonl", "unittest/conformance-mbpp-v1": "conformance_mbpp.jsonl",
         "unittest/apps-mini-v1": "apps_mini.jsonl", "unittest/livecodebench-mini-v1": "livecodebench_mini.jsonl"}
ROWS = [(env, i, row) for env, name in FILES.items()
        for i, row in enumerate(json.loads(line) for line in (HERE / "examples" / name).read_text().splitlines())]


@pytest.fixture(scope="module")
def catalog():
    return hub.load(HERE / "registry.yaml")


def _broken(env: str, row: dict) -> str:
    if env.endswith("humaneval-v1"):
        return row["prompt"] + row["broken_solution"]  # a completion, as the reference is
    code = row.get("broken_code") or row["broken_solution"]
    return f"```python\n{code}\n```\n"


@pytest.mark.parametrize("env, index, row", ROWS, ids=[f"{e.split('/')[1]}-{i}" for e, i, _ in ROWS])
def test_canonical_earns_one_and_broken_earns_nothing(catalog, env, index, row):
    label = catalog.get(env).label(index)
    right = catalog.verify(label, catalog.reference(label))
    assert (right.reward, right.passed, right.error) == (1.0, True, None), (row["kind"], right.details)
    wrong = catalog.verify(label, _broken(env, row))
    assert wrong.error is None and wrong.reward == 0.0 and not wrong.passed, (row["kind"], wrong.details)


@pytest.mark.parametrize("completion", [
    "    return sorted(xs)\n",
    "    xs = list(xs)\n    xs.sort()\n    return xs\n",
    "    return _helper(xs)\n\n\ndef _helper(xs):\n    return (lambda: sorted(xs))()\n",
    "    import builtins\n    return builtins.sorted(xs)\n",
])
def test_a_constraint_the_prompt_states_is_checked(catalog, completion):
    """conformance-humaneval row 4 says "without using sorted() or list.sort()": a correct sort
    that uses either (directly, through a helper or a lambda, or as builtins.sorted) earns 0."""
    label = catalog.get("unittest/conformance-humaneval-v1").label(4)
    task = catalog.task(label)
    assert "without using sorted() or list.sort()" in task.prompt
    v = catalog.verify(label, task.prompt + completion, task=task)
    assert v.error is None and v.reward == 0.0, v.details
    assert "names_used(candidate" in str(v.details["failures"]), v.details
