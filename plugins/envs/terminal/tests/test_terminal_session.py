"""The multi-turn terminal episode, driven through reset()/step() on the real bwrap sandbox."""

from __future__ import annotations

import os
import subprocess

import pytest
from terminal_helpers import body, fenced_file

from hub.sandbox import RunResult, get_sandbox

LABEL = {"env": "terminal/session-bugfix-binary-search-v1", "seed": 3}


def open_episode(catalog, label=LABEL):
    ep = catalog.episode(label)
    prompt = ep.reset()
    return ep, prompt


def test_prompt_documents_the_action_format(catalog):
    ep, prompt = open_episode(catalog)
    assert "```bash" in prompt and "file=solution.py" in prompt and "SUBMIT" in prompt
    assert f"You have {ep.max_turns} replies" in prompt
    ep.close()


def test_scripted_policy_fails_reads_the_error_fixes_and_submits(catalog):
    ep, _ = open_episode(catalog)
    task = ep.task
    wrong = body(catalog.get(LABEL["env"]).env.wrong_responses(task)[0])
    probe = "```bash\npython3 -c 'from solution import find; print(find([1, 3, 5], 5))'\n```\n"
    step = ep.step(fenced_file("solution.py", wrong) + probe)
    assert not step.done and step.verdict is None
    assert "wrote solution.py" in step.observation
    assert "exit code 0" in step.observation and "\n-1" in step.observation  # the bug, visible to the model
    assert "5 left" in step.observation
    step = ep.step(fenced_file("solution.py", body(task.reference)) + probe + "SUBMIT\n")
    assert step.done and "\n2" in step.observation
    assert step.verdict.passed and step.verdict.reward == 1.0
    assert step.verdict.details["episode"] == {"turns": 2, "submitted": True, "infra_retries": 0}
    assert step.verdict.verifier is not None and step.verdict.verifier.name == "unit_tests"
    assert ep.step("anything") is step  # a finished episode stays finished


def test_submitting_the_wrong_fix_earns_nothing(catalog):
    ep, _ = open_episode(catalog)
    wrong = body(catalog.get(LABEL["env"]).env.wrong_responses(ep.task)[0])
    step = ep.step(fenced_file("solution.py", wrong) + "SUBMIT")
    assert step.done and not step.verdict.passed and step.verdict.reward == 0.0 and step.verdict.error is None


def test_model_errors_are_observations_not_faults(catalog):
    ep, _ = open_episode(catalog)
    step = ep.step("```bash\npython3 -c 'import solution'\necho done >&2; exit 3\n```")
    assert not step.done
    assert "exit code 3" in step.observation and "ModuleNotFoundError" in step.observation
    assert step.info["infra_retries"] == 0
    ep.close()


def test_turn_budget_ends_the_episode_and_grades_what_is_there(catalog):
    ep, _ = open_episode(catalog)
    for turn in range(1, ep.max_turns):
        step = ep.step("```bash\necho thinking\n```")
        assert not step.done and f"{ep.max_turns - turn} left" in step.observation
    step = ep.step("```bash\necho out of time\n```")
    assert step.done and not step.verdict.passed and step.verdict.error is None
    assert "solution.py: it does not exist" in step.observation
    assert step.verdict.details["episode"]["submitted"] is False


def test_bash_task_in_a_session(catalog):
    label = {"env": "terminal/session-sh-count-lines-v1", "seed": 1}
    ep, _ = open_episode(catalog, label)
    script = body(ep.task.reference)
    step = ep.step(fenced_file("solution.sh", script, "bash") + "```bash\nprintf 'a\\nb\\n' > t.txt; bash solution.sh\n```")
    assert "t.txt 2" in step.observation and "total 2" in step.observation
    step = ep.step("SUBMIT")
    assert step.done and step.verdict.passed, step.verdict.details


class FlakySandbox:
    """The real sandbox, except that the first `faults` session commands die with an
    infrastructure error (and take their session with them), as a crashed sandbox would."""

    def __init__(self, faults: int) -> None:
        self.real, self.faults, self.opened = get_sandbox(), faults, 0

    def __getattr__(self, name):
        return getattr(self.real, name)

    def session(self, profile):
        self.opened += 1
        return FlakySession(self, self.real.session(profile))


