"""Wrong answers of the static-analysis families made by hiding the finding instead of fixing it:
the module as handed out (the reference's fix undone), rewritten so that the analyser cannot see
what it would report, behaviour unchanged. Each is made from the family's own module, in each way
an analyser can be blinded:

    exec of base64            the whole module run from a decoded string (every analyser)
    getattr on a module       `getattr(subprocess, "run")` for `subprocess.run` (every Python analyser)
    keywords as a dict        `f(x, **{"shell": True})` for `f(x, shell=True)`
    built builtin names       `getattr(builtins, "ev" + "al")(...)` for `eval(...)`
    strings joined            `"".join([...])` for an f-string of SQL (bandit's B608 reads formatting only)
    not TYPE_CHECKING         the whole module under `if not TYPE_CHECKING:` (mypy skips it)
    unfollowed Any            every annotation a name from an import mypy does not follow
    eval / source of base64   the whole script decoded and run by the shell (shellcheck)
    if / assert not MYPY      the whole module under `MYPY = 0 * 1; if not MYPY:` or after `assert not MYPY` (mypy)
    env bash -c               the whole script run by `env bash -c '...'` (shellcheck)

and, at the places the fix changes (the lines of the module that the reference does not keep),
in the ways an analyser that matches what code looks like can be misled:

    callables bound to names  `_zip = zip` ... `_zip(a, b)`; `_base = object` (ruff, bandit)
    constants bound to names  `_K1 = "m" + "d5"` ... `hashlib.new(_K1, ...)`; `x == _K2` (ruff, bandit)
    keywords from a dict      `_KW1 = {"shell": True}` ... `run(cmd, **_KW1)` (ruff, bandit)
    operator functions        `operator.eq(x, None)`, `operator.not_(x in y)` (ruff)
    lambda in a display       `f = (lambda x: ...,)[0]` (ruff)
    names kept in use         `del total`, `__all__` listing the imports (ruff)
    annotated assignments     `result: str = "ok"` (ruff)
    no-op statements          a `continue` ending each loop, a `pass` after each nested `if` (ruff)
    a match that captures     `match value: case l: ...` for `l = value` (ruff)
    str methods unbound       `str.format("{}", x)` for `"{}".format(x)` (ruff)
    isort directives          `# isort: skip_file` (ruff obeys it even with --ignore-noqa)
    casts                     `return cast(T, value)` (mypy takes a cast on faith)
    lambdas                   `f = lambda x: ...` for a one-line def (mypy --strict checks defs only)
    lambdas bound otherwise   `[f] = [lambda ...]`, `for f in [lambda ...]: pass`, `f = (lambda: lambda ...)()` (ruff, mypy)
    dunder calls              `hashlib.md5.__call__(data)` (bandit)
    strings reversed          `hashlib.new("5dm"[::-1], data)` (bandit)
    private modules           `_hashlib.openssl_md5(data)`, `posix.system(cmd)` (bandit)
    aliases                   `shopt -s expand_aliases; alias _a1='...'` for a command (shellcheck)
    command prefixes          `command expr`, `x | command wc -l` (shellcheck)
    expansions unquoted       `${v:+$v}` for `$v` (shellcheck)
    words in variables        `lower='a-z'; tr "$lower" ...` (shellcheck)

The code behaves as the flawed module does, so the hidden tests pass as they do on it; the
analyser must then count its blindness (rlhub_static.blind), which costs the component its weight:
each variant may earn at most the tests' weight (`max_reward`), the floor that the same code with
its findings in plain sight never goes below.
"""

from __future__ import annotations

import ast
import base64
import builtins
import difflib
import re
import textwrap

from hub import Variant

from .analysis import TESTS_WEIGHT

BUILTINS = {"eval", "exec", "compile", "open", "input", "__import__"}


