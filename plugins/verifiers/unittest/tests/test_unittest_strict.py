"""Strict assertions: the rewrite, and what the helpers accept (plain values by Python's own
rules; the solution's objects never vouch for themselves against a test's value)."""

from __future__ import annotations

import ast
import decimal
import fractions
import unittest

import pytest
from rlhub_unittest import strict


def test_rewrite_covers_eq_ne_in_and_bare_asserts():
    tree = strict.strict_asserts(ast.parse("assert f(1) == 2\nassert g() != 3\nassert h()\nassert x < 4\n"
                                           "assert 1 in ys\nassert 2 not in ys\nassert not k()\n"))
    text = ast.unparse(tree)
    assert "__rlhub_eq__(f(1), 2)" in text and "not __rlhub_eq__(g(), 3)" in text
    assert "__rlhub_truth__(h())" in text and "x < 4" in text
    assert "__rlhub_in__(1, ys)" in text and "not __rlhub_in__(2, ys)" in text
    assert "not __rlhub_truth__(k())" in text


@pytest.mark.parametrize("a, b", [
    (3, 3), (2, 2.0), (True, 1), ([1, [2, "x"]], [1, [2, "x"]]), ({"a": (1, 2)}, {"a": (1, 2)}),
    ({1, 2}, {2, 1}), (None, None), (0.3, pytest.approx(0.1 + 0.2)), (decimal.Decimal("1.5"), 1.5),
    (fractions.Fraction(1, 2), 0.5),
])
def test_plain_values_compare_as_python_does(a, b):
    assert strict.strict_eq(a, b) and strict.strict_eq(b, a)


@pytest.mark.parametrize("a, b", [("1", 1), ((1, 2), [1, 2]), ([1], [2]), ({"k": 1}, {"k": 2})])
def test_different_plain_values_are_not_equal_and_say_why(a, b):
    assert not strict.strict_eq(a, b)
    assert strict.explain_last() == (f"\ngot {a!r}\nexpected {b!r}", False)


def test_an_int_too_long_to_print_is_described_with_the_limit_named():
    """repr() of a 100,000-digit int raises (Python's int-to-str limit): the failure still says
    what was compared, and that the limit was hit."""
    assert not strict.strict_eq(10 ** 100_000, 1)
    assert strict.explain_last() == ("\ngot <an int of about 100001 digits>\nexpected 1", True)
    assert not strict.strict_eq([10 ** 100_000], [1])
    assert strict.explain_last() == ("\ngot <a list that holds an int too long to print>\nexpected [1]", True)


def test_membership_and_truth_of_plain_values():
    assert strict.strict_in(2, [1, 2]) and not strict.strict_in(3, [1, 2])
    assert strict.strict_truth([0]) and not strict.strict_truth([])


def test_solution_objects_never_vouch_for_themselves(solution_process):
    proc = solution_process("class Liar:\n    def __eq__(self, o):\n        return True\n    def __bool__(self):\n"
                            "        return True\n    def __contains__(self, x):\n        return True\n"
                            "    def __lt__(self, o):\n        return True\n    def __sub__(self, o):\n        return 0\n"
                            "def make():\n    return Liar()\n")
    liar = proc.call("make")
    for check in (lambda: strict.strict_eq(liar, 5), lambda: strict.strict_eq(5, liar),
                  lambda: strict.strict_truth(liar), lambda: strict.strict_in(5, liar)):
        with pytest.raises(TypeError, match="cannot vouch for itself"):
            check()
    with pytest.raises(TypeError):
        liar < 5
    with pytest.raises(TypeError):
        liar - 5.0
    assert not (liar == 5) and liar != 5 and 5 not in [liar]
    assert strict.strict_eq(liar, proc.call("make"))  # two of its own objects: its own __eq__ answers


def test_unittest_assertions_are_hardened(solution_process):
    strict.harden_unittest()
    proc = solution_process("class Liar:\n    def __eq__(self, o):\n        return True\n    def __bool__(self):\n"
                            "        return True\n    def __contains__(self, x):\n        return True\n"
                            "def make():\n    return Liar()\n")
    liar = proc.call("make")
    case = unittest.TestCase()
    for check in (lambda: case.assertEqual(liar, 5), lambda: case.assertTrue(liar), lambda: case.assertFalse(liar),
                  lambda: case.assertIn(5, liar), lambda: case.assertNotIn(5, liar),
                  lambda: case.assertAlmostEqual(liar, 5.0), lambda: case.assertNotEqual(liar, 5)):
        with pytest.raises(AssertionError, match="cannot vouch for itself"):
            check()
    case.assertEqual([1, (2, 3)], [1, (2, 3)])
    case.assertIn(2, [1, 2])
    with pytest.raises(AssertionError):
        case.assertEqual([1, 2], [1, 3])
