"""The family-definition helper: one seeded generator per task family, registered by decorator.

A family is a function `build(rng) -> Spec` in a sub-domain module (families/text.py, ...).
`Spec` carries what the user sees (prompt, starter files), what only the grader sees (hidden
pytest file) and what the checks need (reference code, plausible wrong code). Two helpers
write the hidden tests so families stay short:

- `function_spec`: the candidate defines a Python function; expected values come from running
  the family's reference source (trusted, ours) on the hidden inputs at generation time, so the
  reference and the oracle can never drift apart.
- `program_spec`: the candidate is a program (python CLI, bash script); each case runs it in a
  fresh temp dir with files/args/stdin and checks stdout, exit code and written files.
"""

from __future__ import annotations

import copy
import inspect
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from hub import Variant

from .hidden import with_data

FENCE = {"python": "python", "bash": "bash", "sql": "sql"}
SOLUTION_PATH = {"python": "solution.py", "bash": "solution.sh", "sql": "query.sql"}


@dataclass
class Spec:
    prompt: str
    reference: str  # source code; wrapped in a fenced block to make the reference response
    tests: str  # hidden pytest file
    wrong: list[str | Variant]  # plausible but wrong sources (at least one): plain, or a Variant (kind, size)
    files: dict[str, str] = field(default_factory=dict)  # starter files the user shows / the session gets
    secrets: list[str] = field(default_factory=list)  # extra strings the prompt must never contain
    test_ids: list[str] | None = None  # the tests' names, where the hidden module defines them as it runs
    # mutants of the reference that no input the task allows can tell from it (rlhub_terminal.adequacy):
    # {text found in the mutant's `what` ("A ... B": A, later B): why it is equivalent}
    equivalent: dict[str, str] = field(default_factory=dict)
    # behaviour the prompt states, each tied to the hidden tests by code that breaks only it:
    # {clause, verbatim from the prompt: the reference with that clause undone} (a wrong answer each)
    clauses: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Family:
    name: str
    domain: str  # sub-domain: text, logs, formats, algo, dates, numeric, regex, files, cli, ...
    language: str
    build: Callable[[random.Random], Spec]
    description: str = ""
    rubric: dict[str, Any] | None = None  # graded by a rubric (unit_tests and more) instead of unit_tests alone

    @property
    def solution_path(self) -> str:
        return SOLUTION_PATH[self.language]


FAMILIES: dict[str, Family] = {}


def family(domain: str, name: str, language: str = "python", rubric: dict[str, Any] | None = None):
    """Decorator: register `build(rng) -> Spec` as family `name` in sub-domain `domain`
    (graded by `rubric`, hub.core.rubric's {"components": [...], "pass": ...}, when given)."""

    def wrap(build: Callable[[random.Random], Spec]) -> Callable[[random.Random], Spec]:
        if name in FAMILIES:
            raise ValueError(f"duplicate terminal family {name!r}")
        doc = (build.__doc__ or "").strip().splitlines()
        FAMILIES[name] = Family(name, domain, language, build, doc[0] if doc else "", rubric)
        return build

    return wrap


def fenced(code: str, language: str) -> str:
    return f"```{FENCE[language]}\n{code.strip()}\n```\n"


def one_test_per_case(n: int, fixture: str = "") -> str:
    """One named test function per case (not a parametrized one): the verifier counts test
    functions, so `reward: fraction` then means the fraction of cases passed."""
    args = f", {fixture}" if fixture else ""
    return "".join(f"\n\ndef test_case{i}({fixture}):\n    check({i}{args})\n" for i in range(n))


# -- Python function families ---------------------------------------------------------------

@lru_cache(maxsize=512)
def _compiled(source: str):
    return compile(source, "<reference>", "exec")


def run_reference(source: str, entry: str, cases: list[tuple]) -> list[Any]:
    """Expected outputs: the trusted reference source run on each case's (deep-copied) args."""
    return [got for got, _, _ in run_reference_effects(source, entry, cases)]


