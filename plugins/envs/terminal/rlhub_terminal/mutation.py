"""Mutants of a family's reference, for the test-adequacy check: a near-miss of the reference that
the hidden tests cannot tell from it is a behaviour the tests do not check.

Python references get cosmic-ray's operators (comparisons, arithmetic, numbers, booleans, `and`/`or`,
`not`, loops that never run, `break`/`continue`, exceptions, decorators) and two of our own: each
statement removed (replaced by `pass`), and each use of each parameter removed (replaced by the
parameter's default where it has one, else by the empty value of the type it was given,
`type(p)()`: an `out` the caller passed is ignored, a `threshold` is 0, a list is []). Bash scripts
and SQL queries get the same ideas at the text level: each command line removed, comparisons and
boundaries moved, numbers moved by one, `&&`/`||`, `AND`/`OR`, `ASC`/`DESC`, `DISTINCT` dropped.

A mutant's `what` reads `operator: `before` -> `after`` (the changed line), with no line number, so
a family can declare a mutant equivalent (same behaviour on every input the task allows) by text
of `what` that holds for every seed.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

COSMIC_RAY = (
    "ReplaceComparisonOperator_Lt_LtE", "ReplaceComparisonOperator_LtE_Lt", "ReplaceComparisonOperator_Gt_GtE",
    "ReplaceComparisonOperator_GtE_Gt", "ReplaceComparisonOperator_Lt_Gt", "ReplaceComparisonOperator_Gt_Lt",
    "ReplaceComparisonOperator_LtE_GtE", "ReplaceComparisonOperator_GtE_LtE", "ReplaceComparisonOperator_Eq_NotEq",
    "ReplaceComparisonOperator_NotEq_Eq", "ReplaceComparisonOperator_Is_IsNot", "ReplaceComparisonOperator_IsNot_Is",
    "ReplaceBinaryOperator_Add_Sub", "ReplaceBinaryOperator_Sub_Add", "ReplaceBinaryOperator_Mul_Add",
    "ReplaceBinaryOperator_Mul_Div", "ReplaceBinaryOperator_Div_Mul", "ReplaceBinaryOperator_FloorDiv_Div",
    "ReplaceBinaryOperator_FloorDiv_Mul", "ReplaceBinaryOperator_Mod_FloorDiv", "ReplaceBinaryOperator_Pow_Mul",
    "NumberReplacer", "ReplaceTrueWithFalse", "ReplaceFalseWithTrue", "ReplaceAndWithOr", "ReplaceOrWithAnd",
    "AddNot", "ZeroIterationForLoop", "ReplaceBreakWithContinue", "ReplaceContinueWithBreak", "ExceptionReplacer",
    "RemoveDecorator", "ReplaceUnaryOperator_USub_UAdd", "ReplaceUnaryOperator_Delete_Not",
)


@dataclass(frozen=True)
class Mutant:
    name: str  # unique within the reference: operator@line[#n]
    what: str  # "operator: `before` -> `after`": what an equivalence declaration matches
    source: str


def mutants(source: str, language: str) -> tuple[Mutant, ...]:
    """Every mutant of `source` (a Python module, a bash script or an SQL query), in a fixed order."""
    made = {"python": _python, "bash": _bash, "sql": _sql}[language](source)
    seen, out = {source}, []
    for operator, line, mutated in made:
        if mutated in seen:
            continue
        seen.add(mutated)
        before, after = _changed(source, mutated, line)
        out.append(Mutant(f"{operator}@{line}#{len(out)}", f"{operator}: `{before}` -> `{after}`", mutated))
    return tuple(out)


def _changed(source: str, mutated: str, line: int) -> tuple[str, str]:
    """The first differing line of each (from `line` on), stripped, as the mutant's description."""
    a, b = source.splitlines(), mutated.splitlines()
    start = max(0, min(line - 1, len(a), len(b)))
    for i in range(len(a)):
        if i >= len(b) or a[i] != b[i]:
            start = i
            break
    before = a[start].strip() if start < len(a) else ""
    after = b[start].strip() if start < len(b) else ""
    if len(a) != len(b) and after == (a[start + 1].strip() if start + 1 < len(a) else ""):
        after = "(removed)"
    return before, after


