"""The local asset cache: each asset fetched once, keyed by its sha256, verified before use.

    ROOT/sha256/ab/abcd...        a file asset (read-only), exactly the pinned bytes
    ROOT/sha256/ab/abcd....d/     an archive asset, extracted (the archive itself is not kept)
    ROOT/locks/abcd....lock       held while one process fetches or extracts that hash

ROOT is $RLHUB_ASSET_CACHE (default ~/.cache/rlhub/assets); its size is bounded by
$RLHUB_ASSET_CACHE_MAX (default 50G), the least recently used entries going first.

A download goes to a temporary file in the cache folder, is hashed as it streams, and is renamed
to its final name only if every byte matches the pin (os.replace: atomic), so a final name only
ever holds verified bytes and a cut or wrong download leaves nothing behind. Processes fetching
the same hash at once serialise on its lock (filelock: released by the kernel if a holder dies):
one downloads, the others find the file when they get the lock. Storage settings (an S3 endpoint,
credentials, a proxy) are fsspec's and the cloud SDKs' own: AWS_ENDPOINT_URL, AWS_PROFILE,
FSSPEC_S3_* variables, ~/.config/fsspec/*.json.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import tarfile
import tempfile
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from filelock import FileLock, Timeout

from .ref import AssetError, AssetRef

CHUNK = 1 << 20
DEFAULT_MAX = "50G"
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def parse_size(text: str, what: str = "RLHUB_ASSET_CACHE_MAX") -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if m is None:
        raise AssetError(f"{what}={text!r}: expected a size such as 500M, 50G or a number of bytes")
    return int(float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " "))


@dataclass(frozen=True)
class Entry:
    """One cached asset: its hash, whether it is an extracted archive, where, how big."""

    sha256: str
    folder: bool
    path: Path
    size: int
    used: float  # mtime: touched on every use (atime is often not kept)


def _size(path: Path) -> int:
    if not path.is_dir():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:  # a cache pre-filled on a read-only disk: use it as it is
        pass


class AssetCache:
    def __init__(self, root: str | os.PathLike | None = None, max_bytes: int | None = None,
                 lock_timeout_s: float = 3600.0) -> None:
        self.root = Path(root or os.environ.get("RLHUB_ASSET_CACHE") or Path.home() / ".cache" / "rlhub" / "assets")
        self.max_bytes = max_bytes if max_bytes is not None else parse_size(
            os.environ.get("RLHUB_ASSET_CACHE_MAX") or DEFAULT_MAX)
        self.lock_timeout_s = lock_timeout_s

    # -- where ------------------------------------------------------------------------------
    def blob(self, sha256: str) -> Path:
        return self.root / "sha256" / sha256[:2] / sha256

    def tree(self, sha256: str) -> Path:
        return self.root / "sha256" / sha256[:2] / f"{sha256}.d"

    def cached(self, ref: AssetRef) -> Path | None:
        """Where `ref` is in the cache (its folder for an archive), or None."""
        path = self.tree(ref.sha256) if ref.is_archive else self.blob(ref.sha256)
        return path if path.exists() else None

    def _lock(self, sha256: str) -> FileLock:
        (self.root / "locks").mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.root / "locks" / f"{sha256}.lock"), timeout=self.lock_timeout_s)

    # -- use --------------------------------------------------------------------------------
    def path(self, ref: AssetRef) -> Path:
        """The local path of `ref`: the file, or for an archive the folder it extracts to."""
        return self.folder(ref) if ref.is_archive else self.file(ref)

    def file(self, ref: AssetRef) -> Path:
        """The verified file of `ref`, fetched if it is not cached yet."""
        final = self.blob(ref.sha256)
        if final.is_file():  # a final name holds only verified bytes: no lock needed to use it
            _touch(final)
            return final
        with self._locked(ref):
            if not final.is_file():  # another process may have fetched it while we waited
                self._download(ref, final)
        return final

    def folder(self, ref: AssetRef) -> Path:
        """The folder an archive asset extracts to, extracted once (then the archive is dropped)."""
        final = self.tree(ref.sha256)
        if final.is_dir():
            _touch(final)
            return final
        with self._locked(ref):
            if final.is_dir():
                return final
            archive = self.blob(ref.sha256)
            if not archive.is_file():
                self._download(ref, archive)
            self._extract(ref, archive, final)
            archive.unlink()
        return final

    def _locked(self, ref: AssetRef):
        lock = self._lock(ref.sha256)
        try:
            return lock.acquire()  # a context manager that releases it
        except Timeout:
            raise AssetError(f"asset {ref.url}: another process has been fetching it for over "
                             f"{self.lock_timeout_s:.0f} s (lock {lock.lock_file})") from None

    # -- fetch ------------------------------------------------------------------------------
    def _download(self, ref: AssetRef, final: Path) -> None:
        import fsspec

        final.parent.mkdir(parents=True, exist_ok=True)
        try:
            fs, path = fsspec.core.url_to_fs(ref.url)
        except ImportError as exc:  # gs:// without gcsfs, s3:// without s3fs
            raise AssetError(f"asset {ref.url}: this scheme needs a package that is not installed: {exc}") from None
        except (ValueError, TypeError) as exc:
            raise AssetError(f"asset {ref.url}: not a URL fsspec can open: {exc}") from None
        size = ref.size if ref.size is not None else _remote_size(fs, path, ref)
        if size is not None:
            self._make_room(ref, size)
        fd, tmp = tempfile.mkstemp(prefix=f".{ref.sha256}.part-", dir=final.parent)
        got = hashlib.sha256()
        n = 0
        try:
            with os.fdopen(fd, "wb") as out:
                # http: one streamed GET (its default reads by ranged requests); stores: their own blocks
                with fs.open(path, "rb", **({"block_size": 0} if "http" in fs.protocol else {})) as src:
                    while block := src.read(CHUNK):
                        got.update(block)
                        out.write(block)
                        n += len(block)
                out.flush()
                os.fsync(out.fileno())
            if size is not None and n != size:
                raise AssetError(f"asset {ref.url}: the download stopped after {n} of {size} bytes; nothing was kept")
            if got.hexdigest() != ref.sha256:
                raise AssetError(f"asset {ref.url}: sha256 mismatch: pinned {ref.sha256}, but the "
                                 f"{n} bytes fetched hash to {got.hexdigest()}; nothing was kept (re-pin it with "
                                 f"`rlhub assets push` if the change is meant)")
            os.chmod(tmp, 0o444)  # world-readable (sandbox uids read it), never written again
            os.replace(tmp, final)
        except AssetError:
            _unlink(tmp)
            raise
        except FileNotFoundError:
            _unlink(tmp)
            raise AssetError(f"asset {ref.url}: not found (no such object, or its bucket does not exist)") from None
        except PermissionError as exc:
            _unlink(tmp)
            raise AssetError(f"asset {ref.url}: access denied: {exc}") from None
        except OSError as exc:
            _unlink(tmp)
            if exc.errno in _FULL:
                raise AssetError(f"asset {ref.url}: no room to write it in the cache {self.root} "
                                 f"({exc.strerror}); nothing was kept") from None
            raise AssetError(f"asset {ref.url}: the download failed after {n} bytes: {exc}; nothing was kept") from None
        except BaseException as exc:  # a cut connection (aiohttp, botocore), an interrupt
            _unlink(tmp)
            if not isinstance(exc, Exception):
                raise
            raise AssetError(f"asset {ref.url}: the download failed after {n} bytes: "
                             f"{type(exc).__name__}: {exc}; nothing was kept") from None

    def _extract(self, ref: AssetRef, archive: Path, final: Path) -> None:
        tmp = Path(tempfile.mkdtemp(prefix=f".{ref.sha256}.d.part-", dir=final.parent))
        try:
            with tarfile.open(archive) as tf:
                tf.extractall(tmp, filter="data")  # refuses absolute paths, links and `..` out of it
            for p in (tmp, *tmp.rglob("*")):  # the sandbox's uids read it: make it world-readable
                if not p.is_symlink():
                    p.chmod(p.stat().st_mode | (0o755 if p.is_dir() else 0o444))
            os.rename(tmp, final)
        except (tarfile.TarError, OSError) as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            full = isinstance(exc, OSError) and exc.errno in _FULL
            raise AssetError(f"asset {ref.url}: cannot extract the archive into {self.root}: "
                             f"{'no room left' if full else exc}; nothing was kept") from None

    # -- size bound -------------------------------------------------------------------------
    def entries(self) -> list[Entry]:
        found = []
        for p in sorted((self.root / "sha256").glob("*/*")):
            if p.name.startswith("."):
                continue  # a download or extraction in progress
            sha, folder = p.name.removesuffix(".d"), p.name.endswith(".d")
            try:
                found.append(Entry(sha, folder, p, _size(p), p.stat().st_mtime))
            except OSError:  # evicted by another process as we looked
                continue
        return found

    def _make_room(self, ref: AssetRef, size: int) -> None:
        """Refuse what cannot fit; else evict least recently used entries until it does."""
        if size > self.max_bytes:
            raise AssetError(f"asset {ref.url}: {size} bytes is more than the cache may hold "
                             f"({self.max_bytes} bytes; raise RLHUB_ASSET_CACHE_MAX)")
        entries = sorted(self.entries(), key=lambda e: e.used)
        total = sum(e.size for e in entries)
        for e in entries:
            if total + size <= self.max_bytes:
                break
            if e.sha256 == ref.sha256 or not self.evict(e):
                continue
            total -= e.size
        free = shutil.disk_usage(self.root).free
        if size > free:
            raise AssetError(f"asset {ref.url}: {size} bytes do not fit on the disk of the cache {self.root} "
                             f"({free} bytes free); nothing was fetched")

    def evict(self, entry: Entry) -> bool:
        """Remove one entry unless another process holds its lock (it is fetching or extracting it)."""
        lock = FileLock(str(self.root / "locks" / f"{entry.sha256}.lock"), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            return False
        try:
            if entry.folder:  # out of its final name first: a reader never sees half a tree there
                trash = entry.path.with_name(f".{entry.path.name}.gone-{uuid.uuid4().hex[:8]}")
                os.rename(entry.path, trash)
                shutil.rmtree(trash, ignore_errors=True)
            else:
                entry.path.unlink()
            return True
        except FileNotFoundError:
            return False
        finally:
            lock.release()


def _remote_size(fs, path: str, ref: AssetRef) -> int | None:
    """The object's size, before downloading it (None where the store does not say)."""
    try:
        size = fs.size(path)
    except FileNotFoundError:
        raise AssetError(f"asset {ref.url}: not found (no such object, or its bucket does not exist)") from None
    except PermissionError as exc:
        raise AssetError(f"asset {ref.url}: access denied: {exc}") from None
    except OSError as exc:
        raise AssetError(f"asset {ref.url}: cannot reach it: {exc}") from None
    return int(size) if size is not None else None


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


@lru_cache(maxsize=8)
def _cache_for(root: str | None, max_env: str | None) -> AssetCache:
    return AssetCache(root, parse_size(max_env) if max_env else None)


def default_cache() -> AssetCache:
    """The cache $RLHUB_ASSET_CACHE names (one object per setting, shared by the process)."""
    return _cache_for(os.environ.get("RLHUB_ASSET_CACHE"), os.environ.get("RLHUB_ASSET_CACHE_MAX"))
