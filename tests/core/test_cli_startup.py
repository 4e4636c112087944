"""`rlhub list` and `--help` start without loading the plugins (the start-up index), and the
index never shows a stale catalog: a plugin edited or installed is seen at the next start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from rlhub_cli_helpers import REPO, make_plugin_dist

HEAVY = ("cadquery", "OCP", "vtk", "trimesh", "torch", "datasets")  # an environment's, never a listing's
LOADING = ("numpy", "pydantic", "yaml")  # what a full load of the plugins and registry imports

# The CLI as the program itself (main() reading sys.argv), then what it imported, on stderr.
PROBE = f"""
import json, sys
from hub.cli.main import main
sys.argv = ["rlhub", *json.loads(sys.argv[1])]
try:
    rc = main()
finally:
    print("MODULES " + json.dumps([m for m in {HEAVY + LOADING!r} if m in sys.modules]), file=sys.stderr)
sys.exit(rc)
"""


def probe(*args: str, home: Path, cwd: Path = REPO, pythonpath: Path | None = None,
          cache: str = "") -> tuple[subprocess.CompletedProcess, list[str]]:
    env = {**os.environ, "RLHUB_HOME": str(home), "RLHUB_CACHE": cache}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out, json.loads(out.stderr.rsplit("MODULES ", 1)[1])


def age(*roots: Path) -> None:
    """Files older than the index's racy window, as files are that were not just written."""
    past = time.time() - 60
    for root in roots:
        for path in [root, *root.rglob("*")]:
            os.utime(path, (past, past))


def test_list_and_help_import_no_environment_and_from_the_index_no_plugin(tmp_path):
    full, loaded = probe("list", "--json", home=tmp_path)  # no index yet: the full load, which writes it
    assert "pydantic" in loaded and not set(loaded) & set(HEAVY), f"a listing imported {loaded}"
    listed, loaded = probe("list", "--json", home=tmp_path)
    assert loaded == [], f"`rlhub list` from the index imported {loaded}"
    assert listed.stdout == full.stdout and listed.stderr.split("MODULES")[0] == full.stderr.split("MODULES")[0]
    helped, loaded = probe("--help", home=tmp_path)
    assert loaded == [] and "list the registry's environments" in helped.stdout
    assert helped.stdout == probe("--help", home=tmp_path, cache="off")[0].stdout
    assert len(json.loads(listed.stdout)) > 100


ECHO = '''
from hub import Environment, Task, hookimpl

class Echo(Environment):
    def generate(self, rng, index):
        return Task(prompt="say hi", hidden={"answer": "hi"}, reference="hi")

@hookimpl
def rlhub_register_envs(register):
    for name in NAMES:
        register(name, Echo, verifier="exact_match", description="says hi")
'''


def test_index_sees_a_plugin_edited_and_a_plugin_installed(tmp_path):
    site, home, work = tmp_path / "site", tmp_path / "home", tmp_path / "work"
    work.mkdir()
    (work / "registry.yaml").write_text("environments:\n  - id: 'echo*'\n")
    make_plugin_dist(site, "rlhub-echo", "rlhub_echo", "NAMES = ['echo/hi-v1']\n" + ECHO)
    age(site, work)

    def ids(expect_loaded: bool) -> list[str]:
        out, loaded = probe("list", "--json", home=home, cwd=work, pythonpath=site)
        assert ("pydantic" in loaded) == expect_loaded, loaded  # a full load, or the index
        return [r["id"] for r in json.loads(out.stdout)]

    assert ids(expect_loaded=True) == ["echo/hi-v1"]
    assert ids(expect_loaded=False) == ["echo/hi-v1"]
    make_plugin_dist(site, "rlhub-echoes", "rlhub_echoes", "NAMES = ['echoes/hey-v1']\n" + ECHO)
    age(site, work)  # old enough to be indexed again; still not the times the index holds
    assert ids(expect_loaded=True) == ["echo/hi-v1", "echoes/hey-v1"]
    assert ids(expect_loaded=False) == ["echo/hi-v1", "echoes/hey-v1"]
    (site / "rlhub_echo.py").write_text("NAMES = ['echo/hi-v1', 'echo/hello-v1']\n" + ECHO)
    assert ids(expect_loaded=True) == ["echo/hello-v1", "echo/hi-v1", "echoes/hey-v1"]
