"""What a fix to a real repository never needs, and a forger always does: reaching the test runner.

In-process grading (the repository's own tests run with the model's code) cannot stop a forger that
hooks pytest or unittest once it is running; it can refuse the diff shapes forging needs before any
test runs. A change is refused (0, `details.refused: runner_access`) when its Python adds, in any
file, more uses than the base had of:
- the runner and introspection: names `pytest`, `_pytest`, `unittest`, `inspect`, `gc`, `sys`,
  `builtins`, `importlib`, `ctypes`, `types`, `pickle`, `marshal`, `dis`, `traceback`, `atexit`,
  `signal`, `threading`, `multiprocessing`, `subprocess`, `TestCase`, `TestReport`, whatever they
  are reached through (an import, an attribute of another module, an alias);
- dynamic code and attributes: `exec`, `eval`, `compile`, `__import__`, `globals`, `locals`, `vars`,
  `breakpoint`, `getattr`/`setattr`/`delattr`/`hasattr` with a name that is not a literal, and dunder
  attributes other than the everyday ones (`__class__.__bases__`, `__code__`, `__globals__`...);
- writing or finding files at run time (`open`, `write_bytes`, `listdir`, `glob`, `walk`, `chmod`,
  `unlink`, and the decoders that unpack a payload: `base64`, `zlib`, `codecs`...), import machinery
  (`path_hooks`, `meta_path`, `pycache_prefix`); the harness also imports the repository from source
  only, so a .pyc written while the tests run is never loaded;
- a process's way out or its environment: `os._exit`, `os.kill`, `os.abort`, `os.environ`, `os.getenv`,
  `os.fork`, `os.system`;
- the grading machine's identity, which a fix on only where it is graded reads: the host name
  (`socket`, `uname`, `platform`), the working directory (`getcwd`, `Path.cwd`, `abspath`,
  `realpath`, `resolve`), a module's own path (`__file__`), ids, resource limits (`resource`), the
  stack's depth (`RecursionError`), the clock (`time`, `perf_counter`, `monotonic`, `datetime.now`),
  the machine's limits and files (`sysconf`, `statvfs`, `disk_usage`, `getrusage`, `exists`, `isdir`,
  `stat`...), and strings naming `/proc/`, the sandbox or any absolute path;
- special-casing a failing test's own input: a literal (a string of two characters or more, a
  number other than 0 and 1; a concatenation of literals is read as its value) that a FAIL_TO_PASS
  test's own function holds and that neither the repository nor the gold fix has (click's
  `... or "--on" in param.opts` passed its one failing test and left every other flag broken);
- a source encoding other than UTF-8 (`# coding: unicode_escape` hides any name in escapes); the
  source is read as Python reads it, by its own coding cookie;
- a new module outside the packages the base has (a root `pkg/__init__.py` shadowing `src/pkg`, a
  top-level module, a `conftest.py` is put back elsewhere).
Uses the task's own gold patch adds are allowed (a real SWE-bench fix that needs `inspect` keeps
its reward), so the rule costs a genuine fix nothing on the tasks rlhub builds and ships.
"""

from __future__ import annotations

import ast
import functools
import io
import threading
import tokenize
from collections import Counter

# CPython 3.11.7's ast.parse can fail ("AST constructor recursion depth mismatch") when threads
# parse at once, as the service's verifications do: one parse at a time.
_PARSE = threading.Lock()

