"""Content-addressed assets: files and folders a registry, a preset or a sandbox profile names by
URL (s3://, gs://, hf://, https://, file://) and pins by sha256, fetched once into a local cache.

    ref = AssetRef.parse("s3://bucket/qa.jsonl#sha256=" + hex)   # AssetError if unpinned or not allowed
    default_cache().path(ref)            # the verified local file (an archive: its extracted folder)
    local(text)                          # a registry value: a pinned URL's local path, a path as it is

`rlhub assets push` uploads files (a folder as one tar archive) and prints their pins; `rlhub
assets pull` pre-fills a node's cache with what a registry names; `rlhub assets ls` shows both.
"""

from __future__ import annotations

from .ref import ARCHIVES, AssetError, AssetRef, check_url, is_url


def __getattr__(name: str):
    # The cache (filelock, tarfile) on first use: a registry that only names local paths, and
    # `rlhub list`, never need it.
    if name in ("AssetCache", "default_cache"):
        from . import cache

        return getattr(cache, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def local(text: str) -> str:
    """A registry value as a local path: a pinned URL fetched (verified) into the cache; a local
    path unchanged."""
    if not is_url(text):
        return text
    from .cache import default_cache

    return str(default_cache().path(AssetRef.parse(text)))


def pinned(text: str, archive: bool = False) -> str:
    """For validators: `text` unchanged if it is a local path or a well-formed pin (an archive when
    `archive`: a folder asset), else ValueError with the reason."""
    if not is_url(text):
        return text
    try:
        ref = AssetRef.parse(text)
    except AssetError as exc:
        raise ValueError(str(exc)) from None
    if archive and not ref.is_archive:
        raise ValueError(f"a folder asset must be a tar archive ({', '.join(ARCHIVES)}): "
                         f"`rlhub assets push FOLDER URL` makes one; got {ref.name!r}")
    return text


__all__ = ["AssetCache", "AssetError", "AssetRef", "check_url", "default_cache", "is_url", "local", "pinned"]