# -- Python ------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=256)
def _python(source: str) -> tuple[tuple[str, int, str], ...]:
    return tuple(_cosmic_ray(source)) + tuple(_statements_removed(source)) + tuple(_parameter_uses_removed(source))


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _cosmic_ray(source: str):
    from cosmic_ray.ast import ast_nodes, get_ast
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator

    tree = get_ast(source)
    nodes = list(ast_nodes(tree))
    for name in COSMIC_RAY:
        op = get_operator(f"core/{name}")()
        occurrence = 0
        for node in nodes:
            for _ in op.mutation_positions(node):
                mutated = mutate_code(source, get_operator(f"core/{name}")(), occurrence)
                occurrence += 1
                if mutated and mutated != source and _parses(mutated) and not _in_docstring(source, node.start_pos[0]):
                    yield name, node.start_pos[0], mutated


def _in_docstring(source: str, line: int) -> bool:
    lines = source.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text.strip().startswith(('"', "'", "#"))


def _offsets(source: str) -> list[int]:
    starts, total = [], 0
    for line in source.splitlines(keepends=True):
        starts.append(total)
        total += len(line.encode("utf-8"))
    return starts


def _replace(source: str, node: ast.AST, text: str) -> str:
    """`source` with the exact span of `node` replaced by `text` (ast offsets are UTF-8 bytes)."""
    data, starts = source.encode("utf-8"), _offsets(source)
    a = starts[node.lineno - 1] + node.col_offset
    b = starts[node.end_lineno - 1] + node.end_col_offset
    return (data[:a] + text.encode("utf-8") + data[b:]).decode("utf-8")


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _statements_removed(source: str):
    """Each statement inside a function replaced by `pass` (a whole-line statement only)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            for body in (getattr(node, f, None) for f in ("body", "orelse", "finalbody")):
                if not isinstance(body, list) or node is not fn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for stmt in body:
                    if not isinstance(stmt, ast.stmt) or _is_docstring(stmt) or isinstance(stmt, ast.Pass):
                        continue
                    if body is fn.body and stmt is body[-1] and _returns_none(stmt):
                        continue  # a function's last `return None` removed: it returns None all the same
                    first, last = lines[stmt.lineno - 1], lines[stmt.end_lineno - 1]
                    if first[:stmt.col_offset].strip() or last[stmt.end_col_offset:].strip().lstrip(";").strip():
                        continue  # shares its line with another statement
                    indent = first[:stmt.col_offset]
                    mutated = "\n".join(lines[:stmt.lineno - 1] + [indent + "pass"] + lines[stmt.end_lineno:]) + "\n"
                    if _parses(mutated):
                        yield "StatementRemoved", stmt.lineno, mutated


def _returns_none(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Return) and (stmt.value is None or isinstance(stmt.value, ast.Constant)
                                             and stmt.value.value is None)


def _parameter_uses_removed(source: str):
    """Each read of a parameter replaced by its default, or by `type(p)()` where it has none (but
    not in `isinstance(p, ...)`, `type(p)` or `p is None`, where `type(p)()` answers as p does)."""
    tree = ast.parse(source)
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = fn.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        params = {a.arg for a in (*positional, *args.kwonlyargs) if a.arg not in ("self", "cls")}
        typed = {id(c.args[0]) for c in _own_nodes(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                 and c.func.id in ("isinstance", "type") and c.args}  # type(p)() has p's type: the same there
        typed |= {id(c.left) for c in _own_nodes(fn) if isinstance(c, ast.Compare) and len(c.ops) == 1  # p is None
                  and isinstance(c.ops[0], (ast.Is, ast.IsNot)) and isinstance(c.comparators[0], ast.Constant)
                  and c.comparators[0].value is None}
        for node in _own_nodes(fn):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in params and (
                    id(node) not in typed or node.id in defaults):
                default = defaults.get(node.id)
                text = f"({ast.unparse(default)})" if default is not None else f"type({node.id})()"
                mutated = _replace(source, node, text)
                if _parses(mutated):
                    yield "ParameterUseRemoved", node.lineno, mutated


def _own_nodes(fn: ast.AST):
    """The nodes of a function's body, not those of functions nested in it (their own parameters)."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.arguments)):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


# -- bash and SQL (text level) -----------------------------------------------------------------

