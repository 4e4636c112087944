"""What a model's CadQuery script may do: a static AST check plus the builtins it runs with.

This is policy, not the security boundary (bubblewrap is: no network, read-only system, a
throwaway work dir). It exists so that (a) a script that reaches for files, the OS or the
network gets a clear "forbidden" verdict instead of a confusing error, and (b) the model's code
cannot tamper with the trusted runner that shares its process: no monkeypatching (attribute
stores), no dunder/private attribute walks to `__globals__` or `__subclasses__`, no dynamic
`getattr`/`exec`. Pure Python: imported by the verifier (host) and the runner (sandbox).
"""

from __future__ import annotations

import ast
import builtins
import re

ALLOWED_MODULES = frozenset({"cadquery", "math"})
# Top-level cadquery names a script must not import: they read or write files.
FORBIDDEN_CADQUERY_NAMES = frozenset({"exporters", "importers", "occ_impl", "cqgi", "vis", "fig"})
# Attribute names that read/write files or reach the OCC layer (any object: cq.exporters.export,
# shape.exportStl, assy.save, Sketch.importDXF, ...).
_FORBIDDEN_ATTR = re.compile(
    r"^(_.*|export.*|import.*|save.*|load.*|write.*|read.*|dump.*|open.*|to(Svg|Step|Stl|Vtk|Brep|DXF|Json).*"
    r"|exporters|importers|occ_impl|cqgi|vis|fig|wrapped"
    # frame / code objects: generator.gi_frame.f_back.f_globals reaches the runner's globals
    r"|(gi|cr|ag)_.*|f_(back|globals|locals|builtins|code|trace)|tb_.*|co_.*|func_.*|im_.*|mro)$"
)
FORBIDDEN_BUILTINS = frozenset({
    "open", "exec", "eval", "compile", "__import__", "input", "breakpoint", "globals", "locals",
    "vars", "getattr", "setattr", "delattr", "help", "exit", "quit", "memoryview", "__build_class__",
    "__loader__", "__spec__", "copyright", "credits", "license",
})
MAX_SCRIPT_CHARS = 50_000


class PolicyViolation(Exception):
    """The script does something the task forbids; the message says what and where."""


def _where(node: ast.AST) -> str:
    return f"line {getattr(node, 'lineno', '?')}"


def _check_module(name: str, node: ast.AST) -> None:
    if name not in ALLOWED_MODULES:
        raise PolicyViolation(f"{_where(node)}: import of {name!r} is forbidden (only 'cadquery' and 'math')")


def check_script(source: str) -> ast.Module:
    """Parse and vet a model's script; raise PolicyViolation (or SyntaxError) with a clear reason."""
    if len(source) > MAX_SCRIPT_CHARS:
        raise PolicyViolation(f"script is {len(source)} characters (limit {MAX_SCRIPT_CHARS})")
    tree = ast.parse(source, filename="<model>", mode="exec")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                _check_module(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise PolicyViolation(f"{_where(node)}: relative imports are forbidden")
            _check_module(node.module or "", node)
            for alias in node.names:
                if alias.name == "*" and node.module != "math":
                    raise PolicyViolation(f"{_where(node)}: 'from {node.module} import *' is forbidden (use 'import cadquery as cq')")
                if node.module == "cadquery" and (alias.name in FORBIDDEN_CADQUERY_NAMES or alias.name.startswith("_")):
                    raise PolicyViolation(f"{_where(node)}: 'from cadquery import {alias.name}' is forbidden (file access / OCC layer)")
        elif isinstance(node, ast.Attribute):
            if _FORBIDDEN_ATTR.match(node.attr):
                raise PolicyViolation(f"{_where(node)}: attribute '.{node.attr}' is forbidden (file access, OCC layer or private)")
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                raise PolicyViolation(f"{_where(node)}: assigning or deleting attributes ('.{node.attr} = ...') is forbidden")
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN_BUILTINS or node.id.startswith("__"):
                raise PolicyViolation(f"{_where(node)}: name {node.id!r} is forbidden")
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            raise PolicyViolation(f"{_where(node)}: 'global'/'nonlocal' statements are forbidden")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name.startswith("__") and node.name != "__init__":
                raise PolicyViolation(f"{_where(node)}: defining {node.name!r} is forbidden")
            if isinstance(node, ast.ClassDef) and (node.bases or node.keywords or node.decorator_list):
                raise PolicyViolation(f"{_where(node)}: classes with bases, metaclasses or decorators are forbidden")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "__" in node.value and "{" in node.value:
            # "{0.__class__}".format(x) walks attributes without an ast.Attribute node
            raise PolicyViolation(f"{_where(node)}: format strings that reach dunder attributes are forbidden")
    return tree


def assigns_result(tree: ast.Module) -> bool:
    """Whether the script can leave a variable named `result` at all (an assignment, loop or
    `with` target, walrus, import alias, def or class of that name). One that cannot is graded
    without a sandbox run: it would end with no `result`, or raise first, the same low reward."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "result" and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name) == "result":
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == "result":
            return True
    return False


def restricted_import(allowed_modules: dict):
    """An `__import__` that hands out only the pre-imported, allowed modules (no file lookups)."""

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        if level or name not in ALLOWED_MODULES or name not in allowed_modules:
            raise ImportError(f"import of {name!r} is forbidden (only cadquery and math)")
        for item in fromlist or ():
            if item in FORBIDDEN_CADQUERY_NAMES or item.startswith("_"):
                raise ImportError(f"'from {name} import {item}' is forbidden")
        return allowed_modules[name]

    return _import


def safe_builtins(allowed_modules: dict) -> dict:
    """The builtins a model's script runs with: no file, eval or introspection escape hatches."""
    table = {k: v for k, v in vars(builtins).items() if k not in FORBIDDEN_BUILTINS}
    table["__import__"] = restricted_import(allowed_modules)
    # class statements need __build_class__; check_script already rejects bases/metaclasses.
    table["__build_class__"] = builtins.__build_class__
    return table