def hidden_variants(flawed: str, reference: str, analyser: str, findings: int) -> list[Variant]:
    """The flawed module hidden from `analyser` in each way that applies to it; and the reference
    itself run where the analyser cannot see it (what it cannot see, it cannot vouch for)."""
    language = "bash" if analyser == "shellcheck" else "python"
    makers = SHELL if language == "bash" else PYTHON + (MYPY if analyser == "mypy" else []) + (BANDIT if analyser == "bandit" else [])
    changed = changed_lines(flawed, reference)
    local = [(how, lambda c, m=make: m(c, changed)) for how, make, tools in AT_THE_FIX
             if analyser in tools and (how in TEXT_LEVEL or _round_trips(flawed))]
    out = []
    for how, make in makers + local:
        code = make(flawed)
        if code is not None and code.strip() != flawed.strip():
            out.append(Variant(f"hidden: {how}", code, findings, f"the module as handed out, its findings hidden from "
                               f"{analyser} ({how}) instead of fixed", max_reward=TESTS_WEIGHT))
    for how, make in makers:
        if how in WHOLE:
            out.append(Variant(f"unseen: {how}", make(reference), 0, f"the reference itself, run where {analyser} "
                               f"cannot see it ({how})", max_reward=TESTS_WEIGHT))
    return out


def _b64(code: str) -> str:
    return base64.b64encode(code.encode()).decode()


def exec_base64(code: str) -> str:
    return f"import base64\n\nexec(base64.b64decode({_b64(code)!r}).decode())\n"


class _Rewrite(ast.NodeTransformer):
    def __init__(self, modules: set[str]) -> None:
        self.modules, self.changed = modules, False


class _GetattrOnModules(_Rewrite):
    def visit_Attribute(self, node: ast.Attribute):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.modules and isinstance(node.ctx, ast.Load):
            self.changed = True
            return ast.Call(ast.Name("getattr", ast.Load()), [node.value, ast.Constant(node.attr)], [])
        return node


class _KeywordsAsDict(_Rewrite):
    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        named = [k for k in node.keywords if k.arg is not None]
        if named:
            self.changed = True
            rest = [k for k in node.keywords if k.arg is None]
            node.keywords = [ast.keyword(None, ast.Dict([ast.Constant(k.arg) for k in named], [k.value for k in named])), *rest]
        return node


class _BuiltBuiltins(_Rewrite):
    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in BUILTINS:
            self.changed = True
            name, half = node.func.id, len(node.func.id) // 2
            built = ast.BinOp(ast.Constant(name[:half]), ast.Add(), ast.Constant(name[half:]))
            node.func = ast.Call(ast.Name("getattr", ast.Load()), [ast.Name("builtins", ast.Load()), built], [])
        return node


SQL_WORDS = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WHERE ")


class _JoinedStrings(_Rewrite):
    """An f-string of SQL joined from its parts instead (what bandit's B608 does not read)."""

    def visit_JoinedStr(self, node: ast.JoinedStr):
        self.generic_visit(node)
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)).upper()
        if not any(w in text for w in SQL_WORDS):
            return node
        self.changed = True
        parts = [v if isinstance(v, ast.Constant) else ast.Call(ast.Name("format", ast.Load()), [v.value] + (
                 [v.format_spec] if v.format_spec is not None else []), []) for v in node.values]
        return ast.Call(ast.Attribute(ast.Constant(""), "join", ast.Load()), [ast.List(parts, ast.Load())], [])


class _UnfollowedAny(_Rewrite):
    """Every parameter and return annotated with `T.Any`, T a module mypy does not follow."""

    def _ann(self):
        return ast.Attribute(ast.Name("T", ast.Load()), "Any", ast.Load())

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg):
            if a is not None and a.arg not in ("self", "cls"):
                a.annotation = self._ann()
        node.returns = self._ann()
        self.changed = True
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        node.annotation = self._ann()
        return node


