"""Hidden tests of a Python-function family (see ..hidden): one test per case, `test_case<i>`,
each calling the solution's function on the case's arguments and comparing with the expected
value computed by the family's reference at generation time.

Where the prompt states what the function does to its arguments (DATA["after"], DATA["same"]),
each case also runs the solution in a process of its own, started here: `import solution` gives
a stand-in whose calls return copies, so only the solution's own process can tell whether an
argument was changed in place or returned as itself. Where the prompt rules modules out
(DATA["forbidden"]), each case also reads the solution's code for them."""

import ast
import copy
import math
import os
import subprocess
import sys
from pathlib import Path

import solution

ENTRY, CASES, EXPECTED, TOL = DATA["entry"], DATA["cases"], DATA["expected"], DATA["tol"]  # noqa: F821 (prepended)
AFTER, SAME, FORBIDDEN = DATA.get("after"), DATA.get("same"), DATA.get("forbidden", [])  # noqa: F821
# Run once, in a fresh interpreter beside the solution's file, over every case: per case, the
# arguments after the call and, per argument, whether the result is that object (or the error).
EFFECTS = (
    "import ast, sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import solution\n"
    "out = []\n"
    "for args in ast.literal_eval(sys.argv[3]):\n"
    "    try:\n"
    "        got = getattr(solution, sys.argv[2])(*args)\n"
    "        out.append([repr(args), [got is a for a in args]])\n"
    "    except Exception as exc:\n"
    "        out.append(repr(exc)[:200])\n"
    "print()\n"
    "print(repr(out))\n"
)
_EFFECTS_SEEN = []  # the one run's results, per case (the solution's process is started once per test run)

def same(got, want):
    """Exact structural equality: scalars of exactly the stated type (no always-equal objects, no
    bool or Fraction for an int, no str subclasses); a container may be a subclass of the stated one
    (a namedtuple is a tuple; an OrderedDict, defaultdict or Counter is a dict), its items compared so."""
    if type(want) is float:
        return type(got) in (float, int) and type(got) is not bool and math.isclose(got, want, rel_tol=TOL, abs_tol=TOL)
    if type(want) in (list, tuple, dict):
        if not isinstance(got, type(want)):
            return False
    elif type(got) is not type(want):
        return False
    if type(want) in (list, tuple):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if type(want) is dict:
        return sorted(map(repr, got)) == sorted(map(repr, want)) and all(same(got[k], want[k]) for k in want)
    return got == want


def check(index):
    args = copy.deepcopy(CASES[index])
    got = getattr(solution, ENTRY)(*args)
    assert same(got, EXPECTED[index]), f"{ENTRY}{tuple(CASES[index])!r} returned {got!r}, expected {EXPECTED[index]!r}"
    if AFTER is not None:
        check_effects(index)
    if FORBIDDEN:
        check_forbidden()


def solution_dir():
    for base in (Path.cwd(), Path(__file__).resolve().parent):
        if (base / "solution.py").is_file():
            return str(base)
    raise AssertionError("solution.py not found")


def effects():
    if not _EFFECTS_SEEN:
        proc = subprocess.run([sys.executable, "-c", EFFECTS, solution_dir(), ENTRY, repr(CASES)], capture_output=True,
                              text=True, timeout=20, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        assert proc.returncode == 0, f"{ENTRY} failed in a process of its own: {proc.stderr[-300:]}"
        _EFFECTS_SEEN.append(ast.literal_eval(proc.stdout.strip().splitlines()[-1]))
    return _EFFECTS_SEEN[0]


def check_effects(index):
    call = f"{ENTRY}{tuple(CASES[index])!r}"
    seen = effects()[index]
    assert not isinstance(seen, str), f"{call} raised {seen} in a process of its own"
    args_text, returned = seen
    args = ast.literal_eval(args_text)
    assert same(args, AFTER[index]), f"after {call} the arguments are {args!r}, expected {AFTER[index]!r}"
    for i, (was, want) in enumerate(zip(returned, SAME[index])):
        assert was == want, (f"{call} returned {'a new object instead of' if want else 'its argument'} "
                             f"argument {i + 1} {'itself' if want else '(expected a new object)'}")


def check_forbidden():
    with open(os.path.join(solution_dir(), "solution.py"), encoding="utf-8") as f:
        code = f.read()
    tree = ast.parse(code)
    for node in ast.walk(tree):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                 if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            top = name.split(".")[0]
            assert top.lstrip("_") not in FORBIDDEN, f"the solution imports {name}, which the task rules out"
            assert top != "importlib", "the solution imports importlib: modules it imports must be named"
        if isinstance(node, ast.Name) and node.id in ("__import__", "importlib", "exec", "eval"):
            raise AssertionError(f"the solution uses {node.id}: modules it imports must be named")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lstrip("_") in FORBIDDEN:
            raise AssertionError(f"the solution names {node.value!r}, which the task rules out")


def _test(index):
    def test():
        check(index)

    test.__name__ = test.__qualname__ = f"test_case{index}"
    return test


for _index in range(len(CASES)):  # one named test per case: `reward: fraction` counts cases
    globals()[f"test_case{_index}"] = _test(_index)
