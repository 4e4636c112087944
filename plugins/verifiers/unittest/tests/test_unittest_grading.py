"""Honest grading: right answers pass, wrong ones fail, fractions count, every style and language."""

from __future__ import annotations

import pytest
from ut_helpers import fenced

TESTS = """\
import solution

def test_small():
    assert solution.add(2, 3) == 5

def test_negative():
    assert solution.add(-4, 1) == -3

class TestFloats:
    def test_half(self):
        assert solution.add(0.5, 0.25) == pytest.approx(0.75)

@pytest.mark.parametrize("n", [0, 1, 10])
def test_zero(n):
    assert solution.add(n, 0) == n
"""
TESTS = "import pytest\n" + TESTS
RIGHT = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return a - b\n"


def test_correct_solution_passes(verify):
    v = verify(TESTS, fenced(RIGHT))
    assert (v.reward, v.passed, v.error) == (1.0, True, None), v.details
    assert v.details["tests_total"] == 4


def test_wrong_solution_fails_with_readable_failures(verify):
    v = verify(TESTS, fenced(WRONG))
    assert v.reward == 0.0 and not v.passed
    assert "test_small" in v.details["failures"]
    assert "__rlhub_eq__(-1, 5)" in v.details["failures"]["test_small"]  # the model sees what it returned
    assert not any("test_" in k and k not in ("test_small", "test_negative", "TestFloats::test_half", "test_zero")
                   for k in v.details["failures"])  # the sentinel never shows


def test_fraction_counts_tests_passed(verify):
    half_wrong = "def add(a, b):\n    return a + b if a >= 0 else 0\n"
    v = verify(TESTS, fenced(half_wrong), reward="fraction")
    assert v.reward == pytest.approx(3 / 4) and not v.passed
    assert verify(TESTS, fenced(half_wrong)).reward == 0.0  # all or nothing


def test_one_failing_parameter_fails_its_test(verify):
    code = "def add(a, b):\n    return 0 if a == 10 else a + b\n"
    v = verify(TESTS, fenced(code), reward="fraction")
    assert v.reward == pytest.approx(3 / 4) and list(v.details["failures"]) == ["test_zero"]


def test_crash_in_one_test_does_not_cost_the_others(verify):
    code = "import os\ndef add(a, b):\n    if a == -4:\n        os._exit(0)\n    return a + b\n"
    v = verify(TESTS, fenced(code), reward="fraction")
    assert v.reward == pytest.approx(3 / 4), v.details
    assert "exited" in v.details["failures"]["test_negative"]


def test_hang_in_one_test_is_cut_and_the_rest_still_run(verify):
    code = "def add(a, b):\n    while a == 2:\n        pass\n    return a + b\n"
    v = verify(TESTS, fenced(code), reward="fraction")
    assert v.reward == pytest.approx(3 / 4), v.details
    assert "time limit" in v.details["failures"]["test_small"]


def test_expected_test_ids_must_all_run(verify):
    v = verify(TESTS, fenced(RIGHT), test_ids=["test_small", "test_not_in_the_file"], reward="fraction")
    assert v.reward == 0.5 and "test_not_in_the_file" in v.details["failures"]


HUMANEVAL_PROMPT = 'def double(x: int) -> int:\n    """Return twice x."""\n'
HUMANEVAL_TEST = "def check(candidate):\n    assert candidate(2) == 4\n    assert candidate(-3) == -6\n    assert candidate(0) == 0\n"


@pytest.mark.parametrize("response", [
    "    return 2 * x\n",                                         # a bare completion, HumanEval style
    "```python\n    return x + x\n```",                            # a completion in a fence
    fenced("def double(x: int) -> int:\n    return x * 2\n"),      # the whole function
])
def test_check_style_humaneval(verify, response):
    v = verify(HUMANEVAL_TEST, response, test_style="check", entry_point="double", prompt_prefix=HUMANEVAL_PROMPT)
    assert v.reward == 1.0, v.details


def test_check_style_fraction_counts_asserts(verify):
    v = verify(HUMANEVAL_TEST, "    return 4\n", test_style="check", entry_point="double",
               prompt_prefix=HUMANEVAL_PROMPT, reward="fraction")
    assert v.reward == pytest.approx(1 / 3) and v.details["tests_total"] == 3


def test_check_style_mbpp_assert_list(verify):
    tests = ["assert first_word('hello world') == 'hello'", "assert first_word('x') == 'x'", "assert first_word('') == ''"]
    right = fenced("def first_word(s):\n    return s.split()[0] if s.split() else ''\n")
    prompt = f"Write a function that returns the first word.\nYour code should pass this test:\n{tests[0]}\n"
    assert verify(tests, right, test_style="check", prompt=prompt).reward == 1.0
    wrong = fenced("def first_word(s):\n    return s.split()[0]\n")
    assert verify(tests, wrong, test_style="check", reward="fraction", prompt=prompt).reward == pytest.approx(2 / 3)
    assert verify(tests, fenced("def other(s):\n    return s\n"), test_style="check", prompt=prompt).reward == 0.0
    # a name the prompt never gave the solution is not taken from it (the task names are the prompt's)
    unnamed = verify(tests, right, test_style="check", prompt="Write the solution.")
    assert unnamed.reward == 0.0 and "name 'first_word' is not defined" in str(unnamed.details), unnamed.details