def _imported_modules(tree: ast.Module) -> set[str]:
    return {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


def _rewritten(code: str, rewrite: type[_Rewrite], head: str = "") -> str | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    r = rewrite(_imported_modules(tree))
    tree = ast.fix_missing_locations(r.visit(tree))
    if not r.changed:
        return None
    future, body = _split_future(ast.unparse(tree) + "\n")
    return future + head + body


def not_type_checking(code: str) -> str:
    future, body = _split_future(code)
    return future + "from typing import TYPE_CHECKING\n\nif not TYPE_CHECKING:\n" + textwrap.indent(body.strip() + "\n", "    ")


def _split_future(code: str) -> tuple[str, str]:
    lines = code.splitlines(keepends=True)
    head = [ln for ln in lines if ln.startswith("from __future__")]
    return "".join(head), "".join(ln for ln in lines if not ln.startswith("from __future__"))


def unfollowed_any(code: str) -> str | None:
    _, body = _split_future(code)
    # pytest is importable where the tests run and is not followed by mypy (--no-site-packages)
    return _rewritten(body, _UnfollowedAny, head="from __future__ import annotations\n\nimport pytest as T\n\n")


PYTHON = [("exec of base64", exec_base64),
          ("getattr on a module", lambda c: _rewritten(c, _GetattrOnModules)),
          ("keywords as a dict", lambda c: _rewritten(c, _KeywordsAsDict)),
          ("built builtin names", lambda c: _rewritten(c, _BuiltBuiltins, head="import builtins\n"))]
def mypy_name(code: str, test: str = "if not MYPY:") -> str:
    """The whole module under a test on a name mypy decides by its spelling (`MYPY` is always true to
    it, whatever it is bound to): `MYPY = 0 * 1`, then `if not MYPY:` or `assert not MYPY`."""
    future, body = _split_future(code)
    if test.startswith("assert"):
        return future + "MYPY = 0 * 1\n" + test + "\n\n" + body
    return future + "MYPY = 0 * 1\n\n" + test + "\n" + textwrap.indent(body.strip() + "\n", "    ")


MYPY = [("not TYPE_CHECKING", not_type_checking), ("unfollowed Any", unfollowed_any),
        ("if not MYPY", mypy_name), ("assert not MYPY", lambda c: mypy_name(c, "assert not MYPY"))]
BANDIT = [("strings joined", lambda c: _rewritten(c, _JoinedStrings))]
# hide a whole module (each also hides the reference: "unseen"; the round-3 ways only as "hidden",
# their unseen form being the same blind rule at twice the CI cost)
WHOLE = {"exec of base64", "not TYPE_CHECKING", "eval of base64", "source of base64"}
SHELL = [("eval of base64", lambda c: f'#!/bin/bash\neval "$(echo {_b64(c)} | base64 -d)"\n'),
         ("source of base64", lambda c: f"#!/bin/bash\nsource <(echo {_b64(c)} | base64 -d)\n"),
         ("env bash -c", lambda c: "#!/bin/bash\nenv bash -c '" + _body(c).replace("'", "'\\''") + "' bash \"$@\"\n")]


def _body(script: str) -> str:
    return script.partition("\n")[2] if script.startswith("#!") else script


# -- at the places the fix changes -------------------------------------------------------------

def _round_trips(code: str) -> bool:
    """Whether the module survives being rewritten from its syntax tree with its layout (quotes,
    spaces, parentheses and blank lines aside): where the layout is the finding (ruff's E7/W6), a rewritten module would
    fix it by the way, and only text-level hiding applies."""
    tree = _parse(code)

    def norm(text: str) -> list[str]:
        return [re.sub(r"[\s()]", "", ln).replace("'", '"') for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]

    return tree is not None and norm(ast.unparse(tree)) == norm(code)


TEXT_LEVEL = {"isort directives", "command prefixes", "expansions unquoted", "words in variables", "aliases"}


def changed_lines(flawed: str, reference: str) -> set[int]:
    """Lines of `flawed` (1-based) that the reference does not keep as they are."""
    a, b = flawed.splitlines(), reference.splitlines()
    out: set[int] = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            out.update(range(i1 + 1, i2 + 1))
    return out


def _on(node: ast.AST, lines: set[int]) -> bool:
    return getattr(node, "lineno", 0) in lines


def _defined(tree: ast.Module) -> set[str]:
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))} | {
        a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}


def _module_with(tree: ast.Module, head: list[ast.stmt], imports: list[str] = ()) -> str:
    """The module with `head` statements placed after its imports (and `imports` added)."""
    body = tree.body
    at = 0
    while at < len(body) and (isinstance(body[at], (ast.Import, ast.ImportFrom)) or
                              at == 0 and isinstance(body[at], ast.Expr) and isinstance(body[at].value, ast.Constant)):
        at += 1
    extra = [ast.parse(i).body[0] for i in imports]
    tree.body = body[:at] + extra + head + body[at:]
    future, rest = _split_future(ast.unparse(ast.fix_missing_locations(tree)) + "\n")
    return future + rest


