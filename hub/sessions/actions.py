"""What a model does in a work-dir session, whichever front end read it: run a command, or write
a file; and the one rule for the paths it may write."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

MAX_FILE_BYTES = 256 * 1024  # a file the model writes, and the solution file graded: one bound
MAX_COMMAND_CHARS = 16 * 1024

_SAFE_PATH = re.compile(r"^[A-Za-z0-9._/-]+$")


@dataclass
class Action:
    kind: str  # "run" | "write"
    text: str  # the command, or the file's content
    path: str = ""


def check_path(path: str) -> str | None:
    """Why `path` is not an acceptable file to write (None when it is)."""
    if not path or len(path) > 200:
        return "empty or longer than 200 characters"
    if not _SAFE_PATH.match(path):
        return "use only letters, digits, '.', '_', '-' and '/'"
    p = PurePosixPath(path)
    if p.is_absolute() or ".." in p.parts:
        return "must be a relative path inside the work directory (no leading '/', no '..')"
    return None
