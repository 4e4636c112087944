"""Command output and input named by URL (`rlhub eval --out s3://bucket/run/traj.jsonl`).

Outputs are unpinned results, not assets: the command writes a local file as it always does
(line by line, so nothing is lost if it stops) and uploads it when it is done. Where the upload
fails, the error names the local copy, which is kept.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..core.errors import UserError
from .ref import AssetError, check_url, is_url


def _fs(url: str, option: str):
    import fsspec

    try:
        check_url(url)
        return fsspec.core.url_to_fs(url)
    except AssetError as exc:
        raise UserError(f"{option}: {exc}") from None
    except (ImportError, ValueError) as exc:
        raise UserError(f"{option} {url}: cannot open it: {exc}") from None


class RemoteOutput:
    def __init__(self, url: str, option: str) -> None:
        self.url, self.option = url, option
        self.fs, self.key = _fs(url, option)
        if "file" not in self.fs.protocol:  # an object store: its bucket must be there now, not after the run
            bucket = self.key.split("/", 1)[0]
            try:
                there = self.fs.exists(bucket)
            except (OSError, PermissionError) as exc:
                raise UserError(f"{option} {url}: cannot reach the bucket {bucket!r}: {exc}") from None
            if not there:
                raise UserError(f"{option} {url}: the bucket {bucket!r} does not exist (or is not visible)")
        self.local = Path(tempfile.mkdtemp(prefix="rlhub-out-")) / (self.key.rsplit("/", 1)[-1] or "out")

    def upload(self) -> str:
        try:
            if "file" in self.fs.protocol:
                self.fs.makedirs(self.key.rsplit("/", 1)[0], exist_ok=True)
            self.fs.put_file(str(self.local), self.key)
        except Exception as exc:  # credentials, network, a full bucket: the results are still here
            raise UserError(f"{self.option} {self.url}: the upload failed ({type(exc).__name__}: {exc}); "
                            f"the file is kept at {self.local}") from None
        shutil.rmtree(self.local.parent, ignore_errors=True)
        return self.url


def remote_output(path: str | None, option: str) -> RemoteOutput | None:
    """A RemoteOutput for a URL, None for a local path (the caller's own checks apply)."""
    return RemoteOutput(path, option) if path and is_url(path) else None


def local_input(path: str, what: str) -> str:
    """A file to read, named by path or URL: a URL is downloaded to a temporary file first."""
    if not is_url(path):
        return path
    fs, key = _fs(path, what)
    tmp = Path(tempfile.mkdtemp(prefix="rlhub-in-")) / (key.rsplit("/", 1)[-1] or "in")
    try:
        fs.get_file(key, str(tmp))
    except FileNotFoundError:
        raise UserError(f"{path}: no such {what} (no such object, or its bucket does not exist)") from None
    except Exception as exc:
        raise UserError(f"{path}: cannot read the {what}: {type(exc).__name__}: {exc}") from None
    return str(tmp)
