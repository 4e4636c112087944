"""The one reader of model responses: every verifier and environment sees a response the same way.

    r = read(response_text)
    r.visible                      # the response without its reasoning (<think>...</think>)
    r.blocks                       # fenced blocks: ``` or ~~~, any length, indented, info strings
    r.code("python")               # the code a response submits in that language, or None
    r.answers()                    # every final-answer marker: \\boxed{}, <answer>, "Final answer:"

Line ends are read the same whatever the writer used: CRLF and lone CR replies (a Windows client,
some chat front ends) parse exactly as the LF reply would.

Reasoning is never the answer: `<think>...</think>` is dropped, an unclosed `<think>` hides the
rest of the response, and a response that starts inside the reasoning (chat templates that open
`<think>` in the prompt) is read from its first `</think>` on.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

# Fence info strings that count as each language; "" is an untagged fence.
LANGUAGE_TAGS: dict[str, frozenset[str]] = {
    "python": frozenset({"python", "py", "python3", "py3", "cadquery"}),
    "bash": frozenset({"bash", "sh", "shell", "zsh", "console"}),
    "sql": frozenset({"sql", "sqlite", "sqlite3"}),
    "diff": frozenset({"diff", "patch", "udiff"}),
}
CodeMode = Literal["auto", "last_block", "whole"]
AnswerMode = Literal["boxed", "answer_tag", "final_line"]
ANSWER_MODES: tuple[AnswerMode, ...] = ("boxed", "answer_tag", "final_line")

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)
# An opening fence: ``` or ~~~ (three or more) with an optional info string, on a line of its own.
# Its block ends at a closing fence of the same character, at least as long, alone on its line and
# indented at most 3 columns more than the opening one (CommonMark: a fence indented 4 or more is
# the block's content, e.g. a markdown example in a docstring), or at the end of the text (a
# response cut off by the token limit still has its code).
_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>(?P<char>[`~])(?P=char){2,})[ \t]*(?P<info>[^\n`]*)\n", re.MULTILINE)
_CLOSING_INDENT = 3  # columns beyond the opening fence's


@functools.lru_cache(maxsize=64)
def _closing(char: str, length: int) -> re.Pattern:
    """Lines that close a fence of `length` `char`s, wherever indented (the caller checks that)."""
    return re.compile(r"^(?P<indent>[ \t]*)" + re.escape(char) + "{" + str(length) + r",}[ \t]*$", re.MULTILINE)
# Braces nest up to three levels (\boxed{\frac{1}{2}}); the regex engine, not a Python loop, scans,
# so hostile input full of unclosed "\boxed{" stays linear.
_INNER = r"(?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"
_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{(" + _INNER + r")\}")
_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
# "Final answer: 42", "**Final Answer:** 42", "Answer: 42", "1. Answer - 42" at the start of a line;
# or the marker on a line of its own ("Final answer:", "### Final Answer") and the answer on the lines
# below it, up to a blank line (a list written one item a line).
_MARKER = r"^[ \t>*_#-]*(?:\d+[.)][ \t]*)?(?:final\s+answer|answer)[ \t*_]*"
_FINAL_LINE = re.compile(r"(?im)" + _MARKER + r"(?:[:：]|[ \t][-–—][ \t])[ \t*_]*(\S.*?)[ \t*_]*$")
_FINAL_BLOCK = re.compile(r"(?im)" + _MARKER + r"[:：]?[ \t*_]*\n((?:[ \t]*\S[^\n]*(?:\n|\Z)){1,20})")
_ANSWER_PATTERNS = {"boxed": (_BOXED,), "answer_tag": (_ANSWER_TAG,), "final_line": (_FINAL_LINE, _FINAL_BLOCK)}


@dataclass(frozen=True)
class Block:
    """One fenced block: its language tag (lower case, '' when untagged), the whole info string
    (```python file=solution.py), its text, and whether a closing fence ended it."""

    tag: str
    info: str
    body: str
    closed: bool
    start: int  # span in `Response.visible`
    end: int

    def is_language(self, language: str) -> bool:
        return self.tag in LANGUAGE_TAGS[language]


@dataclass(frozen=True)
class Answer:
    text: str | None  # None: the response commits to no answer
    how: str  # which marker, or why nothing was found


def python_parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # null bytes; nesting deeper than CPython
        # compiles (`not not ... x` 20,000 deep overflows the parser's stack: MemoryError)
        return False
    return True


def source_text(raw: bytes, language: str) -> tuple[str, str]:
    """(the text, its codec) of a file's bytes as the language reads them. Python: UTF-8 (a BOM
    allowed) or the PEP 263 encoding its first two lines declare; SyntaxError when Python would not
    decode it. A shell reads bytes: UTF-8 when they are, else latin-1 (one character per byte, so
    the text encodes back to exactly these bytes)."""
    if language == "python":
        codec = tokenize.detect_encoding(io.BytesIO(raw).readline)[0]  # SyntaxError: an unknown encoding
        try:
            return raw.decode(codec), codec  # utf-8-sig (a BOM) encodes back with its BOM
        except UnicodeDecodeError as exc:
            raise SyntaxError(f"byte {exc.start} ({raw[exc.start:exc.start + 1]!r}) is not {codec}; Python source is "
                              "UTF-8 unless a coding line declares another encoding") from None
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "latin-1"


def _tag(info: str) -> str:
    """'Python file=a.py' -> 'python'; '{.python}' -> 'python'; 'python:solution.py' -> 'python'."""
    first = info.split()[0] if info.split() else ""
    return re.split(r"[:,;]", first.strip("{}.").lower(), maxsplit=1)[0]


def _columns(indent: str) -> int:
    """How many columns an indentation takes (a tab to the next multiple of 4, as CommonMark)."""
    width = 0
    for ch in indent:
        width += 4 - width % 4 if ch == "\t" else 1
    return width


def _unindent(body: str, indent: str) -> str:
    # A fence indented inside a list item indents its body as much: strip that much, no more
    # (a HumanEval completion's own indentation must survive).
    if not indent:
        return body
    return "".join(line.removeprefix(indent) for line in body.splitlines(True))


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR as LF (str.splitlines' other breaks, form feed among them, are content)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def strip_reasoning(text: str) -> str:
    first_open = text.lower().find("<think>")
    close = _THINK_CLOSE.search(text)
    if close is not None and (first_open < 0 or close.start() < first_open):
        text = text[close.end():]  # the template opened <think>: the response starts inside it
    return _THINK.sub("", text)


class Response:
    """A model's response, read once."""

    def __init__(self, raw: str) -> None:
        self.raw = raw if isinstance(raw, str) else ""
        self.text = normalize_newlines(self.raw)  # what every reading below sees
        self.visible = strip_reasoning(self.text)

    @cached_property
    def blocks(self) -> list[Block]:
        text, out, pos = self.visible, [], 0
        while (opening := _OPEN.search(text, pos)) is not None:
            fence, most = opening["fence"], _columns(opening["indent"]) + _CLOSING_INDENT
            body_start, body_end, end, closed = opening.end(), len(text), len(text), False
            for closing in _closing(fence[0], len(fence)).finditer(text, body_start):  # the first that closes it
                if _columns(closing["indent"]) <= most:
                    body_end, end, closed = closing.start(), closing.end(), True
                    break
            out.append(Block(tag=_tag(opening["info"]), info=opening["info"].strip(),
                             body=_unindent(text[body_start:body_end], opening["indent"]),
                             closed=closed, start=opening.start(), end=end))
            pos = max(end, opening.end())
        return out

    def outside_blocks(self) -> str:
        """The visible text with every fenced block cut out (prose, commands like SUBMIT)."""
        parts, pos = [], 0
        for b in self.blocks:
            parts.append(self.visible[pos:b.start])
            pos = b.end
        parts.append(self.visible[pos:])
        return "".join(parts)

    def code(self, language: str = "python", mode: CodeMode = "auto",
             parses: Callable[[str], bool] | None = None, prefer: Callable[[str], bool] | None = None) -> str | None:
        """The code the response submits, or None when it has none.

        auto: the last block tagged with the language, else the last untagged block, else (no
        blocks at all) the whole visible response if `parses` accepts it (python: it compiles).
        With `prefer` (a caller that knows what the answer must hold, e.g. the definition of the
        task's entry point), the last of those blocks that `prefer` accepts wins over later ones
        (an "Example usage:" block after the answer); if none does, the last block as above.
        last_block: the last block whatever its tag. whole: the raw response as it is.
        """
        if language not in LANGUAGE_TAGS:
            raise ValueError(f"unknown language {language!r}; expected one of {sorted(LANGUAGE_TAGS)}")
        if mode == "whole":
            return self.text if self.text.strip() else None
        blocks = self.blocks
        if mode == "last_block":
            code = blocks[-1].body if blocks else None
        else:
            tagged = [b.body for b in blocks if b.is_language(language)]
            candidates = tagged or [b.body for b in blocks if b.tag == ""]
            preferred = [c for c in candidates if prefer(c)] if prefer is not None and len(candidates) > 1 else []
            code = preferred[-1] if preferred else candidates[-1] if candidates else None
            if code is None and not blocks:
                check = parses or (python_parses if language == "python" else lambda c: True)
                text = self.visible.strip("\n")
                code = text if text.strip() and check(text) else None
        if code is None or not code.strip():
            return None
        return code if code.endswith("\n") else code + "\n"

    def answers(self, modes: Iterable[AnswerMode] = ANSWER_MODES, max_chars: int = 50_000,
                max_answer_chars: int = 500) -> list[Answer]:
        """Every final-answer marker the response holds, in the order written, each as an Answer
        (empty or over-long ones included, with `text` None and why in `how`); with no marker to
        read (none, or a response too long), one Answer whose `text` is None says why.

        There is deliberately no whole-response fallback: a response that never commits gets no
        answer, so a model cannot win by listing every candidate in free text. Which marker
        counts, and what happens when they disagree, is the caller's rule (rlhub-answer: the
        clearest marker, and any interpretable marker that disagrees makes the answer wrong).
        """
        if len(self.raw) > max_chars:
            return [Answer(None, f"response longer than {max_chars} chars")]
        found = []
        for mode in modes:
            patterns = _ANSWER_PATTERNS.get(mode)
            if patterns is None:
                raise ValueError(f"unknown answer marker {mode!r}; expected one of {ANSWER_MODES}")
            found += [(m.start(), m.group(1), mode) for pattern in patterns for m in pattern.finditer(self.visible)]
        if not found:
            return [Answer(None, "no final answer marker (" + ", ".join(modes) + ")")]
        out = []
        for _, value, how in sorted(found, key=lambda c: c[0]):
            value = value.strip()
            if not value:
                out.append(Answer(None, f"empty {how}"))
            elif len(value) > max_answer_chars:
                out.append(Answer(None, f"{how} answer longer than {max_answer_chars} chars"))
            else:
                out.append(Answer(value, how))
        return out

    def answer(self, modes: Iterable[AnswerMode] = ANSWER_MODES, max_chars: int = 50_000,
               max_answer_chars: int = 500) -> Answer:
        """The last final-answer marker the response holds (see `answers` for all of them)."""
        return self.answers(modes, max_chars, max_answer_chars)[-1]


def read(text: str) -> Response:
    return Response(text)


# -- writing blocks the reader reads back whole ------------------------------------------------------
def fence_for(body: str, char: str = "`", least: int = 3) -> str:
    """A fence of `char`, at least `least` long and longer than any run of `char` in `body`, so
    that no line of the body closes it (a diff of a README holds the README's own ```)."""
    longest = max((len(run) for run in re.findall(re.escape(char) + "+", body)), default=0)
    return char * max(least, longest + 1)


def fenced(body: str, info: str = "", char: str = "`") -> str:
    """`body` as one fenced block with info string `info`, read back by `read` as exactly `body`."""
    fence = fence_for(body, char)
    end = "" if not body or body.endswith("\n") else "\n"
    return f"{fence}{info}\n{body}{end}{fence}\n"
