"""Plugins discovered through real entry points (a dist-info on PYTHONPATH), run as the CLI."""

import json

from rlhub_cli_helpers import make_plugin_dist, run_rlhub

GOOD = '''
import random
from hub import Environment, Task, hookimpl

class Echo(Environment):
    def generate(self, rng, index):
        word = rng.choice(["alpha", "bravo", "charlie", "delta"]) + str(rng.randint(1000, 9999))
        return Task(prompt=f"Repeat the word in capitals: {word.lower()}", hidden={"answer": word.upper()},
                    reference=word.upper())

@hookimpl
def rlhub_register_envs(register):
    register("echo/upper-v1", Echo, verifier="exact_match", tags=("demo",))
'''


def test_installed_plugin_is_listed_with_its_distribution(plugin_dir, tmp_path):
    make_plugin_dist(plugin_dir, "rlhub-echo", "rlhub_echo", GOOD, version="1.2.3")
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'echo/*'\n")
    out = run_rlhub("plugins", "--json", pythonpath=plugin_dir)
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    assert rows["rlhub_echo"]["error"] is None
    assert rows["rlhub_echo"]["distribution"] == "rlhub-echo"
    assert rows["rlhub_echo"]["version"] == "1.2.3" and rows["rlhub_echo"]["environments"] == 1
    listed = run_rlhub("list", "--json", cwd=tmp_path, pythonpath=plugin_dir)
    assert [r["id"] for r in json.loads(listed.stdout)] == ["echo/upper-v1"]
    label = '{"env": "echo/upper-v1", "seed": 5}'
    ref = run_rlhub("reference", "--label", label, cwd=tmp_path, pythonpath=plugin_dir).stdout
    verdict = run_rlhub("verify", "--label", label, "--response-file", "-", cwd=tmp_path,
                        pythonpath=plugin_dir, stdin=ref)
    assert verdict.returncode == 0 and json.loads(verdict.stdout)["verifier"]["distribution"] == "rlhub"


def test_broken_plugins_are_reported_by_name_and_others_still_load(plugin_dir):
    make_plugin_dist(plugin_dir, "rlhub-echo", "rlhub_echo", GOOD)
    make_plugin_dist(plugin_dir, "rlhub-broken", "rlhub_broken", "import does_not_exist_anywhere\n")
    make_plugin_dist(plugin_dir, "rlhub-raises", "rlhub_raises", '''
from hub import hookimpl
from hub.plugins.builtin.arith import SumList
@hookimpl
def rlhub_register_envs(register):
    register("half/registered-v1", SumList, verifier="exact_match")
    raise RuntimeError("database not reachable")
''')
    out = run_rlhub("plugins", "--json", pythonpath=plugin_dir)
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    assert out.returncode == 1
    assert "ModuleNotFoundError" in rows["rlhub_broken"]["error"]
    assert "database not reachable" in rows["rlhub_raises"]["error"]
    assert rows["rlhub_raises"]["environments"] == 0  # all or nothing: nothing half-registered
    assert rows["rlhub_echo"]["error"] is None and rows["arith"]["error"] is None
    listed = run_rlhub("list", pythonpath=plugin_dir)
    assert listed.returncode == 0 and "arith/add-v1" in listed.stdout
    assert "plugin 'rlhub_broken' (rlhub-broken 0.1) failed to load" in listed.stderr
    assert "Traceback" not in listed.stderr
    (plugin_dir / "half.yaml").write_text("environments:\n  - id: 'half/*'\n")
    half = run_rlhub("list", "--registry", str(plugin_dir / "half.yaml"), pythonpath=plugin_dir)
    assert half.returncode == 2 and "matches no installed environment" in half.stderr


def test_duplicate_environment_id_is_the_later_plugins_error(plugin_dir):
    make_plugin_dist(plugin_dir, "rlhub-dup", "rlhub_dup", '''
from hub import hookimpl
from hub.plugins.builtin.arith import SumList
@hookimpl
def rlhub_register_envs(register):
    register("arith/sum-list-v1", SumList, verifier="exact_match")
''')
    rows = {r["name"]: r for r in json.loads(run_rlhub("plugins", "--json", pythonpath=plugin_dir).stdout)}
    assert "already registered by rlhub" in rows["rlhub_dup"]["error"]


