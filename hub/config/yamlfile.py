"""Small file helpers."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Any, Callable

import yaml

from ..core.errors import UserError


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


def load_yaml_mapping(path: str | os.PathLike, what: str) -> dict[str, Any]:
    """A YAML file holding a mapping (an empty file is an empty one). Every way it can be wrong is
    one UserError that names the file (and the line, for bad YAML). `what`: e.g. "run file"."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise UserError(f"{path}: no such {what}") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read the {what}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise UserError(f"{path}{line}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a mapping (the {what}), got {type(data).__name__}")
    return data
