"""What an analyser cannot see, found by a small pass of our own: code that is only text until it
runs, names looked up by string, keywords passed as data, and code a type checker skips.

Each is a finding of its own (rule `rlhub-blind-*`) that costs the analyser's component all of its
weight: an analyser's silence is worth something only where it could have spoken. The pass reads
the code, never runs it.

Python:
- `exec`, `eval`, `compile`, `__import__`, `breakpoint` named at all (called, aliased or passed),
  `importlib.import_module`/`importlib.__import__`, `runpy`: code or modules reached through strings;
- `getattr`/`setattr`/`delattr`/`hasattr` on a module, `builtins` or `__builtins__` (a constant
  name included: `getattr(hashlib, "md5")`), `globals()`, `locals()`, `vars()`, `__dict__`,
  `sys.modules`: names looked up by string;
- `**` of a dict display or a `dict(...)` call in a call (`run(cmd, **{"shell": True})`);
- (mypy) code under a test the type checker decides statically and skips (`TYPE_CHECKING`,
  `sys.platform`, `sys.version_info`, `os.name`, a constant such as `if False:` or the `else` of
  `if True:`), except a `TYPE_CHECKING` block of imports only.

Shell: `eval`, `source`/`.` of anything but a literal path, `bash -c`/`sh -c` and a pipe or
here-string into a shell, `base64 -d` output run as code.
"""

from __future__ import annotations

import ast
import re
import shlex

from .findings import Finding

DYNAMIC_NAMES = {"exec", "eval", "compile", "__import__", "breakpoint", "execfile"}
LOOKUPS = {"getattr", "setattr", "delattr", "hasattr"}
NAMESPACES = {"globals", "locals", "vars"}
STATIC_GUARDS = {"TYPE_CHECKING", "platform", "version_info", "name"}  # typing.X, sys.X, os.name
DYNAMIC_MODULES = {"importlib", "runpy"}


def _finding(rule: str, node: ast.AST, message: str, weight: float) -> Finding:
    return Finding(f"rlhub-blind-{rule}", getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1,
                   message + ": the analyser cannot see what it does", severity="error", weight=weight)


