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

class Farmable(Good):
    """A comparison whose answer is one of the two numbers it shows: picking either blindly
    earns half (the cheap policy the check must catch); a constant earns nothing."""
    def generate(self, rng, index):
        a, b = rng.sample(range(100, 1000), 2)
        return Task(prompt=f"Which is larger, {a} or {b}?", hidden={"answer": str(max(a, b))}, reference=str(max(a, b)))
    def cheap_answers(self, task):
        first, second = task.prompt.removesuffix("?").split()[-3::2]
        return {"either number": [first, second], "a constant": ["500"]}

from hub import Variant, Verdict, Verifier
from hub.core.response import read

class Closeness(Verifier):
    """Partial credit for a near number: 1 - |error| / 100; passes only when exact."""
    name = "closeness"
    def verify(self, task, response, ctx):

        want = int(task.hidden["answer"])
        try:
            got = int(read(response).visible.strip())
        except ValueError:
            return Verdict(0.0, False)
        return Verdict(max(0.0, 1 - abs(got - want) / 100), got == want)
    def hacks(self, task):
        return [Variant("hedge", f"{task.hidden['answer']} or {int(task.hidden['answer']) + 1}")]

class Graded(Good):
    def wrong_answers(self, task):
        a = int(task.hidden["answer"])
        return [Variant("off_by", str(a + d), size=d) for d in (1, 5, 50)]
    def right_answers(self, task):
        return [" " + task.reference + chr(10)]

class NonMonotone(Graded):
    def wrong_answers(self, task):  # sizes stated backwards: the bigger error looks smaller
        a = int(task.hidden["answer"])
        return [Variant("off_by", str(a + d), size=s) for d, s in ((1, 50), (50, 1))]

class Capped(Graded):
    def wrong_answers(self, task):
        return [Variant("off_by", str(int(task.hidden["answer"]) + 1), size=1, max_reward=0.5)]

class RightRejected(Graded):
    def right_answers(self, task):
        return [task.reference + ".0"]

class HackEarns(Verifier):
    """A verifier that a hedge fools: it accepts any response containing the answer."""
    name = "hackable"
    def verify(self, task, response, ctx):
        ok = task.hidden["answer"] in response
        return Verdict(float(ok), ok)
    hacks = Closeness.hacks

class CacheHidesBug(Verifier):
    """Right while its cache is on; with every cache off (a fresh machine) its slow path
    compares against the wrong value: the bug a warm cache hides."""
    name = "cache_hides_bug"
    def verify(self, task, response, ctx):
        import os
        want = task.hidden["answer"]
        if os.environ.get("RLHUB_CACHE") == "off":
            want = want[::-1]
        got = read(response).visible.strip()
        return Verdict(float(got == want), got == want)

class Naive(Verifier):
    """Reads the response its own way: reasoning in <think> makes a right answer wrong."""
    name = "naive"
    def verify(self, task, response, ctx):
        ok = response.strip() == task.hidden["answer"]
        return Verdict(float(ok), ok)

class Drifting(Verifier):
    """Grades right, but a response graded before earns a little less: state leaks between calls."""
    name = "drifting"
    seen = set()
    def verify(self, task, response, ctx):
        ok = read(response).visible.strip() == task.hidden["answer"]
        reward = (0.999 if response in self.seen else 1.0) if ok else 0.0
        self.seen.add(response)
        return Verdict(reward, ok)

@hookimpl
def rlhub_register_verifiers(register):
    register(Drifting)
    register(Closeness)
    register(HackEarns)
    register(CacheHidesBug)
    register(Naive)

@hookimpl
def rlhub_register_envs(register):
    for name, cls in [("good", Good), ("wrongref", WrongReference), ("leaky", Leaky),
                      ("globalrandom", GlobalRandom), ("hashseeded", HashSeeded)]:
        register(f"bad/{name}-v1", cls, verifier="exact_match")
    register("bad/drift-v1", Good, verifier="drifting")
    for name, cls in [("graded", Graded), ("nonmonotone", NonMonotone), ("capped", Capped),
                      ("rightrejected", RightRejected)]:
        register(f"bad/{name}-v1", cls, verifier="closeness")
    register("bad/hackable-v1", Graded, verifier="hackable")
    register("bad/cachehidesbug-v1", Good, verifier="cache_hides_bug")
    register("bad/naive-v1", Good, verifier="naive")
    register("bad/farmable-v1", Farmable, verifier="exact_match")
