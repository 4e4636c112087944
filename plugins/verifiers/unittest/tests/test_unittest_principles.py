"""The runner takes nothing on the solution's word: one test (or more) per principle of the
README's "Rules the grader applies", each reproducing an attack that earned reward (or turned a
sample into "no verdict") before the principle was enforced.

1. names the tests resolve are the tests' own (plus the solution's task names);
2. a test passes only on a positive call-phase report for it;
3. the runner never imports or resolves anything because the solution named it;
4. nothing the solution does turns a verdict into "no verdict";
5. the sys.path the runner imports from is read-only.
"""

from __future__ import annotations

import random
import sys

import pytest
from rlhub_unittest import suite as suite_mod
from rlhub_unittest.plugin import PYTEST_PROFILE
from rlhub_unittest.verifier import UnitTests, UnitTestsConfig
from ut_helpers import fenced, make_task

from hub import VerifyContext
from hub.core.verifier import grade
from hub.sandbox import Sandbox


# -- 1. the tests' namespace -----------------------------------------------------------------
HUMANEVAL_PROMPT = 'def square(x: float) -> float:\n    """The square of x."""\n'
HUMANEVAL_TESTS = "def check(candidate):\n    assert abs(candidate(2.0) - 4.0) < 1e-9\n    assert abs(candidate(3.0) - 9.0) < 1e-9\n"
# The solution's own process answers the runner's request for its names with a `__builtins__`
# whose `abs` always says 0: bound into the tests, every `abs(...) < tol` would hold.
SHADOW_BUILTINS = '''
import builtins, sys

def square(x):
    return -1.0

def _fake_abs(x):
    return 0

def _wrapped(f):
    return lambda *args, **kwargs: f(*args, **kwargs)  # a function of the solution's: a handle in the tests

def _patch():  # the handler that answers the runner's request for the solution's names
    import gc
    for server in [o for o in gc.get_objects() if type(o).__name__ == "Server" and hasattr(o, "peer")]:
        real = server.peer.handlers["namespace"]
        def namespace(*names):
            found = dict(real(*names))
            found["__builtins__"] = {**{n: _wrapped(getattr(builtins, n)) for n in dir(builtins)
                                        if not n.startswith("_") and callable(getattr(builtins, n))},
                                     "abs": _fake_abs, "__import__": _wrapped(__import__)}
            found["abs"] = _fake_abs
            return found
        server.peer.handlers["namespace"] = namespace
_patch()
'''


def test_check_programs_resolve_builtins_as_a_fresh_interpreter_does(verify):
    v = verify(HUMANEVAL_TESTS, HUMANEVAL_PROMPT + SHADOW_BUILTINS, test_style="check", entry_point="square",
               extract="whole", prompt=HUMANEVAL_PROMPT)
    assert v.error is None and v.reward == 0.0, v.details
    right = verify(HUMANEVAL_TESTS, HUMANEVAL_PROMPT + "    return x * x\n", test_style="check", entry_point="square",
                   extract="whole", prompt=HUMANEVAL_PROMPT)
    assert right.reward == 1.0, right.details


MBPP_TESTS = ["assert math.isclose(circle_area(2), 12.566, rel_tol=1e-3)",
              "assert math.isclose(circle_area(1), 3.1416, rel_tol=1e-3)"]
MBPP_PROMPT = f"Write a function to find the area of a circle.\nYour code should pass this test:\n{MBPP_TESTS[0]}\n"


@pytest.mark.parametrize("fake", [
    "class math:\n    @staticmethod\n    def isclose(*a, **k):\n        return True\n",
    "import types\nmath = types.SimpleNamespace(isclose=lambda *a, **k: True)\n",
], ids=["class", "namespace"])
def test_a_standard_module_the_tests_use_is_never_the_solutions(verify, fake):
    """MBPP's tests use `math` without importing it (its harness takes the solution's): here it
    is the real module, so a solution's own `math` cannot answer the asserts."""
    wrong = verify(MBPP_TESTS, fenced(fake + "def circle_area(r):\n    return 0\n"), test_style="check", prompt=MBPP_PROMPT)
    assert wrong.error is None and wrong.reward == 0.0, wrong.details
    right = verify(MBPP_TESTS, fenced("import math\ndef circle_area(r):\n    return math.pi * r * r\n"),
                   test_style="check", prompt=MBPP_PROMPT)
    assert right.reward == 1.0, right.details
    no_import = verify(MBPP_TESTS, fenced("def circle_area(r):\n    return 3.14159265 * r * r\n"), test_style="check",
                       prompt=MBPP_PROMPT)
    assert no_import.reward == 1.0, no_import.details


