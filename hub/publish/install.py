"""`rlhub install ORG/NAME[@VERSION]`: download a tagged release, verify it, trust it, pip-install it.

Trust is explicit: nothing is installed without `--trust` (or a "yes" at the prompt), since a
plugin is code. The release's content hash is checked against, in order: a hash the user pins
(`--sha256`, or `hf://ORG/NAME@v1.2.0#sha256=...` in a registry), and the hash recorded the first
time this machine installed that tag (a tag that changes afterwards is refused).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UserError
from ..core.files import atomic_write
from . import manifest

_SPEC = re.compile(r"^(?:hf://)?(?P<repo>[\w.-]+/[\w.-]+)(?:@(?P<version>[\w.+-]+))?(?:#sha256=(?P<sha>[0-9a-f]{64}))?$")


@dataclass(frozen=True)
class ReleaseSpec:
    repo: str
    version: str | None = None
    sha256: str | None = None

    @classmethod
    def parse(cls, text: str) -> "ReleaseSpec":
        m = _SPEC.match(text.strip())
        if not m:
            raise UserError(f"bad release {text!r}: expected ORG/NAME[@VERSION][#sha256=HEX] or hf://ORG/NAME@VERSION")
        return cls(m["repo"], m["version"], m["sha"])

    @property
    def tag(self) -> str | None:
        if self.version is None:
            return None
        return self.version if self.version.startswith("v") else f"v{self.version}"


def home() -> Path:
    return Path(os.environ.get("RLHUB_HOME", Path.home() / ".cache" / "rlhub"))


class TrustStore:
    """Which release digests this machine has installed, per (repo, tag)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or home() / "releases.json"
        try:
            self.data = json.loads(self.path.read_text())
        except FileNotFoundError:
            self.data = {}
        except json.JSONDecodeError as exc:
            raise UserError(f"{self.path}: corrupt trust store ({exc}); remove it to start afresh") from None

    def get(self, repo: str, tag: str) -> dict | None:
        return self.data.get(f"{repo}@{tag}")

    def record(self, repo: str, tag: str, digest: str, distribution: str, version: str) -> None:
        self.data[f"{repo}@{tag}"] = {"digest": digest, "distribution": distribution, "version": version}
        atomic_write(self.path, lambda fh: json.dump(self.data, fh, indent=1, sort_keys=True))


def latest_tag(repo: str) -> str:
    from huggingface_hub import HfApi
    from packaging.version import InvalidVersion, Version

    def key(name: str):
        try:
            return Version(name.lstrip("v"))
        except InvalidVersion:
            return Version("0")

    tags = [t.name for t in HfApi().list_repo_refs(repo, repo_type="dataset").tags if t.name.startswith("v")]
    if not tags:
        raise UserError(f"{repo} has no release tags (v1.2.3); publish one with `rlhub push`")
    return max(tags, key=key)


def download(spec: ReleaseSpec) -> tuple[str, Path]:
    """The release folder for `spec` (from the local cache when HF_HUB_OFFLINE=1)."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError

    tag = spec.tag or latest_tag(spec.repo)
    try:
        path = snapshot_download(spec.repo, repo_type="dataset", revision=tag)
    except RevisionNotFoundError:
        raise UserError(f"{spec.repo} has no release {tag}") from None
    except RepositoryNotFoundError:
        raise UserError(f"no dataset repository {spec.repo} on {os.environ.get('HF_ENDPOINT', 'the Hub')}") from None
    except LocalEntryNotFoundError:
        raise UserError(f"{spec.repo}@{tag} is not in the local cache and the Hub is offline "
                        "(HF_HUB_OFFLINE=1): run `rlhub prefetch` where the network is available") from None
    except HfHubHTTPError as exc:
        raise UserError(f"downloading {spec.repo}@{tag} failed: {exc}") from None
    return tag, Path(path)


def install(spec: ReleaseSpec, trust: bool = False, confirm=None, store: TrustStore | None = None,
            pip_args: tuple[str, ...] = ()) -> dict:
    store = store or TrustStore()
    tag, folder = download(spec)
    known = store.get(spec.repo, tag)
    expected = spec.sha256 or (known["digest"] if known else None)
    release = manifest.verify(folder, expected)
    digest = manifest.digest(release)
    wheels = sorted(folder.glob("dist/*.whl"))
    if len(wheels) != 1:
        raise UserError(f"{spec.repo}@{tag}: expected exactly one wheel under dist/, found {len(wheels)}")
    if not trust:
        question = (f"Install {release['distribution']} {release['version']} from {spec.repo}@{tag} "
                    f"(sha256 {digest[:16]}...)? It runs code on this machine. [y/N] ")
        if confirm is None:
            if not sys.stdin.isatty():
                raise UserError(f"refusing to install code from {spec.repo}@{tag} without explicit trust: "
                                "pass --trust (scripts) or run interactively")
            confirm = lambda q: input(q).strip().lower() in ("y", "yes")  # noqa: E731
        if not confirm(question):
            raise UserError("not installed: trust was declined")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-input", "-q", *pip_args, str(wheels[0])],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise UserError(f"pip could not install {wheels[0].name}:\n{proc.stderr[-2000:]}")
    store.record(spec.repo, tag, digest, release["distribution"], release["version"])
    return {"repo": spec.repo, "tag": tag, "digest": digest, "distribution": release["distribution"],
            "version": release["version"], "wheel": wheels[0].name}


def prefetch(specs: list[ReleaseSpec]) -> list[dict]:
    """Download (and verify) releases into the local cache, for clusters without internet."""
    out = []
    for spec in specs:
        tag, folder = download(spec)
        release = manifest.verify(folder, spec.sha256)
        out.append({"repo": spec.repo, "tag": tag, "digest": manifest.digest(release), "path": str(folder)})
    return out
