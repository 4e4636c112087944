"""The solution file a response makes (solution_file.py): right answers the red team found
earning 0, each accepted now, and the rules that accept them.

- `from __future__` imports go to the top of the file, ahead of the prompt's code (HumanEval)
  and a preset's preamble (a whole module after the prompt was a SyntaxError);
- LiveCodeBench and APPS solutions run after the imports those benchmarks' harnesses put before
  every solution (starter code's `List[int]` with no import was a NameError);
- where the task names its entry point, the answer is the last block that defines it (an
  "Example usage:" block after the answer was graded instead).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rlhub_unittest.preambles import LIVECODEBENCH, preamble
from rlhub_unittest.solution_file import assemble, entry_names, futures_first, with_usage_example
from rlhub_unittest import verifier as ut

import hub

HERE = Path(__file__).resolve().parents[1]
PROMPT = 'def count_vowels(text: str) -> int:\n    """How many vowels text holds."""\n'
WHOLE = "def count_vowels(text: str) -> int:\n    return sum(ch in 'aeiou' for ch in text.lower())\n"


def _spec(style="check", entry_point="count_vowels", **hidden) -> ut.TestSpec:
    tests = [] if style == "stdio" else "def check(candidate):\n    assert candidate('a') == 1\n"
    return ut.TestSpec.from_hidden(ut.UnitTestsHidden(tests=hidden.pop("tests", tests) or "[]", test_style=style,
                                                      entry_point=entry_point, **hidden), ut.UnitTestsConfig())


def _runs(code: str) -> dict:
    namespace: dict = {"__name__": "solution"}
    exec(compile(code, "solution.py", "exec", dont_inherit=True), namespace)  # our own test solutions, never model output
    return namespace


# -- from __future__ ------------------------------------------------------------------------------
def test_a_whole_module_with_a_future_import_follows_the_prompt():
    code = assemble(_spec(), f"```python\nfrom __future__ import annotations\n\n{WHOLE}```", "auto", PROMPT)
    assert code.splitlines()[0] == "from __future__ import annotations"
    assert _runs(code)["count_vowels"]("Banana") == 3


def test_future_imports_of_every_part_come_first_and_lines_below_keep_their_numbers():
    module = "'''Doc.'''\nfrom __future__ import (annotations,\n    division)\nx = 1\n"
    out = futures_first("import sys\n", module)
    assert out == "from __future__ import (annotations, division)\nimport sys\n'''Doc.'''\n\n\nx = 1\n"
    compile(out, "m", "exec")
    assert futures_first("", "x = 1\n") == "x = 1\n"
    shared = "from __future__ import annotations; x = 1\n"  # not split: it stays as written
    assert futures_first("import sys\n", shared) == "import sys\n" + shared


# -- benchmark preambles -------------------------------------------------------------------------
def test_livecodebench_starter_code_needs_no_typing_import():
    starter = "class Solution:\n    def maxPairSum(self, nums: List[int]) -> int:\n        return sum(sorted(nums)[-2:])\n"
    spec = _spec("stdio", {"func_name": "maxPairSum"}, tests="[]")
    code = assemble(spec, f"```python\n{starter}```", "auto", "q", "livecodebench")
    assert code.startswith(LIVECODEBENCH) and _runs(code)["Solution"]().maxPairSum([1, 5, 3]) == 8
    with pytest.raises(NameError, match="List"):
        _runs(assemble(spec, f"```python\n{starter}```", "auto", "q"))  # what it was without the preamble


def test_apps_preamble_imports_numpy_only_for_code_that_names_it():
    assert "numpy" not in preamble("apps", "print(sqrt(4))") and "import numpy as np" in preamble("apps", "np.sum(x)")
    assert _runs(preamble("apps", "") + "r = (sqrt(16), gcd(4, 6), List, Counter('aab')['a'])\n")["r"] == (4.0, 2, _runs(
        "from typing import List\n")["List"], 2)
    with pytest.raises(ValueError, match="unknown preamble 'lcb'"):
        preamble("lcb")


# -- which block is the answer ----------------------------------------------------------------------
USAGE = "\n\nExample usage:\n\n```python\nprint(count_vowels('Banana'))  # 3\n```\n"


@pytest.mark.parametrize("spec, prompt", [
    (_spec(), PROMPT),  # HumanEval: the entry point
    (_spec("check", None), "Write count_vowels(text).\nassert count_vowels('a') == 1"),  # MBPP: the shown call
    (_spec("pytest", None, tests="import solution\ndef test_a():\n    assert solution.count_vowels('a') == 1\n"),
     "Write `count_vowels(text)`."),  # a pytest-style task: the function the prompt names
])
def test_the_block_that_defines_the_entry_point_wins_over_an_example_usage_block(spec, prompt):
    code = assemble(spec, f"Here it is:\n\n```python\n{WHOLE}```{USAGE}", "auto", prompt)
    assert _runs(code)["count_vowels"]("Banana") == 3 and "print(" not in code


def test_with_no_block_defining_it_the_last_block_is_the_answer():
    drafts = "```python\ndef helper():\n    return 1\n```\n```python\ndef other():\n    return 2\n```\n"
    assert assemble(_spec("pytest", None, tests="def test_a():\n    pass\n"), drafts, "auto", "Write f(x).") == \
        "def other():\n    return 2\n"
    assert entry_names(_spec("stdio", None, tests="[]"), "Print f(x) for each x.") == frozenset()  # a stdin program


def test_a_method_of_the_solution_class_counts_as_the_entry_point():
    answer = "```python\nclass Solution:\n    def maxPairSum(self, nums):\n        return sum(sorted(nums)[-2:])\n```\n" \
             "```python\nprint(Solution().maxPairSum([1, 2, 3]))\n```\n"
    code = assemble(_spec("stdio", {"func_name": "maxPairSum"}, tests="[]"), answer, "auto", "q")
    assert "class Solution" in code and "print(" not in code


def test_by_entry_off_the_last_block_is_the_answer_as_an_analyser_reads_it():
    """A rubric's analysers read the last block: its unit tests can be told to grade that one too."""
    code = assemble(_spec(), f"```python\n{WHOLE}```{USAGE}", "auto", PROMPT, by_entry=False)
    assert code is not None and "print(count_vowels" in code and "def count_vowels" not in code.split("print(")[-1]