def run_reference_effects(source: str, entry: str, cases: list[tuple]) -> list[tuple[Any, list, list[bool]]]:
    """Per case: what the reference returns, its arguments after the call (what it changed in
    place) and, for each argument, whether the value returned is that very object."""
    namespace: dict[str, Any] = {"__name__": "reference"}
    exec(_compiled(source), namespace)  # noqa: S102 - our own reference code, never model output
    fn = namespace[entry]
    out = []
    for args in cases:
        args = copy.deepcopy(list(args))
        got = fn(*args)
        out.append((copy.deepcopy(got), args, [got is a for a in args]))
    return out


_SAME = '''\
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


'''

def function_spec(prompt: str, entry: str, reference: str, wrong: list[str], cases: list[tuple],
                  show: int = 1, tol: float = 1e-6, files: dict[str, str] | None = None, effects: bool = False,
                  forbidden: tuple[str, ...] = ()) -> Spec:
    """A Python-function family. The first `show` cases appear in the prompt as examples
    (call and result); all cases, the shown ones included, are hidden tests.

    `effects`: the prompt states what the function does to its arguments (changes one in place,
    returns it, leaves them alone): each case also runs the solution in a process of the test's
    own (the solution's usual process returns copies) and compares the arguments after the call,
    and which argument the result is, with the reference's. `forbidden`: modules the prompt rules
    out; each case also fails a solution whose code names one, or imports by a built name."""
    cases = [tuple(c) for c in cases]
    ran = run_reference_effects(reference, entry, cases)
    expected = [got for got, _, _ in ran]
    examples = "\n".join(f">>> {entry}({', '.join(map(repr, c))})\n{expected[i]!r}" for i, c in enumerate(cases[:show]))
    full = prompt.strip() + (f"\n\nExample:\n```\n{examples}\n```" if show else "")
    full += "\n\nReply with the complete module in one ```python block."
    data = {"entry": entry, "cases": [list(c) for c in cases], "expected": expected, "tol": tol}
    if effects:
        data["after"] = [after for _, after, _ in ran]
        data["same"] = [same for _, _, same in ran]
    if forbidden:
        data["forbidden"] = list(forbidden)
    tests = with_data("function_cases", data)
    return Spec(full, reference, tests, wrong, files=files or {}, test_ids=[f"test_case{i}" for i in range(len(cases))])


_CALLS_TESTS = '''\
import copy, math
import pytest
from solution import {names}

FUNCTIONS = {{{functions}}}
CALLS = {calls!r}
EXPECTED = {expected!r}
TOL = {tol!r}


{same}def check(index):
    name, args = CALLS[index]
    got = FUNCTIONS[name](*copy.deepcopy(args))
    assert same(got, EXPECTED[index]), f"{{name}}{{tuple(args)!r}} returned {{got!r}}, expected {{EXPECTED[index]!r}}"
'''


def calls_spec(prompt: str, reference: str, wrong: list[str | Variant], calls: list[tuple[str, tuple]],
               oracle: str | None = None, tol: float = 1e-6) -> Spec:
    """A Python-module family whose hidden tests call several of its functions: each call is
    (function name, args), one test per call. Expected values come from running `oracle` (default:
    the reference), trusted code of ours, at generation time."""
    namespace: dict[str, Any] = {"__name__": "reference"}
    exec(_compiled(oracle or reference), namespace)  # noqa: S102 - our own reference code, never model output
    expected = [namespace[name](*copy.deepcopy(list(args))) for name, args in calls]
    names = sorted({name for name, _ in calls})
    tests = _CALLS_TESTS.format(names=", ".join(names), functions=", ".join(f"{n!r}: {n}" for n in names),
                                calls=[[name, list(args)] for name, args in calls], expected=expected, tol=tol,
                                same=_SAME)
    tests += one_test_per_case(len(calls))
    return Spec(prompt.strip() + "\n\nReply with the complete module in one ```python block.", reference, tests, wrong)


# -- program families (python CLI, bash) ------------------------------------------------------

