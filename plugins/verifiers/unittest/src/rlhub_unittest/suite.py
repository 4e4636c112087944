"""Host side: turn a task's hidden tests into the one pytest module the sandbox runs.

Both test styles end up as a pytest module with one test function per expected test id:
- "pytest": the test file as written; ids are its test functions (or `test_ids`).
- "check" (HumanEval/MBPP): each assert of `check(candidate)`'s body, or each top-level assert
  of an MBPP-style assert list, becomes its own test `test_case_N`, so a fraction reward can
  count them; statements without asserts run before each case as setup.
Then every assert is made strict (strict.py) and a hidden sentinel test that a genuine run must
fail is inserted at a random place.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import marshal
import os
import random
import re
import sys
import textwrap
from dataclasses import dataclass

from . import io_cases
from .strict import strict_asserts

PLACEHOLDER = "/tmp/rlhub-hidden/test_hidden.py"  # the tests' file name in a warm worker (each task has its own /tmp)
SOLUTION_ALIAS = "__rlhub_solution__"
BIND = "__rlhub_bind__"  # runner-side: binds the solution module's globals into the tests' namespace
_SENTINEL_WORDS = ("basic", "edge", "empty", "large", "mixed", "order", "single", "types", "values", "extra")


class SuiteError(ValueError):
    """The task's tests are unusable (an environment bug, not the model's fault)."""


@dataclass(frozen=True)
class Suite:
    source: str                 # the pytest module the sandbox runs (strict asserts, sentinel inside)
    expected: tuple[str, ...]   # test ids that must all run
    sentinel: str               # name of the test a genuine run fails
    code: bytes = b""           # the module compiled for PLACEHOLDER (asserts rewritten by pytest), marshalled
    own_names: tuple[str, ...] = ()  # names the module binds itself (a star import of the solution leaves them)


def _parse(text: str, what: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError as exc:
        raise SuiteError(f"{what} do not parse: line {exc.lineno}: {exc.msg}") from None


def pytest_ids(tree: ast.Module) -> list[str]:
    """Test ids pytest collects by default: top-level test* functions and Test* classes' test* methods."""
    ids = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            ids.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            ids += [f"{node.name}::{m.name}" for m in node.body
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test")]
    return ids


def _has_assert(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Assert) for n in ast.walk(node))


def _is_check_call(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "check")


