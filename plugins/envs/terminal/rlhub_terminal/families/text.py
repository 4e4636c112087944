"""Text processing families: word counts, ciphers, wrapping, encoding, case rules."""

from __future__ import annotations

from ..family import NAMES, WORDS, family, function_spec, pick


def _sentence(rng, vocab, n):
    return " ".join(rng.choice(vocab) for _ in range(n))


@family("text", "word-frequency")
def word_frequency(rng):
    """Top-n word counts with alphabetical tie-break, case-insensitive."""
    vocab = pick(rng, WORDS, 6)
    cases = []
    for _ in range(4):
        words = [w.capitalize() if rng.random() < 0.3 else w for w in rng.choices(vocab, k=rng.randint(8, 20))]
        cases.append((" ".join(words) + rng.choice([".", "!", "", "?"]), rng.randint(2, 4)))
    # a guaranteed tie, listed in reverse alphabetical order, plus mixed case and punctuation
    a, b = sorted(pick(rng, vocab, 2))
    cases.append((f"{b.upper()}, {a}; {b} {a}!", 2))
    ref = '''
import re
from collections import Counter

def top_words(text, n):
    counts = Counter(re.findall(r"[a-z']+", text.lower()))
    return [(w, c) for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
'''
    wrong = ['''
import re
from collections import Counter

def top_words(text, n):
    return Counter(re.findall(r"[a-z']+", text.lower())).most_common(n)
''', '''
from collections import Counter

def top_words(text, n):
    counts = Counter(text.split())
    return [(w, c) for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
''']
    prompt = ("Write `top_words(text, n)` returning the n most frequent words of `text` as a list of "
              "(word, count) tuples. Words are runs of letters a-z and apostrophes, compared case-insensitively "
              "and returned lower-case. Sort by count (highest first), then alphabetically.")
    return function_spec(prompt, "top_words", ref, wrong, cases)


@family("text", "caesar-shift")
def caesar_shift(rng):
    """Caesar cipher preserving case and non-letters, any integer shift."""
    cases = [(_sentence(rng, pick(rng, WORDS, 5), 4).capitalize() + " " + rng.choice(NAMES).upper() + "!", rng.randint(-30, 60))
             for _ in range(4)]
    cases.append(("Zebra-Yak xyz", rng.choice([1, 27, -25])))
    ref = '''
def shift_text(text, k):
    out = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + k) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)
'''
    wrong = ['''
def shift_text(text, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if c.isalpha() else c for c in text.lower())
''']
    prompt = ("Write `shift_text(text, k)` applying a Caesar shift of k positions (k may be negative or larger "
              "than 26) to ASCII letters, keeping their case; every other character is unchanged.")
    return function_spec(prompt, "shift_text", ref, wrong, cases)


@family("text", "greedy-wrap")
def greedy_wrap(rng):
    """Greedy word wrap; over-long words on their own line."""
    cases = []
    for _ in range(4):
        width = rng.randint(8, 20)
        cases.append((_sentence(rng, WORDS, rng.randint(5, 14)), width))
    cases.append(("a bb ccc dddddddddddddddddd e", rng.choice([5, 6, 7])))
    cases.append(("   ", 4))
    cases.append(("ab cd ef gh", 5))  # lines that fit exactly
    ref = '''
def wrap(text, width):
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            if current:
                lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
'''
    wrong = ['''
def wrap(text, width):
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + 1 + len(word) < width:
            current += " " + word
        else:
            if current:
                lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
''']
    prompt = ("Write `wrap(text, width)` that greedily wraps the words of `text` (split on whitespace) into lines of "
              "at most `width` characters, words joined by single spaces, and returns the list of lines. A word longer "
              "than `width` goes on a line of its own. Blank text gives [].")
    return function_spec(prompt, "wrap", ref, wrong, cases)


@family("text", "run-length")
def run_length(rng):
    """Run-length encoding with a seeded output format."""
    sep = rng.choice(["", ":", "x"])
    cases = ["".join(rng.choice("ab") * rng.randint(1, 4) for _ in range(rng.randint(3, 7))) for _ in range(4)]
    cases += ["z", "", "q" * 12]
    ref = f'''
def rle(s):
    out, i = [], 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(s[i] + {sep!r} + str(j - i))
        i = j
    return "".join(out)
'''
    wrong = [f'''
def rle(s):
    out, i = [], 0
    for j in range(1, len(s)):
        if s[j] != s[i]:
            out.append(s[i] + {sep!r} + str(j - i))
            i = j
    return "".join(out)
''']
    prompt = (f"Write `rle(s)` that run-length encodes a string: each maximal run of one character becomes the "
              f"character, then {sep!r}, then the run length (e.g. 'aaab' -> 'a{sep}3b{sep}1'). The empty string encodes to ''.")
    return function_spec(prompt, "rle", ref, wrong, [(c,) for c in cases])


@family("text", "smart-title")
def smart_title(rng):
    """Title case with small words kept lower except first and last."""
    small = sorted(rng.sample(["a", "an", "the", "of", "in", "on", "and", "or", "to", "for"], 5))
    cases = []
    for _ in range(4):
        words = [rng.choice(WORDS + small) for _ in range(rng.randint(3, 7))]
        cases.append((" ".join(w.upper() if rng.random() < 0.2 else w for w in words), small))
    cases.append((f"{small[0]} {rng.choice(WORDS)} {small[1]}", small))
    ref = '''
def smart_title(s, small):
    words = s.lower().split()
    out = []
    for i, w in enumerate(words):
        keep = w in small and 0 < i < len(words) - 1
        out.append(w if keep else w[:1].upper() + w[1:])
    return " ".join(out)
'''
    wrong = ['''
def smart_title(s, small):
    words = s.lower().split()
    return " ".join(w if (w in small and i > 0) else w.capitalize() for i, w in enumerate(words))
''']
    prompt = ("Write `smart_title(s, small)`: lower-case `s`, then capitalise the first letter of every word except "
              "words in the list `small`, which stay lower-case unless they are the first or the last word. Words are "
              "split on whitespace and re-joined with single spaces.")
    return function_spec(prompt, "smart_title", ref, wrong, cases)


