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