_PROGRAM_TESTS = '''\
import os, subprocess, sys
from pathlib import Path
import pytest

SOLUTION = {solution!r}
RUNNER = {runner!r}
CASES = {cases!r}


def solution_file():
    for base in (Path.cwd(), Path(__file__).resolve().parent):
        if (base / SOLUTION).is_file():
            return str((base / SOLUTION).resolve())
    pytest.fail(f"{{SOLUTION}} not found")


def lines(text):
    return [line.rstrip() for line in text.rstrip("\\n").splitlines()]


def check(index, tmp_path):
    case = CASES[index]
    for name, text in case.get("files", {{}}).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    for name, target in case.get("links", {{}}).items():  # symbolic links (not regular files)
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, tmp_path / name)
    runner = [sys.executable] if RUNNER == "python" else [RUNNER]
    # bytes, decoded here: text mode would turn "\\r\\n" into "\\n", and some tasks state their line ends
    proc = subprocess.run(runner + [solution_file()] + case.get("args", []), cwd=tmp_path,
                          input=case.get("stdin", "").encode(), capture_output=True, timeout=10,
                          env={{**os.environ, "LC_ALL": "C"}})
    proc.stdout, proc.stderr = (proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))
    if "exit" in case:
        assert proc.returncode == case["exit"], f"exit code {{proc.returncode}}, expected {{case['exit']}}; stderr: {{proc.stderr[-500:]}}"
    if "stdout" in case:
        assert lines(proc.stdout) == lines(case["stdout"]), f"stdout was {{proc.stdout[-800:]!r}}; stderr: {{proc.stderr[-300:]}}"
    if "stdout_exact" in case:  # every character, line ends included
        assert proc.stdout == case["stdout_exact"], f"stdout was {{proc.stdout[-800:]!r}}, expected exactly {{case['stdout_exact'][-800:]!r}}"
    if case.get("stderr_nonempty"):
        assert proc.stderr.strip(), "expected an error message on stderr"
        assert "Traceback (most recent call last)" not in proc.stderr, f"expected an error message, not a crash: {{proc.stderr[-500:]}}"
    for name, text in case.get("out_files", {{}}).items():
        path = tmp_path / name
        assert path.is_file(), f"{{name}} was not written"
        assert lines(path.read_text()) == lines(text), f"{{name}} holds {{path.read_text()[-800:]!r}}"
    for name in case.get("absent", []):
        assert not (tmp_path / name).exists(), f"{{name}} should not exist"
'''


def program_spec(prompt: str, language: str, reference: str, wrong: list[str], cases: list[dict],
                 files: dict[str, str] | None = None) -> Spec:
    """A program family: each case is {args, stdin, files, links, stdout, stdout_exact, exit, out_files, absent}
    (`stdout` line by line, trailing spaces aside; `stdout_exact` every character).

    Expected outputs are computed by the family's Python oracle at generation time."""
    runner = "python" if language == "python" else "bash"
    tests = _PROGRAM_TESTS.format(solution=SOLUTION_PATH[language], runner=runner, cases=cases)
    tests += one_test_per_case(len(cases), "tmp_path")
    block = "python" if language == "python" else "bash"
    full = prompt.strip()
    if language == "python":  # the grader imports the module: running it must need __main__
        full += "\n\nThe program must be importable without side effects (entry code under `if __name__ == \"__main__\":`)."
    full += f"\n\nReply with the complete {SOLUTION_PATH[language]} in one ```{block} block."
    return Spec(full, reference, tests, wrong, files=files or {})


# -- SQL families --------------------------------------------------------------------------------

_SQL_TESTS = '''\
import sqlite3
from pathlib import Path
import pytest

SCHEMA = {schema!r}
DATASETS = {datasets!r}
EXPECTED = {expected!r}
ORDERED = {ordered!r}


def query_text():
    for base in (Path.cwd(), Path(__file__).resolve().parent):
        if (base / "query.sql").is_file():
            return (base / "query.sql").read_text()
    pytest.fail("query.sql not found")


def check(index):
    con = sqlite3.connect(":memory:")
    con.executescript(SCHEMA)
    con.executescript(DATASETS[index])
    rows = [list(r) for r in con.execute(query_text().strip().rstrip(";")).fetchall()]
    want = EXPECTED[index]
    if not ORDERED:
        rows, want = sorted(rows, key=repr), sorted(want, key=repr)
    assert rows == want, f"query returned {{rows[:20]!r}}, expected {{want[:20]!r}}"
'''


def sql_rows(schema: str, data: str, query: str) -> list[list]:
    import sqlite3

    con = sqlite3.connect(":memory:")
    con.executescript(schema)
    con.executescript(data)
    return [list(r) for r in con.execute(query.strip().rstrip(";")).fetchall()]


