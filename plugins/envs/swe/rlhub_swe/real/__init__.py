"""Real projects' bug-fix tasks, shipped with rlhub-swe: instances built by `rlhub swe build`
from released sdists, kept as small text (the bug as a diff against the release, the hidden test
modules' paths, FAIL_TO_PASS, PASS_TO_PASS, the statements) and pinned to each release's sdist by
sha256 (projects.json). The sdists themselves are fetched once per machine (`rlhub swe fetch`,
which scripts/setup.sh runs) into $RLHUB_SWE_SDISTS or ~/.cache/rlhub/sdists/<sha256[:16]>/,
and every read checks the hash: a tampered or truncated file is refused, naming both hashes.

Nodes that cannot reach the package index (a Ray worker that starts with an empty disk) take
them from the operator's object storage instead: with RLHUB_SWE_SDISTS_URL=s3://bucket/sdists
(after `rlhub assets push ~/.cache/rlhub/sdists/*/*.tar.gz s3://bucket/sdists`), a sdist missing
here is fetched from MIRROR/sha256/HEX/NAME into the asset cache, verified against its pin."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from importlib import resources

from .. import patch, trees


@dataclass(frozen=True)
class Pin:
    name: str           # the distribution on the package index
    version: str
    sdist: str          # its file name
    sha256: str
    package: str        # the import name
    slug: str           # the environments' name: swe/real-<slug>-...
    instances: int
    lines: int = 0      # the package's source lines (its size)


@functools.lru_cache(maxsize=1)
def pins() -> dict[str, Pin]:
    data = json.loads(resources.files(__package__).joinpath("projects.json").read_text("utf-8"))
    return {p["slug"]: Pin(**p) for p in data["projects"]}


def cache_dir(pin: Pin) -> str:
    root = os.environ.get("RLHUB_SWE_SDISTS") or os.path.join(os.path.expanduser("~"), ".cache", "rlhub", "sdists")
    return os.path.join(root, pin.sha256[:16])


def sdist_path(pin: Pin) -> str:
    return os.path.join(cache_dir(pin), pin.sdist)


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


MIRROR = "RLHUB_SWE_SDISTS_URL"


def mirror_pin(pin: Pin) -> str | None:
    """The sdist's pinned URL in the operator's mirror ($RLHUB_SWE_SDISTS_URL), if one is set."""
    base = os.environ.get(MIRROR, "").strip().rstrip("/")
    return f"{base}/sha256/{pin.sha256}/{pin.sdist}#sha256={pin.sha256}" if base else None


def sdist_file(pin: Pin) -> str:
    """The verified sdist: the local copy `rlhub swe fetch` made, else the mirror's (through the
    asset cache), else a TreeError saying how to get it."""
    path = sdist_path(pin)
    if os.path.isfile(path):
        got = _sha256(path)
        if got != pin.sha256:
            raise trees.TreeError(f"{path} is not {pin.name}=={pin.version}'s sdist: sha256 {got}, pinned {pin.sha256} "
                                  "(delete it and run `rlhub swe fetch`)")
        return path
    pinned = mirror_pin(pin)
    if pinned is None:
        raise trees.TreeError(f"{pin.name}=={pin.version}'s sdist is not on this machine ({path}): run `rlhub swe fetch`, "
                              f"or set {MIRROR} to a mirror in object storage")
    from hub.assets import AssetError, AssetRef, default_cache

    try:
        return str(default_cache().file(AssetRef.parse(pinned)))  # the tarball itself, not extracted
    except AssetError as exc:
        raise trees.TreeError(f"{pin.name}=={pin.version}'s sdist from {MIRROR}: {exc}") from None


@functools.lru_cache(maxsize=16)
def _release(slug: str) -> tuple[tuple[str, str], ...]:
    path = sdist_file(pins()[slug])
    from ..taskbuild.source import read_tarball

    return tuple(sorted(read_tarball(path).items()))


def release_tree(slug: str) -> dict[str, str]:
    return dict(_release(slug))


@functools.lru_cache(maxsize=16)
def rows(slug: str) -> tuple[dict, ...]:
    text = resources.files(__package__).joinpath("data", f"{slug}.jsonl").read_text("utf-8")
    return parse_rows(text, f"rlhub_swe/real/data/{slug}.jsonl")


REQUIRED = {"instance_id": str, "bug_patch": str, "hidden_modules": list, "FAIL_TO_PASS": list, "PASS_TO_PASS": list,
            "statements": dict}


def parse_rows(text: str, where: str) -> tuple[dict, ...]:
    """The rows of a shipped data file; a broken one is named by line and field."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise ValueError(f"{where} line {n}: not JSON ({exc})") from None
        for key, kind in REQUIRED.items():
            if not isinstance(row.get(key), kind) or (kind is list and not row[key]):
                raise ValueError(f"{where} line {n}: field {key!r} must be a non-empty {kind.__name__}, "
                                 f"got {type(row.get(key)).__name__}")
        if not all(isinstance(row["statements"].get(k), str) for k in ("terse", "detailed")):
            raise ValueError(f"{where} line {n}: field 'statements' needs 'terse' and 'detailed' texts")
        out.append(row)
    return tuple(out)