def test_a_star_import_never_shadows_what_the_tests_bind(verify):
    tests = ("import pytest\nfrom solution import *\n\ndef helper(x):\n    return x + 1\n\n"
             "def test_add():\n    assert add(1, 2) == 3\n    assert helper(1) == 2\n    with pytest.raises(ValueError):\n"
             "        add(None, 1)\n")
    fake = ("class pytest:\n    class raises:\n        def __init__(self, *a):\n            pass\n"
            "        def __enter__(self):\n            return self\n        def __exit__(self, *exc):\n            return True\n"
            "def helper(x):\n    return 2\n\ndef add(a, b):\n    if a is None:\n        return 0\n    return a + b\n"
            "def len(x):\n    return 0\n\n__all__ = ['pytest', 'helper', 'add', 'len']\n")
    assert verify(tests, fenced(fake)).reward == 0.0
    right = "def add(a, b):\n    if a is None:\n        raise ValueError('a is None')\n    return a + b\n"
    assert verify(tests, fenced(right)).reward == 1.0


# -- 2. a test passes only on a positive call-phase report --------------------------------------
INTERRUPT_TESTS = ("import pytest\nimport solution\n\ndef test_first():\n    assert solution.f(0) == 0\n\n"
                   "@pytest.mark.parametrize('x', [1, 2, 3])\ndef test_values(x):\n    assert solution.f(x) == x * 10\n")


@pytest.mark.parametrize("base", ["KeyboardInterrupt", "GeneratorExit"])
def test_an_interrupt_from_the_solution_never_leaves_a_test_passed(verify, monkeypatch, base):
    """The solution's exception derives from an interrupt: pytest stops the run during
    test_values[1], whose setup had passed. Its sentinel placed before test_values (as here),
    the unfinished test used to count as passed and the rest as never collected."""
    build = suite_mod.build

    def sentinel_first(*args, **kwargs):
        for seed in range(100):
            made = build(*args, **{**kwargs, "rng": random.Random(seed)})
            if made.source.index(made.sentinel) < made.source.index("def test_values"):
                return made
        raise AssertionError("no seed puts the sentinel first")

    monkeypatch.setattr(suite_mod, "build", sentinel_first)
    monkeypatch.setenv("RLHUB_CACHE", "off")
    code = f"class Stop({base}):\n    pass\n\ndef f(x):\n    if x == 0:\n        return 0\n    raise Stop()\n"
    v = verify(INTERRUPT_TESTS, fenced(code), reward="fraction")
    assert v.error is None and v.reward == 0.5 and not v.passed, v.details  # test_first only
    assert "test_values" in v.details["failures"], v.details
    right = verify(INTERRUPT_TESTS, fenced("def f(x):\n    return x * 10\n"))
    assert right.reward == 1.0, right.details


def test_grading_counts_only_call_phase_passes():
    suite = suite_mod.build("def test_a():\n    pass\n\ndef test_b():\n    pass\n", "pytest", rng=random.Random(1))
    failed_sentinel = {"outcome": "failed", "message": "AssertionError", "call": "failed"}
    report = {"collected": ["test_a", "test_b[1]", "test_b[2]", suite.sentinel], "collect_errors": [], "results": {
        "test_a": {"outcome": "passed", "message": "", "call": "passed"},
        "test_b[1]": {"outcome": "passed", "message": "", "call": None},  # setup passed, then the run stopped
        suite.sentinel: failed_sentinel}}
    from hub.sandbox import RunResult

    outcome, details, _ = UnitTests(UnitTestsConfig()).test_outcomes(suite, RunResult(value=report))
    assert outcome == {"test_a": True, "test_b": False}, details
    report["results"]["test_b[1]"]["call"] = "passed"  # test_b[2] still has no report at all
    assert UnitTests(UnitTestsConfig()).test_outcomes(suite, RunResult(value=report))[0] == {"test_a": True, "test_b": False}


# -- 3. nothing is imported or resolved on the solution's say --------------------------------------
def _not_loaded(candidates) -> str:
    return next(m for m in candidates if m not in sys.modules)


def test_a_module_the_solution_names_is_never_imported_by_the_runner(verify):
    tests = ("import sys\nimport solution\n\ndef test_names_a_module():\n    try:\n        solution.f()\n"
             "    except Exception:\n        pass\n    assert 'colorsys' not in sys.modules and 'wave' not in sys.modules\n"
             "    assert solution.g() == 1\n")
    code = "import colorsys\n\ndef f():\n    import wave\n    return [colorsys, wave]\n\ndef g():\n    return 1\n"
    v = verify(tests, fenced(code))
    assert v.reward == 1.0, v.details


