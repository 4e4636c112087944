"""An asset named by URL and pinned by its sha256: `s3://bucket/data/qa.jsonl#sha256=HEX`.

The pin is part of the name, as in a registry's `source: hf://...#sha256=...`: whatever the
URL serves, only those bytes are ever used. Allowed schemes: s3, gs, hf, https (the operator's
own mirrors), file, and plain http to this machine only (a local mirror or proxy). Anything else
(ftp, http to another host, fsspec's `a::b` chains) is refused before any byte moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..core.errors import UserError

SCHEMES = ("s3", "gs", "hf", "https", "file")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz")
_PIN = re.compile(r"^(?P<url>[^#]+)#sha256=(?P<hex>[0-9a-f]{64})$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


class AssetError(UserError):
    """An asset cannot be had as pinned: a bad URL or pin, a missing object, a cut download, a
    hash that does not match, no room in the cache. Never leaves a partial file in the cache."""


def is_url(text: str) -> bool:
    """A URL (scheme://...), as opposed to a local path (which needs no pin)."""
    return bool(_SCHEME.match(text)) or "::" in text


def check_url(url: str) -> str:
    """`url` if its scheme may be fetched from; else one AssetError saying what is allowed."""
    allowed = ", ".join(f"{s}://" for s in SCHEMES) + ", http:// to this machine, or a local path"
    if "::" in url:
        raise AssetError(f"asset URL {url!r}: chained fsspec URLs (a::b) are not allowed (allowed: {allowed})")
    m = _SCHEME.match(url)
    scheme = m.group(1).lower() if m else ""
    if scheme == "http" and urlsplit(url).hostname in LOOPBACK:
        return url
    if scheme not in SCHEMES:
        why = "plain http is allowed only to this machine" if scheme == "http" else f"scheme {scheme!r} is not allowed"
        raise AssetError(f"asset URL {url!r}: {why} (allowed: {allowed})")
    return url


@dataclass(frozen=True)
class AssetRef:
    url: str
    sha256: str
    size: int | None = None

    @classmethod
    def parse(cls, text: str) -> "AssetRef":
        """'URL#sha256=HEX' (what `rlhub assets push` prints); an unpinned URL is refused."""
        m = _PIN.match(text.strip())
        if m is None:
            if "#sha256=" in text:
                raise AssetError(f"asset {text!r}: the pin after '#sha256=' must be 64 lowercase hex digits")
            raise AssetError(f"asset URL {text!r} is not pinned: write it as URL#sha256=HEX "
                             f"(`rlhub assets push` uploads files and prints their pins)")
        return cls(check_url(m.group("url")), m.group("hex"))

    @property
    def pin(self) -> str:
        return f"{self.url}#sha256={self.sha256}"

    @property
    def name(self) -> str:
        """The last part of the URL's path (its suffix tells a file's format)."""
        return urlsplit(self.url).path.rstrip("/").rsplit("/", 1)[-1]

    @property
    def is_archive(self) -> bool:
        return self.name.lower().endswith(ARCHIVES)
