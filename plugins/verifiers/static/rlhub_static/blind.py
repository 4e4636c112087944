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
# Names mypy decides by their spelling alone, whatever they are bound to (mypy/reachability.py):
# `MYPY` and `TYPE_CHECKING` are always true to it, `PY3` true, `PY2` false; bare or as `x.NAME`.
MYPY_NAMES = {"TYPE_CHECKING", "MYPY", "PY2", "PY3"}
DYNAMIC_MODULES = {"importlib", "runpy"}
# Private accelerator modules that the public ones wrap (`_hashlib.openssl_md5` is `hashlib.md5`,
# `posix.system` is `os.system`): an analyser that matches the public names does not know them.
PRIVATE_OK = {"__future__"}
PRIVATE_ATTRS_OK = {"_exit", "_getframe", "_current_frames", "_xoptions"}  # ordinary uses of private names
try:
    import sys as _sys
    STDLIB = set(_sys.stdlib_module_names)
except AttributeError:  # Python < 3.10
    STDLIB = set()


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
        if isinstance(node, ast.Name) and node.id in MYPY_NAMES:
            return node.id
        if isinstance(node, ast.Attribute) and node.attr in MYPY_NAMES:
            return node.attr
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
    imported = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
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
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for name in _private_modules(node):
                found.append(_finding("private-module", node, f"`{name}` is a private module behind a public one, "
                                                              "whose names the analyser does not know", weight))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in imported \
                and node.attr.startswith("_") and not node.attr.startswith("__") and node.attr not in PRIVATE_ATTRS_OK:
            found.append(_finding("private-module", node, f"`{node.value.id}.{node.attr}` reaches a module's private "
                                                          "internals, whose names the analyser does not know", weight))
    if type_checker:
        found += _asserts_decided(tree, weight) + _untyped_lambdas(tree, weight)
    return found


def _private_modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if not node.level else []
    out = []
    for name in names:
        top = name.split(".")[0]
        if top in ("posix", "nt") or (top.startswith("_") and top not in PRIVATE_OK and (top in STDLIB or not STDLIB)) or any(
                part.startswith("_") and not part.startswith("__") for part in name.split(".")[1:]) and top in STDLIB:
            out.append(name)
    return out


def _asserts_decided(tree: ast.Module, weight: float) -> list[Finding]:
    """An `assert` on a test mypy decides, with statements after it: mypy stops reading the block at
    an assert it decides false (`assert not MYPY`, `assert sys.platform == "win32"`)."""
    out = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for stmt in block[:-1]:
                if isinstance(stmt, ast.Assert) and _guard(stmt.test) and not _minimum_version(stmt.test):
                    out.append(_finding("skipped", stmt, f"an assert decided by {_guard(stmt.test)} before the code runs "
                                                         "(the type checker skips the rest of the block after it)", weight))
    return out


def _minimum_version(test: ast.expr) -> bool:
    """`sys.version_info >= (3, N)` for N up to 10 (mypy's python_version): true to mypy, skips nothing."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.GtE, ast.Gt))
            and isinstance(test.left, ast.Attribute) and test.left.attr == "version_info"
            and isinstance(test.comparators[0], ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, int)
                                                                   for e in test.comparators[0].elts)
            and tuple(e.value for e in test.comparators[0].elts) <= (3, 10))  # type: ignore[attr-defined]


def _untyped_lambdas(tree: ast.Module, weight: float) -> list[Finding]:
    """(mypy) A lambda with parameters where nothing gives them types: mypy --strict checks defs, and
    a lambda's body only against the types its context gives (a call's argument, an annotated
    assignment, the return of an annotated function, an annotated parameter's default). Anywhere
    else (`f = lambda x: ...`, `[f] = [lambda x: ...]`, a dict of lambdas, a lambda returned by a
    lambda) its parameters are `Any` and its body goes unchecked."""
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Lambda):
            continue
        a = node.args
        if not any((*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)):
            continue  # no parameters: the body is checked
        if not _typed_context(node, parents):
            out.append(_finding("untyped-lambda", node, "a lambda whose parameters nothing types (mypy leaves its "
                                                        "body unchecked; write a def with annotations)", weight))
    return out


def _typed_context(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether something around the lambda gives its parameters types (see `_untyped_lambdas`)."""
    child = node
    while True:
        parent = parents.get(id(child))
        if parent is None:
            return False
        if isinstance(parent, ast.Call):
            return child is not parent.func  # an argument: the callee's signature types it
        if isinstance(parent, ast.keyword):
            return True
        if isinstance(parent, ast.AnnAssign):
            return child is parent.value
        if isinstance(parent, ast.Return):
            fn: ast.AST | None = parent
            while fn is not None and not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fn = parents.get(id(fn))
            return fn is not None and fn.returns is not None  # type: ignore[union-attr]
        if isinstance(parent, ast.arguments):
            return _annotated_default(child, parent)
        if isinstance(parent, ast.Lambda) and child is parent.body:
            child = parent  # a lambda returned by a lambda is typed as the outer one is
            continue
        if isinstance(parent, (ast.stmt, ast.Lambda)):
            return False
        child = parent


