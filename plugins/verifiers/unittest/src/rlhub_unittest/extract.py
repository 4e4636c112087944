"""Pull the code out of a response the way models write it: fenced blocks, or a bare file."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Literal

# Fence info strings that count as each language; "" is an untagged fence.
LANGUAGE_TAGS: dict[str, tuple[str, ...]] = {
    "python": ("python", "py", "python3", "py3"),
    "bash": ("bash", "sh", "shell", "zsh", "console"),
    "sql": ("sql", "sqlite", "sqlite3"),
}

# An opening fence (``` or ~~~, optional info string), the body, and the matching close or the
# end of the text (a response cut off by the token limit still has its code).
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<tag>[\w+.-]*)[^\n]*\n(?P<body>.*?)(?:^[ \t]*(?P=fence)[ \t]*$|\Z)",
                    re.MULTILINE | re.DOTALL)
# Reasoning models wrap their scratch work in <think>...</think>; code in there is not the answer.
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)

Mode = Literal["auto", "last_block", "whole"]


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(lower-cased tag, body) of every fenced block, in order."""
    # A fence indented inside a list item indents its body as much: strip that much, no more
    # (a HumanEval completion's own indentation must survive).
    return [(m["tag"].lower(), _unindent(m["body"], m["indent"])) for m in _FENCE.finditer(text)]


def _unindent(body: str, indent: str) -> str:
    if not indent:
        return body
    return "".join(line[len(indent):] if line.startswith(indent) else line for line in body.splitlines(True))


def python_parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):  # ValueError: null bytes
        return False
    return True


def extract_code(response: str, language: str = "python", mode: Mode = "auto",
                 parses: Callable[[str], bool] | None = None) -> str | None:
    """The code a response submits, or None when it has none.

    auto: the last fenced block tagged with the task's language, else the last untagged block,
    else the whole response if `parses` accepts it (python: it compiles). last_block: the last
    fenced block whatever its tag. whole: the response as is.
    """
    if language not in LANGUAGE_TAGS:
        raise ValueError(f"unknown language {language!r}; expected one of {sorted(LANGUAGE_TAGS)}")
    if mode == "whole":
        return response if response.strip() else None
    text = _THINK.sub("", response)
    blocks = fenced_blocks(text)
    if mode == "last_block":
        code = blocks[-1][1] if blocks else None
    else:
        tagged = [body for tag, body in blocks if tag in LANGUAGE_TAGS[language]]
        untagged = [body for tag, body in blocks if tag == ""]
        code = tagged[-1] if tagged else untagged[-1] if untagged else None
        if code is None and not blocks:
            check = parses or (python_parses if language == "python" else lambda c: True)
            code = text if text.strip() and check(text) else None
    if code is None or not code.strip():
        return None
    return code if code.endswith("\n") else code + "\n"