class FlakySession:
    def __init__(self, box: FlakySandbox, cm) -> None:
        self.box, self.cm = box, cm

    def __enter__(self):
        self.inner = self.cm.__enter__()
        return self

    def __exit__(self, *exc):
        return self.cm.__exit__(*exc)

    def write_files(self, files):
        return self.inner.write_files(files)

    def read_files(self, paths):
        return self.inner.read_files(paths)

    def run(self, argv, **kw):
        if self.box.faults > 0:
            self.box.faults -= 1
            self.inner.close()  # the sandbox is gone: its work dir with it
            return RunResult(infra_error="injected: sandbox process died")
        return self.inner.run(argv, **kw)


def test_infra_fault_is_retried_and_the_work_dir_restored(catalog):
    ep, _ = open_episode(catalog)
    ep.ctx._sandbox = FlakySandbox(faults=1)
    step = ep.step(fenced_file("solution.py", "VALUE = 41\n") + "```bash\necho first\n```")
    assert "first" in step.observation and step.info["infra_retries"] == 1
    assert ep.ctx._sandbox.opened == 2
    step = ep.step("```bash\npython3 -c 'import solution; print(solution.VALUE + 1)'\n```")
    assert "\n42" in step.observation  # the file written before the fault was replayed
    step = ep.step(fenced_file("solution.py", body(ep.task.reference)) + "SUBMIT")
    assert step.verdict.passed and step.verdict.details["episode"]["infra_retries"] == 1


def test_persistent_infra_fault_is_no_verdict_not_a_zero(catalog):
    ep, _ = open_episode(catalog)
    ep.ctx._sandbox = FlakySandbox(faults=100)
    step = ep.step("```bash\necho hello\n```")
    assert step.done and step.verdict.error and "sandbox failed" in step.verdict.error
    assert not step.verdict.ok and step.info["infra_error"]


HOSTILE = [
    ("fork bomb", ":(){ :|:& };:", None),
    ("output flood", "yes AAAAAAAAAAAAAAAA | head -c 20000000", "characters cut"),
    ("sleep past the limit", "sleep 120", "timed out"),
    ("read and write the host", "cat /etc/shadow; echo x > /etc/hosts; ls /root; echo rc=$?", None),
    ("kill everything", "kill -9 -1; echo still", None),
    ("fill the disk", "head -c 500000000 /dev/zero > big.bin; ls -la big.bin", None),
    ("memory hog", "python3 -c 'x = bytearray(4 << 30)'", None),
    ("network", "python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), timeout=2)'", None),
]


@pytest.mark.parametrize("name,command,expect", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_commands_get_an_observation_and_the_session_survives(catalog, name, command, expect):
    ep, _ = open_episode(catalog)
    step = ep.step(f"```bash\n{command}\n```")
    assert not step.done and step.info["infra_retries"] == 0, step.info
    assert len(step.observation) < 6000
    assert "root:" not in step.observation
    if expect:
        assert expect in step.observation
    step = ep.step("```bash\necho alive > proof.txt; cat proof.txt\n```")
    assert "alive" in step.observation and "exit code 0" in step.observation
    ep.close()


def test_planted_symlinks_and_directories_do_not_leak_or_crash(catalog):
    ep, _ = open_episode(catalog)
    step = ep.step("```bash\nln -s /etc/passwd solution.py; mkdir -p d/sub\n```\n"
                   "```python file=d\nx = 1\n```")
    assert "could not write d" in step.observation
    step = ep.step("SUBMIT")
    assert step.done and not step.verdict.passed and step.verdict.error is None
    assert "root:x" not in str(step.verdict.details) and "root:x" not in step.observation


def _children() -> int:
    return len(subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout.split())


def test_close_and_finish_release_the_session_sandbox(catalog):
    before = _children()
    ep, _ = open_episode(catalog)
    ep.step("```bash\necho hi\n```")
    assert _children() == before + 1  # the episode's persistent sandbox
    ep.close()
    assert _children() == before
    ep, _ = open_episode(catalog)
    ep.step("```bash\necho hi\n```\nSUBMIT")  # finishing also releases it
    assert _children() == before
