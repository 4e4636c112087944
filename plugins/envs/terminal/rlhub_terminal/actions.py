"""The action format of a terminal session turn, and its parser.

A turn is free text containing, in order:
- ```bash (or ```sh / ```shell) blocks: each runs as `bash -c BLOCK` in the work directory;
- fenced blocks whose info string holds `file=PATH` (e.g. ```python file=solution.py): the
  block's text is written to PATH (relative, inside the work directory);
- `SUBMIT` outside any block, as models write it: a line of its own (`SUBMIT`, `SUBMIT:`,
  `**SUBMIT**`, `` `SUBMIT` ``, `SUBMIT.`), or the last word of the reply's last line of prose
  ("All tests pass. SUBMIT"); or a fenced block holding only SUBMIT. After this turn's actions,
  the solution file is graded.

Anything else (prose, other blocks) is ignored, and the observation says so, so the model
learns the format instead of silently losing its code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hub.core.response import read
from hub.sessions.actions import MAX_COMMAND_CHARS, MAX_FILE_BYTES, Action, check_path

__all__ = ["MAX_ACTIONS", "MAX_COMMAND_CHARS", "MAX_FILE_BYTES", "Action", "Turn", "check_path", "parse_turn"]

MAX_ACTIONS = 8  # per turn; more are refused, not run

_FILE = re.compile(r"(?:^|\s)file=(\"[^\"]*\"|'[^']*'|\S+)")
_MARK = r"[ \t*_`>#-]*"  # markdown around the word: bold, code, a quote or list marker
_SUBMIT = re.compile(r"^" + _MARK + r"SUBMIT[*_`]*[:.!]?" + _MARK + r"$", re.M)
_SUBMIT_LAST = re.compile(r"(?:^|\s)SUBMIT[*_`]*[:.!]?[ \t*_`]*\Z")  # the last line's last word


@dataclass
class Turn:
    actions: list[Action] = field(default_factory=list)
    submit: bool = False
    notes: list[str] = field(default_factory=list)  # format problems, fed back to the model


def said_submit(prose: str) -> bool:
    """Whether the text outside the blocks says SUBMIT: on a line of its own, or as the last word of
    its last line."""
    if _SUBMIT.search(prose):
        return True
    lines = [line for line in prose.splitlines() if line.strip()]
    return bool(lines) and bool(_SUBMIT_LAST.search(lines[-1].rstrip()))


def parse_turn(text: str) -> Turn:
    """The turn's actions, read with rlhub's one response parser (<think> reasoning never acts)."""
    turn = Turn()
    response = read(text)
    for block in response.blocks:
        if not block.closed:
            turn.notes.append("an unclosed ``` block was ignored (close every block with ``` on its own line)")
            continue
        body = block.body[:-1] if block.body.endswith("\n") else block.body
        if body.strip() == "SUBMIT" and not _FILE.search(block.info):  # a block of its own saying it
            turn.submit = True
            continue
        target = _FILE.search(block.info)
        if target:
            path = target.group(1).strip("\"'")
            problem = check_path(path)
            if problem:
                turn.notes.append(f"not written: file={path!r}: {problem}")
            elif len((body + "\n").encode()) > MAX_FILE_BYTES:  # the file as written: the same bound graded
                turn.notes.append(f"not written: {path} is larger than {MAX_FILE_BYTES} bytes")
            else:
                turn.actions.append(Action("write", body + "\n", path))
        elif block.is_language("bash"):
            if len(body) > MAX_COMMAND_CHARS:
                turn.notes.append(f"not run: a command block longer than {MAX_COMMAND_CHARS} characters")
            elif body.strip():
                turn.actions.append(Action("run", body))
        else:
            turn.notes.append(f"ignored a ```{block.tag or '(no language)'} block: only ```bash blocks run; "
                              "to write a file put file=PATH after the language, e.g. ```python file=solution.py")
    turn.submit = turn.submit or said_submit(response.outside_blocks())
    if len(turn.actions) > MAX_ACTIONS:
        turn.notes.append(f"only the first {MAX_ACTIONS} actions of a turn are carried out "
                          f"({len(turn.actions) - MAX_ACTIONS} dropped)")
        turn.actions = turn.actions[:MAX_ACTIONS]
    return turn
