"""Reference and wrong answers written as real functions (a linter and the tests of this package
read them), turned into the module a model would submit.

A solutions module holds, per family, the reference `entry(...)` and its wrong answers
`entry__<kind>(...)`; module-level constants a family sets per task (a separator, a unit) are
plain assignments the task overrides with its own values. `module_answer` writes one of them as a
standalone module: the imports and constants it uses, then the function under the entry's name.
"""

from __future__ import annotations

import ast
import inspect
import re
from functools import lru_cache
from types import ModuleType
from typing import Any

from hub import Variant


@lru_cache(maxsize=None)
def _parsed(module: ModuleType) -> tuple[str, ast.Module]:
    text = inspect.getsource(module)
    return text, ast.parse(text)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.value.id for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}


def module_answer(module: ModuleType, name: str, constants: dict[str, Any] | None = None) -> str:
    """Function `name` of `module` (`entry` or `entry__kind`) as the module a model would write:
    the imports and constants it uses, then the function renamed to `entry`."""
    text, tree = _parsed(module)
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if fn is None:
        raise KeyError(f"{module.__name__} has no function {name!r}")
    used = _names(fn)
    lines = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound = {(a.asname or a.name).split(".")[0] for a in node.names}
            if bound & used:
                lines.append(ast.get_source_segment(text, node))
    consts = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            const = node.targets[0].id
            if const in used:
                value = (constants or {}).get(const, ast.literal_eval(node.value))
                consts.append(f"{const} = {value!r}")
    entry = name.split("__", 1)[0]
    body = ast.get_source_segment(text, fn)
    body = re.sub(rf"^def {re.escape(name)}\(", f"def {entry}(", body)
    return "\n\n".join(filter(None, ["\n".join(lines), "\n".join(consts), body])).strip() + "\n"


def wrong_kinds(module: ModuleType, entry: str) -> list[str]:
    """The kinds of wrong answer the module holds for `entry` (its `entry__<kind>` functions)."""
    _, tree = _parsed(module)
    prefix = f"{entry}__"
    return [n.name[len(prefix):] for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith(prefix)]


def answers(module: ModuleType, entry: str, **constants: Any) -> tuple[str, list[Variant]]:
    """(the reference module, its wrong answers as Variants by kind) for `entry`."""
    return module_answer(module, entry, constants), [
        Variant(kind, module_answer(module, f"{entry}__{kind}", constants), note=kind.replace("_", " "))
        for kind in wrong_kinds(module, entry)]
