"""Writing files so that a failure never leaves half of one behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Any, Callable


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
