"""Writes the conformance problems: our own, in the shapes of HumanEval, MBPP, APPS and
LiveCodeBench (no public benchmark's problems), each with a canonical and a broken solution and
the `kind` of benchmark habit it exercises.

    python plugins/verifiers/unittest/examples/make_conformance.py plugins/verifiers/unittest/examples

Before writing, it grades every canonical and broken solution the way the benchmarks' own
harnesses do (HumanEval/MBPP: prompt + completion + tests executed in one namespace; APPS and
LiveCodeBench: the program on each input, output compared line by line), and refuses to write
unless every canonical passes and every broken one fails there: `unit_tests` must then agree
(tests/test_unittest_conformance.py).
"""

from __future__ import annotations

import base64
import json
import pickle
import sys
import zlib

HUMANEVAL: list[dict] = []
MBPP: list[dict] = []
APPS: list[dict] = []
LCB: list[dict] = []


def he(kind: str, prompt: str, canonical: str, broken: str, test: str, entry: str) -> None:
    HUMANEVAL.append({"task_id": f"Conformance/{len(HUMANEVAL)}", "kind": kind, "prompt": prompt,
                      "canonical_solution": canonical, "broken_solution": broken, "test": test, "entry_point": entry})


he("helper defined in the prompt, used by the tests; random inputs",
   'import random\nimport string\n\n\ndef encode_shift(s: str) -> str:\n    """Shift every lower-case letter 3 places on."""\n'
   '    return "".join(chr((ord(c) - 97 + 3) % 26 + 97) for c in s)\n\n\n'
   'def decode_shift(s: str) -> str:\n    """Undo encode_shift."""\n',
   '    return "".join(chr((ord(c) - 97 - 3) % 26 + 97) for c in s)\n',
   '    return "".join(chr((ord(c) - 97 - 2) % 26 + 97) for c in s)\n',
   "def check(candidate):\n    rng = random.Random(7)\n    for _ in range(40):\n"
   "        s = ''.join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 12)))\n"
   "        assert candidate(encode_shift(s)) == s\n",
   "decode_shift")
he("the tests call the function by its own name",
   'def interleave(a: list, b: list) -> list:\n    """a[0], b[0], a[1], b[1], ...; the longer list\'s rest at the end."""\n',
   "    out = []\n    for i in range(max(len(a), len(b))):\n        out += a[i:i + 1] + b[i:i + 1]\n    return out\n",
   "    return [x for pair in zip(a, b) for x in pair]\n",
   "def check(candidate):\n    assert interleave([1, 2], [3, 4]) == [1, 3, 2, 4]\n    assert interleave([1, 2, 3], [9]) == [1, 9, 2, 3]\n"
   "    assert candidate([], [5]) == [5]\n",
   "interleave")
he("METADATA block before check",
   'def run_lengths(s: str) -> list:\n    """[(char, count), ...] for each run of equal characters."""\n',
   "    out = []\n    for ch in s:\n        if out and out[-1][0] == ch:\n            out[-1] = (ch, out[-1][1] + 1)\n"
   "        else:\n            out.append((ch, 1))\n    return out\n",
   "    return [(ch, s.count(ch)) for ch in dict.fromkeys(s)]\n",
   "METADATA = {'author': 'rlhub', 'dataset': 'conformance'}\n\n\n"
   "def check(candidate):\n    assert candidate('aab') == [('a', 2), ('b', 1)]\n    assert candidate('') == []\n"
   "    assert candidate('abca') == [('a', 1), ('b', 1), ('c', 1), ('a', 1)]\n",
   "run_lengths")
he("float tolerances with math.isclose and abs (math imported by the prompt)",
   'import math\n\n\ndef hypot3(x: float, y: float, z: float) -> float:\n    """Length of the vector (x, y, z)."""\n',
   "    return math.sqrt(x * x + y * y + z * z)\n",
   "    return abs(x) + abs(y) + abs(z)\n",
   "def check(candidate):\n    assert math.isclose(candidate(1, 2, 2), 3.0, rel_tol=1e-9)\n"
   "    assert abs(candidate(0.1, 0.2, 0.2) - 0.3) < 1e-9\n    assert candidate(0, 0, 0) == 0\n",
   "hypot3")