@family("text", "anagram-groups")
def anagram_groups(rng):
    """Group anagrams, case-insensitive, deterministic ordering."""
    bases = ["listen", "angel", "stone", "night", "evil", "dusty", "inch"]
    cases = []
    for _ in range(4):
        words = []
        for base in rng.sample(bases, 3):
            for _ in range(rng.randint(1, 3)):
                letters = list(base)
                rng.shuffle(letters)
                w = "".join(letters)
                words.append(w.capitalize() if rng.random() < 0.3 else w)
        rng.shuffle(words)
        cases.append((words,))
    cases.append((["Tops", "spot", "Post", "opts"],))
    ref = '''
def group_anagrams(words):
    groups = {}
    for w in words:
        groups.setdefault("".join(sorted(w.lower())), []).append(w)
    return sorted(sorted(g) for g in groups.values())
'''
    wrong = ['''
def group_anagrams(words):
    groups = {}
    for w in words:
        groups.setdefault("".join(sorted(w)), []).append(w)
    return sorted(sorted(g) for g in groups.values())
''']
    prompt = ("Write `group_anagrams(words)` that groups words which are anagrams of each other (ignoring case). "
              "Return a list of groups, each group a sorted list of the original words, the groups sorted "
              "(as lists, Python order).")
    return function_spec(prompt, "group_anagrams", ref, wrong, cases)


@family("text", "align-table")
def align_table(rng):
    """Left-aligned text table with computed column widths."""
    cases = []
    for _ in range(4):
        cols = rng.randint(2, 4)
        rows = [[rng.choice(NAMES + WORDS)[: rng.randint(1, 8)] for _ in range(cols)] for _ in range(rng.randint(2, 5))]
        cases.append((rows,))
    cases.append(([["id", "x"], ["1", "a much longer cell"]],))
    ref = '''
def align_table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\\n".join(" | ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
'''
    wrong = ['''
def align_table(rows):
    widths = [len(c) for c in rows[0]]
    return "\\n".join(" | ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
''']
    prompt = ("Write `align_table(rows)` that renders a list of rows (lists of strings, all the same length) as text: "
              "each column left-aligned and padded to its widest cell, cells joined by ' | ', trailing spaces removed "
              "from each line, lines joined by newlines.")
    return function_spec(prompt, "align_table", ref, wrong, cases)


@family("text", "slugify")
def slugify(rng):
    """URL slugs: lower-case, runs of other characters become one separator."""
    sep = rng.choice(["-", "_"])
    cases = [(f"  {rng.choice(WORDS).title()}  & {rng.choice(NAMES)}'s {rng.randint(1, 99)} {rng.choice(WORDS)}!! ",)
             for _ in range(4)]
    cases.append(("--Hello,,  World--",))
    cases.append(("!!!",))
    ref = f'''
import re

def slugify(title):
    return re.sub(r"[^a-z0-9]+", {sep!r}, title.lower()).strip({sep!r})
'''
    wrong = [f'''
def slugify(title):
    return "".join(c if c.isalnum() else {sep!r} for c in title.lower().strip())
''']
    prompt = (f"Write `slugify(title)`: lower-case the title, replace every run of characters other than a-z and 0-9 "
              f"with a single {sep!r}, and strip leading and trailing {sep!r}.")
    return function_spec(prompt, "slugify", ref, wrong, cases)


@family("text", "longest-palindrome")
def longest_palindrome(rng):
    """Longest palindromic substring, earliest on ties."""
    cases = []
    for _ in range(4):
        core = "".join(rng.choice("abc") for _ in range(rng.randint(1, 4)))
        pal = core + rng.choice(["", "x"]) + core[::-1]
        cases.append(("".join(rng.choice("abcd") for _ in range(rng.randint(0, 5))) + pal
                      + "".join(rng.choice("abcd") for _ in range(rng.randint(0, 5))),))
    cases += [("abcd",), ("",), ("xyzzyq" + "abba",)]
    ref = '''
def longest_palindrome(s):
    best = ""
    for i in range(len(s)):
        for lo, hi in ((i, i), (i, i + 1)):
            while lo >= 0 and hi < len(s) and s[lo] == s[hi]:
                lo, hi = lo - 1, hi + 1
            if hi - lo - 1 > len(best):
                best = s[lo + 1:hi]
    return best
'''
    wrong = ['''
def longest_palindrome(s):
    best = ""
    for i in range(len(s)):
        lo, hi = i, i
        while lo >= 0 and hi < len(s) and s[lo] == s[hi]:
            lo, hi = lo - 1, hi + 1
        if hi - lo - 1 > len(best):
            best = s[lo + 1:hi]
    return best
''']
    prompt = ("Write `longest_palindrome(s)` returning the longest substring of `s` that reads the same backwards; "
              "if several have the maximum length, the one that starts first. The empty string gives ''.")
    return function_spec(prompt, "longest_palindrome", ref, wrong, cases)
