"""Matchers against cases worked out by hand from the metric definitions."""

import pytest

from rlhub_answer.extract import extract_answer
from rlhub_answer.lists import aligned_f1, split_items
from rlhub_answer.numbers import parse_number
from rlhub_answer.text import anls_one, best_over, exact_match, squad_normalize, token_f1


# ANLS (Biten et al. 2019): s = 1 - NL if NL < 0.5 else 0, NL = lev / max(len).
@pytest.mark.parametrize("pred, gold, want", [
    ("hello", "hello", 1.0),              # exact match is 1 (one popular implementation says 0)
    ("Hello  World", "hello world", 1.0),  # lower case, whitespace collapsed
    ("helo", "hello", 0.8),                # 1 edit / 5 chars
    ("abcd", "abxy", 0.0),                 # NL = 0.5 exactly: not below the threshold
    ("abcde", "abxde", 0.8),
    ("abc", "xyz", 0.0),
    ("", "", 1.0),
    ("", "a", 0.0),
])
def test_anls_by_hand(pred, gold, want):
    assert anls_one(pred, gold) == pytest.approx(want)


def test_anls_is_best_over_golds():
    assert best_over(["cat", "dog"], "dog", anls_one) == 1.0
    assert best_over(["kitten", "dogs"], "dog", anls_one) == pytest.approx(0.75)


def test_squad_normalisation_and_em():
    assert squad_normalize("The  Cat, sat!") == "cat sat"
    assert exact_match("The Cat!", "cat") == 1.0
    assert exact_match("a cat", "cats") == 0.0


def test_squad_token_f1_by_hand():
    # pred tokens [cat, sat]; gold [cat, sat, on, mat]: P = 1, R = 1/2, F1 = 2/3
    assert token_f1("the cat sat", "a cat sat on the mat") == pytest.approx(2 / 3)
    assert token_f1("on on on", "on the mat") == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    assert token_f1("dog", "cat") == 0.0


@pytest.mark.parametrize("text, value", [
    ("$1,234", 1234), ("(1,234)", -1234), ("-$5", -5), ("$-5", -5), ("1.23m", 1_230_000),
    ("USD 3.4bn", 3.4e9), ("−4.5 %", -4.5), ("1,234.5 thousand", 1_234_500), ("€ 2 million", 2e6),
    ("twelve", 12), ("approximately 7", 7), ("$(1,234)", -1234), ("12.5 percent", 12.5),
])
def test_numbers_parse(text, value):
    assert parse_number(text).value == pytest.approx(value)


@pytest.mark.parametrize("text", ["1,23", "1e5", "5 apples", "12 34", "", "$", "1.2.3", "one million and two"])
def test_not_numbers(text):
    assert parse_number(text) is None


def test_list_aligned_f1_by_hand():
    same = lambda a, b: float(a == b)
    assert aligned_f1(["A", "B", "C"], ["A", "B"], same) == pytest.approx(0.8)  # P 2/3, R 1
    assert aligned_f1(["A", "A"], ["A", "B"], same) == pytest.approx(0.5)  # a duplicate is credited once
    assert aligned_f1(["B", "A"], ["A", "B"], same) == 1.0
    assert split_items("North, South and East") == ["North", "South", "East"]
    assert split_items("- 1,234\n- 5,678") == ["1,234", "5,678"]
    assert split_items("Housing, steel; Fan") == ["Housing, steel", "Fan"]


@pytest.mark.parametrize("response, want", [
    (r"so \boxed{\frac{1}{2}}", r"\frac{1}{2}"),
    (r"first \boxed{3}, then <answer>7</answer>", "7"),          # the last marker wins
    ("<answer>7</answer>\nFinal answer: **42**", "42"),
    (r"\boxed{}", None),
    ("The answer is 42 and maybe 43.", None),                      # no whole-response fallback
    ("\\boxed{" * 20000, None),
    ("x" * 60_000 + r"\boxed{1}", None),                           # over the response cap
])
def test_extraction(response, want):
    assert extract_answer(response).text == want
