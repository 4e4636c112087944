import json

H = []
def he(i, sig, doc, body, tests, entry):
    prompt = f"{sig}\n    \"\"\"{doc}\n    \"\"\"\n"
    H.append({"task_id": f"MiniEval/{i}", "prompt": prompt, "canonical_solution": body, "test": tests, "entry_point": entry})

he(0, "def count_vowels(text: str) -> int:", "Return how many vowels (a, e, i, o, u, either case) appear in text.\n    >>> count_vowels('Banana')\n    3",
   "    return sum(1 for ch in text.lower() if ch in 'aeiou')\n",
   "def check(candidate):\n    assert candidate('Banana') == 3\n    assert candidate('') == 0\n    assert candidate('rhythm') == 0\n    assert candidate('AEIOUaeiou') == 10\n    assert candidate('Quiet evening') == 6\n", "count_vowels")
he(1, "from typing import List\n\n\ndef running_max(values: List[int]) -> List[int]:", "Return the list of maxima of every prefix of values.\n    >>> running_max([3, 1, 4, 1, 5])\n    [3, 3, 4, 4, 5]",
   "    out = []\n    for v in values:\n        out.append(v if not out else max(out[-1], v))\n    return out\n",
   "def check(candidate):\n    assert candidate([3, 1, 4, 1, 5]) == [3, 3, 4, 4, 5]\n    assert candidate([]) == []\n    assert candidate([-2, -5, -1]) == [-2, -2, -1]\n    assert candidate([7]) == [7]\n", "running_max")
he(2, "def is_balanced(s: str) -> bool:", "Return True if every bracket in s, of the kinds (), [] and {}, is closed in the right order.\n    Other characters are ignored.\n    >>> is_balanced('a(b[c]{d})')\n    True",
   "    pairs = {')': '(', ']': '[', '}': '{'}\n    stack = []\n    for ch in s:\n        if ch in '([{':\n            stack.append(ch)\n        elif ch in pairs:\n            if not stack or stack.pop() != pairs[ch]:\n                return False\n    return not stack\n",
   "def check(candidate):\n    assert candidate('a(b[c]{d})') is True\n    assert candidate('(]') is False\n    assert candidate('') is True\n    assert candidate('((') is False\n    assert candidate('})') is False\n    assert candidate('{[()()]}x') is True\n", "is_balanced")
he(3, "def digit_root(n: int) -> int:", "Repeatedly sum the decimal digits of the non-negative integer n until one digit is left.\n    >>> digit_root(38)\n    2",
   "    while n >= 10:\n        n = sum(int(d) for d in str(n))\n    return n\n",
   "def check(candidate):\n    assert candidate(38) == 2\n    assert candidate(0) == 0\n    assert candidate(9) == 9\n    assert candidate(123456789) == 9\n    assert candidate(10) == 1\n", "digit_root")
he(4, "from typing import List\n\n\ndef chunk(items: List[int], size: int) -> List[List[int]]:", "Split items into consecutive chunks of the given size; the last chunk may be shorter.\n    >>> chunk([1, 2, 3, 4, 5], 2)\n    [[1, 2], [3, 4], [5]]",
   "    return [items[i:i + size] for i in range(0, len(items), size)]\n",
   "def check(candidate):\n    assert candidate([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]\n    assert candidate([], 3) == []\n    assert candidate([1, 2, 3], 3) == [[1, 2, 3]]\n    assert candidate([4, 5, 6], 1) == [[4], [5], [6]]\n", "chunk")
he(5, "def caesar(text: str, shift: int) -> str:", "Shift every ASCII letter of text by shift places in the alphabet, keeping case; other\n    characters are unchanged. shift may be negative or larger than 26.\n    >>> caesar('Abc, xyz!', 2)\n    'Cde, zab!'",
   "    out = []\n    for ch in text:\n        if 'a' <= ch <= 'z':\n            out.append(chr((ord(ch) - 97 + shift) % 26 + 97))\n        elif 'A' <= ch <= 'Z':\n            out.append(chr((ord(ch) - 65 + shift) % 26 + 65))\n        else:\n            out.append(ch)\n    return ''.join(out)\n",
   "def check(candidate):\n    assert candidate('Abc, xyz!', 2) == 'Cde, zab!'\n    assert candidate('Hello', 0) == 'Hello'\n    assert candidate('abc', -1) == 'zab'\n    assert candidate('Zz', 27) == 'Aa'\n    assert candidate('', 5) == ''\n", "caesar")