def test_references_resolve_only_against_what_the_runner_holds(solution_process):
    """A module, class or value the solution names is looked up among the modules already
    loaded here, in their own namespaces: never imported, no module `__getattr__` run."""
    name = _not_loaded(["colorsys", "wave", "sndhdr", "chunk", "xdrlib", "nntplib"])
    sol = solution_process(f"import {name}\ndef get():\n    return {name}\ndef one():\n    return 1\n")
    with pytest.raises(Exception, match=f"cannot find {name}"):
        sol.call("get")
    assert name not in sys.modules
    assert sol.call("one") == 1
    from rlhub_unittest.codec import lookup

    with pytest.raises(LookupError):
        lookup("collections", "abc.Sequence.register")  # a method of a class: not a namespace walk
    assert lookup("collections.abc", "Sequence") is __import__("collections.abc").abc.Sequence


# -- 4. never "no verdict" because of the solution ------------------------------------------------
# The solution's value names a module whose import ends the process (unittest.__main__ runs its
# main() and exits): had the runner imported it while loading the tests, the tests would have
# been blamed (no verdict, the policy's substitute reward, and a retry as a sandbox fault).
EXITING_MODULE = ("import sys, types\nconfig = types.ModuleType('unittest.__main__')\n"
                  "sys.modules['unittest.__main__'] = config\n\ndef add(a, b):\n    return 0\n")


def test_a_load_failure_the_solution_causes_is_its_zero(verify):
    tests = "from solution import config, add\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    v = verify(tests, fenced(EXITING_MODULE))
    assert v.error is None and v.reward == 0.0, (v.error, v.details)
    assert verify(tests, fenced("config = {}\n\ndef add(a, b):\n    return a + b\n")).reward == 1.0


def test_a_load_failure_is_the_tests_only_if_it_reproduces_without_the_solution(verify):
    # the tests' own top level breaks after asking the solution something: it breaks without it too
    broken = "import solution\nLIMIT = solution.limit()\nBROKEN = undefined_name\n\ndef test_x():\n    assert LIMIT == 3\n"
    v = verify(broken, fenced("def limit():\n    return 3\n"))
    assert v.error is not None and "fail without the solution too" in v.error, v.details
    # a load failure that needs the solution's value (its limit() returns a str) is the solution's zero
    fine = "import solution\nLIMIT = solution.limit() + 1\n\ndef test_x():\n    assert LIMIT == 4\n"
    v = verify(fine, fenced("def limit():\n    return 'three'\n"))
    assert v.error is None and v.reward == 0.0 and "the solution's" in v.details["collect_errors"][0], v.details
    assert verify(fine, fenced("def limit():\n    return 3\n")).reward == 1.0
    # the test process ended by its own hand only with the solution in place: the solution's zero
    ends = ("import os\nimport solution\n\ndef test_x():\n    if solution.done():\n        os._exit(0)\n"
            "    assert solution.value() == 2\n")
    v = verify(ends, fenced("def done():\n    return True\n\ndef value():\n    return 2\n"))
    assert v.error is None and v.reward == 0.0, (v.error, v.details)


# -- 5. a read-only sys.path ----------------------------------------------------------------------
def test_a_runner_with_a_writable_sys_path_entry_refuses_to_start(monkeypatch, tmp_path):
    """Were the sandbox ever to hand the runner a sys.path entry a task can write (bwrap's
    sandbox_sys_path drops them: tests/sandbox), the runner would import what the solution
    planted there; it refuses to start instead (no verdict: not the model's doing)."""
    from hub.sandbox import bwrap, process

    entry = str(tmp_path / "working_dir")
    monkeypatch.setattr(process, "sandbox_sys_path", lambda: [entry, *bwrap.sandbox_sys_path()])
    sb = Sandbox(pool_size=1)
    try:
        ctx = VerifyContext(profile=PYTEST_PROFILE, _sandbox=sb)
        v = grade(UnitTests(UnitTestsConfig()), None, make_task("import solution\n\ndef test_x():\n    assert solution.x == 1\n"),
                  fenced("x = 1\n"), ctx)
    finally:
        sb.shutdown()
    assert v.error is not None and "writable entries" in v.error and entry in v.error, v.error


