"""The text families' answers: `entry` is the reference, `entry__<kind>` a wrong answer of that
kind. Module constants (SEP) are set per task by the family; see ..answers.module_answer."""

import re
from collections import Counter

SEP = "-"


# word-frequency --------------------------------------------------------------------------------
def top_words(text, n):
    counts = Counter(re.findall(r"[a-z']+", text.lower()))
    return [(w, c) for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


def top_words__ties_by_first_seen(text, n):
    return Counter(re.findall(r"[a-z']+", text.lower())).most_common(n)


def top_words__split_on_spaces(text, n):
    counts = Counter(text.split())
    return [(w, c) for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


# caesar-shift ----------------------------------------------------------------------------------
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


def shift_text__case_lost(text, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if c.isalpha() else c for c in text.lower())


def shift_text__non_ascii_shifted(text, k):
    out = []
    for ch in text:
        if ch.islower():
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        elif ch.isupper():
            out.append(chr((ord(ch) - 65 + k) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)


# greedy-wrap -----------------------------------------------------------------------------------
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


def wrap__exact_fit_breaks(text, width):
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


# run-length ------------------------------------------------------------------------------------
def rle(s):
    out, i = [], 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(s[i] + SEP + str(j - i))
        i = j
    return "".join(out)


def rle__last_run_dropped(s):
    out, i = [], 0
    for j in range(1, len(s)):
        if s[j] != s[i]:
            out.append(s[i] + SEP + str(j - i))
            i = j
    return "".join(out)


# smart-title -----------------------------------------------------------------------------------
def smart_title(s, small):
    words = s.lower().split()
    out = []
    for i, w in enumerate(words):
        keep = w in small and 0 < i < len(words) - 1
        out.append(w if keep else w[:1].upper() + w[1:])
    return " ".join(out)


def smart_title__last_word_kept_small(s, small):
    words = s.lower().split()
    return " ".join(w if (w in small and i > 0) else w.capitalize() for i, w in enumerate(words))


# anagram-groups --------------------------------------------------------------------------------
def group_anagrams(words):
    groups = {}
    for w in words:
        groups.setdefault("".join(sorted(w.lower())), []).append(w)
    return sorted(sorted(g) for g in groups.values())


def group_anagrams__case_sensitive(words):
    groups = {}
    for w in words:
        groups.setdefault("".join(sorted(w)), []).append(w)
    return sorted(sorted(g) for g in groups.values())


# align-table -----------------------------------------------------------------------------------
def align_table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(" | ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def align_table__widths_from_header(rows):
    widths = [len(c) for c in rows[0]]
    return "\n".join(" | ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


# slugify ---------------------------------------------------------------------------------------
def slugify(title):
    return re.sub(r"[^a-z0-9]+", SEP, title.lower()).strip(SEP)


def slugify__runs_not_collapsed(title):
    return "".join(c if c.isalnum() else SEP for c in title.lower().strip())


# longest-palindrome ----------------------------------------------------------------------------
def longest_palindrome(s):
    best = ""
    for i in range(len(s)):
        for lo, hi in ((i, i), (i, i + 1)):
            while lo >= 0 and hi < len(s) and s[lo] == s[hi]:
                lo, hi = lo - 1, hi + 1
            if hi - lo - 1 > len(best):
                best = s[lo + 1:hi]
    return best


def longest_palindrome__odd_lengths_only(s):
    best = ""
    for i in range(len(s)):
        lo, hi = i, i
        while lo >= 0 and hi < len(s) and s[lo] == s[hi]:
            lo, hi = lo - 1, hi + 1
        if hi - lo - 1 > len(best):
            best = s[lo + 1:hi]
    return best