def _modules(tree: ast.Module) -> set[str]:
    """Names bound to modules by an import anywhere in the code (`import os`, `import a.b as c`,
    `from os import path` is a module too when it is one, so any `from` name is counted)."""
    out = {"builtins", "__builtins__"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {(a.asname or a.name.split(".")[0]) for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out |= {a.asname or a.name for a in node.names if a.name[:1].islower()}  # classes are CamelCase
    return out


def _parameters(tree: ast.Module) -> dict[int, set[str]]:
    """For each call (by id): the parameter names of the functions around it (`f(**kwargs)` passes
    the caller's own keywords on, which is not keywords hidden as data)."""
    out: dict[int, set[str]] = {}

    def visit(node: ast.AST, names: frozenset[str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            names = names | {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if x is not None}
        if isinstance(node, ast.Call):
            out[id(node)] = set(names)
        for child in ast.iter_child_nodes(node):
            visit(child, names)

    visit(tree, frozenset())
    return out


GETTERS = {"attrgetter", "methodcaller"}


def _getter(fn: ast.expr) -> str | None:
    """`operator.attrgetter`/`methodcaller` (or the bare names) when `fn` calls one, or is the call
    that made one: `attrgetter("a")(x)` has fn = the inner call."""
    inner = fn.func if isinstance(fn, ast.Call) else fn
    if isinstance(inner, ast.Attribute) and inner.attr in GETTERS or isinstance(inner, ast.Name) and inner.id in GETTERS:
        return inner.attr if isinstance(inner, ast.Attribute) else inner.id
    return None


def _guard(test: ast.expr) -> str | None:
    """Why a branch test is decided before the code runs (the type checker skips a side), or None."""
    for node in ast.walk(test):
        if isinstance(node, ast.Name) and node.id == "TYPE_CHECKING":
            return "TYPE_CHECKING"
        if isinstance(node, ast.Attribute) and node.attr == "TYPE_CHECKING":
            return "TYPE_CHECKING"
        if (isinstance(node, ast.Attribute) and node.attr in ("platform", "version_info") and isinstance(node.value, ast.Name)
                and node.value.id == "sys") or (isinstance(node, ast.Attribute) and node.attr == "name"
                                                and isinstance(node.value, ast.Name) and node.value.id == "os"):
            return f"{node.value.id}.{node.attr}"  # type: ignore[union-attr]
    if isinstance(test, ast.Constant) or (isinstance(test, ast.UnaryOp) and isinstance(test.operand, ast.Constant)):
        return "a constant"
    return None


def _only_imports(body: list[ast.stmt]) -> bool:
    return all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)) or (isinstance(s, ast.Expr)
               and isinstance(s.value, ast.Constant)) for s in body)


def python_blind(code: str, weight: float, type_checker: bool = False) -> list[Finding]:
    """The blind spots in `code` (Python that parses; anything else: none, the analyser reports it).
    `type_checker`: also the branches a type checker decides statically and skips (mypy only: ruff and
    bandit read both sides)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    modules, found, params = _modules(tree), [], _parameters(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES and isinstance(node.ctx, ast.Load):
            found.append(_finding("dynamic-code", node, f"`{node.id}` runs code or imports a module from a string", weight))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in ("builtins", "__builtins__") and node.attr in DYNAMIC_NAMES:
                found.append(_finding("dynamic-code", node, f"`{node.value.id}.{node.attr}` runs code from a string", weight))
            elif node.value.id in DYNAMIC_MODULES or (node.value.id == "sys" and node.attr == "modules"):
                found.append(_finding("dynamic-import", node, f"`{node.value.id}.{node.attr}` reaches a module by name", weight))
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            found.append(_finding("lookup", node, "`__dict__` looks names up by string", weight))
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n.split(".")[0] in DYNAMIC_MODULES for n in names):
                found.append(_finding("dynamic-import", node, "`importlib`/`runpy` import modules by name", weight))
        if isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Name) and fn.id in LOOKUPS and node.args:
                target = node.args[0]
                if isinstance(target, ast.Name) and target.id in modules:
                    found.append(_finding("lookup", node, f"`{fn.id}` on a module looks a name up by string", weight))
            if isinstance(fn, ast.Name) and fn.id in NAMESPACES:
                found.append(_finding("lookup", node, f"`{fn.id}()` looks names up by string", weight))
            for kw in node.keywords:
                if kw.arg is None and (isinstance(kw.value, ast.Dict) or isinstance(kw.value, ast.Call)
                                       and isinstance(kw.value.func, ast.Name) and kw.value.func.id == "dict"):
                    found.append(_finding("keywords", kw.value, "`**` of a literal dict passes keywords as data", weight))
                elif kw.arg is None and not (isinstance(kw.value, ast.Name) and kw.value.id in params.get(id(node), ())):
                    found.append(_finding("keywords", kw.value, "`**` of anything but the function's own parameter "
                                                                "passes keywords as data", weight))
            getter = _getter(fn)
            if getter and isinstance(fn, ast.Call) and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in modules:
                found.append(_finding("lookup", node, f"`{getter}(...)` on a module looks a name up by string", weight))
            elif getter and not isinstance(fn, ast.Call) and not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:1 if getter == "methodcaller" else None]):
                found.append(_finding("lookup", node, f"`{getter}` of a name built at run time looks it up by string", weight))
        if type_checker and isinstance(node, (ast.If, ast.While, ast.IfExp)) and _skips(node):
            found.append(_finding("skipped", node, f"a branch decided by {_guard(node.test)} before the code runs is "
                                                  "skipped by the type checker", weight))
    return found


def _skips(node: ast.If | ast.While | ast.IfExp) -> bool:
    """Whether the type checker leaves a side of this branch unchecked (a side that holds code)."""
    why = _guard(node.test)
    if why is None:
        return False
    if why == "a constant":
        value = node.test.value if isinstance(node.test, ast.Constant) else not node.test.operand.value  # type: ignore[attr-defined]
        skipped = node.body if not value else getattr(node, "orelse", None)
        return bool(skipped) and skipped != []
    if why == "TYPE_CHECKING" and isinstance(node, ast.If) and _only_imports(node.body) and not node.orelse:
        return False  # the usual `if TYPE_CHECKING: import ...` for annotations
    return True


# -- shell -------------------------------------------------------------------------------------

_SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}


def _commands(code: str):
    """(line number, words) of each simple command, roughly: split at ; && || | and newlines,
    comments dropped. Words inside $( ) are commands too (read again on their own)."""
    for n, line in enumerate(code.splitlines(), 1):
        text = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        for inner in re.findall(r"\$\(([^()]*)\)", text):
            yield from ((n, w) for w in _split(inner))
        yield from ((n, w) for w in _split(text))


def _split(text: str):
    for part in re.split(r"\|\||&&|;|\||\$\(|\)", text):
        try:
            words = shlex.split(part, comments=False, posix=True)
        except ValueError:
            words = part.split()
        while words and re.fullmatch(r"\w+=.*", words[0]):  # VAR=value cmd
            words = words[1:]
        if words:
            yield words


def shell_blind(code: str, weight: float) -> list[Finding]:
    found = []

    def add(rule, line, message):
        found.append(Finding(f"rlhub-blind-{rule}", line, 1, message + ": the analyser cannot see what it does",
                             severity="error", weight=weight))

    for line, words in _commands(code):
        cmd = words[0]
        if cmd in ("eval", "exec") and (cmd == "eval" or len(words) > 1 and words[1] in _SHELLS):
            add("dynamic-code", line, f"`{cmd}` runs text as code")
        elif cmd in ("source", ".") and (len(words) < 2 or not re.fullmatch(r"[\w./-]+", words[1])):
            add("dynamic-code", line, f"`{cmd}` of built text runs it as code")
        elif cmd in _SHELLS and ("-c" in words[1:] or len(words) == 1):
            add("dynamic-code", line, f"`{cmd}` runs a string (or its stdin) as a script")
        elif cmd == "base64" and any(w in ("-d", "--decode", "-D") for w in words[1:]):
            add("dynamic-code", line, "`base64 -d` decodes code hidden in the script")
    for n, line in enumerate(code.splitlines(), 1):
        if re.search(r"\|\s*(bash|sh|dash|zsh|ksh)\b|(bash|sh)\s*<<<|(source|\.)\s+<\(", line) and not line.lstrip().startswith("#"):
            add("dynamic-code", n, "text piped or substituted into a shell runs as code")
    return found
