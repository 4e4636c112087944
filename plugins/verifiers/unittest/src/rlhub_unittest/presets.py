"""Dataset presets for code benchmarks: `preset: humaneval | mbpp | apps | livecodebench` in a
registry `dataset:` entry fixes the column map, the templates, the verifier and its test style,
so pointing a registry at such a dataset takes three lines:

    - dataset: {id: bench/humaneval-v1, path: data/humaneval.jsonl, preset: humaneval}

Every field can still be set in the entry (it wins; `columns` and `verifier_config` merge).
The columns each preset expects are in this plugin's README.
"""

from __future__ import annotations

import json

_CODE = "Answer with your Python code in one ```python block."


def _first_solution(row: dict) -> dict:
    """APPS: `solutions` is a JSON list of programs; the first is the reference. `format_hint`
    says which kind of problem it is, as APPS's own prompts do."""
    solutions = row.get("solutions")
    try:
        solutions = json.loads(solutions) if isinstance(solutions, str) else solutions
    except ValueError:
        solutions = None
    row["solution"] = solutions[0] if isinstance(solutions, list) and solutions and isinstance(solutions[0], str) else ""
    try:
        io = json.loads(row.get("input_output") or "{}")
    except (TypeError, ValueError):
        io = {}
    calls = isinstance(io, dict) and bool(io.get("fn_name"))
    row["format_hint"] = "Use Call-Based format" if calls else "Use Standard Input format"
    row.setdefault("starter_code", "")
    return row


_LCB_STARTER = ("You will use the following starter code to write the solution to the problem and enclose your code "
                "within delimiters.\n```python\n{starter}\n```")
_LCB_STDIN = ("Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on the "
              "sample inputs). Enclose your code within delimiters as follows.\n```python\n# YOUR CODE HERE\n```")


def _lcb_hint(row: dict) -> dict:
    """LiveCodeBench: the instruction differs for problems with starter code (call the
    method) and without (a stdin program)."""
    starter = row.get("starter_code") or ""
    row["format_hint"] = _LCB_STARTER.format(starter=starter.strip()) if starter.strip() else _LCB_STDIN
    return row


PRESETS = {
    "humaneval": dict(
        description="HumanEval shape: prompt (signature + docstring), test (def check(candidate)), entry_point, "
                    "canonical_solution (the reference, a completion of the prompt)",
        dataset={"columns": {"prompt": "prompt", "tests": "test", "entry_point": "entry_point"},
                 "reference_template": "{prompt}{canonical_solution}", "domain": "code"},
        verifier_config={"style": "check"}, tags=("code", "python", "humaneval")),
    "mbpp": dict(
        description="MBPP shape: text (the task), test_list (asserts calling the function by name; the first is "
                    "shown), test_setup_code, code (the reference)",
        dataset={"columns": {"prompt": "text", "tests": "test_list", "test_setup": "test_setup_code"},
                 "prompt_template": "{prompt}\nYour code should pass this test:\n{test_list[0]}\n" + _CODE,
                 "reference_template": "```python\n{code}\n```\n", "domain": "code"},
        verifier_config={"style": "check"}, tags=("code", "python", "mbpp")),
    "apps": dict(
        description="APPS shape: question, input_output (JSON {inputs, outputs, fn_name?}), starter_code, "
                    "solutions (JSON list; the first is the reference)",
        dataset={"columns": {"prompt": "question", "tests": "input_output"},
                 "prompt_template": "QUESTION:\n{prompt}\n{starter_code}\n{format_hint}\n" + _CODE,
                 "reference_template": "```python\n{solution}\n```\n", "domain": "code"},
        verifier_config={"style": "stdio", "preamble": "apps"}, tags=("code", "python", "apps"), prepare=_first_solution),
    "livecodebench": dict(
        description="LiveCodeBench shape: question_content, public_test_cases and private_test_cases (JSON lists of "
                    "{input, output, testtype}; private ones possibly compressed), starter_code, metadata "
                    "(JSON {func_name}); no reference: set reference_template to a column of your own",
        dataset={"columns": {"prompt": "question_content", "tests": "private_test_cases",
                             "public_tests": "public_test_cases", "entry_point": "metadata"},
                 "prompt_template": "{prompt}\n\n{format_hint}", "domain": "code"},
        verifier_config={"style": "stdio", "preamble": "livecodebench"}, tags=("code", "python", "livecodebench"),
        prepare=_lcb_hint),
}


def register_all(register) -> None:
    for name, fields in PRESETS.items():
        register(name, verifier="unit_tests", profile="pytest", **fields)
