"""The diff shapes in-process grading refuses (shapes.py): what forging needs, a fix does not."""

from __future__ import annotations

from rlhub_swe.shapes import refusal, special_cased, uses

BASE = {"pkg/__init__.py": "from .core import f\n", "pkg/core.py": "import os\n\n\ndef f(x):\n    return x + 1\n",
        "tests/test_core.py": "from pkg import f\n\n\ndef test_f():\n    assert f(1) == 2\n"}


def changed(path: str, text: str) -> dict[str, str]:
    return {**BASE, path: text}


def test_a_plain_fix_is_not_refused():
    assert refusal(BASE, changed("pkg/core.py", "import os\n\n\ndef f(x):\n    return x + 2\n"), None) is None


def test_each_way_to_the_runner_is_refused_whatever_it_is_called():
    for text in ("import unittest\n", "from _pytest import reports\n", "import inspect as i\n", "from pkg import sys\n",
                 "x = pkg.core.gc\n", "exec('1')\n", "y = getattr(object, 'a' + 'b')\n", "z = f.__code__\n",
                 "os._exit(0)\n", "v = os.environ\n", "q = ().__class__.__bases__\n", "b = __builtins__\n"):
        why = refusal(BASE, changed("pkg/core.py", BASE["pkg/core.py"] + text), None)
        assert why and why.startswith("pkg/core.py adds"), text


def test_what_the_base_already_uses_is_not_counted_again_and_the_gold_patch_may_add_it():
    base = changed("pkg/core.py", "import sys\n\n\ndef f(x):\n    return x + sys.maxsize * 0\n")
    assert refusal(base, {**base, "pkg/core.py": base["pkg/core.py"].replace("* 0", "* 0 + 1")}, None) is None
    fix = changed("pkg/core.py", "import inspect\n\n\ndef f(x):\n    return len(inspect.signature(f).parameters) + x\n")
    assert refusal(BASE, fix, None) is not None
    assert refusal(BASE, fix, fix) is None  # the task's own reference needs it: allowed


def test_a_module_outside_the_packages_is_refused():
    why = refusal(BASE, {**BASE, "shim.py": "X = 1\n"}, None)
    assert why and "new module outside the repository's packages" in why
    assert refusal(BASE, {**BASE, "pkg/helpers.py": "X = 1\n"}, None) is None


def test_source_that_does_not_parse_counts_nothing():
    assert uses("def (:\n") == {}


def test_a_coding_cookie_cannot_hide_a_name():
    """The red team's unicode_escape forger: `\\x69mport` is `import` once Python decodes the file."""
    hidden = "# coding: unicode_escape\nx = 1\n\\x69mport unittest\n"
    why = refusal(BASE, changed("pkg/core.py", hidden), None)
    assert why and "coding: unicode-escape" in why.replace("_", "-")


def test_a_gate_on_the_clock_the_path_it_runs_from_or_the_machines_files_and_limits_is_refused():
    for text in ("import time\n", "from time import perf_counter\n", "p = os.path.abspath('.')\n",
                 "q = os.path.realpath(x)\n", "import datetime\nd = datetime.datetime.now()\n",
                 "n = os.sysconf('SC_OPEN_MAX')\n", "b = os.statvfs('.').f_blocks\n", "h = os.path.isdir(x)\n",
                 "p = '/home'\n"):
        why = refusal(BASE, changed("pkg/core.py", BASE["pkg/core.py"] + text), None)
        assert why and why.startswith("pkg/core.py adds"), text


TESTS = {"tests/test_flags.py": "from pkg import f\n\n\ndef test_on():\n    assert f('--on') == 2\n\n\n"
                                "def test_other():\n    assert f('--zap') == 1\n"}
FLAGS = {**BASE, "pkg/core.py": "def f(x):\n    return 1\n", "pkg/const.py": "TWO = 2\n"}


def test_a_fix_that_picks_out_the_failing_tests_own_input_is_refused():
    """click's one failing test used `--on`; `... or "--on" in param.opts` passed it and left every
    other flag broken. A literal only the failing test holds is refused, however it is spelt."""
    for body in ("return 2 if x == '--on' else 1", "return 2 if x == '--' + 'on' else 1"):
        final = {**FLAGS, "pkg/core.py": f"def f(x):\n    {body}\n"}
        why = special_cased(FLAGS, final, None, TESTS, ["tests/test_flags.py::test_on"])
        assert why and "adds '--on', an input of a FAIL_TO_PASS test" in why, body
    general = {**FLAGS, "pkg/core.py": "def f(x):\n    return 2 if x.startswith('--o') else 1\n"}
    assert special_cased(FLAGS, general, None, TESTS, ["tests/test_flags.py::test_on"]) is None
    # a passing test's input, a docstring, and what the repository or the gold fix already has are not inputs to pick out
    other = {**FLAGS, "pkg/core.py": "def f(x):\n    '''--on'''\n    return 2 if x == '--zap' else 1\n"}
    assert special_cased(FLAGS, other, None, TESTS, ["tests/test_flags.py::test_on"]) is None
    gold = {**FLAGS, "pkg/core.py": "ON = '--on'\n\n\ndef f(x):\n    return 2 if x == ON else 1\n"}
    assert special_cased(FLAGS, gold, gold, TESTS, ["tests/test_flags.py::test_on"]) is None
