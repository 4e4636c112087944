"""Strict answer extraction (through hub.core.response): the last `\\boxed{...}`,
`<answer>...</answer>` or final-answer line, outside the model's <think> reasoning.

There is deliberately no "whole response" fallback: a response that never commits to an answer
gets no answer (reward 0), so a model cannot win by listing every candidate in free text.
Whichever enabled marker occurs *last* in the response wins, so a model that revises its
answer is graded on its final word.
"""

from __future__ import annotations

import re
from typing import Iterable

from hub.core.response import ANSWER_MODES, Answer, AnswerMode, read

Mode = AnswerMode
DEFAULT_MODES: tuple[Mode, ...] = ANSWER_MODES
Extracted = Answer  # (text, how): text None when the response commits to no answer


def extract_answer(response: str, modes: Iterable[Mode] = DEFAULT_MODES, max_response_chars: int = 50_000,
                   max_answer_chars: int = 500) -> Extracted:
    """The model's committed final answer, read with rlhub's one response parser."""
    if not isinstance(response, str):
        return Extracted(None, f"response is {type(response).__name__}, not text")
    return read(response).answer(modes, max_response_chars, max_answer_chars)


_LATEX_WRAPPERS = re.compile(r"\\(?:text|textbf|mathrm|mathbf|textrm|operatorname)\s*\{([^{}]*)\}")
_LATEX_SUBS = ((r"\$", "$"), (r"\%", "%"), ("{,}", ","), (r"\,", ""), (r"\!", ""), (r"\ ", " "), (r"\;", " "),
               (r"\approx", "≈ "), (r"\sim", "~ "), (r"\mu", "µ"), (r"\times", "×"), (r"\cdot", "·"), ("~", " "), (r"\left", ""),
               (r"\right", ""))
_LATEX_POWER = re.compile(r"\^\{([-+]?\d+)\}")


def strip_latex(text: str) -> str:
    """Undo the LaTeX models put inside \\boxed{}: \\$1.2\\text{ million} -> $1.2 million,
    \\approx 24.69\\% -> ≈ 24.69%, -6.746 \\times 10^{6} -> -6.746 × 10^6."""
    for _ in range(3):  # wrappers nest rarely and shallowly
        text = _LATEX_WRAPPERS.sub(r"\1", text)
    for old, new in _LATEX_SUBS:
        text = text.replace(old, new)
    text = _LATEX_POWER.sub(r"^\1", text)  # 10^{6} -> 10^6
    if text.startswith("$") and text.endswith("$") and text.count("$") == 2 and len(text) > 2:
        text = text[1:-1]  # inline math delimiters, not a currency sign
    return re.sub(r"[ \t]+", " ", text).strip()  # keep new lines: they separate list items
