"""Strict assertions: nothing of the model's vouches for itself in an assert.

The values the tests see are plain data built by the runner (codec.py), so Python's own `==`,
`<` and `in` between them are honest. What remains is the model's objects that stay in its
process (`SolutionObject` handles): the hidden test module is rewritten (host side, before it
reaches the sandbox) so that

    assert a == b      ->  assert __rlhub_eq__(a, b)
    assert a != b      ->  assert not __rlhub_eq__(a, b)
    assert a in b      ->  assert __rlhub_in__(a, b)        (not in: not __rlhub_in__)
    assert f(x)        ->  assert __rlhub_truth__(f(x))

and those helpers refuse (TypeError: the test fails, whichever way the assert points) a
handle compared with a test's value, a handle's truth value, and membership in a handle. Two
of the model's own objects compare by the model's methods (that is what a test of its class
checks). `unittest.TestCase`'s assertions get the same rules (`harden_unittest`).
"""

from __future__ import annotations

import ast

EQ, TRUTH, IN = "__rlhub_eq__", "__rlhub_truth__", "__rlhub_in__"


# -- host side: the rewrite ----------------------------------------------------------------------
class _StrictAsserts(ast.NodeTransformer):
    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        node.test = _strict(node.test)
        return node


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=list(args), keywords=[])


def _strict(test: ast.expr) -> ast.expr:
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(op, (ast.Eq, ast.NotEq)):
            call = _call(EQ, left, right)
            return call if isinstance(op, ast.Eq) else ast.UnaryOp(op=ast.Not(), operand=call)
        if isinstance(op, (ast.In, ast.NotIn)):
            call = _call(IN, left, right)
            return call if isinstance(op, ast.In) else ast.UnaryOp(op=ast.Not(), operand=call)
        return test  # <, is ...: a handle against a test's value is a TypeError by itself
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
_last: list = []  # the operands of the latest failed comparison, for the failure message


def _handle(value) -> bool:
    """An object of the model's that stays in its process (a dataclass's stand-in too), or a test
    object backed by one (a test class subclassing a solution class)."""
    from .stand_in import SolutionObject, SolutionSubclassBase

    return isinstance(value, (SolutionObject, SolutionSubclassBase))


def _refuse(what: str, value) -> TypeError:
    return TypeError(f"{what}: {_describe(value)} lives in the solution's process and cannot vouch for itself "
                     "(compare a value it returns, e.g. a list, an int, a str)")


def _describe(value) -> str:
    from .shown import value_text

    return value_text(value)[0] if not _handle(value) else f"the solution's object {value!r}"


def strict_eq(a: object, b: object) -> bool:
    ha, hb = _handle(a), _handle(b)
    if ha != hb:
        raise _refuse("== with a test's value", a if ha else b)
    equal = a == b
    if equal is not True and equal is not False:
        equal = bool(equal)  # numpy arrays and the like keep their own rules
    if not equal:
        _last[:] = [a, b]
    return equal


def strict_truth(value: object) -> bool:
    if _handle(value):
        raise _refuse("truth value in an assert", value)
    return bool(value)


def strict_in(item: object, container: object) -> bool:
    if _handle(container):
        raise _refuse("membership in an assert", container)
    found = item in container
    if not found:
        _last[:] = [item, container]
    return found


def explain_last() -> tuple[str, bool]:
    """(': got X, expected Y' for the latest failed comparison (plain check programs), whether a
    value was an int too long to print)."""
    if len(_last) != 2:
        return "", False
    from .shown import value_text

    try:
        (got, hit_got), (want, hit_want) = (value_text(v) for v in _last)
    except Exception:
        return "", False
    finally:
        _last.clear()
    return f"\ngot {got}\nexpected {want}", hit_got or hit_want


def inject(namespace: dict) -> None:
    namespace[EQ] = strict_eq
    namespace[TRUTH] = strict_truth
    namespace[IN] = strict_in


def harden_unittest() -> None:
    """unittest.TestCase assertions by the same rules as the rewritten asserts."""
    import unittest

    case = unittest.TestCase
    if getattr(case, "__rlhub_strict__", False):
        return

    def refuse_handles(*positions):
        def wrap(method):
            def strict(self, *args, **kwargs):
                values = [args[i] for i in positions if i < len(args)]
                if len(positions) == 2 and len(values) == 2 and _handle(values[0]) == _handle(values[1]):
                    return method(self, *args, **kwargs)  # two plain values, or two of the model's objects
                for value in values:
                    if _handle(value):
                        raise self.failureException(str(_refuse(method.__name__, value)))
                return method(self, *args, **kwargs)

            strict.__name__ = method.__name__
            return strict

        return wrap

    for name in ("assertEqual", "assertNotEqual", "assertAlmostEqual", "assertNotAlmostEqual"):
        setattr(case, name, refuse_handles(0, 1)(getattr(case, name)))
    for name in ("assertTrue", "assertFalse"):
        setattr(case, name, refuse_handles(0)(getattr(case, name)))
    for name in ("assertIn", "assertNotIn"):
        setattr(case, name, refuse_handles(1)(getattr(case, name)))
    case.assertEquals, case.assertNotEquals = case.assertEqual, case.assertNotEqual
    case.__rlhub_strict__ = True
