"""Numeric families: statistics, number theory, bases, finance, histograms."""

from __future__ import annotations

from ..family import family, function_spec


def _ints(rng, n, lo=-50, hi=50):
    return [rng.randint(lo, hi) for _ in range(n)]


@family("numeric", "running-median")
def running_median(rng):
    """Median after each new element."""
    cases = [(_ints(rng, rng.randint(1, 12)),) for _ in range(4)] + [([5, 1, 3, 2],), ([],)]
    ref = '''
import bisect

def running_medians(xs):
    seen, out = [], []
    for x in xs:
        bisect.insort(seen, x)
        n = len(seen)
        out.append(float(seen[n // 2]) if n % 2 else (seen[n // 2 - 1] + seen[n // 2]) / 2)
    return out
'''
    wrong = ['''
def running_medians(xs):
    out = []
    for i in range(len(xs)):
        seen = sorted(xs[:i + 1])
        out.append(float(seen[len(seen) // 2]))
    return out
''']
    return function_spec("Write `running_medians(xs)` returning, for each prefix of the list, its median as a float (mean "
                         "of the two middle values for even lengths).", "running_medians", ref, wrong, cases)


@family("numeric", "moving-average")
def moving_average(rng):
    """Simple moving average over full windows, rounded."""
    cases = [(_ints(rng, rng.randint(3, 10)), rng.randint(2, 4)) for _ in range(4)] + [([1, 2], 3), ([1, 2, 4], 2)]
    ref = '''
def moving_average(xs, k):
    return [round(sum(xs[i:i + k]) / k, 3) for i in range(len(xs) - k + 1)]
'''
    wrong = ['''
def moving_average(xs, k):
    return [round(sum(xs[max(0, i - k + 1):i + 1]) / min(k, i + 1), 3) for i in range(len(xs))]
''']
    return function_spec("Write `moving_average(xs, k)`: the mean of every full window of k consecutive values, rounded to 3 "
                         "decimals, in order ([] if fewer than k values).", "moving_average", ref, wrong, cases)


@family("numeric", "prime-factors")
def prime_factors(rng):
    """Prime factorisation with multiplicity."""
    cases = [(rng.randint(2, 10**6),) for _ in range(4)] + [(2 * 999983,), (1,), (97 * 97,), (2**10,), (2,)]
    ref = '''
def factorize(n):
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out
'''
    wrong = ['''
def factorize(n):
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out
''']
    spec = function_spec("Write `factorize(n)` returning the prime factors of n >= 1 in ascending order with multiplicity "
                         "([] for 1).", "factorize", ref, wrong, cases)
    spec.equivalent["-> `while p + p <= n:`"] = "trial division past the square root finds the same factors, only later"
    return spec


@family("numeric", "base-convert")
def base_convert(rng):
    """Integer to string in base 2..36, negatives and zero."""
    cases = [(rng.randint(-10**6, 10**6), rng.randint(2, 36)) for _ in range(4)] + [(0, 7), (-255, 16), (35, 36), (-1, 2)]
    ref = '''
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"

def to_base(n, b):
    if n == 0:
        return "0"
    sign, n, out = "-" if n < 0 else "", abs(n), ""
    while n:
        n, r = divmod(n, b)
        out = DIGITS[r] + out
    return sign + out
'''
    wrong = ['''
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"

def to_base(n, b):
    out = ""
    while n > 0:
        n, r = divmod(n, b)
        out = DIGITS[r] + out
    return out
''']
    spec = function_spec("Write `to_base(n, b)` returning the integer n written in base b (2..36) with digits 0-9a-z, a leading "
                         "'-' for negatives, '0' for zero.", "to_base", ref, wrong, cases)
    spec.equivalent['-> `sign, n, out = "-" if n <= 0 else'] = 'n == 0 has returned "0" just before'
    spec.equivalent['-> `sign, n, out = "-" if n < 1 else'] = 'n == 0 has returned "0" just before'
    return spec


@family("numeric", "fit-line")
def fit_line(rng):
    """Least-squares line through points."""
    cases = []
    for _ in range(4):
        m, c = rng.randint(-5, 5), rng.randint(-10, 10)
        cases.append(([[x, m * x + c + rng.choice([-1, 0, 1])] for x in rng.sample(range(-10, 10), rng.randint(3, 7))],))
    cases.append(([[0, 1], [1, 3], [2, 5]],))
    ref = '''
def fit_line(points):
    n = len(points)
    sx = sum(p[0] for p in points); sy = sum(p[1] for p in points)
    sxx = sum(p[0] ** 2 for p in points); sxy = sum(p[0] * p[1] for p in points)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return [round(slope, 4), round((sy - slope * sx) / n, 4)]
'''
    wrong = ['''
def fit_line(points):
    (x0, y0), (x1, y1) = min(points), max(points)
    slope = (y1 - y0) / (x1 - x0)
    return [round(slope, 4), round(y0 - slope * x0, 4)]
''']
    return function_spec("Write `fit_line(points)`: the least-squares line y = slope*x + intercept through [x, y] points (at "
                         "least two distinct x), returned as [slope, intercept] each rounded to 4 decimals.",
                         "fit_line", ref, wrong, cases, tol=1e-4)