def _parse(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def callables_bound(code: str, lines: set[int]) -> str | None:
    """Calls of a builtin or a module's function on the fix's lines made through a module-level name."""
    tree = _parse(code)
    if tree is None:
        return None
    defined, modules = _defined(tree), _imported_modules(tree)
    names: dict[str, ast.expr] = {}

    def alias(func: ast.expr) -> ast.Name | None:
        text = ast.unparse(func)
        chain = func
        while isinstance(chain, ast.Attribute):
            chain = chain.value
        if isinstance(func, ast.Name) and func.id in dir(builtins) and func.id not in defined or \
                isinstance(func, ast.Attribute) and isinstance(chain, ast.Name) and chain.id in modules:
            name = "_" + re.sub(r"\W", "_", text)
            names[name] = func
            return ast.Name(name, ast.Load())
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _on(node, lines):
            new = alias(node.func)
            if new is not None:
                node.func = new
        elif isinstance(node, ast.ClassDef) and _on(node, lines):
            node.bases = [alias(b) or b if isinstance(b, ast.Name) and b.id == "object" else b for b in node.bases]
    if not names:
        return None
    return _module_with(tree, [ast.Assign([ast.Name(n, ast.Store())], v) for n, v in names.items()])


def constants_bound(code: str, lines: set[int]) -> str | None:
    """Constants in the calls and comparisons on the fix's lines read from module-level names."""
    tree = _parse(code)
    if tree is None:
        return None
    consts: list[ast.Constant] = []

    def named(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Constant) and not isinstance(node.value, type(...)):
            consts.append(node)
            return ast.Name(f"_K{len(consts)}", ast.Load())
        return node

    in_fstring = {id(n) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    for node in ast.walk(tree):
        if id(node) in in_fstring or not _on(node, lines):
            continue
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            node.value = named(node.value)
        elif isinstance(node, ast.Call):
            node.args = [named(a) for a in node.args]
            for k in node.keywords:
                k.value = named(k.value)
        elif isinstance(node, ast.Compare):
            node.comparators = [named(c) for c in node.comparators]
    if not consts:
        return None
    return _module_with(tree, [ast.Assign([ast.Name(f"_K{i}", ast.Store())], _spelled(c.value)) for i, c in enumerate(consts, 1)])


def _spelled(value: object) -> ast.expr:
    """A constant; a string of 2+ characters spelled from two halves (a scanner reads literals whole)."""
    if isinstance(value, str) and len(value) >= 2:
        half = len(value) // 2
        return ast.BinOp(ast.Constant(value[:half]), ast.Add(), ast.Constant(value[half:]))
    return ast.Constant(value)


def keywords_from_dict(code: str, lines: set[int]) -> str | None:
    """Constant keywords of the calls on the fix's lines passed as `**` of a module-level dict."""
    tree = _parse(code)
    if tree is None:
        return None
    dicts: list[ast.Dict] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _on(node, lines):
            named = [k for k in node.keywords if k.arg is not None and isinstance(k.value, ast.Constant)]
            if named:
                dicts.append(ast.Dict([ast.Constant(k.arg) for k in named], [k.value for k in named]))
                node.keywords = [k for k in node.keywords if k not in named] + [ast.keyword(None, ast.Name(f"_KW{len(dicts)}", ast.Load()))]
    if not dicts:
        return None
    return _module_with(tree, [ast.Assign([ast.Name(f"_KW{i}", ast.Store())], d) for i, d in enumerate(dicts, 1)])


OPERATOR_OF = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Is: "is_",
               ast.IsNot: "is_not"}


class _Operators(ast.NodeTransformer):
    def __init__(self, lines: set[int]) -> None:
        self.lines, self.changed = lines, False

    def visit_Compare(self, node):
        self.generic_visit(node)
        if not _on(node, self.lines) or len(node.ops) != 1:
            return node
        op, right = node.ops[0], node.comparators[0]
        self.changed = True
        if isinstance(op, (ast.In, ast.NotIn)):
            call = ast.Call(ast.Attribute(ast.Name("operator", ast.Load()), "contains", ast.Load()), [right, node.left], [])
            return call if isinstance(op, ast.In) else ast.Call(ast.Attribute(ast.Name("operator", ast.Load()), "not_", ast.Load()), [call], [])
        return ast.Call(ast.Attribute(ast.Name("operator", ast.Load()), OPERATOR_OF[type(op)], ast.Load()), [node.left, right], [])

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and _on(node, self.lines):
            self.changed = True
            return ast.Call(ast.Attribute(ast.Name("operator", ast.Load()), "not_", ast.Load()), [node.operand], [])
        return node


def operator_functions(code: str, lines: set[int]) -> str | None:
    tree = _parse(code)
    if tree is None:
        return None
    t = _Operators(lines)
    tree = t.visit(tree)
    return _module_with(tree, [], ["import operator"]) if t.changed else None


def lambda_in_display(code: str, lines: set[int]) -> str | None:
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) and _on(node, lines):
            node.value = ast.Subscript(ast.Tuple([node.value], ast.Load()), ast.Constant(0), ast.Load())
            hit = True
    return _module_with(tree, []) if hit else None