ECHO_FRAGMENT = """\
    version: 1
    environments:
      - id: "echo/*"
        weight: 0.5
        tags: [from-fragment]
"""
QUIET = GOOD.replace("echo/upper-v1", "quiet/upper-v1")


def test_installed_plugins_are_on_by_default_in_any_folder(plugin_dir, tmp_path):
    """No ./registry.yaml: the default registry is the core's and every installed plugin's fragment."""
    make_plugin_dist(plugin_dir, "rlhub-echo", "rlhub_echo", GOOD, version="1.2.3", fragment=ECHO_FRAGMENT)
    make_plugin_dist(plugin_dir, "rlhub-quiet", "rlhub_quiet", QUIET)  # registers, but ships no fragment
    empty = tmp_path / "empty"
    empty.mkdir()
    listed = run_rlhub("list", "--json", cwd=empty, pythonpath=plugin_dir)
    assert listed.returncode == 0, listed.stderr
    rows = {r["id"]: r for r in json.loads(listed.stdout)}
    plugins = {p["name"]: p for p in json.loads(run_rlhub("plugins", "--json", cwd=empty, pythonpath=plugin_dir).stdout)}
    offered = sum(p["environments"] for p in plugins.values() if p["registry"] and not p["error"])
    datasets = [i for i in rows if i.startswith("unittest/")]  # declared from data by rlhub-unittest's fragment
    # every environment of every plugin that ships a fragment, the core's 6 examples, the datasets
    assert len(rows) == offered + 6 + len(datasets) and len(datasets) == 6
    assert rows["echo/upper-v1"]["tags"] == ["demo", "from-fragment"] and rows["echo/upper-v1"]["weight"] == 0.5
    assert plugins["rlhub_echo"]["registry"].endswith("rlhub_echo/registry.yaml")
    assert "rlhub: registry: the installed plugins' registries (rlhub (core), " in listed.stderr
    assert "rlhub-echo 1.2.3" in listed.stderr
    # installed but in no registry: named as such, with the fix
    shown = run_rlhub("show", "quiet/upper-v1", cwd=empty, pythonpath=plugin_dir)
    assert shown.returncode == 2
    assert ("environment 'quiet/upper-v1' is installed from rlhub-quiet 0.1, but no installed plugin's registry "
            "fragment selects it: list it in a registry (`- id: 'quiet/upper-v1'` under environments:)") in shown.stderr
    # a ./registry.yaml still decides, and says so
    (empty / "registry.yaml").write_text("environments:\n  - id: 'arith/add-v1'\n")
    local = run_rlhub("list", "--json", cwd=empty, pythonpath=plugin_dir)
    assert [r["id"] for r in json.loads(local.stdout)] == ["arith/add-v1"]
    assert "rlhub: registry: registry.yaml" in local.stderr
    left_out = run_rlhub("list", "echo/*", cwd=empty, pythonpath=plugin_dir)
    assert ("'echo/*' matches 1 installed environment(s) from rlhub-echo 1.2.3, but registry registry.yaml leaves it "
            "out: add `- id: 'echo/*'` to its environments") in left_out.stderr


def test_the_shipped_plugins_fragments_are_their_registry_files():
    """Each plugin of this repository ships its registry.yaml as package data (a symlink in the
    checkout, a copy in a wheel) and the installed default lists what the repository's registry does."""
    from pathlib import Path

    from hub.config.catalog import Catalog
    from hub.config.registry import CORE_FRAGMENT, Registry, _read
    from hub.plugins.manager import installed

    repo = Path(__file__).resolve().parents[2]
    fragments = {p.distribution: p.fragment for p in installed().plugins if p.fragment}
    for dist, folder in [("rlhub-cad", "plugins/envs/cad"), ("rlhub-docqa", "plugins/envs/docqa"),
                         ("rlhub-terminal", "plugins/envs/terminal"), ("rlhub-unittest", "plugins/verifiers/unittest")]:
        assert fragments[dist] == (repo / folder / "registry.yaml").resolve()
    union = Catalog(Registry.union([_read(CORE_FRAGMENT), *map(_read, fragments.values())], name="u"), installed())
    assert set(union.envs) == set(Catalog.load(repo / "registry.yaml").envs)
