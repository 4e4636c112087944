"""Strict equality: honest values compare as Python does, lying objects never equal plain values."""

from __future__ import annotations

import decimal
import fractions

import pytest

from rlhub_unittest import strict


class AlwaysEqual:
    def __eq__(self, other):
        return True


class LyingStr(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


@pytest.fixture(autouse=True)
def model_dir(monkeypatch):
    # Classes of this test module stand in for the model's: treat this directory as its work dir.
    monkeypatch.setattr(strict, "untrusted_roots", [__file__.rsplit("/", 1)[0] + "/"])


@pytest.mark.parametrize("a, b", [
    (3, 3), (2, 2.0), (True, 1), ([1, [2, "x"]], [1, [2, "x"]]), ({"a": (1, 2)}, {"a": (1, 2)}),
    ({1, 2}, {2, 1}), (None, None), (0.3, pytest.approx(0.1 + 0.2)), (decimal.Decimal("1.5"), 1.5),
    (fractions.Fraction(1, 2), 0.5),
])
def test_honest_values_compare_equal(a, b):
    assert strict.strict_eq(a, b) and strict.strict_eq(b, a)


@pytest.mark.parametrize("a, b", [
    (AlwaysEqual(), 5), (5, AlwaysEqual()), (LyingStr("x"), "y"), ([AlwaysEqual()], [1]),
    ({"k": AlwaysEqual()}, {"k": 1}), ("1", 1), ((1, 2), [1, 2]), ({LyingStr("a"): 1}, {"b": 1}),
])
def test_liars_and_type_mixups_are_not_equal(a, b):
    assert not strict.strict_eq(a, b)


def test_truthiness_of_model_objects_is_not_trusted():
    class AlwaysTrue:
        def __bool__(self):
            return True

    assert not strict.strict_truth(AlwaysTrue())
    assert strict.strict_truth([0]) and not strict.strict_truth([])
    assert strict.strict_truth(__import__("re").match("a", "a"))  # library objects keep their truth


def test_rewrite_covers_eq_ne_and_bare_asserts():
    import ast

    tree = strict.strict_asserts(ast.parse("assert f(1) == 2\nassert g() != 3\nassert h()\nassert x < 4\n"))
    text = ast.unparse(tree)
    assert "__rlhub_eq__(f(1), 2)" in text and "not __rlhub_eq__(g(), 3)" in text
    assert "__rlhub_truth__(h())" in text and "x < 4" in text