# The prompt forbids sorted() and list.sort(): the last assert checks the names the candidate's
# code uses (its nested code and the module functions it calls too), as a single-process harness
# could, and as the stand-in lets the tests ask (a getattr or eval of a built name still escapes it).
he("the tests import itertools and loop over every permutation; a stated constraint checked on the code",
   'def sort_three_way(xs: list) -> list:\n    """Sort xs ascending without using sorted() or list.sort()."""\n',
   "    out = []\n    for x in xs:\n        i = 0\n        while i < len(out) and out[i] <= x:\n            i += 1\n        out.insert(i, x)\n    return out\n",
   "    return xs[::-1]\n",
   "import itertools\n\n\ndef names_used(fn, seen):\n    todo, names = [fn.__code__], set()\n    while todo:\n"
   "        code = todo.pop()\n        names |= set(code.co_names)\n"
   "        todo += [c for c in code.co_consts if hasattr(c, 'co_names')]\n"
   "    for name in sorted(names - seen):\n        seen.add(name)\n        helper = fn.__globals__.get(name)\n"
   "        if hasattr(helper, '__code__'):\n            names |= names_used(helper, seen)\n    return names\n\n\n"
   "def check(candidate):\n    for perm in itertools.permutations([3, 1, 2, 2, 5]):\n"
   "        assert candidate(list(perm)) == [1, 2, 2, 3, 5]\n    assert candidate([]) == []\n"
   "    assert not {'sorted', 'sort'} & names_used(candidate, set())\n",
   "sort_three_way")
he("a check that loops over generated inputs against its own reference",
   'def count_carries(a: int, b: int) -> int:\n    """How many carries adding a and b (>= 0) digit by digit in base 10 takes."""\n',
   "    carries = carry = 0\n    while a or b:\n        carry = 1 if a % 10 + b % 10 + carry >= 10 else 0\n"
   "        carries += carry\n        a, b = a // 10, b // 10\n    return carries\n",
   "    return sum(1 for x, y in zip(str(a)[::-1], str(b)[::-1]) if int(x) + int(y) >= 10)\n",
   "def check(candidate):\n    def slow(a, b):\n        n, c = 0, 0\n        for i in range(12):\n"
   "            d = (a // 10 ** i) % 10 + (b // 10 ** i) % 10 + c\n            c = d // 10\n            n += c\n        return n\n"
   "    for a in range(0, 1000, 37):\n        for b in range(0, 1000, 91):\n            assert candidate(a, b) == slow(a, b)\n",
   "count_carries")
he("prompt helper evaluated on the candidate's answer (a root finder)",
   'def evaluate(coeffs: list, x: float) -> float:\n    """coeffs[0] + coeffs[1] * x + coeffs[2] * x**2 + ..."""\n'
   "    return sum(c * x ** i for i, c in enumerate(coeffs))\n\n\n"
   'def find_root(coeffs: list) -> float:\n    """A root in [-10, 10] of the polynomial (one is guaranteed to be there)."""\n',
   "    lo, hi = -10.0, 10.0\n    for _ in range(200):\n        mid = (lo + hi) / 2\n"
   "        if (evaluate(coeffs, lo) <= 0) == (evaluate(coeffs, mid) <= 0):\n            lo = mid\n        else:\n            hi = mid\n"
   "    return lo\n",
   "    return -coeffs[0] / coeffs[1] if len(coeffs) > 1 and coeffs[1] else 0.0\n",
   "def check(candidate):\n    for coeffs in ([5, 2], [0, -1, 0, 1], [1, 1, 0, 1], [-1, 0, 0, 1]):\n"
   "        assert abs(evaluate(coeffs, candidate(coeffs))) < 1e-6\n",
   "find_root")
he("a helper of the completion's own, next to the entry point",
   'def is_prime_power(n: int) -> bool:\n    """True if n = p**k for a prime p and k >= 1."""\n',
   "    return n > 1 and len(_prime_factors(n)) == 1\n\n\ndef _prime_factors(n):\n    out, p = set(), 2\n"
   "    while p * p <= n:\n        while n % p == 0:\n            out.add(p)\n            n //= p\n        p += 1\n"
   "    if n > 1:\n        out.add(n)\n    return out\n",
   "    return n > 1 and all(n % d for d in range(2, n))\n",
   "def check(candidate):\n    assert [n for n in range(30) if candidate(n)] == [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29]\n",
   "is_prime_power")