def _annotated_default(default: ast.AST, args: ast.arguments) -> bool:
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return any(d is default and a.annotation is not None for a, d in pairs)


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
    for part in re.split(r"\|\||&&|;|\||&|`|\$\(|\)", text):
        try:
            words = shlex.split(part, comments=False, posix=True)
        except ValueError:
            words = part.split()
        while words and re.fullmatch(r"\w+=.*", words[0]):  # VAR=value cmd
            words = words[1:]
        if words:
            yield words


# Commands that run the command after them (with their own options first): `env bash -c ...`,
# `timeout 5 sh -c ...`, `command eval ...` run the same code as without them.
WRAPPERS = {"env", "command", "builtin", "exec", "nice", "nohup", "timeout", "time", "xargs", "stdbuf", "setsid", "sudo",
            "doas", "ionice", "chrt", "taskset", "flock", "unbuffer", "chroot", "runuser", "watch", "caffeinate", "systemd-run"}
RESERVED = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "(", "((", "time", "coproc"}


def _unwrapped(words: list[str]) -> list[str]:
    """The words from the command that actually runs: reserved words, wrappers and the wrappers'
    options, `VAR=value` and numeric arguments (`timeout 5`, `nice -n 10`) skipped; `\\cmd` is `cmd`."""
    i = 0
    while i < len(words):
        w = words[i].lstrip("\\(")
        if w in RESERVED or not w:
            i += 1
        elif w == "command" and i + 1 < len(words) and words[i + 1] in ("-v", "-V"):
            break  # `command -v bash`: a lookup, nothing runs
        elif w.rsplit("/", 1)[-1] in WRAPPERS and i + 1 < len(words):
            i += 1
            while i < len(words) and (words[i].startswith("-") or re.fullmatch(r"\w+=.*|[\d.]+[smhd]?", words[i])):
                i += 1
        else:
            break
    out = words[i:]
    return [out[0].lstrip("\\(").rsplit("/", 1)[-1] if out[0].lstrip("\\(").startswith("/") else out[0].lstrip("\\("), *out[1:]] if out else []


def shell_blind(code: str, weight: float) -> list[Finding]:
    found = []

    def add(rule, line, message):
        found.append(Finding(f"rlhub-blind-{rule}", line, 1, message + ": the analyser cannot see what it does",
                             severity="error", weight=weight))

    for line, words in _commands(code):
        words = _unwrapped(words)
        if not words:
            continue
        cmd = words[0]
        if cmd == "alias" and any("=" in w for w in words[1:]) or cmd == "shopt" and "expand_aliases" in words:
            add("dynamic-code", line, "an alias: its body is text the analyser never parses, run as code where it is used")
            continue
        later = [i for i, w in enumerate(words) if i and w.rsplit("/", 1)[-1] in _SHELLS]
        if later and "-c" in words[later[0] + 1:]:
            add("dynamic-code", line, f"`{words[later[0]]}` run by `{cmd}` runs a string (or its stdin) as a script")
            continue
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
