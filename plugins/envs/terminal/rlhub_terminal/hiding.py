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

The code behaves as the flawed module does, so the hidden tests pass as they do on it; the
analyser must then count its blindness (rlhub_static.blind), which costs the component its weight:
each variant may earn at most the tests' weight (`max_reward`), the floor that the same code with
its findings in plain sight never goes below.
"""

from __future__ import annotations

import ast
import base64
import textwrap

from hub import Variant

from .analysis import TESTS_WEIGHT

BUILTINS = {"eval", "exec", "compile", "open", "input", "__import__"}


def hidden_variants(flawed: str, reference: str, analyser: str, findings: int) -> list[Variant]:
    """The flawed module hidden from `analyser` in each way that applies to it; and the reference
    itself run where the analyser cannot see it (what it cannot see, it cannot vouch for)."""
    language = "bash" if analyser == "shellcheck" else "python"
    makers = SHELL if language == "bash" else PYTHON + (MYPY if analyser == "mypy" else []) + (BANDIT if analyser == "bandit" else [])
    out = []
    for how, make in makers:
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
MYPY = [("not TYPE_CHECKING", not_type_checking), ("unfollowed Any", unfollowed_any)]
BANDIT = [("strings joined", lambda c: _rewritten(c, _JoinedStrings))]
WHOLE = {"exec of base64", "not TYPE_CHECKING", "eval of base64", "source of base64"}  # hide a whole module
SHELL = [("eval of base64", lambda c: f'#!/bin/bash\neval "$(echo {_b64(c)} | base64 -d)"\n'),
         ("source of base64", lambda c: f"#!/bin/bash\nsource <(echo {_b64(c)} | base64 -d)\n")]