he(6, "from typing import Dict\n\n\ndef letter_histogram(text: str) -> Dict[str, int]:", "Count the letters of text, case-insensitively, ignoring everything that is not a letter.\n    >>> letter_histogram('Aab!')\n    {'a': 2, 'b': 1}",
   "    counts = {}\n    for ch in text.lower():\n        if ch.isalpha():\n            counts[ch] = counts.get(ch, 0) + 1\n    return counts\n",
   "def check(candidate):\n    assert candidate('Aab!') == {'a': 2, 'b': 1}\n    assert candidate('') == {}\n    assert candidate('123 ...') == {}\n    assert candidate('Zebra zoo') == {'z': 2, 'e': 1, 'b': 1, 'r': 1, 'a': 1, 'o': 2}\n", "letter_histogram")
he(7, "def second_largest(values: list) -> int:", "Return the second largest distinct value of values, or None if there is none.\n    >>> second_largest([4, 9, 9, 2])\n    4",
   "    distinct = sorted(set(values))\n    return distinct[-2] if len(distinct) >= 2 else None\n",
   "def check(candidate):\n    assert candidate([4, 9, 9, 2]) == 4\n    assert candidate([1]) is None\n    assert candidate([5, 5, 5]) is None\n    assert candidate([-3, -1, -2]) == -2\n    assert candidate([]) is None\n", "second_largest")
he(8, "def compress_runs(s: str) -> str:", "Run-length encode s: each run of a repeated character becomes the character followed by the\n    run length, and runs of length one are left as the bare character.\n    >>> compress_runs('aaabcc')\n    'a3bc2'",
   "    out, i = [], 0\n    while i < len(s):\n        j = i\n        while j < len(s) and s[j] == s[i]:\n            j += 1\n        out.append(s[i] + (str(j - i) if j - i > 1 else ''))\n        i = j\n    return ''.join(out)\n",
   "def check(candidate):\n    assert candidate('aaabcc') == 'a3bc2'\n    assert candidate('') == ''\n    assert candidate('abc') == 'abc'\n    assert candidate('zzzzzzzzzzzz') == 'z12'\n    assert candidate('aabba') == 'a2b2a'\n", "compress_runs")
he(9, "def to_snake_case(name: str) -> str:", "Convert a camelCase or PascalCase identifier to snake_case.\n    >>> to_snake_case('parseHttpResponse')\n    'parse_http_response'",
   "    out = []\n    for i, ch in enumerate(name):\n        if ch.isupper() and i > 0:\n            out.append('_')\n        out.append(ch.lower())\n    return ''.join(out)\n",
   "def check(candidate):\n    assert candidate('parseHttpResponse') == 'parse_http_response'\n    assert candidate('Name') == 'name'\n    assert candidate('x') == 'x'\n    assert candidate('getX') == 'get_x'\n    assert candidate('') == ''\n", "to_snake_case")
he(10, "def gcd_list(values: list) -> int:", "Return the greatest common divisor of a non-empty list of positive integers.\n    >>> gcd_list([12, 18, 30])\n    6",
   "    from math import gcd\n    result = 0\n    for v in values:\n        result = gcd(result, v)\n    return result\n",
   "def check(candidate):\n    assert candidate([12, 18, 30]) == 6\n    assert candidate([7]) == 7\n    assert candidate([9, 28]) == 1\n    assert candidate([100, 1000, 250]) == 50\n", "gcd_list")
he(11, "def interleave(a: str, b: str) -> str:", "Alternate the characters of a and b, starting with a; when one string runs out, append the\n    rest of the other.\n    >>> interleave('abc', 'XY')\n    'aXbYc'",
   "    out = []\n    for i in range(max(len(a), len(b))):\n        if i < len(a):\n            out.append(a[i])\n        if i < len(b):\n            out.append(b[i])\n    return ''.join(out)\n",
   "def check(candidate):\n    assert candidate('abc', 'XY') == 'aXbYc'\n    assert candidate('', 'xyz') == 'xyz'\n    assert candidate('ab', '') == 'ab'\n    assert candidate('a', 'WXYZ') == 'aWXYZ'\n", "interleave")

M = []
def mb(i, text, code, tests, challenge=()):
    M.append({"task_id": 900 + i, "text": text, "code": code, "test_list": tests, "test_setup_code": "", "challenge_test_list": list(challenge)})
