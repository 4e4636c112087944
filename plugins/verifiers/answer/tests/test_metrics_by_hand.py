"""Matchers against cases worked out by hand from the metric definitions."""

import pytest

from rlhub_answer.extract import extract_answer
from rlhub_answer.lists import list_score, split_items
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
    ("1e5", 1e5), ("-6.746 × 10^6", -6.746e6), ("6.746E+06", 6.746e6), ("0 trillion", 0), ("0.0 bn", 0),
    ("-6,746,000 US dollars", -6_746_000), ("24.69% decrease", -24.69), ("≈ 24.69 %", 24.69),
])
def test_numbers_parse(text, value):
    assert parse_number(text).value == pytest.approx(value)


@pytest.mark.parametrize("text", ["1,23", "12 34", "", "$", "1.2.3", "one million and two", "€5 or $5",
                                  "-3% decrease", "5 is the answer here"])
def test_not_numbers(text):
    assert parse_number(text) is None


@pytest.mark.parametrize("text, currency, unit, change, ulp", [
    ("5 apples", None, "apple", 0, 1), ("1104 days", None, "day", 0, 1), ("5 line items", None, "line item", 0, 1),
    ("US$ 1.2 million", "USD", "", 0, 1e5), ("A$5", "AUD", "", 0, 1), ("24.69% increase", None, "", 1, 0.01),
    ("0 trillion", None, "", 0, 1e12), ("6.746e6", None, "", 0, 1e3),
])
def test_numbers_say_what_they_name(text, currency, unit, change, ulp):
    """The parse says what is written (currency, unit, direction, precision); the matchers decide."""
    got = parse_number(text)
    assert (got.currency, got.unit, got.change) == (currency, unit, change)
    assert got.ulp == pytest.approx(ulp)


def test_list_score_by_hand():
    """A right item earns 1/len(gold), a wrong one costs as much; a pass is the exact set."""
    same = lambda a, b: float(a == b)
    score = lambda pred, gold, ordered=False: list_score(pred, gold, same, ordered)[:2]
    assert score(["A", "B", "C"], ["A", "B"]) == (pytest.approx(0.5), False)  # (2 - 1) / 2
    assert score(["A", "B", "C", "D"], ["A", "B"]) == (0.0, False)  # a superset as long as the gold: nothing
    assert score(["A", "A"], ["A", "B"]) == (0.0, False)  # a duplicate is credited once, and costs once
    assert score(["A"], ["A", "B"]) == (0.5, False)
    assert score(["B", "A"], ["A", "B"]) == (1.0, True)
    assert score(["B", "A"], ["A", "B"], ordered=True) == (0.0, False)  # (1 - 1) / 2: one in order, one not
    assert score(["A", "C", "B"], ["A", "B", "C"], ordered=True) == (pytest.approx(1 / 3), False)
    assert score([], ["A"]) == (0.0, False)
    assert split_items("North, South and East") == ["North", "South", "East"]
    assert split_items("- 1,234\n- 5,678") == ["1,234", "5,678"]
    assert split_items("Housing, steel; Fan") == ["Housing, steel", "Fan"]


@pytest.mark.parametrize("response, want", [
    (r"so \boxed{\frac{1}{2}}", r"\frac{1}{2}"),
    (r"first \boxed{3}, then <answer>7</answer>", "7"),          # extract_answer: the last marker
    ("<answer>7</answer>\nFinal answer: **42**", "42"),
    (r"\boxed{}", None),
    ("The answer is 42 and maybe 43.", None),                      # no whole-response fallback
    ("\\boxed{" * 20000, None),
    ("x" * 60_000 + r"\boxed{1}", None),                           # over the response cap
])
def test_extraction(response, want):
    assert extract_answer(response).text == want