def test_a_ray_working_dir_on_the_hosts_sys_path_cannot_be_planted_into(monkeypatch, tmp_path):
    """The host runs with a writable directory under /tmp on sys.path (Ray's working_dir). The
    solution writes a module there that rewrites the runner's results, and returns module
    objects of that name (earned 1.0 before: the runner imported it). Now the sandbox's runner
    never has that entry, and imports nothing the solution names."""
    from hub.testing.reward_hacks import BOUNDARY_HACKS

    entry = str(tmp_path / "ray_working_dir")
    monkeypatch.setattr(sys, "path", [entry, *sys.path])
    hack = next(h for h in BOUNDARY_HACKS if h.kind == "plant_and_name_modules")
    code = f"import os\nos.makedirs({entry!r}, exist_ok=True)\n" + hack.source(["add", "words"])
    tests = "import solution\n\ndef test_add():\n    assert solution.add(2, 3) == 5\n\ndef test_words():\n    assert solution.words('a b') == ['a', 'b']\n"
    sb = Sandbox(pool_size=1)
    try:
        ctx = VerifyContext(profile=PYTEST_PROFILE, _sandbox=sb)
        v = grade(UnitTests(UnitTestsConfig(reward="fraction")), None, make_task(tests), fenced(code), ctx)
    finally:
        sb.shutdown()
    assert v.error is None and v.reward == 0.0, (v.error, v.details)
    assert "is not loaded here" in str(v.details["failures"]), v.details


# -- limits are named in the verdict ----------------------------------------------------------------
def test_a_limit_hit_is_named_in_the_verdict_never_a_silent_wrong_answer(verify):
    tests = ("import solution\n\ndef test_big():\n    assert len(solution.big()) == 40 << 20\n\n"
             "def test_deep():\n    assert solution.deep(5000) is not None\n\ndef test_fine():\n    assert solution.deep(300) is not None\n")
    code = ("def big():\n    return 'x' * (40 << 20)\n\ndef deep(n):\n    x = []\n    for _ in range(n):\n        x = [x]\n"
            "    return x\n")
    v = verify(tests, fenced(code), reward="fraction")
    assert v.error is None and v.reward == pytest.approx(1 / 3), v.details
    assert any("more than 33554432 bytes" in m for m in v.details["limits_hit"]), v.details
    assert any("nested more than about 1000 levels" in m for m in v.details["limits_hit"]), v.details


HUGE = ("def fails(x):\n    raise ValueError(10 ** 100_000)\n\ndef big():\n    return 10 ** 100_000\n\n"
        "def right(x):\n    return x\n")


@pytest.mark.parametrize("style, tests", [
    ("pytest", "import solution\n\ndef test_raises():\n    assert solution.fails(1) == 1\n\n"
               "def test_returns():\n    assert solution.big() == 1\n\n"
               "def test_formats():\n    got = solution.big()\n    assert got == 1, f'got {got!r}'\n\n"
               "def test_right():\n    assert solution.right(2) == 2\n"),
    ("check", "def check(candidate):\n    assert fails(1) == 1\n    assert big() == 1\n    assert candidate(2) == 2\n"),
])
def test_what_the_solution_raises_or_returns_never_stops_the_run(verify, style, tests):
    """`str()` of ValueError(10**100000) and repr() of a 100,000-digit int raise in Python (its
    int-to-str limit): describing such a failure crashed the runner and every test "did not
    run". Each is now its own test's failure, with the limit named; the right one passes."""
    hidden = {"test_style": style, "entry_point": "right"} if style == "check" else {}
    v = verify(tests, fenced(HUGE), reward="fraction", prompt="Write right(x); fails and big are given.", **hidden)
    assert v.error is None, v.error
    failures = v.details["failures"]
    assert v.details["tests_passed"] == 1 and len(failures) == v.details["tests_total"] - 1, v.details
    assert all("did not run" not in m and "never reported" not in m for m in failures.values()), failures
    assert any("its message holds an int too long to print" in m for m in failures.values()), failures
    assert v.details["limits_hit"] and "int-to-str limit" in v.details["limits_hit"][0], v.details


def test_a_dataclass_handle_never_vouches_for_itself(verify):
    """A dataclass instance arrives as a handle that carries its fields: still a handle (rule 7)."""
    tests = "import solution\n\ndef test_valid():\n    assert solution.check('x')\n\ndef test_in():\n    assert 3 in solution.box()\n"
    code = ("from dataclasses import dataclass\n@dataclass\nclass Yes:\n    v: int = 0\n    def __bool__(self):\n"
            "        return True\n    def __contains__(self, x):\n        return True\n\ndef check(s):\n    return Yes()\n\n"
            "def box():\n    return Yes()\n")
    v = verify(tests, fenced(code), reward="fraction")
    assert v.error is None and v.reward == 0.0, v.details
    assert "cannot vouch for itself" in str(v.details["failures"]), v.details
