"""Hidden tests of a Python-function family (see ..hidden): one test per case, `test_case<i>`,
each calling the solution's function on the case's arguments and comparing with the expected
value computed by the family's reference at generation time."""

import copy
import math

import solution

ENTRY, CASES, EXPECTED, TOL = DATA["entry"], DATA["cases"], DATA["expected"], DATA["tol"]  # noqa: F821 (prepended)


def same(got, want):
    """Exact structural equality: scalars of exactly the stated type (no always-equal objects, no
    bool or Fraction for an int, no str subclasses); a container may be a subclass of the stated one
    (a namedtuple is a tuple; an OrderedDict, defaultdict or Counter is a dict), its items compared so."""
    if type(want) is float:
        return type(got) in (float, int) and type(got) is not bool and math.isclose(got, want, rel_tol=TOL, abs_tol=TOL)
    if type(want) in (list, tuple, dict):
        if not isinstance(got, type(want)):
            return False
    elif type(got) is not type(want):
        return False
    if type(want) in (list, tuple):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if type(want) is dict:
        return sorted(map(repr, got)) == sorted(map(repr, want)) and all(same(got[k], want[k]) for k in want)
    return got == want


def check(index):
    args = copy.deepcopy(CASES[index])
    got = getattr(solution, ENTRY)(*args)
    assert same(got, EXPECTED[index]), f"{ENTRY}{tuple(CASES[index])!r} returned {got!r}, expected {EXPECTED[index]!r}"


def _test(index):
    def test():
        check(index)

    test.__name__ = test.__qualname__ = f"test_case{index}"
    return test


for _index in range(len(CASES)):  # one named test per case: `reward: fraction` counts cases
    globals()[f"test_case{_index}"] = _test(_index)
