"""The pytest verifier checks catch broken environments (run through `rlhub check`, for real)."""

import json

from rlhub_cli_helpers import make_plugin_dist, run_rlhub

BROKEN = '''
import random as global_random
from hub import Environment, Task, hookimpl

class Good(Environment):
    def generate(self, rng, index):
        a, b = rng.randint(100, 999), rng.randint(100, 999)
        return Task(prompt=f"{a}+{b}=?", hidden={"answer": str(a + b)}, reference=str(a + b))

class WrongReference(Good):
    def generate(self, rng, index):
        task = super().generate(rng, index)
        task.reference = str(int(task.reference) + 1)
        return task

class Leaky(Good):
    def generate(self, rng, index):
        task = super().generate(rng, index)
        task.prompt += f" (hint: {task.hidden['answer']})"
        return task

class GlobalRandom(Good):
    def generate(self, rng, index):
        return super().generate(global_random.Random(), index)

class HashSeeded(Good):
    def generate(self, rng, index):
        return super().generate(global_random.Random(hash("salt") + index), index)

from hub import Verdict, Verifier

class Drifting(Verifier):
    """Grades right, but a response graded before earns a little less: state leaks between calls."""
    name = "drifting"
    seen = set()
    def verify(self, task, response, ctx):
        ok = response.strip() == task.hidden["answer"]
        reward = (0.999 if response in self.seen else 1.0) if ok else 0.0
        self.seen.add(response)
        return Verdict(reward, ok)

@hookimpl
def rlhub_register_verifiers(register):
    register(Drifting)

@hookimpl
def rlhub_register_envs(register):
    for name, cls in [("good", Good), ("wrongref", WrongReference), ("leaky", Leaky),
                      ("globalrandom", GlobalRandom), ("hashseeded", HashSeeded)]:
        register(f"bad/{name}-v1", cls, verifier="exact_match")
    register("bad/drift-v1", Good, verifier="drifting")
'''


def failed_checks(summary):
    return {f["check"].rsplit("::", 1)[1].split("[")[0] for f in summary["failures"]}


def test_checks_pass_on_a_good_environment_and_catch_each_defect(plugin_dir, tmp_path):
    make_plugin_dist(plugin_dir, "rlhub-bad", "rlhub_bad", BROKEN)
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'bad/*'\n")
    results = {}
    for name in ("good", "wrongref", "leaky", "globalrandom", "hashseeded", "drift"):
        out = run_rlhub("check", f"bad/{name}-v1", "--json", cwd=tmp_path, pythonpath=plugin_dir)
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        results[name] = (out.returncode, failed_checks(summary), summary)
    assert results["good"][0] == 0 and results["good"][2]["passed"] == 14, results["good"]
    assert results["wrongref"][0] == 1 and "reference_full_reward" in results["wrongref"][1]
    assert results["leaky"][0] == 1 and results["leaky"][1] == {"no_leak"}
    assert results["globalrandom"][0] == 1 and "generation_deterministic" in results["globalrandom"][1]
    # hash() is stable inside one process but not across processes: only the other-process check sees it
    assert results["hashseeded"][0] == 1 and results["hashseeded"][1] == {"generation_deterministic"}
    assert results["drift"][0] == 1 and results["drift"][1] == {"verifier_deterministic"}


def test_pytest_collects_a_registry_file_directly(tmp_path):
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'arith/add-v1'\n")
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "registry.yaml"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "14 passed" in out.stdout


def test_check_reports_a_bad_registry_as_a_collection_error(tmp_path):
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'arith/nope-v1'\n")
    out = run_rlhub("check", cwd=tmp_path)
    assert out.returncode != 0 and "unknown environment 'arith/nope-v1'" in out.stdout