def _bound_names(tree: ast.Module) -> set[str]:
    """Names a module binds at top level (defs, classes, imports, assignments)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names if a.name != "*")
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _all_bound(tree: ast.AST) -> set[str]:
    """Every name a piece of code binds anywhere (assignments, defs, parameters, imports, loops)."""
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments)
              for a in [*n.posonlyargs, *n.args, *n.kwonlyargs, n.vararg, n.kwarg] if a is not None}
    bound |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
              for a in n.names}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name}
    return bound


def free_names(*trees: ast.AST) -> list[str]:
    """Names the code uses that it binds nowhere and that are not builtins, in order of use."""
    bound = set().union(*(_all_bound(t) for t in trees))
    names: dict[str, None] = {}
    for tree in trees:
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound and not hasattr(builtins, n.id):
                names[n.id] = None
    return list(names)


def prompt_names(prompt: object) -> frozenset[str]:
    """The identifiers a prompt mentions (its text, or its messages' text)."""
    texts = [prompt] if isinstance(prompt, str) else [m.get("content") for m in prompt if isinstance(m, dict)] \
        if isinstance(prompt, list) else []
    return frozenset(w for t in texts if isinstance(t, str) for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", t))


def check_module(tests: str, entry_point: str | None, solution_module: str,
                 skip_number: int | None = None, prefix: str = "", setup: str = "",
                 prompt: frozenset[str] = frozenset()) -> tuple[str, list[str]]:
    """A check program (HumanEval `check(candidate)` or MBPP asserts) as a test module.

    Benchmark semantics: the benchmarks run prompt + completion + tests in one namespace, so the
    tests call the entry point by its name. Here the tests' namespace holds what the tests
    define and import, the prompt's own code (`prefix`: its imports and helper functions,
    trusted task data, run here in the runner: a completion that redefines the prompt's
    `encode` helper does not change what the tests call), and the solution's *task names*: the
    entry point and the names the tests use that the prompt (`prompt`: its identifiers) gives
    the solution to define. Those are bound from the solution's process; nothing else of the
    solution's is. A standard-library module the tests use without importing it (MBPP's
    `math.isclose`, which its own harness takes from the solution's `import math`) is that
    module, imported here. Everything else resolves as in a fresh interpreter (builtins).
    `setup` (MBPP's test_setup_code) runs before the tests.

    Cases are numbered test_case_1, 2, ... leaving out `skip_number` (the sentinel's, so its
    name gives it away no more than its place does)."""
    tree = _parse(tests, "the check program's tests")
    setup_tree = _parse(setup, "the tests' setup code") if setup.strip() else ast.Module(body=[], type_ignores=[])
    body = [s for s in tree.body if not _is_check_call(s)]
    check = next((s for s in body if isinstance(s, ast.FunctionDef) and s.name == "check"), None)
    lines = [f"import {solution_module} as {SOLUTION_ALIAS}"]
    keep: set[str] = set()
    prompt_tree = ast.Module(body=[], type_ignores=[])
    if prefix.strip():
        try:
            prompt_tree = ast.parse(prefix)
        except SyntaxError:
            pass  # not Python after all (a prose prompt): nothing of it runs
        lines += [ast.unparse(s) for s in prompt_tree.body]
        keep = _bound_names(prompt_tree) - {entry_point}
    free = [n for n in free_names(tree, setup_tree) if n not in keep]
    stdlib = [n for n in free if n in sys.stdlib_module_names and n != entry_point and not n.startswith("_")]
    names = sorted({entry_point} - {None} | {n for n in free if n in prompt and n not in stdlib})
    lines.append(f"{BIND}(globals(), {SOLUTION_ALIAS}, {names!r})")
    for module in stdlib:
        lines.append(f"try:\n    import {module}\nexcept ImportError:\n    pass")
    if setup.strip():
        lines.append(ast.unparse(setup_tree))
    if check is not None:
        if not entry_point:
            raise SuiteError("check-style tests define check(candidate) but the task has no entry_point")
        kept = body
        param = check.args.args[0].arg if check.args.args else "candidate"
        prelude = [f"{param} = getattr({SOLUTION_ALIAS}, {entry_point!r})"]
        steps = check.body
    else:
        kept = [s for s in body if not _has_assert(s)]
        prelude = []
        steps = [s for s in body if _has_assert(s)]
    lines += [ast.unparse(s) for s in kept]
    ids, setup_steps, number = [], list(prelude), 0
    for step in steps:
        if not _has_assert(step):
            setup_steps.append(ast.unparse(step))
            continue
        number += 1 + (number + 1 == skip_number)
        ids.append(f"test_case_{number}")
        case = "\n".join([*setup_steps, ast.unparse(step)])
        lines.append(f"def {ids[-1]}():\n{textwrap.indent(case, '    ')}")
    if not ids:
        raise SuiteError("check-style tests contain no assert")
    return "\n\n".join(lines) + "\n", ids


def _sentinel(rng: random.Random, taken: set[str], solution_module: str, name: str | None = None) -> tuple[str, ast.stmt]:
    """A test that must fail in any genuine run. It looks like the other tests (a name like
    theirs, it imports the solution) so that code which fakes results cannot single it out."""
    while name is None or name in taken:
        name = f"test_{rng.choice(_SENTINEL_WORDS)}_{rng.choice(_SENTINEL_WORDS)}_{rng.randrange(10, 99)}"
    module = solution_module or "os"  # bash/sql tasks have no Python module to import
    src = (f"def {name}():\n    import {module} as _s\n"
           f"    assert _s.__name__ == {module + '_' + format(rng.getrandbits(40), 'x')!r}\n")
    return name, ast.parse(src).body[0]


def build(tests, style: str, *, entry_point: str | None = None, test_ids: list[str] | None = None,
          solution_module: str | None = "solution", rng: random.Random | None = None, prefix: str = "",
          setup: str = "", prompt: frozenset[str] = frozenset()) -> Suite:
    rng = rng or random.SystemRandom()
    sentinel_name = None
    if style == "check":
        if not solution_module:
            raise SuiteError("check-style tests need a Python solution module")
        cases = len(check_module(tests, entry_point, solution_module)[1])
        slot = rng.randint(1, cases + 1)
        source, ids = check_module(tests, entry_point, solution_module, skip_number=slot, prefix=prefix, setup=setup,
                                   prompt=prompt)
        sentinel_name = f"test_case_{slot}"
    elif style == "stdio":
        try:
            cases = io_cases.parse_cases(*(tests if isinstance(tests, tuple) else (tests,)), entry_point=entry_point)
        except io_cases.CasesError as exc:
            raise SuiteError(str(exc)) from None
        slot = rng.randint(1, len(cases) + 1)
        source, ids = io_cases.stdio_module(cases, skip_number=slot)
        sentinel_name = f"test_case_{slot}"
        solution_module = None  # the sentinel must not import a program that reads stdin at import
    elif style == "pytest":
        source, ids = tests, None
    else:
        raise SuiteError(f"unknown test_style {style!r}; expected 'pytest', 'check' or 'stdio'")
    tree = _parse(source, "the hidden tests")
    ids = list(test_ids) if test_ids else (ids or pytest_ids(tree))
    if not ids:
        raise SuiteError("the hidden tests define no test (expected functions named test_*)")
    tree = strict_asserts(tree)
    name, node = _sentinel(rng, {i.split("::")[0].split("[")[0] for i in ids}, solution_module, sentinel_name)
    defs = [i for i, s in enumerate(tree.body) if isinstance(s, (ast.FunctionDef, ast.ClassDef))]
    if sentinel_name:  # check style: its place follows its number
        where = ([i for i, s in enumerate(tree.body) if getattr(s, "name", "") in ids] + [len(tree.body)])[slot - 1]
    else:
        where = rng.choice(defs[1:] + [len(tree.body)]) if defs else len(tree.body)
    tree.body.insert(where, strict_asserts(ast.Module(body=[node], type_ignores=[])).body[0])
    return Suite(source=ast.unparse(ast.fix_missing_locations(tree)) + "\n", expected=tuple(ids), sentinel=name,
                 own_names=tuple(sorted(_bound_names(tree))))


def _compiled(source: str, style: str) -> bytes:
    """The module as the runner executes it, compiled here once: pytest's assertion rewrite
    (pytest style, for readable failures) and the compile cost more than the rest of a run."""
    tree = ast.parse(source)
    if style == "pytest":
        from _pytest.assertion.rewrite import rewrite_asserts

        try:
            rewrite_asserts(tree, source.encode(), PLACEHOLDER, None)
        except Exception:  # readable messages are a nicety; the strict asserts are already in place
            tree = ast.parse(source)
    return marshal.dumps(compile(tree, PLACEHOLDER, "exec", dont_inherit=True))


@functools.lru_cache(maxsize=512)
def _cached(tests, style, entry_point, test_ids, solution_module, prefix, setup, prompt) -> Suite:
    suite = build(tests, style, entry_point=entry_point, test_ids=list(test_ids) if test_ids else None,
                  solution_module=solution_module, prefix=prefix, setup=setup, prompt=prompt)
    return dataclasses.replace(suite, code=_compiled(suite.source, style))


def prepared(tests, style: str, *, entry_point=None, test_ids=None, solution_module: str | None = "solution",
             prefix: str = "", setup: str = "", prompt: frozenset[str] = frozenset()) -> Suite:
    """`build` + compile, memoised per task in this process (a task is graded many times: samples
    per prompt, the checks). The sentinel is then fixed per task and process: it never leaves the
    runner, so that gives the model nothing. RLHUB_CACHE=off (or unhashable tests) builds afresh."""
    prompt = frozenset(prompt) if style == "check" else frozenset()  # only check programs take names by it
    key = (tests, style, entry_point, tuple(test_ids) if test_ids else None, solution_module, prefix, setup, prompt)
    try:
        hash(key)
    except TypeError:
        key = None
    if key is None or os.environ.get("RLHUB_CACHE", "").lower() == "off":
        suite = build(tests, style, entry_point=entry_point, test_ids=test_ids, solution_module=solution_module,
                      prefix=prefix, setup=setup, prompt=prompt)
        return dataclasses.replace(suite, code=_compiled(suite.source, style))
    return _cached(*key)