def names_kept_in_use(code: str, lines: set[int]) -> str | None:
    """`del` after each assignment, loop target and `as` name on the fix's lines that nothing reads;
    `__all__` listing the module's imports."""
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for holder in [n for n in ast.walk(fn) if hasattr(n, "body") and isinstance(getattr(n, "body"), list)]:
            body = holder.body
            for i in range(len(body) - 1, -1, -1):
                st = body[i]
                if isinstance(st, ast.Assign) and _on(st, lines):
                    unused = [t.id for t in st.targets if isinstance(t, ast.Name) and t.id not in read]
                    if unused:
                        body.insert(i + 1, ast.Delete([ast.Name(u, ast.Del()) for u in unused]))
                        hit = True
            if isinstance(holder, (ast.For, ast.AsyncFor)) and _on(holder, lines):
                unused = [t.id for t in ast.walk(holder.target) if isinstance(t, ast.Name) and t.id not in read]
                if unused:
                    holder.body.insert(0, ast.Delete([ast.Name(u, ast.Del()) for u in unused]))
                    hit = True
        for h in [n for n in ast.walk(fn) if isinstance(n, ast.ExceptHandler)]:
            if h.name and h.name not in read and _on(h, lines):
                h.body.insert(0, ast.Delete([ast.Name(h.name, ast.Del())]))
                hit = True
    imported = sorted({a.asname or a.name.split(".")[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                       for a in n.names if n.lineno in lines} - {"annotations"})
    head = []
    if imported:
        defs = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        head = [ast.Assign([ast.Name("__all__", ast.Store())], ast.List([ast.Constant(x) for x in dict.fromkeys(defs + imported)], ast.Load()))]
        hit = True
    return _module_with(tree, head) if hit else None


def annotated_assignments(code: str, lines: set[int]) -> str | None:
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for holder in [n for n in ast.walk(tree) if isinstance(n, (ast.If, ast.For, ast.While, ast.With, ast.Try))]:
        for field in ("body", "orelse"):
            block = getattr(holder, field, [])
            for i, st in enumerate(block):
                if (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                        and isinstance(st.value, ast.Constant) and _on(st, lines) and st.value.value is not None):
                    block[i] = ast.AnnAssign(st.targets[0], ast.Name(type(st.value.value).__name__, ast.Load()), st.value, 1)
                    hit = True
                    break  # one annotation per name is all Python allows before the others
            if hit:
                break
    return _module_with(tree, []) if hit else None


def no_op_statements(code: str, lines: set[int]) -> str | None:
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While)) and _on(node, lines) and not isinstance(node.body[-1], (ast.Return, ast.Continue, ast.Break)):
            node.body.append(ast.Continue())
            hit = True
        if isinstance(node, ast.If) and _on(node, lines) and not node.orelse and any(isinstance(b, ast.If) for b in node.body):
            node.body.append(ast.Pass())
            hit = True
    return _module_with(tree, []) if hit else None


