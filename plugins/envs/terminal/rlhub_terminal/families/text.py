"""Text processing families: word counts, ciphers, wrapping, encoding, case rules. Their answers
(the reference and each wrong one, by kind) are real functions in ..solutions.text."""

from __future__ import annotations

from ..answers import answers
from ..family import NAMES, WORDS, family, function_spec, pick
from ..solutions import text as solutions


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
    prompt = ("Write `top_words(text, n)` returning the n most frequent words of `text` as a list of "
              "(word, count) tuples. Words are runs of letters a-z and apostrophes, compared case-insensitively "
              "and returned lower-case. Sort by count (highest first), then alphabetically.")
    return function_spec(prompt, "top_words", *answers(solutions, "top_words"), cases)


@family("text", "caesar-shift")
def caesar_shift(rng):
    """Caesar cipher preserving case and non-letters, any integer shift."""
    cases = [(_sentence(rng, pick(rng, WORDS, 5), 4).capitalize() + " " + rng.choice(NAMES).upper() + "!", rng.randint(-30, 60))
             for _ in range(4)]
    cases.append(("Zebra-Yak xyz", rng.choice([1, 27, -25])))
    cases.append(("Ærø café ñandú Straße ΣΑΣ ǅ", rng.choice([1, 3, 13])))  # letters beyond ASCII stay as they are
    prompt = ("Write `shift_text(text, k)` applying a Caesar shift of k positions (k may be negative or larger "
              "than 26) to ASCII letters, keeping their case; every other character is unchanged.")
    return function_spec(prompt, "shift_text", *answers(solutions, "shift_text"), cases)  # wrong: every shift_text__*


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
    prompt = ("Write `wrap(text, width)` that greedily wraps the words of `text` (split on whitespace) into lines of "
              "at most `width` characters, words joined by single spaces, and returns the list of lines. A word longer "
              "than `width` goes on a line of its own. Blank text gives [].")
    return function_spec(prompt, "wrap", *answers(solutions, "wrap"), cases)


@family("text", "run-length")
def run_length(rng):
    """Run-length encoding with a seeded output format."""
    sep = rng.choice(["", ":", "x"])
    cases = ["".join(rng.choice("ab") * rng.randint(1, 4) for _ in range(rng.randint(3, 7))) for _ in range(4)]
    cases += ["z", "", "q" * 12]
    prompt = (f"Write `rle(s)` that run-length encodes a string: each maximal run of one character becomes the "
              f"character, then {sep!r}, then the run length (e.g. 'aaab' -> 'a{sep}3b{sep}1'). The empty string encodes to ''.")
    return function_spec(prompt, "rle", *answers(solutions, "rle", SEP=sep), [(c,) for c in cases])


@family("text", "smart-title")
def smart_title(rng):
    """Title case with small words kept lower except first and last."""
    small = sorted(rng.sample(["a", "an", "the", "of", "in", "on", "and", "or", "to", "for"], 5))
    cases = []
    for _ in range(4):
        words = [rng.choice(WORDS + small) for _ in range(rng.randint(3, 7))]
        cases.append((" ".join(w.upper() if rng.random() < 0.2 else w for w in words), small))
    cases.append((f"{small[0]} {rng.choice(WORDS)} {small[1]}", small))
    prompt = ("Write `smart_title(s, small)`: lower-case `s`, then capitalise the first letter of every word except "
              "words in the list `small`, which stay lower-case unless they are the first or the last word. Words are "
              "split on whitespace and re-joined with single spaces.")
    return function_spec(prompt, "smart_title", *answers(solutions, "smart_title"), cases)


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
    prompt = ("Write `group_anagrams(words)` that groups words which are anagrams of each other (ignoring case). "
              "Return a list of groups, each group a sorted list of the original words, the groups sorted "
              "(as lists, Python order).")
    return function_spec(prompt, "group_anagrams", *answers(solutions, "group_anagrams"), cases)


@family("text", "align-table")
def align_table(rng):
    """Left-aligned text table with computed column widths."""
    cases = []
    for _ in range(4):
        cols = rng.randint(2, 4)
        rows = [[rng.choice(NAMES + WORDS)[: rng.randint(1, 8)] for _ in range(cols)] for _ in range(rng.randint(2, 5))]
        cases.append((rows,))
    cases.append(([["id", "x"], ["1", "a much longer cell"]],))
    cases.append(([[rng.choice(WORDS), rng.choice(NAMES)]],))  # one row
    prompt = ("Write `align_table(rows)` that renders a list of rows (lists of strings, all the same length) as text: "
              "each column left-aligned and padded to its widest cell, cells joined by ' | ', trailing spaces removed "
              "from each line, lines joined by newlines.")
    spec = function_spec(prompt, "align_table", *answers(solutions, "align_table"), cases)
    spec.equivalent["-> `widths = ... range(len(rows[ -1]))"] = "all rows have the same length"
    return spec


@family("text", "slugify")
def slugify(rng):
    """URL slugs: lower-case, runs of other characters become one separator."""
    sep = rng.choice(["-", "_"])
    cases = [(f"  {rng.choice(WORDS).title()}  & {rng.choice(NAMES)}'s {rng.randint(1, 99)} {rng.choice(WORDS)}!! ",)
             for _ in range(4)]
    cases.append(("--Hello,,  World--",))
    cases.append(("!!!",))
    prompt = (f"Write `slugify(title)`: lower-case the title, replace every run of characters other than a-z and 0-9 "
              f"with a single {sep!r}, and strip leading and trailing {sep!r}.")
    return function_spec(prompt, "slugify", *answers(solutions, "slugify", SEP=sep), cases)


@family("text", "longest-palindrome")
def longest_palindrome(rng):
    """Longest palindromic substring, earliest on ties."""
    cases = []
    for _ in range(4):
        core = "".join(rng.choice("abc") for _ in range(rng.randint(1, 4)))
        pal = core + rng.choice(["", "x"]) + core[::-1]
        cases.append(("".join(rng.choice("abcd") for _ in range(rng.randint(0, 5))) + pal
                      + "".join(rng.choice("abcd") for _ in range(rng.randint(0, 5))),))
    cases += [("abcd",), ("",), ("xyzzyq" + "abba",), ("abaa",)]  # a palindrome reaching the start
    prompt = ("Write `longest_palindrome(s)` returning the longest substring of `s` that reads the same backwards; "
              "if several have the maximum length, the one that starts first. The empty string gives ''.")
    spec = function_spec(prompt, "longest_palindrome", *answers(solutions, "longest_palindrome"), cases)
    spec.equivalent["-> `for lo, hi in ((i, i), (i, i - 1)):`"] = (
        "the even centre between i-1 and i, not i and i+1: the same centres in the same order (at i = 0 it matches nothing)")
    return spec
