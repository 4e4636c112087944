"""Strict answer extraction: the last `\\boxed{...}`, `<answer>...</answer>` or final-answer line.

There is deliberately no "whole response" fallback: a response that never commits to an answer
gets no answer (reward 0), so a model cannot win by listing every candidate in free text.
Whichever enabled marker occurs *last* in the response wins, so a model that revises its
answer is graded on its final word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Literal

Mode = Literal["boxed", "answer_tag", "final_line"]
DEFAULT_MODES: tuple[Mode, ...] = ("boxed", "answer_tag", "final_line")

# Braces nest up to three levels (\boxed{\frac{1}{2}}); the regex engine, not a Python loop,
# scans, so hostile input full of unclosed "\boxed{" stays linear.
_INNER = r"(?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"
_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{(" + _INNER + r")\}")
_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
# "Final answer: 42", "**Final Answer:** 42", "Answer: 42" at the start of a line.
_FINAL_LINE = re.compile(r"(?im)^[ \t>*_#-]*(?:final\s+answer|answer)[ \t*_]*[:：][ \t*_]*(.+?)[ \t*_]*$")


@dataclass(frozen=True)
class Extracted:
    text: str | None  # None: no answer could be extracted
    how: str  # which marker, or why nothing was extracted


def _candidates(response: str, modes: Iterable[Mode]) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    for mode in modes:
        if mode == "boxed":
            out += [(m.start(), m.group(1), mode) for m in _BOXED.finditer(response)]
        elif mode == "answer_tag":
            out += [(m.start(), m.group(1), mode) for m in _ANSWER_TAG.finditer(response)]
        elif mode == "final_line":
            out += [(m.start(), m.group(1), mode) for m in _FINAL_LINE.finditer(response)]
        else:
            raise ValueError(f"unknown extraction mode {mode!r}; expected one of {DEFAULT_MODES}")
    return out


def extract_answer(response: str, modes: Iterable[Mode] = DEFAULT_MODES, max_response_chars: int = 50_000,
                   max_answer_chars: int = 500) -> Extracted:
    """The model's committed final answer, or `Extracted(None, reason)`."""
    if not isinstance(response, str):
        return Extracted(None, f"response is {type(response).__name__}, not text")
    if len(response) > max_response_chars:
        return Extracted(None, f"response longer than {max_response_chars} chars")
    found = _candidates(response, modes)
    if not found:
        return Extracted(None, "no final answer marker (" + ", ".join(modes) + ")")
    _, text, how = max(found, key=lambda c: c[0])
    text = text.strip()
    if not text:
        return Extracted(None, f"empty {how}")
    if len(text) > max_answer_chars:
        return Extracted(None, f"{how} answer longer than {max_answer_chars} chars")
    return Extracted(text, how)


_LATEX_WRAPPERS = re.compile(r"\\(?:text|textbf|mathrm|mathbf|textrm|operatorname)\s*\{([^{}]*)\}")
_LATEX_SUBS = ((r"\$", "$"), (r"\%", "%"), ("{,}", ","), (r"\,", ""), (r"\!", ""), (r"\ ", " "), (r"\;", " "),
               ("~", " "), (r"\left", ""), (r"\right", ""))


def strip_latex(text: str) -> str:
    """Undo the LaTeX models put inside \\boxed{}: \\$1.2\\text{ million} -> $1.2 million."""
    for _ in range(3):  # wrappers nest rarely and shallowly
        text = _LATEX_WRAPPERS.sub(r"\1", text)
    for old, new in _LATEX_SUBS:
        text = text.replace(old, new)
    if text.startswith("$") and text.endswith("$") and text.count("$") == 2 and len(text) > 2:
        text = text[1:-1]  # inline math delimiters, not a currency sign
    return re.sub(r"[ \t]+", " ", text).strip()  # keep new lines: they separate list items