mb(1, "Write a function to remove every occurrence of a given character from a string.",
   "def strip_char(s, ch):\n    return s.replace(ch, '')",
   ["assert strip_char('banana', 'a') == 'bnn'", "assert strip_char('hello', 'z') == 'hello'", "assert strip_char('', 'x') == ''"])
mb(2, "Write a function to find the product of the non-zero digits of a positive integer.",
   "def nonzero_digit_product(n):\n    p = 1\n    for d in str(n):\n        if d != '0':\n            p *= int(d)\n    return p",
   ["assert nonzero_digit_product(1024) == 8", "assert nonzero_digit_product(5) == 5", "assert nonzero_digit_product(909) == 81"])
mb(3, "Write a function to check whether a list of numbers is strictly increasing.",
   "def strictly_increasing(xs):\n    return all(a < b for a, b in zip(xs, xs[1:]))",
   ["assert strictly_increasing([1, 2, 5]) == True", "assert strictly_increasing([1, 1, 2]) == False", "assert strictly_increasing([]) == True", "assert strictly_increasing([3, 2]) == False"])
mb(4, "Write a function to return the words of a sentence that are longer than n characters.",
   "def long_words(sentence, n):\n    return [w for w in sentence.split() if len(w) > n]",
   ["assert long_words('the quick brown fox', 3) == ['quick', 'brown']", "assert long_words('a bb ccc', 5) == []", "assert long_words('', 0) == []"])
mb(5, "Write a function to compute the sum of the squares of the odd numbers in a list.",
   "def odd_square_sum(xs):\n    return sum(x * x for x in xs if x % 2)",
   ["assert odd_square_sum([1, 2, 3]) == 10", "assert odd_square_sum([2, 4]) == 0", "assert odd_square_sum([-3, 5]) == 34"])
mb(6, "Write a function to swap the keys and values of a dictionary.",
   "def invert_dict(d):\n    return {v: k for k, v in d.items()}",
   ["assert invert_dict({'a': 1, 'b': 2}) == {1: 'a', 2: 'b'}", "assert invert_dict({}) == {}", "assert invert_dict({3: 'x'}) == {'x': 3}"])
mb(7, "Write a function to count the number of set bits in the binary form of a non-negative integer.",
   "def count_set_bits(n):\n    return bin(n).count('1')",
   ["assert count_set_bits(0) == 0", "assert count_set_bits(7) == 3", "assert count_set_bits(1024) == 1", "assert count_set_bits(255) == 8"])
mb(8, "Write a function to rotate a list to the right by k positions.",
   "def rotate_right(xs, k):\n    if not xs:\n        return []\n    k %= len(xs)\n    return xs[-k:] + xs[:-k] if k else list(xs)",
   ["assert rotate_right([1, 2, 3, 4], 1) == [4, 1, 2, 3]", "assert rotate_right([1, 2, 3], 3) == [1, 2, 3]", "assert rotate_right([], 2) == []", "assert rotate_right([1, 2], 5) == [2, 1]"])
mb(9, "Write a function to find the longest common prefix of a list of strings.",
   "def common_prefix(words):\n    if not words:\n        return ''\n    prefix = words[0]\n    for w in words[1:]:\n        while not w.startswith(prefix):\n            prefix = prefix[:-1]\n    return prefix",
   ["assert common_prefix(['flower', 'flow', 'flight']) == 'fl'", "assert common_prefix(['dog', 'cat']) == ''", "assert common_prefix([]) == ''", "assert common_prefix(['same', 'same']) == 'same'"])
mb(10, "Write a function to compute the average of a list of numbers rounded to two decimals, or None for an empty list.",
   "def mean2(xs):\n    return round(sum(xs) / len(xs), 2) if xs else None",
   ["assert mean2([1, 2]) == 1.5", "assert mean2([]) is None", "assert mean2([1, 1, 2]) == 1.33"])

import sys

out = sys.argv[1]
with open(f"{out}/humaneval_mini.jsonl", "w") as f:
    for r in H: f.write(json.dumps(r) + "\n")
with open(f"{out}/mbpp_mini.jsonl", "w") as f:
    for r in M: f.write(json.dumps(r) + "\n")
# self-check the canonical solutions in plain Python
for r in H:
    ns = {}; exec(r["prompt"] + r["canonical_solution"] + "\n" + r["test"] + f"\ncheck({r['entry_point']})\n", ns)
for r in M:
    ns = {}; exec(r["code"] + "\n" + "\n".join(r["test_list"]), ns)
print(len(H), len(M), "ok")
