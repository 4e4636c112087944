"""What an issue states, in names: the public names and keyword arguments it asks for, and which
hidden tests exercise each.

A feature's issue names its API in backticks (`Catalog.discontinue(sku)`, `parse(text,
interpolate_values=True)`). The names it *adds* are the identifiers in those spans that the
target package binds and the base does not (a function, class, method, attribute, field or
parameter); a bug's issue names existing API (functions, classes and methods the base defines).
Every such name must be used by at least one FAIL_TO_PASS test (`uncovered`, which the kind's
checks require empty), and a feature's reward is capped at the mean completion of its parts
(verifier.py: the fraction of each part's tests that pass), a part being each name plus the
behaviour the issue describes in words (the tests that use none of the names): an answer that
leaves one of two parts out earns at most 0.5.
"""

from __future__ import annotations

import ast
import re

BEHAVIOUR = "(the behaviour described)"  # the F2P tests that use none of the names: one more part
_SPAN = re.compile(r"`([^`\n]+)`")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def spans(issue: str) -> list[str]:
    return _SPAN.findall(issue)


def _bound(files: dict[str, str], package: str, with_params: bool) -> set[str]:
    """Names the package's modules bind: definitions, and (with_params) parameters, attributes
    stored and class fields."""
    out: set[str] = set()
    for path, text in files.items():
        if not (path.startswith(package + "/") and path.endswith(".py")):
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            kind = type(node)
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                out.add(node.name)
                if with_params:
                    a = node.args
                    out.update(x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs))
            elif kind is ast.ClassDef:
                out.add(node.name)
                if with_params:
                    for stmt in node.body:
                        if type(stmt) is ast.AnnAssign and type(stmt.target) is ast.Name:
                            out.add(stmt.target.id)
                        elif type(stmt) is ast.Assign:
                            out.update(t.id for t in stmt.targets if type(t) is ast.Name)
            elif with_params and kind is ast.Attribute and type(node.ctx) is ast.Store:
                out.add(node.attr)
    return {n for n in out if not n.startswith("_")}


def span_names(span: str) -> list[str]:
    """The names a code span asks for: `A.b(x, key=1)` names `b` and the keyword `key`; a qualifier
    before a dot (`A`) and positional parameters (`x`) are context, not API."""
    out, depth = [], 0
    i = 0
    while i < len(span):
        ch = span[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch in "'\"":  # a string inside the span ('section.key'): not names
            end = span.find(ch, i + 1)
            i = len(span) if end < 0 else end + 1
            continue
        m = _WORD.match(span, i) if (ch.isalpha() or ch == "_") and (i == 0 or not (span[i - 1].isalnum() or span[i - 1] in "_$")) else None
        if m is None:
            i += 1
            continue
        word, rest = m.group(0), span[m.end():].lstrip()
        keyword = rest.startswith("=") and not rest.startswith("==")
        if not rest.startswith(".") and (depth == 0 or keyword) and word not in out:
            out.append(word)
        i = m.end()
    return out


def named_api(issue: str, base: dict[str, str], target: dict[str, str], package: str, task: str) -> list[str]:
    """The public names the issue asks for (feature: new in the files the target changes; bug:
    functions, classes and methods the base defines)."""
    words: list[str] = []
    for span in spans(issue):
        words += [w for w in span_names(span) if w not in words]
    if task == "feature":
        changed = [p for p in target if target[p] != base.get(p)]
        new = _bound({p: target[p] for p in changed}, package, True) - _bound(
            {p: base[p] for p in changed if p in base}, package, True)
        return [w for w in words if w in new]
    text = "\n".join(t for p, t in base.items() if p.startswith(package + "/") and p.endswith(".py"))
    return [w for w in words if re.search(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+" + re.escape(w) + r"\b", text, re.M)]


def uses(source: str, name: str) -> bool:
    return re.search(r"(?<![\w$])" + re.escape(name) + r"(?!\w)", source) is not None


def coverage(names: list[str], tests: dict[str, str]) -> dict[str, list[str]]:
    """name -> the FAIL_TO_PASS tests (name -> source) that use it."""
    return {n: sorted(t for t, src in tests.items() if uses(src, n)) for n in names}


def uncovered(names: list[str], tests: dict[str, str]) -> list[str]:
    return [n for n, used in coverage(names, tests).items() if not used]