@dataclass
class Instance:
    row: dict
    release: dict[str, str]     # the sdist's tree
    buggy: dict[str, str]       # with the bug, hidden tests included
    start: dict[str, str]       # what the model gets: the bug, without the hidden test modules
    fixed: dict[str, str]       # start with the bug's files as released: the gold answer

    @property
    def gold_patch(self) -> str:
        return patch.make(self.start, self.fixed)

    @property
    def test_patch(self) -> str:
        return patch.make(self.start, self.buggy)


@functools.lru_cache(maxsize=32)
def instance(slug: str, index: int) -> Instance:
    row = rows(slug)[index]
    release = release_tree(slug)
    try:
        buggy, _ = patch.apply(release, patch.parse(row["bug_patch"]))
    except (patch.PatchRefused, patch.DoesNotApply) as exc:
        raise trees.TreeError(f"{row['instance_id']}: its bug does not apply to {slug}'s release: {exc}") from None
    start = {p: t for p, t in buggy.items() if p not in set(row["hidden_modules"])}
    fixed = {**start, **{p: release[p] for p in start if release.get(p) != start[p]}}
    return Instance(row, release, buggy, start, fixed)


def start_tree(slug: str, index: int) -> dict[str, str]:
    """The base tree of `{"real": {"project": slug, "row": index}}` (trees.base_tree)."""
    if slug not in pins() or not 0 <= index < len(rows(slug)):
        raise trees.TreeError(f"no shipped instance {index} of real project {slug!r}")
    return dict(instance(slug, index).start)


def fetch_all():
    """(pin, path, error or None) for every shipped project, fetched into the cache where missing."""
    import shutil
    import tempfile

    from ..taskbuild.source import SourceError, download_sdist

    for pin in pins().values():
        path = sdist_path(pin)
        if os.path.isfile(path) and _sha256(path) == pin.sha256:
            yield pin, path, None
            continue
        if mirror_pin(pin) is not None and not os.path.isfile(path):  # the mirror, into the asset cache
            try:
                yield pin, sdist_file(pin), None
            except trees.TreeError as exc:
                yield pin, path, str(exc)
            continue
        with tempfile.TemporaryDirectory(prefix="rlhub-sdist-") as tmp:
            try:
                got = download_sdist(pin.name, pin.version, tmp)
            except SourceError as exc:
                yield pin, path, str(exc)
                continue
            digest = _sha256(got)
            if digest != pin.sha256:
                yield pin, path, f"the index served {os.path.basename(got)} with sha256 {digest}, pinned {pin.sha256}: refused"
                continue
            os.makedirs(cache_dir(pin), exist_ok=True)
            shutil.move(got, path + ".part")
            os.replace(path + ".part", path)
        yield pin, path, None