@family("numeric", "loan-payment")
def loan_payment(rng):
    """Monthly annuity payment."""
    cases = [(rng.randint(1, 500) * 1000, round(rng.uniform(0.5, 12), 2), rng.randint(1, 30)) for _ in range(4)]
    cases += [(1200, 0, 1), (100000, 6, 30), (1000, 0, 3)]  # 0%: 1000/36 is no whole number of cents
    ref = '''
def monthly_payment(principal, annual_rate_pct, years):
    n, r = years * 12, annual_rate_pct / 100 / 12
    if r == 0:
        return round(principal / n, 2)
    return round(principal * r / (1 - (1 + r) ** -n), 2)
'''
    wrong = ['''
def monthly_payment(principal, annual_rate_pct, years):
    return round(principal * (1 + annual_rate_pct / 100 * years) / (years * 12), 2)
''']
    return function_spec("Write `monthly_payment(principal, annual_rate_pct, years)`: the fixed monthly payment of an amortising "
                         "loan with monthly compounding (rate/12 per month, years*12 payments), rounded to cents; a 0% rate "
                         "divides the principal evenly.", "monthly_payment", ref, wrong, cases)


@family("numeric", "histogram-bins")
def histogram_bins(rng):
    """Equal-width histogram counts with the upper edge in the last bin."""
    cases = []
    for _ in range(4):
        lo, hi = 0, rng.choice([10, 20, 100])
        xs = [rng.randint(-5, hi + 5) for _ in range(rng.randint(5, 15))] + [hi]
        cases.append((xs, lo, hi, rng.randint(2, 5)))
    cases.append(([0, 5, 10, 10, 11, -1], 0, 10, 2))
    cases += [([5, 7, 10, 12, 15, 4, 16, 14], 5, 15, 2), ([-10, -6, -5, 0, 2, -11], -10, 2, 3)]  # lo is not 0
    ref = '''
def histogram(xs, lo, hi, bins):
    counts = [0] * bins
    width = (hi - lo) / bins
    for x in xs:
        if lo <= x <= hi:
            counts[min(int((x - lo) / width), bins - 1)] += 1
    return counts
'''
    wrong = ['''
def histogram(xs, lo, hi, bins):
    counts = [0] * bins
    width = (hi - lo) / bins
    for x in xs:
        if lo <= x < hi:
            counts[int((x - lo) / width)] += 1
    return counts
''']
    return function_spec("Write `histogram(xs, lo, hi, bins)`: counts of values in `bins` equal-width bins over [lo, hi]; each "
                         "bin includes its lower edge, the last bin also includes hi; values outside [lo, hi] are ignored.",
                         "histogram", ref, wrong, cases)


@family("numeric", "split-bill")
def split_bill(rng):
    """Split cents by weights with the largest-remainder method."""
    cases = [(rng.randint(1, 10000), [rng.randint(1, 5) for _ in range(rng.randint(2, 5))]) for _ in range(4)]
    cases += [(100, [1, 1, 1]), (10, [1, 2])]
    ref = '''
def split(total_cents, weights):
    w = sum(weights)
    shares = [total_cents * x // w for x in weights]
    rest = total_cents - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: (-(total_cents * weights[i] % w), i))
    for i in order[:rest]:
        shares[i] += 1
    return shares
'''
    wrong = ['''
def split(total_cents, weights):
    w = sum(weights)
    return [round(total_cents * x / w) for x in weights]
''']
    return function_spec("Write `split(total_cents, weights)` dividing an integer number of cents in proportion to the weights: "
                         "everyone gets the floor of their exact share, then leftover cents go one each to the largest "
                         "fractional remainders (ties: lower index first). The shares must sum to the total.",
                         "split", ref, wrong, cases)


@family("numeric", "determinant")
def determinant(rng):
    """Exact integer determinant of an n x n matrix."""
    cases = []
    for _ in range(4):
        n = rng.randint(1, 4)
        cases.append(([[rng.randint(-5, 5) for _ in range(n)] for _ in range(n)],))
    cases += [([[0, 1, 2], [1, 0, 3], [4, -3, 8]],), ([[2, 4], [1, 2]],)]
    ref = '''
from fractions import Fraction

def det(m):
    a = [[Fraction(x) for x in row] for row in m]
    n, result = len(a), Fraction(1)
    for c in range(n):
        p = next((r for r in range(c, n) if a[r][c] != 0), None)
        if p is None:
            return 0
        if p != c:
            a[c], a[p] = a[p], a[c]
            result = -result
        result *= a[c][c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return int(result)
'''
    wrong = ['''
def det(m):
    n, result = len(m), 1
    a = [list(map(float, row)) for row in m]
    for c in range(n):
        if a[c][c] == 0:
            return 0
        result *= a[c][c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return int(result)
''']
    return function_spec("Write `det(m)` returning the determinant of a square integer matrix (list of rows) as an exact int.",
                         "det", ref, wrong, cases)