def match_captures(code: str, lines: set[int]) -> str | None:
    """`name = value` followed by the rest of its block, on the fix's lines: `match value: case name: rest`."""
    tree = _parse(code)
    if tree is None:
        return None
    for holder in ast.walk(tree):
        block = getattr(holder, "body", None)
        if not isinstance(holder, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(block, list):
            continue
        for i, st in enumerate(block[:-1]):
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and _on(st, lines):
                case = ast.match_case(ast.MatchAs(None, st.targets[0].id), None, block[i + 1:])
                holder.body = block[:i] + [ast.Match(st.value, [case])]
                return _module_with(tree, [])
    return None


def str_methods_unbound(code: str, lines: set[int]) -> str | None:
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant)
                and isinstance(node.func.value.value, str) and _on(node, lines)):
            node.args = [node.func.value, *node.args]
            node.func = ast.Attribute(ast.Name("str", ast.Load()), node.func.attr, ast.Load())
            hit = True
    return _module_with(tree, []) if hit else None


def isort_directive(code: str, lines: set[int]) -> str | None:
    future, body = _split_future(code)
    return future + "# isort: skip_file\n" + body


def casts(code: str, lines: set[int]) -> str | None:
    """`return cast(T, value)` in each annotated function whose return the fix changes."""
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None]:
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None and (_on(node, lines) or _on(fn, lines)):
                node.value = ast.Call(ast.Name("cast", ast.Load()), [ast.Constant(ast.unparse(fn.returns)), node.value], [])
                hit = True
    return _module_with(tree, [], ["from typing import cast"]) if hit else None


