"""Push, tag, install at a tag, search, tamper and refuse: the round trip against a loopback Hub."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("olah", reason="the loopback Hub needs olah (pip install olah)")
from hubserver import LocalHub  # noqa: E402

from hub.testing.pyenv import overlay_venv  # noqa: E402

PLUGIN = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools>=68"]
        build-backend = "setuptools.build_meta"
        [project]
        name = "rlhub-echotest"
        version = "0.1.0"
        license = "MIT"
        description = "Echo words back in capitals"
        dependencies = ["rlhub"]
        [project.entry-points.rlhub]
        echotest = "rlhub_echotest.plugin"
        [tool.setuptools]
        packages = ["rlhub_echotest"]
    """,
    "registry.yaml": "environments:\n  - id: 'echotest/*'\n",
    "rlhub_echotest/__init__.py": "",
    "rlhub_echotest/plugin.py": """
        from hub import Environment, Task, hookimpl

        class Upper(Environment):
            def generate(self, rng, index):
                word = rng.choice(["alpha", "bravo", "charlie"]) + str(rng.randint(1000, 9999))
                return Task(prompt=f"Repeat in capitals: {word}", hidden={"answer": word.upper()},
                            reference=word.upper())

        @hookimpl
        def rlhub_register_envs(register):
            register("echotest/upper-v1", Upper, verifier="exact_match")
    """,
}


@pytest.fixture(scope="module")
def hub_server(tmp_path_factory):
    server = LocalHub(tmp_path_factory.mktemp("hub")).start()
    yield server
    server.stop()


