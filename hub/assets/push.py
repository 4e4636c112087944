"""`rlhub assets push`: upload files (a folder as one tar archive) and say how to pin them.

Objects go to DEST/sha256/HEX/NAME: content-addressed, so a push never overwrites what another
registry pins, and pushing the same bytes again uploads nothing. A folder becomes NAME.tar with
its entries sorted and owners and times cleared, so the same tree always has the same pin.
"""

from __future__ import annotations

import os
import tarfile
import tempfile
from pathlib import Path

from ..core.files import sha256_file
from .ref import AssetError, check_url, is_url


def pack(folder: Path, out: Path) -> None:
    """A reproducible tar of `folder`'s contents (paths relative to it)."""
    def clean(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        info.mode = 0o755 if info.isdir() or info.mode & 0o111 else 0o644
        return info

    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tf:
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(dirs) + sorted(files):
                path = Path(root) / name
                tf.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False, filter=clean)


def push(paths: list[str], dest: str) -> list[dict]:
    """Upload each path (a file as it is, a folder as a tar) under `dest`; one pin per path."""
    import fsspec

    if not is_url(dest):
        dest = Path(dest).resolve().as_uri()  # a local folder: as file:// so the pins work anywhere it is mounted
    check_url(dest)
    fs, base = fsspec.core.url_to_fs(dest.rstrip("/"))
    pins = []
    for given in paths:
        src = Path(given)
        if not src.exists():
            raise AssetError(f"{given}: no such file or folder to push")
        with tempfile.TemporaryDirectory(prefix="rlhub-push-") as tmp:
            if src.is_dir():
                blob = Path(tmp) / f"{src.resolve().name}.tar"
                pack(src, blob)
                files = sum(len(f) for _, _, f in os.walk(src))
            else:
                blob, files = src, 1
            sha, size = sha256_file(blob), blob.stat().st_size
            key = f"{base}/sha256/{sha}/{blob.name}"
            url = f"{dest.rstrip('/')}/sha256/{sha}/{blob.name}"
            uploaded = False
            try:
                if not (fs.exists(key) and fs.size(key) == size):
                    if "file" in fs.protocol:  # a local folder (an S3 prefix needs no folders; a bucket is never made here)
                        fs.makedirs(key.rsplit("/", 1)[0], exist_ok=True)
                    fs.put_file(str(blob), key)
                    uploaded = True
            except FileNotFoundError:
                raise AssetError(f"{dest}: cannot upload there: the bucket or folder does not exist") from None
            except PermissionError as exc:
                raise AssetError(f"{dest}: cannot upload there: access denied ({exc})") from None
            except OSError as exc:
                raise AssetError(f"{dest}: cannot upload {given}: {exc}") from None
        pins.append({"path": given, "kind": "folder" if src.is_dir() else "file", "files": files, "url": url,
                     "sha256": sha, "size": size, "pin": f"{url}#sha256={sha}", "uploaded": uploaded})
    return pins