def test_the_usage_example_form_calls_the_entry_point_where_the_reference_defines_it():
    fenced_form = with_usage_example(_spec(), f"```python\n{WHOLE}```\n", PROMPT)
    bare_form = with_usage_example(_spec(), WHOLE, PROMPT)
    assert fenced_form == bare_form and fenced_form.endswith("```python\nprint(count_vowels(...))\n```\n")
    assert assemble(_spec(), fenced_form, "auto", PROMPT) == assemble(_spec(), WHOLE, "auto", PROMPT)
    method = with_usage_example(_spec("stdio", {"func_name": "maxPairSum"}, tests="[]"),
                                "class Solution:\n    def maxPairSum(self, nums):\n        return 1\n", "q")
    assert "print(Solution().maxPairSum(...))" in method
    # nothing to call: a stdin program, or a reference that defines none of the task's names
    assert with_usage_example(_spec("stdio", None, tests="[]"), "print(input())\n", "q") is None
    assert with_usage_example(_spec(), "def other():\n    return 1\n", PROMPT) is None


# -- end to end, on the registry's example sets (the red team's right answers) ----------------------
@pytest.fixture(scope="module")
def catalog():
    return hub.load(HERE / "registry.yaml")


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / "examples" / name).read_text().splitlines()]


def _right_forms():
    he, lcb, apps = _rows("humaneval_mini.jsonl"), _rows("livecodebench_mini.jsonl"), _rows("apps_mini.jsonl")
    apps_sys = json.loads(apps[1]["solutions"])[0]
    assert "import sys\n" in apps_sys and "from typing import List\n" in lcb[1]["solution"]
    doc = '    """Count vowels.\n\n    Example (markdown):\n    ```\n    count_vowels("Banana") -> 3\n    ```\n    """\n'
    return [
        *[("unittest/humaneval-mini-v1", i, "from __future__ import annotations\n\n" + he[i]["prompt"] + he[i]["canonical_solution"])
          for i in (0, 3)],  # a whole module with a future import
        ("unittest/humaneval-mini-v1", 0, "```python\n" + he[0]["prompt"].split('    """')[0] + doc
         + he[0]["canonical_solution"] + "```\n"),  # a docstring's markdown example with an indented fence
        ("unittest/humaneval-mini-v1", 0, "```python\n" + he[0]["prompt"] + he[0]["canonical_solution"] + "```\n"
         + USAGE.replace("count_vowels", he[0]["entry_point"])),
        ("unittest/livecodebench-mini-v1", 1, "```python\n" + lcb[1]["solution"].replace("from typing import List\n", "") + "```\n"),
        ("unittest/apps-mini-v1", 1, "```python\n" + apps_sys.replace("import sys\n", "") + "```\n"),  # APPS imports sys
    ]


@pytest.mark.parametrize("env, row, response", _right_forms(), ids=["future-0", "future-3", "docstring-fence",
                                                                      "example-usage", "lcb-starter-as-given", "apps-sys"])
def test_right_answers_the_red_team_found_rejected_now_pass(catalog, env, row, response):
    label = catalog.get(env).label(row)
    v = catalog.verify(label, response)
    assert (v.reward, v.passed, v.error) == (1.0, True, None), v.details