he("results compared as sets and tuples; an exception expected",
   'def pairs_summing_to(xs: list, target: int) -> set:\n    """The set of pairs (a, b), a <= b, of distinct positions whose values sum to target.\n'
   '    Raise ValueError if target is negative."""\n',
   "    if target < 0:\n        raise ValueError('negative target')\n"
   "    return {tuple(sorted((xs[i], xs[j]))) for i in range(len(xs)) for j in range(i + 1, len(xs)) if xs[i] + xs[j] == target}\n",
   "    return {(a, b) for a in xs for b in xs if a + b == target}\n",
   "def check(candidate):\n    assert candidate([1, 2, 3, 4], 5) == {(1, 4), (2, 3)}\n    assert candidate([], 1) == set()\n"
   "    try:\n        candidate([1], -1)\n        raise AssertionError('no ValueError')\n    except ValueError:\n        pass\n",
   "pairs_summing_to")


def mbpp(kind: str, text: str, code: str, broken: str, tests: list[str], setup: str = "") -> None:
    MBPP.append({"task_id": 9000 + len(MBPP), "kind": kind, "text": text, "code": code, "broken_code": broken,
                 "test_list": tests, "test_setup_code": setup, "challenge_test_list": []})


mbpp("asserts call the function by name; tuple results",
     "Write a function to return the minimum and maximum of a non-empty list as a tuple.",
     "def min_max(xs):\n    return (min(xs), max(xs))", "def min_max(xs):\n    return [min(xs), max(xs)]",
     ["assert min_max([3, 1, 2]) == (1, 3)", "assert min_max([5]) == (5, 5)", "assert min_max([-1, -7]) == (-7, -1)"])
mbpp("test_setup_code defines what the asserts use",
     "Write a function to return the words of a sentence longer than n characters.",
     "def long_words(n, s):\n    return [w for w in s.split() if len(w) > n]",
     "def long_words(n, s):\n    return [w for w in s.split() if len(w) >= n]",
     ["assert norm(long_words(3, 'the quick brown fox')) == ['brown', 'quick']",
      "assert long_words(10, 'short words only') == []"],
     "def norm(xs):\n    return sorted(xs)")
mbpp("a Counter compared with a dict literal; math.isclose",
     "Write a function to count each character of a string, and one for the mean of a list.",
     "from collections import Counter\ndef char_counts(s):\n    return Counter(s)\ndef mean(xs):\n    return sum(xs) / len(xs)",
     "def char_counts(s):\n    return {c: 1 for c in s}\ndef mean(xs):\n    return sum(xs) // len(xs)",
     ["assert char_counts('abca') == {'a': 2, 'b': 1, 'c': 1}", "assert math.isclose(mean([1, 2, 2]), 5 / 3)"],
     "import math")
mbpp("set results and an import in the solution",
     "Write a function to return the set of common elements of two lists.",
     "import itertools\ndef common(a, b):\n    return set(a) & set(b)",
     "def common(a, b):\n    return set(a) | set(b)",
     ["assert common([1, 2, 3], [2, 3, 4]) == {2, 3}", "assert common([], [1]) == set()"])


def apps(kind: str, question: str, io: dict, solution: str, broken: str, starter: str = "") -> None:
    APPS.append({"problem_id": 5000 + len(APPS), "kind": kind, "question": question, "input_output": json.dumps(io),
                 "solutions": json.dumps([solution]), "broken_solution": broken, "starter_code": starter,
                 "difficulty": "introductory", "url": ""})


apps("standard input, several cases",
     "Read n, then n integers on one line. Print their sum, then their maximum.",
     {"inputs": ["3\n1 2 3\n", "1\n-5\n", "4\n10 -2 7 7\n"], "outputs": ["6\n3\n", "-5\n-5\n", "22\n10\n"]},
     "n = int(input())\nxs = list(map(int, input().split()))[:n]\nprint(sum(xs))\nprint(max(xs))\n",
     "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs))\nprint(min(xs))\n")