_BASH_STRUCTURE = re.compile(r"^\s*(#|$|then\b|else\b|elif\b|fi\b|do\b|done\b|esac\b|;;|\{|\}|\)|[\w-]+\s*\(\)\s*\{?|"
                             r"if\b|for\b|while\b|until\b|case\b|set\s+-)")
_BASH_SWAPS = [(r"-lt\b", "-le"), (r"-le\b", "-lt"), (r"-gt\b", "-ge"), (r"-ge\b", "-gt"), (r"-eq\b", "-ne"),
               (r"-ne\b", "-eq"), (r"==", "!="), (r"!=", "=="), (r"&&", "||"), (r"\|\|", "&&"), (r"-z\b", "-n"),
               (r"-n\b(?=\s+\")", "-z"), (r"(?<![<>=!-])<(?![<=(])", "<="), (r"(?<![<>=!-])>(?![>=&])", ">=")]
_SQL_SWAPS = [(r"(?<![<>!])<(?![=>])", "<="), (r"<=", "<"), (r"(?<![<>=!-])>(?![=])", ">="), (r">=", ">"),
              (r"(?<![<>!])=(?!=)", "<>"), (r"<>|!=", "="), (r"\bAND\b", "OR"), (r"\bOR\b", "AND"),
              (r"\bASC\b", "DESC"), (r"\bDESC\b", "ASC"), (r"\bDISTINCT\s+", ""), (r"\bLEFT\s+JOIN\b", "JOIN"),
              (r"\bMAX\(", "MIN("), (r"\bMIN\(", "MAX("), (r"\bSUM\(", "MAX("), (r"\bAVG\(", "SUM("),
              (r"\bCOUNT\(DISTINCT\s+", "COUNT("), (r"\bHAVING\b", "AND"), (r"\bIS NOT NULL\b", "IS NULL"),
              (r"\bIS NULL\b", "IS NOT NULL")]
_NUMBER = re.compile(r"(?<![\w.$&<>-])(\d+)(?![\w.>])")  # not a file descriptor (>&2, 2>)


def _swaps(source: str, swaps: list[tuple[str, str]], flags: int = 0, skip=None):
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if skip is not None and skip(line):
            continue
        for pattern, to in swaps:
            for m in re.finditer(pattern, line, flags):
                if _in_quotes(line, m.start()):
                    continue
                new = line[:m.start()] + to + line[m.end():]
                yield f"Replace `{m.group(0).strip()}` with `{to.strip()}`", i + 1, "\n".join(lines[:i] + [new] + lines[i + 1:]) + "\n"
        for m in _NUMBER.finditer(line):
            if _in_quotes(line, m.start()):
                continue
            n = int(m.group(1))
            for k in (n + 1, n - 1):
                if k >= 0:
                    new = line[:m.start()] + str(k) + line[m.end():]
                    yield "NumberReplacer", i + 1, "\n".join(lines[:i] + [new] + lines[i + 1:]) + "\n"


def _in_quotes(line: str, at: int) -> bool:
    """Inside a single-quoted literal (a bash word or an SQL string): text, not code."""
    return line[:at].count("'") % 2 == 1


def _bash(source: str):
    lines = source.splitlines()
    comment = lambda line: line.lstrip().startswith("#")  # noqa: E731
    yield from _swaps(source, _BASH_SWAPS, skip=comment)
    for i, line in enumerate(lines):
        if i == 0 and line.startswith("#!") or _BASH_STRUCTURE.match(line):
            continue
        indent = line[:len(line) - len(line.lstrip())]
        yield "StatementRemoved", i + 1, "\n".join(lines[:i] + [indent + ":"] + lines[i + 1:]) + "\n"


def _sql(source: str):
    yield from _swaps(source, _SQL_SWAPS, flags=re.IGNORECASE)
    lines = source.splitlines()
    for i, line in enumerate(lines):  # each condition of a WHERE/HAVING conjunction dropped
        for m in re.finditer(r"\s+AND\s+[^\n]+?(?=\s+AND\s|\s+GROUP\s|\s+ORDER\s|\s+HAVING\s|\s+LIMIT\s|;|$)", line, re.IGNORECASE):
            new = line[:m.start()] + line[m.end():]
            yield "ConditionRemoved", i + 1, "\n".join(lines[:i] + [new] + lines[i + 1:]) + "\n"