WATCHED_NAMES = frozenset({
    "pytest", "_pytest", "unittest", "inspect", "gc", "sys", "builtins", "__builtins__", "importlib", "ctypes", "types",
    "pickle", "marshal", "dis", "traceback", "atexit", "signal", "threading", "multiprocessing", "subprocess",
    "TestCase", "TestReport", "TestResult", "_callTestMethod", "exec", "eval", "compile", "__import__", "globals",
    "locals", "vars", "breakpoint", "_exit", "kill", "killpg", "abort", "environ", "getenv", "fork", "system",
    "settrace", "setprofile", "_getframe",
    # writing and finding files at run time: bytecode or modules made while the tests run
    "open", "fdopen", "write_bytes", "write_text", "listdir", "scandir", "glob", "iglob", "walk", "chmod", "utime",
    "symlink", "unlink", "rmtree", "base64", "binascii", "zlib", "lzma", "bz2", "codecs", "b64decode",
    "pycache_prefix", "dont_write_bytecode", "path_hooks", "meta_path", "path_importer_cache",
    # the grading machine's identity: a fix that is on only where it is graded (the red team's gates on
    # the host name, the working directory, the module's path, a resource limit, the stack's depth)
    "socket", "gethostname", "uname", "platform", "resource", "getrlimit", "prlimit", "getcwd", "getcwdb", "cwd",
    "getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getlogin", "getpwuid", "cpu_count",
    "sched_getaffinity", "RecursionError", "getrecursionlimit", "__file__",
    # ... the place it runs from, and the clock (a gate on how fast the grader's machine is)
    "abspath", "realpath", "resolve", "expanduser", "home", "perf_counter", "perf_counter_ns", "monotonic",
    "monotonic_ns", "process_time", "process_time_ns", "thread_time", "time_ns", "clock_gettime", "now", "utcnow",
    # ... and what the machine's files and limits say (the third red team: the open-files limit through
    # sysconf, the sandbox's small disk through statvfs, no /home through isdir)
    "sysconf", "confstr", "pathconf", "fpathconf", "statvfs", "fstatvfs", "disk_usage", "getloadavg", "getrusage",
    "times", "isdir", "isfile", "islink", "ismount", "exists", "lexists", "access", "stat", "lstat", "is_dir",
    "is_file", "is_mount", "is_symlink", "samefile",
})
# modules watched only where they are imported (their names are everyday words elsewhere)
WATCHED_MODULES = frozenset({"time", "timeit"})
# string constants that name the grading machine's places
WATCHED_TEXT = ("/proc/", "/sandbox", "sandbox")
DYNAMIC = frozenset({"getattr", "setattr", "delattr", "hasattr"})
EVERYDAY_DUNDERS = frozenset({"__init__", "__name__", "__qualname__", "__doc__", "__class__", "__module__", "__all__",
                              "__version__", "__file__", "__slots__", "__len__", "__iter__", "__next__", "__repr__",
                              "__str__", "__eq__", "__hash__", "__enter__", "__exit__", "__call__", "__getitem__",
                              "__setitem__", "__delitem__", "__contains__", "__new__", "__post_init__", "__lt__",
                              "__le__", "__gt__", "__ge__", "__ne__", "__bool__", "__add__", "__missing__", "__reduce__",
                              "__wrapped__", "__annotations__", "__get__", "__set__", "__delete__", "__set_name__"})


def uses(source: str) -> Counter:
    """How often each watched construct occurs in `source` ({} if it does not parse: the tests say so)."""
    data = source.encode("utf-8", "surrogateescape")
    found: Counter = Counter()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    if encoding not in ("utf-8", "utf-8-sig"):  # `# coding: unicode_escape` turns \x69mport into import
        found[f"# coding: {encoding}"] += 1
    try:
        with _PARSE:
            tree = ast.parse(data)  # bytes: decoded as Python will, by the file's own coding cookie
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError):
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in WATCHED_NAMES:
            found[node.id] += 1
        elif isinstance(node, ast.Attribute):
            if node.attr in WATCHED_NAMES:
                found[node.attr] += 1
            elif node.attr.startswith("__") and node.attr.endswith("__") and node.attr not in EVERYDAY_DUNDERS:
                found[node.attr] += 1
        elif isinstance(node, ast.alias):
            for part in (node.name.split(".") + ([node.asname] if node.asname else [])):
                if part in WATCHED_NAMES:
                    found[part] += 1
            if node.name.split(".")[0] in WATCHED_MODULES:
                found[node.name.split(".")[0]] += 1
        elif isinstance(node, ast.ImportFrom) and node.module:
            for part in node.module.split("."):
                if part in WATCHED_NAMES or part in WATCHED_MODULES:
                    found[part] += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for text in WATCHED_TEXT:
                if text in node.value:
                    found[repr(text)] += 1
                    break
            else:
                if len(node.value) > 1 and node.value[0] == "/" and node.value[1].isalnum():
                    found["an absolute path"] += 1  # '/home', '/etc/hostname': the machine's places
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DYNAMIC:
            if len(node.args) < 2 or not isinstance(node.args[1], ast.Constant):
                found[f"{node.func.id}(obj, <computed name>)"] += 1
    return found


def _packages(tree: dict[str, str]) -> set[str]:
    return {p.rsplit("/", 1)[0] for p in tree if p.endswith("/__init__.py")}


def added_uses(base: dict[str, str], final: dict[str, str]) -> dict[str, Counter]:
    """{path: the watched constructs its new version uses more often than the base's}."""
    out = {}
    for path in sorted(final):
        if not path.endswith(".py") or final[path] == base.get(path):
            continue
        more = uses(final[path]) - uses(base.get(path, ""))
        if more:
            out[path] = more
    return out


def new_modules(base: dict[str, str], final: dict[str, str]) -> list[str]:
    """Python files the change adds outside every package directory the base has."""
    pkgs = _packages(base)
    return [p for p in sorted(set(final) - set(base)) if p.endswith(".py") and p.rsplit("/", 1)[0] not in pkgs
            and not any(p.startswith(d + "/") for d in pkgs)]


