"""The action format of a terminal session turn, and its parser.

A turn is free text containing, in order:
- ```bash (or ```sh / ```shell) blocks: each runs as `bash -c BLOCK` in the work directory;
- fenced blocks whose info string holds `file=PATH` (e.g. ```python file=solution.py): the
  block's text is written to PATH (relative, inside the work directory);
- a line `SUBMIT` outside any block: after this turn's actions, the solution file is graded.

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
_SUBMIT = re.compile(r"^[ \t]*\**SUBMIT\**[ \t]*$", re.M)


@dataclass
class Turn:
    actions: list[Action] = field(default_factory=list)
    submit: bool = False
    notes: list[str] = field(default_factory=list)  # format problems, fed back to the model


def parse_turn(text: str) -> Turn:
    """The turn's actions, read with rlhub's one response parser (<think> reasoning never acts)."""
    turn = Turn()
    response = read(text)
    for block in response.blocks:
        if not block.closed:
            turn.notes.append("an unclosed ``` block was ignored (close every block with ``` on its own line)")
            continue
        body = block.body[:-1] if block.body.endswith("\n") else block.body
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
    turn.submit = bool(_SUBMIT.search(response.outside_blocks()))
    if len(turn.actions) > MAX_ACTIONS:
        turn.notes.append(f"only the first {MAX_ACTIONS} actions of a turn are carried out "
                          f"({len(turn.actions) - MAX_ACTIONS} dropped)")
        turn.actions = turn.actions[:MAX_ACTIONS]
    return turn
