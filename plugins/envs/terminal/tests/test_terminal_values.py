"""The hidden tests' comparison (`same()`, in hidden/function_cases.py and family._SAME): a value
of the type the prompt states passes, including a subclass of a stated container (a namedtuple
for "(word, count) tuples", csv.DictReader's rows as OrderedDicts for "a list of dicts", a
defaultdict for "a dict"), while scalars keep their exact type ("an exact int": a Fraction or a
bool is wrong)."""

from __future__ import annotations

import enum
import fractions
import math
import typing
from collections import Counter, OrderedDict, defaultdict, namedtuple
from pathlib import Path

import pytest

import hub
from rlhub_terminal import family

FUNCTION_CASES = Path(family.__file__).with_name("hidden") / "function_cases.py"


def _same():
    namespace = {"math": math, "TOL": 1e-6}
    exec(family._SAME, namespace)  # noqa: S102 - our own helper's source
    return namespace["same"]


def test_both_copies_of_the_helper_are_one_text():
    text = FUNCTION_CASES.read_text()
    assert family._SAME.strip() in text


Pair = namedtuple("Pair", "word count")


class Word(typing.NamedTuple):
    word: str
    count: int


class Level(enum.IntEnum):
    ONE = 1


class Name(str):
    pass


@pytest.mark.parametrize("got, want, ok", [
    ([Pair("a", 2), Word("b", 1)], [("a", 2), ("b", 1)], True),  # a namedtuple is a tuple
    ([OrderedDict(a=1, b=None)], [{"a": 1, "b": None}], True),  # csv.DictReader's rows
    ((["ok"], defaultdict(int, x=3)), (["ok"], {"x": 3}), True),
    (Counter(a=2), {"a": 2}, True),
    (OrderedDict(a=1), {"a": 2}, False),  # its items still compared
    ([Pair("a", 2.5)], [("a", 2)], False),
    (fractions.Fraction(-45), -45, False),  # "an exact int"
    (True, 1, False), (Level.ONE, 1, False), (Name("x"), "x", False),
    ((1, 2), [1, 2], False), ([1, 2], (1, 2), False),  # a list is not a tuple, nor the other way
    (3, 3.0000001, True), (True, 1.0, False),
])
def test_same(got, want, ok):
    assert _same()(got, want) is ok


LEDGER = '''
from collections import OrderedDict, defaultdict


class Ledger:
    def __init__(self):
        self.accounts = defaultdict(int)

    def deposit(self, who, amount):
        self.accounts[who] += amount
        return "ok"

    def transfer(self, src, dst, amount):
        if src == dst:
            return "same account"
        if self.accounts.get(src, 0) < amount:
            return "insufficient funds"
        self.accounts[src] -= amount
        self.accounts[dst] += amount
        return "ok"

    def balances(self):
        return OrderedDict(sorted(self.accounts.items()))


def run(ops):
    ledger, out = Ledger(), []
    for op, *args in ops:
        out.append(getattr(ledger, op)(*args))
    return out, ledger.balances()
'''
RIGHT = {  # the red team's right answers that earned 0 while same() compared exact container types
    "word-frequency": '''
import re
from collections import Counter
from typing import NamedTuple


class WordCount(NamedTuple):
    word: str
    count: int


def top_words(text, n):
    counts = Counter(re.findall(r"[a-z']+", text.lower()))
    return [WordCount(w, c) for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
''',
    "csv-typed-records": '''
import csv
import io
from collections import OrderedDict


def convert(v):
    if v == "":
        return None
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v


def records(text):
    return [OrderedDict((k, convert(v)) for k, v in row.items()) for row in csv.DictReader(io.StringIO(text))]
''',
    "complete-ledger": LEDGER,
}


@pytest.fixture(scope="module")
def catalog():
    return hub.load()


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_a_subclass_of_the_stated_container_passes_the_hidden_tests(catalog, name):
    label = {"env": f"terminal/{name}-v1", "seed": 0}
    v = catalog.verify(label, f"```python\n{RIGHT[name].strip()}\n```\n")
    assert (v.reward, v.passed, v.error) == (1.0, True, None), v.details


def test_a_fraction_for_an_exact_int_stays_wrong(catalog):
    frac = ("from fractions import Fraction\n\ndef det(m):\n    a = [[Fraction(x) for x in row] for row in m]\n"
            "    n, result = len(a), Fraction(1)\n    for c in range(n):\n"
            "        p = next((r for r in range(c, n) if a[r][c] != 0), None)\n        if p is None:\n            return 0\n"
            "        if p != c:\n            a[c], a[p] = a[p], a[c]\n            result = -result\n"
            "        result *= a[c][c]\n        for r in range(c + 1, n):\n            f = a[r][c] / a[c][c]\n"
            "            a[r] = [x - f * y for x, y in zip(a[r], a[c])]\n    return result\n")
    v = catalog.verify({"env": "terminal/determinant-v1", "seed": 0}, f"```python\n{frac}```\n")
    assert v.error is None and v.reward == 0.0, v.details
    assert "Fraction(" in str(v.details["failures"]), v.details
