"""Files: read with one clear error for every way they can be missing, written so that a
failure never leaves half of one behind."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from .errors import UserError


def atomic_write(path: str | os.PathLike, write: Callable[[IO[Any]], None], mode: str = "w") -> None:
    """Write to a temporary file beside `path`, then rename: a failure never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, mode) as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def sha256_file(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_text(path: str | os.PathLike, what: str, error: type[UserError] = UserError) -> str:
    """The text of a file the user named, or one UserError that says which file and why.
    `what` names it in the message: "run file", "--response-file", ..."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, expected a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror}") from None


def read_jsonl(path: str | os.PathLike, what: str, expected: str) -> Iterator[tuple[int, Any]]:
    """(line number, object) for each non-empty line; a bad line is a UserError naming it.
    `expected` says what a line should be: "a JSON object with a 'label' field"."""
    for number, line in enumerate(read_text(path, what).splitlines(), 1):
        if line.strip():
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError:
                raise UserError(f"{path}:{number}: not JSON; expected {expected}") from None
