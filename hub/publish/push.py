"""`rlhub push PLUGIN_DIR --repo ORG/NAME`: check, build, describe and upload one release."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version as installed_version
from pathlib import Path

from ..core.errors import UserError
from . import MANIFEST, manifest


@dataclass
class PluginDir:
    path: Path
    distribution: str
    version: str
    license: str
    description: str
    registry: Path

    @classmethod
    def read(cls, path: str | Path) -> "PluginDir":
        path = Path(path)
        pyproject = path / "pyproject.toml"
        try:
            project = tomllib.loads(pyproject.read_text())["project"]
        except FileNotFoundError:
            raise UserError(f"{pyproject}: no such file; PLUGIN_DIR must be a plugin distribution") from None
        except (tomllib.TOMLDecodeError, KeyError) as exc:
            raise UserError(f"{pyproject}: not a valid [project] table ({exc})") from None
        for key in ("name", "version"):
            if key not in project:
                raise UserError(f"{pyproject}: [project].{key} is required to publish (dynamic versions are not supported)")
        registry = path / "registry.yaml"
        if not registry.is_file():
            raise UserError(f"{registry}: no such file; a plugin publishes the registry fragment that selects its environments")
        lic = project.get("license", "unknown")
        lic = lic.get("text", "unknown") if isinstance(lic, dict) else str(lic)
        return cls(path, project["name"], str(project["version"]), lic, project.get("description", ""), registry)

    def check_installed(self) -> None:
        try:
            have = installed_version(self.distribution)
        except PackageNotFoundError:
            raise UserError(f"{self.distribution} is not installed here; run `pip install -e {self.path}` so its "
                            "checks can run before publishing") from None
        if have != self.version:
            raise UserError(f"installed {self.distribution} is {have} but {self.path}/pyproject.toml says {self.version}; "
                            f"reinstall it (`pip install -e {self.path}`)")


def build_release(plugin: PluginDir, out: Path, sample_size: int = 32, run_checks: bool = True) -> dict:
    """Fill `out` with the release files; returns the manifest (with its digest under 'digest')."""
    from ..config.catalog import Catalog
    from ..checks.runner import run_checks as checks
    from ..mixture.promptfile import sampler_for
    from ..mixture.records import prompt_records
    from .card import write_card

    plugin.check_installed()
    if run_checks and checks(registry=str(plugin.registry), select=None, seeds=2) != 0:
        raise UserError(f"verifier checks failed for {plugin.registry}; not publishing (see the report above)")
    cat = Catalog.load(plugin.registry)
    out.mkdir(parents=True, exist_ok=True)
    (out / "dist").mkdir()
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out / "dist"), str(plugin.path)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise UserError(f"building the wheel of {plugin.path} failed:\n{proc.stderr[-2000:]}")
    (out / "registry.yaml").write_text(plugin.registry.read_text())
    write_sample(cat, list(prompt_records(cat, sampler_for(cat, seed=0).sample(sample_size))), out / "data" / "sample.parquet")
    write_card(out / "README.md", plugin, cat)
    release = manifest.build(out, plugin.distribution, plugin.version)
    (out / MANIFEST).write_text(json.dumps(release, indent=1, sort_keys=True))
    return {**release, "digest": manifest.digest(release)}


def write_sample(cat, records: list[dict], path: Path) -> None:
    """Prompts and labels only (what a trainer sees), never hidden answers or references."""
    import datasets

    rows = [{"env": r["datasource"], "label": r["label"],
             "prompt": r["input"] if isinstance(r["input"], str) else json.dumps(r["input"])}
            for r in records]
    path.parent.mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(rows).to_parquet(str(path))


def push(plugin_dir: str | Path, repo: str, token: str | None = None, run_checks: bool = True,
         private: bool = False) -> dict:
    from huggingface_hub.errors import HfHubHTTPError

    try:
        return _push(plugin_dir, repo, token, run_checks, private)
    except HfHubHTTPError as exc:
        raise UserError(f"the Hub refused the upload to {repo}: {exc}") from None


def _push(plugin_dir, repo, token, run_checks, private) -> dict:
    from huggingface_hub import HfApi

    plugin = PluginDir.read(plugin_dir)
    tag = f"v{plugin.version}"
    api = HfApi(token=token)
    api.create_repo(repo, repo_type="dataset", exist_ok=True, private=private)
    existing = {t.name for t in api.list_repo_refs(repo, repo_type="dataset").tags}
    if tag in existing:
        raise UserError(f"{repo} already has release {tag}; releases are never moved: bump the version in "
                        f"{plugin.path}/pyproject.toml")
    with tempfile.TemporaryDirectory(prefix="rlhub-release-") as tmp:
        release = build_release(plugin, Path(tmp) / "release", run_checks=run_checks)
        commit = api.upload_folder(repo_id=repo, repo_type="dataset", folder_path=str(Path(tmp) / "release"),
                                   commit_message=f"{plugin.distribution} {plugin.version}",
                                   delete_patterns=["dist/*.whl"])
    api.create_tag(repo, repo_type="dataset", tag=tag, revision=commit.oid,
                   tag_message=f"{plugin.distribution} {plugin.version} sha256:{release['digest']}")
    return {"repo": repo, "tag": tag, "commit": commit.oid, "digest": release["digest"],
            "distribution": plugin.distribution, "version": plugin.version, "files": sorted(release["files"])}


__all__ = ["PluginDir", "build_release", "push"]