apps("decimals compared as numbers (1.50 equals 1.5); reads all of stdin at once",
     "The first line holds n; the next n lines hold one price each. Print the mean price with two decimals.",
     {"inputs": ["2\n1\n2\n", "3\n1\n1\n1\n"], "outputs": ["1.5\n", "1\n"]},
     "import sys\ndata = sys.stdin.read().split()\nn = int(data[0])\nprint('%.2f' % (sum(map(float, data[1:n + 1])) / n))\n",
     "import sys\ndata = sys.stdin.read().split()\nprint('%.2f' % (sum(map(float, data[1:])) / 2))\n")
apps("call-based: a function given by fn_name",
     "Complete the function: return the list of its argument's digits, most significant first.",
     {"fn_name": "digits", "inputs": [[123], [0], [7001]], "outputs": [[[1, 2, 3]], [[0]], [[7, 0, 0, 1]]]},
     "def digits(n):\n    return [int(c) for c in str(n)]\n", "def digits(n):\n    return [int(c) for c in str(n)][::-1]\n",
     starter="def digits(n):")


def _compressed(cases: list[dict]) -> str:
    """LiveCodeBench's form of its private cases: base64 of zlib of a pickled JSON string."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(cases)))).decode()


def lcb(kind: str, question: str, public: list[dict], private: list[dict], solution: str, broken: str,
        starter: str = "", func: str | None = None, compress: bool = False) -> None:
    LCB.append({"question_id": str(3000 + len(LCB)), "kind": kind, "question_title": kind, "question_content": question,
                "platform": "rlhub", "contest_date": "2026-01-01", "difficulty": "easy", "starter_code": starter,
                "public_test_cases": json.dumps(public),
                "private_test_cases": _compressed(private) if compress else json.dumps(private),
                "metadata": json.dumps({"func_name": func} if func else {}), "solution": solution, "broken_solution": broken})


def _stdin(i: str, o: str) -> dict:
    return {"input": i, "output": o, "testtype": "stdin"}


def _call(args: list, out) -> dict:
    return {"input": "\n".join(json.dumps(a) for a in args), "output": json.dumps(out), "testtype": "functional"}


lcb("stdin program; compressed private cases",
    "Given a line of space-separated integers, print how many of them are even.",
    [_stdin("1 2 3 4\n", "2\n")], [_stdin("7\n", "0\n"), _stdin("2 4 6 8 10\n", "5\n"), _stdin("-2 0 3\n", "2\n")],
    "print(sum(1 for x in input().split() if int(x) % 2 == 0))\n",
    "print(sum(1 for x in input().split() if int(x) % 2))\n", compress=True)
lcb("functional: a method of class Solution, arguments as JSON lines",
    "Return the largest sum of two different elements of nums.",
    [_call([[1, 5, 3]], 8)], [_call([[-1, -2]], -3), _call([[4, 4, 1]], 8), _call([[0, 9, 9, 2]], 18)],
    "from typing import List\n\nclass Solution:\n    def maxPairSum(self, nums: List[int]) -> int:\n"
    "        a, b = sorted(nums)[-2:]\n        return a + b\n",
    "from typing import List\n\nclass Solution:\n    def maxPairSum(self, nums: List[int]) -> int:\n        return 2 * max(nums)\n",
    starter="class Solution:\n    def maxPairSum(self, nums: List[int]) -> int:\n        ", func="maxPairSum")

lcb("stdin program whose output has several lines",
    "Read an integer n and print the first n square numbers, one per line.",
    [_stdin("3\n", "1\n4\n9\n")], [_stdin("1\n", "1\n"), _stdin("5\n", "1\n4\n9\n16\n25\n")],
    "n = int(input())\nfor i in range(1, n + 1):\n    print(i * i)\n",
    "n = int(input())\nfor i in range(n):\n    print(i * i)\n")


# -- the benchmarks' own way of grading, to check the data before writing it ---------------------
def _humaneval_passes(row: dict, completion: str) -> bool:
    program = row["prompt"] + completion + "\n" + row["test"] + f"\ncheck({row['entry_point']})\n"
    return _runs(program)


def _mbpp_passes(row: dict, code: str) -> bool:
    return _runs(code + "\n" + row["test_setup_code"] + "\n" + "\n".join(row["test_list"]) + "\n")


def _runs(program: str) -> bool:
    try:
        exec(compile(program, "<conformance>", "exec"), {"__name__": "__main__"})
    except Exception:
        return False
    return True


def _io_passes(solution: str, cases: list[tuple[str, str]]) -> bool:
    import contextlib
    import io

    for given, want in cases:
        out = io.StringIO()
        sys.stdin = io.StringIO(given)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(solution, "<io>", "exec"), {"__name__": "__main__"})
        except Exception:
            return False
        finally:
            sys.stdin = sys.__stdin__
        got = [line.strip() for line in out.getvalue().strip().split("\n")]
        exp = [line.strip() for line in want.strip().split("\n")]
        if len(got) != len(exp) or any(a != b and _numbers(a) != _numbers(b) for a, b in zip(got, exp)):
            return False
    return True


def _numbers(line: str):
    from decimal import Decimal, InvalidOperation

    try:
        return [Decimal(x) for x in line.split()]
    except InvalidOperation:
        return line


def _call_passes(solution: str, fn: str, cases: list[tuple[list, object]]) -> bool:
    ns: dict = {"__name__": "solution"}
    try:
        exec(compile(solution, "<call>", "exec"), ns)
        target = getattr(ns["Solution"](), fn) if "Solution" in ns else ns[fn]
        return all(_lists(target(*args)) in (want, [want]) or [_lists(target(*args))] == want for args, want in cases)
    except Exception:
        return False


def _lists(v):
    return [_lists(x) for x in v] if isinstance(v, (list, tuple)) else v


def verify_all() -> list[str]:
    problems = []
    for row in HUMANEVAL:
        if not _humaneval_passes(row, row["canonical_solution"]) or _humaneval_passes(row, row["broken_solution"]):
            problems.append(f"humaneval {row['kind']}")
    for row in MBPP:
        if not _mbpp_passes(row, row["code"]) or _mbpp_passes(row, row["broken_code"]):
            problems.append(f"mbpp {row['kind']}")
    for row in APPS:
        io = json.loads(row["input_output"])
        if io.get("fn_name"):
            cases = list(zip(io["inputs"], io["outputs"]))
            good = _call_passes(json.loads(row["solutions"])[0], io["fn_name"], cases)
            bad = _call_passes(row["broken_solution"], io["fn_name"], cases)
        else:
            cases = list(zip(io["inputs"], io["outputs"]))
            good, bad = _io_passes(json.loads(row["solutions"])[0], cases), _io_passes(row["broken_solution"], cases)
        if not good or bad:
            problems.append(f"apps {row['kind']}")
    for row in LCB:
        private = row["private_test_cases"]
        try:
            private = json.loads(private)
        except ValueError:
            private = json.loads(pickle.loads(zlib.decompress(base64.b64decode(private))))
        cases = json.loads(row["public_test_cases"]) + private
        func = json.loads(row["metadata"]).get("func_name")
        if func:
            pairs = [([json.loads(a) for a in c["input"].split("\n")], json.loads(c["output"])) for c in cases]
            good, bad = _call_passes(row["solution"], func, pairs), _call_passes(row["broken_solution"], func, pairs)
        else:
            pairs = [(c["input"], c["output"]) for c in cases]
            good, bad = _io_passes(row["solution"], pairs), _io_passes(row["broken_solution"], pairs)
        if not good or bad:
            problems.append(f"livecodebench {row['kind']}")
    return problems


if __name__ == "__main__":
    bad = verify_all()
    if bad:
        sys.exit(f"the benchmarks' own grading disagrees with the data: {bad}")
    out = sys.argv[1]
    for name, rows in (("conformance_humaneval", HUMANEVAL), ("conformance_mbpp", MBPP), ("apps_mini", APPS),
                       ("livecodebench_mini", LCB)):
        with open(f"{out}/{name}.jsonl", "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
    print(len(HUMANEVAL), len(MBPP), len(APPS), len(LCB), "problems written; canonical pass, broken fail")