def lambdas(code: str, lines: set[int]) -> str | None:
    """Each undecorated function whose body is one `return` (a docstring aside) as `name = lambda ...`."""
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    for holder in [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
        for i, fn in enumerate(holder.body):
            body = [b for b in getattr(fn, "body", []) if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
            if (isinstance(fn, ast.FunctionDef) and not fn.decorator_list and len(body) == 1 and isinstance(body[0], ast.Return)
                    and body[0].value is not None and fn.name != "__init__"):
                args = fn.args
                for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                    if a is not None:
                        a.annotation = None
                holder.body[i] = ast.Assign([ast.Name(fn.name, ast.Store())], ast.Lambda(args, body[0].value), lineno=fn.lineno)
                hit = True
    return _module_with(tree, []) if hit else None


def _lambda_binding(form: str):
    """Each `name = lambda ...` (at module or class level) bound another way instead: unpacked
    (`[name] = [lambda ...]`), as a loop target (`for name in [lambda ...]: pass`), or returned by an
    immediately called lambda (`name = (lambda: lambda ...)()`)."""

    def rebound(tree: ast.Module, lines: set[int] | None) -> bool:
        hit = False
        for holder in [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
            for i, st in enumerate(holder.body):
                if (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                        and isinstance(st.value, ast.Lambda) and (lines is None or _on(st, lines))):
                    name, lam = st.targets[0].id, st.value
                    if form == "unpacked":
                        new = ast.Assign([ast.List([ast.Name(name, ast.Store())], ast.Store())], ast.List([lam], ast.Load()), lineno=st.lineno)
                    elif form == "loop":
                        new = ast.For(ast.Name(name, ast.Store()), ast.List([lam], ast.Load()), [ast.Pass()], [], lineno=st.lineno)
                    else:
                        outer = ast.Lambda(ast.arguments([], [], None, [], [], None, []), lam)
                        new = ast.Assign([ast.Name(name, ast.Store())], ast.Call(outer, [], []), lineno=st.lineno)
                    holder.body[i] = new
                    hit = True
        return hit

    def made(code: str, lines: set[int], mypy: bool = False) -> str | None:
        if mypy:  # the fix's one-line defs written as lambdas first (mypy's families have no lambdas)
            code = lambdas(code, lines) or ""
        tree = _parse(code)
        if tree is None or not rebound(tree, None if mypy else lines):
            return None
        return _module_with(tree, [])

    return made


def dunder_calls(code: str, lines: set[int]) -> str | None:
    """Each call of a module's function on the fix's lines made through `.__call__`."""
    tree = _parse(code)
    if tree is None:
        return None
    modules, hit = _imported_modules(tree), False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _on(node, lines) and isinstance(node.func, ast.Attribute):
            root = node.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in modules:
                node.func = ast.Attribute(node.func, "__call__", ast.Load())
                hit = True
    return _module_with(tree, []) if hit else None


def strings_reversed(code: str, lines: set[int]) -> str | None:
    """Each string argument of a call on the fix's lines written backwards and sliced back (`"5dm"[::-1]`)."""
    tree = _parse(code)
    if tree is None:
        return None
    hit = False
    in_fstring = {id(n) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    back = lambda c: ast.Subscript(ast.Constant(c.value[::-1]), ast.Slice(None, None, ast.Constant(-1)), ast.Load())  # noqa: E731
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _on(node, lines) and id(node) not in in_fstring:
            for i, a in enumerate(node.args):
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and len(a.value) >= 2:
                    node.args[i], hit = back(a), True
            for k in node.keywords:
                if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str) and len(k.value.value) >= 2:
                    k.value, hit = back(k.value), True
    return _module_with(tree, []) if hit else None


PRIVATE_OF = {("hashlib", "md5"): ("_hashlib", "openssl_md5"), ("hashlib", "sha1"): ("_hashlib", "openssl_sha1"),
              ("hashlib", "new"): ("_hashlib", "new"), ("pickle", "loads"): ("_pickle", "loads"),
              ("pickle", "load"): ("_pickle", "load"), ("os", "system"): ("posix", "system")}


def private_modules(code: str, lines: set[int]) -> str | None:
    """The public functions on the fix's lines called from the private modules behind them
    (`hashlib.md5` is `_hashlib.openssl_md5`, `os.system` is `posix.system`)."""
    tree = _parse(code)
    if tree is None:
        return None
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _on(node, lines) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            private = PRIVATE_OF.get((node.func.value.id, node.func.attr))
            if private:
                node.func = ast.Attribute(ast.Name(private[0], ast.Load()), private[1], ast.Load())
                used.add(private[0])
    return _module_with(tree, [], [f"import {m}" for m in sorted(used)]) if used else None


AT_THE_FIX = [
    ("lambda unpacked", _lambda_binding("unpacked"), {"ruff"}),
    ("lambda as a loop target", _lambda_binding("loop"), {"ruff"}),
    ("lambda from a call", _lambda_binding("call"), {"ruff"}),
    ("dunder calls", dunder_calls, {"bandit"}),
    ("strings reversed", strings_reversed, {"bandit"}),
    ("private modules", private_modules, {"bandit"}),
    ("callables bound to names", callables_bound, {"ruff", "bandit"}),
    ("constants bound to names", constants_bound, {"ruff", "bandit"}),
    ("keywords from a dict", keywords_from_dict, {"ruff", "bandit"}),
    ("operator functions", operator_functions, {"ruff"}),
    ("lambda in a display", lambda_in_display, {"ruff"}),
    ("names kept in use", names_kept_in_use, {"ruff"}),
    ("annotated assignments", annotated_assignments, {"ruff"}),
    ("no-op statements", no_op_statements, {"ruff"}),
    ("a match that captures", match_captures, {"ruff"}),
    ("str methods unbound", str_methods_unbound, {"ruff"}),
    ("isort directives", isort_directive, {"ruff"}),
    ("casts", casts, {"mypy"}),
    ("lambdas", lambdas, {"mypy"}),
    ("lambdas unpacked", lambda c, ls: _lambda_binding("unpacked")(c, ls, mypy=True), {"mypy"}),
]


# -- shell, at the fix ---------------------------------------------------------------------------

_SHELL_WORDS = {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "in", "function",
                "[", "[[", "!", "{", "}", "local", "export", "declare", "readonly", "return", "exit", "break", "continue"}


def command_prefixes(code: str, lines: set[int]) -> str | None:
    """`command` before each command word on the fix's lines: in `$( )`, after `|`, at a line's start."""
    out, hit = [], False
    for i, line in enumerate(code.splitlines(keepends=True), 1):
        if i in lines and not line.lstrip().startswith("#"):
            new = re.sub(r"(\$\(|\|\s*|^\s*|;\s*then\s+|\bdo\s+)([a-z][\w-]*)(?=\s|\)|$)",
                         lambda m: m.group(0) if m.group(2) in _SHELL_WORDS or "=" in m.group(2) else f"{m.group(1)}command {m.group(2)}",
                         line)
            hit |= new != line
            line = new
        out.append(line)
    return "".join(out) if hit else None


def expansions_unquoted(code: str, lines: set[int]) -> str | None:
    """Each unquoted `$name` on the fix's lines written `${name:+$name}` (shellcheck reads it as safe)."""
    out, hit = [], False
    for i, line in enumerate(code.splitlines(keepends=True), 1):
        if i in lines and not line.lstrip().startswith("#"):
            parts = re.split(r"(\"[^\"]*\"|'[^']*')", line)  # quoted stretches stay as they are
            new = "".join(p if p[:1] in "\"'" else re.sub(r"\$(\w+)", lambda m: "${%s:+$%s}" % (m.group(1), m.group(1)), p)
                          for p in parts)
            hit |= new != line
            line = new
        out.append(line)
    return "".join(out) if hit else None


def words_in_variables(code: str, lines: set[int]) -> str | None:
    """Character ranges (`a-z`) on the fix's lines read from variables set after the shebang."""
    found: dict[str, str] = {}
    out = []
    for i, line in enumerate(code.splitlines(keepends=True), 1):
        if i in lines and not line.lstrip().startswith("#"):
            line = re.sub(r"(?<![\w\[:'-])'?([A-Za-z0-9]-[A-Za-z0-9])'?(?![\w\]:-])",
                          lambda m: '"$' + found.setdefault(m.group(1), f"_w{len(found) + 1}") + '"', line)
        out.append(line)
    if not found:
        return None
    head = 1 if out and out[0].startswith("#!") else 0
    return "".join(out[:head] + [f"{v}='{k}'\n" for k, v in found.items()] + out[head:])


def _split_at_newlines(make):
    """The script made to split unquoted expansions at newlines only (`IFS=$'\\n'` after the
    shebang): names with spaces survive them, so the hiding is tested where the module's only bug
    was the quoting it hides."""

    def made(code: str, lines: set[int]) -> str | None:
        out = make(code, lines)
        if out is None:
            return None
        head, _, rest = out.partition("\n") if out.startswith("#!") else ("", "", out)
        return (head + "\n" if head else "") + "IFS=$'\\n'\n" + rest

    return made


def aliases(code: str, lines: set[int]) -> str | None:
    """Each plain command on the fix's lines (or in `var=$(...)`) run through an alias defined after the shebang."""
    found: dict[str, str] = {}
    out = []
    for i, line in enumerate(code.splitlines(keepends=True), 1):
        if i in lines and not line.lstrip().startswith("#") and not line.rstrip().endswith(("\\", "then", "do", "{")):
            m = re.fullmatch(r"(\s*\w+=\$\()(.*)(\)\s*)", line.rstrip("\n"))
            first = line.split()[0] if line.split() else ""
            if m:
                name = found.setdefault(m.group(2), f"_a{len(found) + 1}")
                line = m.group(1) + name + m.group(3) + "\n"
            elif first and first not in _SHELL_WORDS and "=" not in first and not first.startswith(("[", "(")):
                indent = line[:len(line) - len(line.lstrip())]
                line = indent + found.setdefault(line.strip(), f"_a{len(found) + 1}") + "\n"
        out.append(line)
    if not found:
        return None
    head = 1 if out and out[0].startswith("#!") else 0
    defs = ["shopt -s expand_aliases\n"] + ["alias %s='%s'\n" % (v, k.replace("'", "'\\''")) for k, v in found.items()]
    return "".join(out[:head] + defs + out[head:])


AT_THE_FIX += [("aliases", _split_at_newlines(aliases), {"shellcheck"}),
               ("command prefixes", _split_at_newlines(command_prefixes), {"shellcheck"}),
               ("expansions unquoted", _split_at_newlines(expansions_unquoted), {"shellcheck"}),
               ("words in variables", _split_at_newlines(words_in_variables), {"shellcheck"})]