'''


def failed_checks(summary):
    return {f["check"].rsplit("::", 1)[1].split("[")[0] for f in summary["failures"]}


def test_checks_pass_on_a_good_environment_and_catch_each_defect(plugin_dir, tmp_path):
    make_plugin_dist(plugin_dir, "rlhub-bad", "rlhub_bad", BROKEN)
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'bad/*'\n")
    results = {}
    for name in ("good", "wrongref", "leaky", "globalrandom", "hashseeded", "drift", "cachehidesbug"):
        out = run_rlhub("check", f"bad/{name}-v1", "--json", cwd=tmp_path, pythonpath=plugin_dir)
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        results[name] = (out.returncode, failed_checks(summary), summary)
    assert results["good"][0] == 0 and results["good"][2]["passed"] == 18, results["good"]
    assert results["good"][2]["skipped"] == 2  # no hacks declared: skipped, named
    assert results["wrongref"][0] == 1 and "reference_full_reward" in results["wrongref"][1]
    assert results["leaky"][0] == 1 and results["leaky"][1] == {"no_leak"}
    assert results["globalrandom"][0] == 1 and "generation_deterministic" in results["globalrandom"][1]
    # hash() is stable inside one process but not across processes: only the other-process check sees it
    assert results["hashseeded"][0] == 1 and results["hashseeded"][1] == {"generation_deterministic"}
    assert results["drift"][0] == 1 and results["drift"][1] == {"verifier_deterministic"}
    # only a fresh process with every cache off sees the bug
    assert results["cachehidesbug"][1] == {"reference_fresh_process"}, results["cachehidesbug"]


def test_pytest_collects_a_registry_file_directly(tmp_path):
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'arith/add-v1'\n")
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "registry.yaml"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "18 passed, 2 skipped" in out.stdout


def test_check_reports_a_bad_registry_as_one_line_before_pytest_runs(tmp_path):
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'arith/nope-v1'\n")
    out = run_rlhub("check", cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("rlhub: error: registry.yaml:2: environments[0].id: unknown environment 'arith/nope-v1'; "
                                 "did you mean ") and len(out.stderr.splitlines()) == 1


def test_checks_hold_wrong_answers_to_their_kind_size_and_cap(plugin_dir, tmp_path):
    """Graded wrong answers: they must fail, respect their cap, and be monotone in their size;
    right forms must earn what the reference earns; the verifier's hacks must earn nothing."""
    make_plugin_dist(plugin_dir, "rlhub-bad", "rlhub_bad", BROKEN)
    (tmp_path / "registry.yaml").write_text("environments:\n  - id: 'bad/*'\n")
    results = {}
    for name in ("graded", "nonmonotone", "capped", "rightrejected", "hackable", "naive", "farmable"):
        out = run_rlhub("check", f"bad/{name}-v1", "--json", cwd=tmp_path, pythonpath=plugin_dir)
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        results[name] = (out.returncode, failed_checks(summary), summary)
    assert results["graded"][0] == 0 and results["graded"][2]["passed"] == 20, results["graded"]
    assert results["nonmonotone"][1] == {"wrong_fails"}, results["nonmonotone"]
    assert "size 50" in str(results["nonmonotone"][2]["failures"])
    assert results["capped"][1] == {"wrong_fails"} and "cap 0.5" in str(results["capped"][2]["failures"])
    assert results["rightrejected"][1] == {"right_forms_pass"}, results["rightrejected"]
    assert results["hackable"][1] == {"hacks_fail"}, results["hackable"]
    assert "hedge" in str(results["hackable"][2]["failures"])
    # a verifier that does not read responses through hub.core.response rejects the reasoning form
    assert results["naive"][1] == {"right_forms_pass"} and "<think>" in str(results["naive"][2]["failures"])
    # a policy that picks one of the shown numbers blindly earns 0.5 on average: caught, and named
    assert results["farmable"][1] == {"cheap_policies_fail"}, results["farmable"]
    failure = str(results["farmable"][2]["failures"])
    assert "either number earned 0.50" in failure and "a constant" not in failure

