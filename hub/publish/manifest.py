"""Content hashes of a release: one sha256 per file, and one for the whole manifest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..core.errors import UserError
from ..core.files import sha256_file
from . import MANIFEST


def build(folder: Path, distribution: str, version: str) -> dict:
    files = {p.relative_to(folder).as_posix(): sha256_file(p)
             for p in sorted(folder.rglob("*")) if p.is_file() and p.name != MANIFEST}
    return {"distribution": distribution, "version": version, "files": files}


def digest(manifest: dict) -> str:
    """The release's content hash: sha256 of the canonical manifest JSON."""
    return hashlib.sha256(json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def verify(folder: Path, expected_digest: str | None) -> dict:
    """Check every file against the manifest, and the manifest against `expected_digest`."""
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: missing or unreadable release manifest ({exc}); refusing to install") from None
    actual = digest(manifest)
    if expected_digest and actual != expected_digest:
        raise UserError(f"release manifest hash {actual[:16]}... differs from the recorded {expected_digest[:16]}...: "
                        "the release was changed after publishing; refusing to install")
    for name, want in manifest["files"].items():
        file = folder / name
        if not file.is_file():
            raise UserError(f"{name}: listed in the manifest but missing from the download; refusing to install")
        got = sha256_file(file)
        if got != want:
            raise UserError(f"{name}: sha256 {got[:16]}... does not match the manifest's {want[:16]}...; "
                            "refusing to install a tampered file")
    return manifest