def _parse(source: str) -> ast.AST | None:
    try:
        with _PARSE:
            return ast.parse(source.encode("utf-8", "surrogateescape"))
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError):
        return None


def _folded(node: ast.AST):
    """The value of a literal or a `+` of literals ('--' + 'on' is '--on'); None otherwise."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, bool) and isinstance(node.value, (str, bytes, int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _folded(node.left), _folded(node.right)
        if type(left) is type(right) and isinstance(left, (str, bytes)):
            return left + right
    return None


def _telling(value) -> bool:
    """A literal that can pick out one input: not 0, 1, '' or a single character."""
    if isinstance(value, (str, bytes)):
        return len(value.strip()) >= 2
    return value not in (0, 1, -1)


def literals(source: str) -> Counter:
    """The telling literals in `source` (docstrings and other bare strings aside)."""
    tree = _parse(source)
    if tree is None:
        return Counter()
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    found: Counter = Counter()
    for node in ast.walk(tree):
        if id(node) in bare:
            continue
        value = _folded(node)
        if value is not None and _telling(value):
            found[value] += 1
    return found


@functools.lru_cache(maxsize=8192)
def _known(source: str) -> frozenset:
    """A file's literals, parsed once per process: a repository's files are the same for every answer."""
    return frozenset(literals(source))


def test_literals(tests: dict[str, str], test_ids: list[str]) -> set:
    """The telling literals each named test's own function holds (its parametrize marks too)."""
    wanted: dict[str, set[tuple[str, ...]]] = {}
    for test_id in test_ids:
        path, _, rest = test_id.partition("::")
        names = tuple(part.split("[", 1)[0] for part in rest.split("::") if part)
        if names:
            wanted.setdefault(path, set()).add(names)
    out: set = set()
    for path, all_names in wanted.items():
        out |= _tests_literals(tests.get(path, ""), frozenset(all_names))
    return out


@functools.lru_cache(maxsize=1024)
def _tests_literals(source: str, all_names: frozenset) -> frozenset:
    tree = _parse(source)
    if tree is None:
        return frozenset()
    out: set = set()
    for names in all_names:
        scope: list[ast.AST] = [tree]
        for name in names:
            scope = [n for s in scope for n in ast.walk(s)
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name]
        for fn in scope:
            out |= set(literals(ast.unparse(fn)))
    return frozenset(out)


def _is_test(path: str, tests: dict[str, str]) -> bool:
    parts = path.split("/")
    return (path in tests or any(p in ("tests", "test", "testing") for p in parts[:-1])
            or parts[-1].startswith("test_") or parts[-1].endswith("_test.py") or parts[-1] == "conftest.py")


def special_cased(base: dict[str, str], final: dict[str, str], gold: dict[str, str] | None,
                  tests: dict[str, str], fail_to_pass: list[str]) -> str | None:
    """Where the change adds a failing test's own input that neither the repository nor the fix
    has, or None."""
    inputs = test_literals(tests, fail_to_pass)
    if not inputs:
        return None
    for tree in (base, gold or {}):
        for path, text in tree.items():
            if path.endswith(".py") and not _is_test(path, tests):  # the visible tests name the inputs too
                inputs -= _known(text)
                if not inputs:
                    return None
    for path in sorted(final):
        if not path.endswith(".py") or _is_test(path, tests) or final[path] == base.get(path):
            continue
        added = (_known(final[path]) - _known(base.get(path, ""))) & inputs
        if added:
            value = sorted(added, key=repr)[0]
            return (f"{path} adds {value!r}, an input of a FAIL_TO_PASS test that neither the repository nor the fix "
                    "uses: a fix that picks out the failing test's own case leaves every other input broken")
    return None


def refusal(base: dict[str, str], final: dict[str, str], gold: dict[str, str] | None) -> str | None:
    """Why the change is refused, or None. `gold`: the tree the task's reference leaves (its uses are allowed)."""
    allowed = added_uses(base, gold) if gold is not None else {}
    for path, more in added_uses(base, final).items():
        extra = more - allowed.get(path, Counter())
        if extra:
            names = ", ".join(f"`{k}`" + (f" x{v}" if v > 1 else "") for k, v in sorted(extra.items()))
            return (f"{path} adds {names}: a fix to this repository's behaviour does not reach the test runner, "
                    "introspection, dynamic code or the grading machine's identity (in-process grading refuses the "
                    "shapes forging and grader detection need)")
    allowed_new = set(new_modules(base, gold)) if gold is not None else set()
    shadow = [p for p in new_modules(base, final) if p not in allowed_new]
    if shadow:
        return (f"{shadow[0]} is a new module outside the repository's packages "
                f"({', '.join(sorted(_packages(base))[:4]) or 'none'}): it could shadow them or the test runner")
    return None