class Machine:
    """A separate Python environment (a venv over this one's packages, system Python or venv alike)
    with its own caches."""

    def __init__(self, root: Path, hub: LocalHub) -> None:
        self.root = root
        self.python = str(overlay_venv(root / "venv"))
        self.env = {**os.environ, "HF_ENDPOINT": hub.endpoint, "HF_HOME": str(root / "hf"), "HF_TOKEN": "hf_test",
                    "RLHUB_HOME": str(root / "rlhub"), "HF_HUB_DISABLE_TELEMETRY": "1", "PYTHONPATH": ""}

    def run(self, *args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([self.python, *args], env={**self.env, **env}, cwd=cwd or self.root,
                              capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)

    def rlhub(self, *args: str, **kw) -> subprocess.CompletedProcess:
        return self.run("-m", "hub.cli", *args, **kw)


@pytest.fixture(scope="module")
def published(hub_server, tmp_path_factory):
    root = tmp_path_factory.mktemp("publisher")
    plugin = root / "plugin"
    for name, text in PLUGIN.items():
        (plugin / name).parent.mkdir(parents=True, exist_ok=True)
        (plugin / name).write_text(textwrap.dedent(text))
    publisher = Machine(root, hub_server)
    pip = publisher.run("-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e", str(plugin))
    assert pip.returncode == 0, pip.stderr
    out = publisher.rlhub("push", str(plugin), "--repo", "org/echo", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    return {"plugin": plugin, "publisher": publisher, **json.loads(out.stdout.strip().splitlines()[-1])}


def test_push_publishes_a_tagged_release_with_card_sample_and_manifest(published, hub_server):
    assert published["tag"] == "v0.1.0" and len(published["digest"]) == 64
    repo = hub_server.repo_path("datasets", "org/echo")
    files = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "v0.1.0"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert {"README.md", "registry.yaml", "rlhub-manifest.json", "data/sample.parquet"} <= set(files)
    assert any(f.startswith("dist/rlhub_echotest-0.1.0") and f.endswith(".whl") for f in files)
    from huggingface_hub import DatasetCard

    card_text = subprocess.run(["git", "-C", str(repo), "show", "v0.1.0:README.md"], capture_output=True,
                               text=True, check=True).stdout
    card = DatasetCard(card_text).data.to_dict()
    assert "rl-environment" in card["tags"] and card["license"] == "mit"
    assert card["rlhub"]["environments"][0]["id"] == "echotest/upper-v1"
    assert card["rlhub"]["environments"][0]["reward_range"] == [0.0, 1.0]


def test_sample_has_prompts_and_labels_but_no_answers(published, hub_server, tmp_path):
    import datasets

    repo = hub_server.repo_path("datasets", "org/echo")
    blob = subprocess.run(["git", "-C", str(repo), "show", "v0.1.0:data/sample.parquet"], capture_output=True,
                          check=True).stdout
    (tmp_path / "s.parquet").write_bytes(blob)
    ds = datasets.load_dataset("parquet", data_files=str(tmp_path / "s.parquet"), split="train")
    assert set(ds.column_names) == {"env", "label", "prompt"} and len(ds) == 32
    for row in ds:
        answer = row["prompt"].split(": ")[1].upper()
        assert answer not in row["prompt"]


def test_a_release_is_never_moved(published):
    again = published["publisher"].rlhub("push", str(published["plugin"]), "--repo", "org/echo")
    assert again.returncode == 2 and "never moved" in again.stderr


def test_install_needs_explicit_trust_then_environments_appear(published, hub_server, tmp_path):
    machine = Machine(tmp_path, hub_server)
    refused = machine.rlhub("install", "org/echo@v0.1.0")
    assert refused.returncode == 2 and "without explicit trust" in refused.stderr
    assert "echotest" not in machine.rlhub("list", "--registry", str(published["plugin"] / "registry.yaml")).stdout
    ok = machine.rlhub("install", "org/echo@0.1.0", "--trust", "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)[0]["digest"] == published["digest"]
    listed = machine.rlhub("list", "--json", "--registry", str(published["plugin"] / "registry.yaml"))
    assert [r["id"] for r in json.loads(listed.stdout)] == ["echotest/upper-v1"]


def test_registry_naming_a_hub_release_refuses_until_installed(published, hub_server, tmp_path):
    machine = Machine(tmp_path, hub_server)
    reg = tmp_path / "registry.yaml"
    reg.write_text("environments:\n  - id: 'echotest/*'\n    source: hf://org/echo@v0.1.0\n")
    refused = machine.rlhub("list", "--registry", str(reg))
    assert refused.returncode == 2 and "rlhub install org/echo@v0.1.0" in refused.stderr
    assert machine.rlhub("install", "--from-registry", "--registry", str(reg), "--trust").returncode == 0
    assert machine.rlhub("list", "--registry", str(reg)).returncode == 0


def test_search_lists_environment_repositories_and_cards(published, hub_server, tmp_path):
    machine = Machine(tmp_path, hub_server)
    rows = json.loads(machine.rlhub("search", "--json").stdout)
    assert "org/echo" in [r["repo"] for r in rows]
    shown = json.loads(machine.rlhub("search", "--show", "org/echo", "--json").stdout)
    assert shown["version"] == "0.1.0" and shown["environments"][0]["id"] == "echotest/upper-v1"


def test_offline_install_from_a_prefetched_cache(published, hub_server, tmp_path):
    machine = Machine(tmp_path, hub_server)
    assert machine.rlhub("prefetch", "org/echo@v0.1.0").returncode == 0
    ok = machine.rlhub("install", "org/echo@v0.1.0", "--trust", HF_HUB_OFFLINE="1",
                       HF_ENDPOINT="http://127.0.0.1:9")  # nothing listens there: proves no network use
    assert ok.returncode == 0, ok.stderr
    missing = machine.rlhub("install", "org/other@v1.0.0", "--trust", HF_HUB_OFFLINE="1")
    assert missing.returncode == 2 and "rlhub prefetch" in missing.stderr


def test_tampered_releases_are_refused(published, hub_server, tmp_path):
    first = Machine(tmp_path / "first", hub_server)
    assert first.rlhub("install", "org/echo@v0.1.0", "--trust").returncode == 0

    def swap_wheel(path: Path) -> None:
        wheel = next(path.glob("dist/*.whl"))
        wheel.write_bytes(wheel.read_bytes() + b"\0evil")

    hub_server.tamper("org/echo", "v0.1.0", swap_wheel)
    fresh = Machine(tmp_path / "fresh", hub_server)
    out = fresh.rlhub("install", "org/echo@v0.1.0", "--trust")
    assert out.returncode == 2 and "does not match the manifest" in out.stderr

    def rewrite_manifest(path: Path) -> None:  # a consistent forgery: files and manifest agree
        from hub.publish import manifest

        (path / "rlhub-manifest.json").write_text(json.dumps(manifest.build(path, "rlhub-echotest", "0.1.0")))

    hub_server.tamper("org/echo", "v0.1.0", rewrite_manifest)
    pinned = Machine(tmp_path / "pinned", hub_server)
    out = pinned.rlhub("install", f"org/echo@v0.1.0#sha256={published['digest']}", "--trust")
    assert out.returncode == 2 and "changed after publishing" in out.stderr
    again = first.rlhub("install", "org/echo@v0.1.0", "--trust")  # this machine recorded the original
    assert again.returncode == 2 and "changed after publishing" in again.stderr
