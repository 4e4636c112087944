"""Reading and writing the tool's text files. A failure becomes one of the package's errors naming
the file; a write goes to a temporary file that is then renamed over the old one, so a crash or a
full disk never leaves half a task file behind."""

from __future__ import annotations

import os
import tempfile

from .errors import StoreError


def read_text(path: str, what: str = "file", *, missing_ok: bool = False, error=StoreError) -> str | None:
    """The text of the file at `path` (UTF-8); None for a missing file when `missing_ok`."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        if missing_ok:
            return None
        raise error(f"{path}: there is no such {what}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: the {what} is not UTF-8 text") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror})") from None


def write_text(path: str, text: str, what: str = "file", *, error=StoreError) -> None:
    """Replace the file at `path` with `text` in one step (its folder is made if needed)."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise error(f"{path}: cannot write the {what} ({exc.strerror})") from None
