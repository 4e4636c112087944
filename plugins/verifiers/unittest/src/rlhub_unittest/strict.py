"""Strict assertions: `assert got == want` must not be satisfiable by an object that lies.

The hidden test module is rewritten (host side, before it reaches the sandbox) so that

    assert a == b      ->  assert __rlhub_eq__(a, b)
    assert a != b      ->  assert not __rlhub_eq__(a, b)
    assert f(x)        ->  assert __rlhub_truth__(f(x))

`__rlhub_eq__` compares plain values (int, str, list, dict...) by exact type and structure, so
an always-equal object, or a str/int subclass with a lying `__eq__`, does not pass. Objects of
classes the model's code defined are never accepted where a plain value is expected; objects of
library classes (pytest.approx, Decimal, numpy scalars) keep their own `==`.
"""

from __future__ import annotations

import ast
import builtins
import sys

EQ = "__rlhub_eq__"
TRUTH = "__rlhub_truth__"


# -- host side: the rewrite ----------------------------------------------------------------------
class _StrictAsserts(ast.NodeTransformer):
    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        node.test = _strict(node.test)
        return node


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=list(args), keywords=[])


def _strict(test: ast.expr) -> ast.expr:
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = test.ops[0]
        if isinstance(op, ast.Eq):
            return _call(EQ, test.left, test.comparators[0])
        if isinstance(op, ast.NotEq):
            return ast.UnaryOp(op=ast.Not(), operand=_call(EQ, test.left, test.comparators[0]))
        return test  # <, in, is ...: their operands are the model's values, compared by Python
    if isinstance(test, ast.BoolOp):
        test.values = [_strict(v) for v in test.values]
        return test
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test.operand = _strict(test.operand)
        return test
    if isinstance(test, (ast.Call, ast.Name, ast.Attribute, ast.Subscript)):
        return _call(TRUTH, test)
    return test


def strict_asserts(tree: ast.Module) -> ast.Module:
    """Rewrite every assert in a test module (in place) to the strict helpers."""
    tree = _StrictAsserts().visit(tree)
    return ast.fix_missing_locations(tree)


# -- sandbox side: the helpers the rewritten asserts call ----------------------------------------
# Bound now, at import (before any model code runs), so patching builtins later changes nothing.
_type, _len, _isinstance, _getattr, _zip, _all, _sorted, _set = type, len, isinstance, getattr, zip, all, sorted, set
_modules = sys.modules
_NUMBERS = (bool, int, float, complex)
_PLAIN = frozenset({bool, int, float, complex, str, bytes, bytearray, type(None), list, tuple, dict, set, frozenset, range})
_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: the class was written in Python, not C

# Directories whose modules are the model's (the work dir); set by the harness in the child.
untrusted_roots: list[str] = []


def _from_model(cls: type) -> bool:
    """True if any class in `cls`'s MRO comes from the model's code (or from nowhere we know)."""
    for klass in cls.__mro__[:-1]:
        if not klass.__flags__ & _HEAPTYPE:
            continue  # a C type: part of Python or a compiled library
        module = _modules.get(klass.__dict__.get("__module__", ""))
        path = _getattr(module, "__file__", None) if module is not None else None
        if module is None or (path is None and not _getattr(module, "__rlhub_trusted__", False)):
            return True
        if path is not None and any(path.startswith(root) for root in untrusted_roots):
            return True
    return False


def strict_eq(a: object, b: object) -> bool:
    ta, tb = _type(a), _type(b)
    plain_a, plain_b = ta in _PLAIN, tb in _PLAIN
    if plain_a and plain_b:
        if ta is not tb:
            return ta in _NUMBERS and tb in _NUMBERS and a == b
        if ta in (list, tuple):
            return _len(a) == _len(b) and _all(strict_eq(x, y) for x, y in _zip(a, b))
        if ta is dict:
            if not (_all(_type(k) in _PLAIN for k in a) and _all(_type(k) in _PLAIN for k in b)):
                return False
            return a.keys() == b.keys() and _all(strict_eq(a[k], b[k]) for k in a)
        if ta in (set, frozenset):
            return _all(_type(x) in _PLAIN for x in a) and _all(_type(x) in _PLAIN for x in b) and a == b
        return a == b  # exact built-in scalars: C-level equality
    if plain_a or plain_b:
        other = tb if plain_a else ta
        # A subclass of a plain type, or a class of the model's, standing in for a plain value.
        if _isinstance(b if plain_a else a, tuple(_PLAIN - {type(None)})) or _from_model(other):
            return False
    return a == b


def strict_truth(value: object) -> bool:
    if _type(value) in _PLAIN:
        return bool(value)
    if _from_model(_type(value)):
        return False  # a model-defined __bool__ / __len__ cannot vouch for itself
    return bool(value)


def inject(namespace: dict) -> None:
    namespace[EQ] = strict_eq
    namespace[TRUTH] = strict_truth


def pristine_builtins() -> dict:
    """A private copy of the builtins namespace, for the test module (taken before model code runs)."""
    return dict(vars(builtins))


