"""Bug-fixing families: the prompt shows buggy code and a symptom; the wrong answer is the bug."""

from __future__ import annotations

from hub import Variant

from ..family import NAMES, WORDS, family, function_spec


def bugfix(rng, entry, what, buggy, fixed, cases, symptom, extra_wrong=(), effects=False):
    prompt = (f"This function is supposed to {what}, but it has a bug: {symptom}\n\n```python\n{buggy.strip()}\n```\n\n"
              f"Fix it (keep the name and signature `{entry}`).")
    return function_spec(prompt, entry, fixed, [buggy, *extra_wrong], cases, show=0, effects=effects)


@family("bugfix", "bugfix-binary-search")
def bugfix_binary_search(rng):
    """Binary search that misses the last element."""
    cases = []
    for _ in range(4):
        xs = sorted(rng.sample(range(-50, 50), rng.randint(1, 9)))
        cases.append((xs, rng.choice(xs + [999])))
    cases += [([1, 3, 5], 5), ([2], 2), ([], 1), ([1, 3], 0), ([2, 4, 6], 5), ([1, 2, 3, 4, 5], 2)]
    buggy = '''
def find(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
'''
    fixed = '''
def find(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
'''
    spec = bugfix(rng, "find", "return the index of `target` in the sorted list `xs` of distinct numbers, or -1", buggy,
                  fixed, cases, "find([1, 3, 5], 5) returns -1.")
    spec.equivalent.update({
        "Lt_LtE: `if xs[mid] < target:`": "xs[mid] == target has returned the line before",
        "-> `mid = (lo + hi) // 1`":
            "mid = lo + hi is hi while lo is 0, and lo only moves past hi: a linear scan down, the same answers"})
    return spec


@family("bugfix", "bugfix-median")
def bugfix_median(rng):
    """Median of unsorted input, even lengths."""
    cases = [([rng.randint(-20, 20) for _ in range(rng.randint(1, 8))],) for _ in range(4)] + [([3, 1, 2],), ([4, 1, 3, 2],)]
    buggy = '''
def median(xs):
    n = len(xs)
    return xs[n // 2]
'''
    fixed = '''
def median(xs):
    s, n = sorted(xs), len(xs)
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
'''
    return bugfix(rng, "median", "return the median of a non-empty list as a float (mean of the middle two for even lengths)",
                  buggy, fixed, cases, "median([3, 1, 2]) gives 1.")


@family("bugfix", "bugfix-mutable-default")
def bugfix_mutable_default(rng):
    """Accumulating mutable default argument."""
    tag = rng.choice(["#", "@", "!"])
    cases = [([rng.choice(WORDS) for _ in range(rng.randint(1, 4))],) for _ in range(4)]
    cases += [([rng.choice(WORDS)], [rng.choice(NAMES)]), ([], [tag + rng.choice(WORDS)])]  # the caller's `out`
    buggy = f'''
def tagged(words, out=[]):
    for w in words:
        out.append({tag!r} + w)
    return out
'''
    fixed = f'''
def tagged(words, out=None):
    out = [] if out is None else out
    for w in words:
        out.append({tag!r} + w)
    return out
'''
    ignores_out = f'''
def tagged(words, out=None):
    out = []
    for w in words:
        out.append({tag!r} + w)
    return out
'''
    copies_out = f'''
def tagged(words, out=None):
    return list(out or []) + [{tag!r} + w for w in words]
'''
    spec = bugfix(rng, "tagged", f"return a new list with {tag!r} prefixed to each word (appending to `out` when given)",
                  buggy, fixed, cases, "the second call returns words from the first call too.", effects=True)
    # ignoring `out`, or returning a copy of it with the words added: either way nothing is appended to it
    spec.clauses["(appending to `out` when given)"] = ignores_out
    spec.wrong.append(Variant("out copied, not appended to", copies_out, 1, "returns out's items and the new ones, "
                              "but the caller's `out` is left as it was"))
    return spec