def test_bash_solution_run_by_the_tests(verify):
    tests = ("import subprocess\n\ndef run(text):\n"
             "    return subprocess.run(['bash', 'solution.sh'], input=text, capture_output=True, text=True, timeout=5).stdout\n\n"
             "def test_upper():\n    assert run('abc\\n') == 'ABC\\n'\n\n"
             "def test_counts_lines():\n    assert run('a\\nb\\n').count('\\n') == 2\n")
    right = "```bash\ntr '[:lower:]' '[:upper:]'\n```"
    assert verify(tests, right, language="bash", solution_path="solution.sh").reward == 1.0
    assert verify(tests, "```bash\ncat\n```", language="bash", solution_path="solution.sh", reward="fraction").reward == 0.5


def test_sql_solution_against_a_fixture_database_script(verify):
    tests = ("import sqlite3\nfrom pathlib import Path\n\n"
             "def query():\n    db = sqlite3.connect(':memory:')\n    db.executescript(Path('schema.sql').read_text())\n"
             "    return db.execute(Path('query.sql').read_text()).fetchall()\n\n"
             "def test_top_earner():\n    assert query() == [('bea', 300)]\n")
    schema = "CREATE TABLE pay(name TEXT, amount INT);\nINSERT INTO pay VALUES ('al', 100), ('bea', 300), ('cy', 200);\n"
    right = "```sql\nSELECT name, amount FROM pay ORDER BY amount DESC LIMIT 1;\n```"
    wrong = "```sql\nSELECT name, amount FROM pay ORDER BY amount LIMIT 1;\n```"
    hidden = {"language": "sql", "solution_path": "query.sql", "files": {"schema.sql": schema}}
    assert verify(tests, right, **hidden).reward == 1.0
    assert verify(tests, wrong, **hidden).reward == 0.0


def test_python_fixture_module_is_importable_and_trusted(verify):
    tests = "from shapes import Point\nimport solution\n\ndef test_mid():\n    assert solution.mid(Point(0, 0), Point(2, 4)) == Point(1, 2)\n"
    fixture = ("from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Point:\n    x: float\n    y: float\n")
    code = "from shapes import Point\n\ndef mid(a, b):\n    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)\n"
    assert verify(tests, fenced(code), files={"shapes.py": fixture}).reward == 1.0


def test_no_code_and_syntax_errors_earn_nothing(verify):
    v = verify(TESTS, "I think the answer is to add them.")
    assert v.reward == 0.0 and "no python code" in v.details["reason"]
    v = verify(TESTS, fenced("def add(a, b) return a + b\n"))
    assert v.reward == 0.0 and v.details.get("collect_errors"), v.details


@pytest.mark.parametrize("hidden, message", [
    ({"tests": ""}, "needs task.hidden['tests']"),
    ({"test_style": "doctest"}, "test_style: Input should be 'pytest', 'check' or 'stdio'"),
    ({"language": "rust"}, "language: Input should be 'python', 'bash' or 'sql'"),
    ({"solution_path": "../escape.py"}, "inside the work dir"),
    ({"tests": "def check(candidate):\n    assert candidate(1)\n", "test_style": "check"}, "no entry_point"),
    ({"tests": "import solution\n"}, "define no test"),
    ({"tests": "def test_x(:\n    pass\n"}, "do not parse"),
    ({"tests": "import sys\nsys.exit(0)\n\ndef test_x():\n    pass\n"}, "could not be loaded"),
    ({"tests": "import os\nos._exit(0)\n\ndef test_x():\n    pass\n"}, "fail without the solution too"),
    ({"tests": "import pytest\npytest.exit('bye', returncode=0)\n\ndef test_x():\n    pass\n"}, "could not be loaded"),
    ({"tests": "[x for x in undefined_name]\n\ndef test_x():\n    pass\n"}, "could not be loaded"),
    ({"tests": "def check(candidate):\n    assert candidate(1)\n", "test_style": "check"}, "no entry_point"),
    ({"tests": "[]", "test_style": "stdio"}, "no input/output cases"),
    ({"tests": "{\"inputs\": [1], \"outputs\": []}", "test_style": "stdio"}, "differ in length"),
])
def test_broken_task_is_no_verdict_with_a_clear_error(verify, hidden, message):
    tests = hidden.pop("tests", TESTS)
    v = verify(tests, fenced(RIGHT), **hidden)
    assert v.error is not None and message in v.error, v.error


def test_partial_module_fixture_is_replaced_by_the_models_file(verify):
    tests = "import stack\n\ndef test_push_pop():\n    s = stack.Stack()\n    s.push(3)\n    assert s.pop() == 3\n"
    partial = "class Stack:\n    def push(self, x):\n        raise NotImplementedError\n"
    done = "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)\n    def pop(self):\n        return self.items.pop()\n"
    hidden = {"solution_path": "stack.py", "files": {"stack.py": partial}}
    assert verify(tests, fenced(done), **hidden).reward == 1.0
    assert verify(tests, fenced(partial), **hidden).reward == 0.0


def test_a_solution_that_redefines_check_or_the_tests_changes_nothing(verify):
    code = ("def check(candidate):\n    pass\n\ndef test_case_1():\n    pass\n\ncandidate = None\n"
            "def double(x):\n    return x\n")
    v = verify(HUMANEVAL_TEST, fenced(code), test_style="check", entry_point="double", prompt_prefix=HUMANEVAL_PROMPT)
    assert v.reward == 0.0 and v.error is None and v.details["tests_passed"] == 1  # candidate(0) == 0 holds


def test_a_test_that_hangs_outside_the_solution_is_cut_and_the_rest_run(verify):
    tests = ("import subprocess\n\ndef test_hangs():\n    subprocess.run(['bash', 'solution.sh'])\n\n"
             "def test_fine():\n    assert 1 + 1 == 2\n")
    v = verify(tests, "```bash\nsleep 60\n```", language="bash", solution_path="solution.sh", reward="fraction")
    assert v.reward == 0.5 and "time limit" in v.details["failures"]["test_hangs"], v.details