def sql_spec(prompt: str, schema: str, datasets: list[str], reference: str, wrong: list[str],
             ordered: bool = True) -> Spec:
    """An SQL family: one SELECT (query.sql) run by sqlite3 against several hidden datasets;
    the first dataset is shown to the user as a sample."""
    expected = [sql_rows(schema, d, reference) for d in datasets]
    full = (prompt.strip() + f"\n\nSchema:\n```sql\n{schema.strip()}\n```\nSample data:\n```sql\n{datasets[0].strip()}\n```"
            "\n\nReply with one SQLite SELECT statement (query.sql) in one ```sql block.")
    tests = _SQL_TESTS.format(schema=schema, datasets=datasets, expected=expected, ordered=ordered)
    tests += one_test_per_case(len(datasets))
    return Spec(full, reference, tests, wrong)


# -- small seeded vocabularies ------------------------------------------------------------------

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
         "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "yara"]
WORDS = ["apple", "river", "stone", "cloud", "tiger", "lemon", "piano", "rocket", "garden", "silver",
         "forest", "candle", "mirror", "violet", "harbor", "pepper", "falcon", "marble", "copper", "willow"]
CITIES = ["Oslo", "Lima", "Cairo", "Perth", "Quito", "Dakar", "Hanoi", "Porto", "Turin", "Accra", "Riga", "Sofia"]


def pick(rng: random.Random, pool: list[str], k: int) -> list[str]:
    return rng.sample(pool, k)


# -- file-system families ------------------------------------------------------------------------

_FS_TESTS = '''\
import os
from pathlib import Path
from solution import {entry}

CASES = {cases!r}
EXPECTED = {expected!r}


{snapshot_source}

def check(index, tmp_path):
    tree, args = CASES[index]
    for name, text in tree.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    got = {entry}(str(tmp_path), *args)
    want_result, want_tree = EXPECTED[index]
    assert tmp_path.is_dir(), "the root directory itself is gone"
    assert type(got) is type(want_result) and got == want_result, f"returned {{got!r}}, expected {{want_result!r}}"
    assert snapshot(tmp_path) == want_tree, f"directory is now {{sorted(snapshot(tmp_path))}}, expected {{sorted(want_tree)}}"
'''


def snapshot(root: str) -> dict:
    """A directory tree as {path: text}, empty dirs as 'dir/': None. The hidden tests embed this very
    function's source, so expected and observed trees are taken the same way."""
    import os
    from pathlib import Path

    out: dict = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            p = os.path.join(dirpath, d)
            if not os.listdir(p):
                out[os.path.relpath(p, root) + "/"] = None
        for f in filenames:
            p = os.path.join(dirpath, f)
            out[os.path.relpath(p, root)] = Path(p).read_text()
    return dict(sorted(out.items()))  # os.walk order is the filesystem's: never let it into a task


def fs_spec(prompt: str, entry: str, reference: str, wrong: list[str], cases: list[tuple[dict, tuple]]) -> Spec:
    """A file-system family: each case is (tree {relpath: text}, extra args); the candidate's
    `entry(root, *args)` works inside root. Expected result and resulting tree come from
    running the reference in a scratch directory at generation time (small trees: cheap)."""
    import os
    import tempfile

    namespace: dict[str, Any] = {"__name__": "reference"}
    exec(_compiled(reference), namespace)  # noqa: S102 - our own reference code
    expected = []
    for tree, args in cases:
        with tempfile.TemporaryDirectory() as root:
            for name, text in tree.items():
                os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
                with open(os.path.join(root, name), "w") as fh:
                    fh.write(text)
            result = namespace[entry](root, *copy.deepcopy(list(args)))
            expected.append([result, snapshot(root)])
    tests = _FS_TESTS.format(entry=entry, cases=[[t, list(a)] for t, a in cases], expected=expected,
                            snapshot_source=inspect.getsource(snapshot))
    tests += one_test_per_case(len(cases), "tmp_path")
    example = cases[0][0]
    listing = "\n".join(f"{k}" for k in sorted(example))
    full = (prompt.strip() + f"\n\nFor example, the directory might contain:\n```\n{listing}\n```"
            "\n\nReply with the complete module in one ```python block.")
    return Spec(full, reference, tests, wrong)