@family("bugfix", "bugfix-pagination")
def bugfix_pagination(rng):
    """Off-by-one page slicing and page count."""
    size = rng.randint(2, 5)
    items = [f"{rng.choice(NAMES)}{i}" for i in range(rng.randint(size + 1, 4 * size))]
    cases = [(items, p, size) for p in (1, 2, 3, 0, 99)]
    buggy = '''
def page(items, number, size):
    pages = len(items) // size
    if number < 1 or number > pages:
        return {"items": [], "pages": pages}
    return {"items": items[number * size:(number + 1) * size], "pages": pages}
'''
    fixed = '''
def page(items, number, size):
    pages = (len(items) + size - 1) // size
    if number < 1 or number > pages:
        return {"items": [], "pages": pages}
    return {"items": items[(number - 1) * size:number * size], "pages": pages}
'''
    cases += [(items[: size + 1], 2, size), (items[: 2 * size], 2, size), (items, -1, size)]  # full last page; page -1
    spec = bugfix(rng, "page", "return page `number` (1-based) of `items` with `size` items per page, as {'items': [...], "
                  "'pages': total page count}; pages out of range give an empty item list", buggy, fixed, cases,
                  "page 1 shows the second page's items, and the last partial page is missing.")
    spec.equivalent["-> `if number < 1 or type(number)() > pages:`"] = (
        "past the last page the slice is empty anyway: the `number > pages` test only saves work")
    spec.equivalent["-> `if number < 0 or number > pages:`"] = (
        "page 0 slices items[-size:0], which is empty: the same empty page")
    return spec


@family("bugfix", "bugfix-leap-year")
def bugfix_leap_year(rng):
    """Gregorian leap-year rule."""
    years = [rng.randint(1583, 2400) for _ in range(5)] + [1900, 2000, 2024, 2023, 2100]
    buggy = '''
def days_in_year(year):
    return 366 if year % 4 == 0 else 365
'''
    fixed = '''
def days_in_year(year):
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 366 if leap else 365
'''
    return bugfix(rng, "days_in_year", "return the number of days in a Gregorian calendar year", buggy, fixed,
                  [(y,) for y in years], "days_in_year(1900) returns 366.")


@family("bugfix", "bugfix-dict-mutation")
def bugfix_dict_mutation(rng):
    """Deleting from a dict while iterating it."""
    cases = [({w: rng.randint(0, 20) for w in rng.sample(WORDS, rng.randint(2, 6))}, rng.randint(3, 15)) for _ in range(4)]
    cases += [({"a": 1, "b": 9}, 5), ({"a": 5, "b": 4, "c": 6}, 5)]  # a count equal to the threshold stays
    buggy = '''
def drop_small(counts, threshold):
    for key in counts:
        if counts[key] < threshold:
            del counts[key]
    return counts
'''
    fixed = '''
def drop_small(counts, threshold):
    for key in list(counts):
        if counts[key] < threshold:
            del counts[key]
    return counts
'''
    copied = '''
def drop_small(counts, threshold):
    return {k: v for k, v in counts.items() if v >= threshold}
'''
    spec = bugfix(rng, "drop_small", "remove (in place) every key whose count is below `threshold` and return the dict",
                  buggy, fixed, cases, "it raises RuntimeError: dictionary changed size during iteration.", effects=True)
    spec.clauses["remove (in place)"] = copied
    return spec


@family("bugfix", "bugfix-money-rounding")
def bugfix_money_rounding(rng):
    """Float money totals; must use exact decimal arithmetic."""
    cases = []
    for _ in range(4):
        cases.append(([f"{rng.randint(0, 99)}.{rng.randint(0, 99):02d}" for _ in range(rng.randint(2, 8))], rng.choice([0, 5, 10, 20])))
    cases += [(["0.10", "0.20"], 0), (["2.675"], 0), (["1.005", "0.00"], 0), (["10.00"], 15)]
    buggy = '''
def total(prices, discount_pct):
    s = sum(float(p) for p in prices)
    return str(round(s * (1 - discount_pct / 100), 2))
'''
    fixed = '''
from decimal import ROUND_HALF_UP, Decimal

def total(prices, discount_pct):
    s = sum((Decimal(p) for p in prices), Decimal("0"))
    s = s * (Decimal(100) - Decimal(discount_pct)) / Decimal(100)
    return str(s.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
'''
    return bugfix(rng, "total", "sum price strings, apply a percentage discount, and return the amount as a string with exactly "
                  "2 decimals, rounding halves up", buggy, fixed, cases, "total(['0.10', '0.20'], 0) returns '0.3' and "
                  "total(['2.675'], 0) returns '2.67'.")


@family("bugfix", "bugfix-word-split")
def bugfix_word_split(rng):
    """Counting words split on a single space."""
    cases = [("  ".join(rng.choices(WORDS, k=rng.randint(1, 5))) + rng.choice(["", " ", "\n", "\tend"]),) for _ in range(4)]
    cases += [("",), ("one\ttwo\nthree",)]
    buggy = '''
def word_lengths(text):
    return [len(w) for w in text.split(" ")]
'''
    fixed = '''
def word_lengths(text):
    return [len(w) for w in text.split()]
'''
    return bugfix(rng, "word_lengths", "return the lengths of the whitespace-separated words of `text`", buggy, fixed, cases,
                  "word_lengths('a  b') returns [1, 0, 1].")
