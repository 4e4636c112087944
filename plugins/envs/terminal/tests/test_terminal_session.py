"""The multi-turn terminal episode, driven through reset()/step() on the real bwrap sandbox."""

from __future__ import annotations

import os
import subprocess

import pytest
from terminal_helpers import FlakySandbox, body, fenced_file

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


# -- what the model leaves in the work dir is graded, never "no verdict" ---------------------------

def _played_probes(catalog, env):
    label = {"env": env, "seed": 0}
    ep = catalog.episode(label)
    wrong, right = catalog.get(env).env.episode_probes(ep.task)
    ep.close()
    return label, wrong, right


@pytest.mark.parametrize("env", [LABEL["env"], "terminal/session-sh-count-lines-v1"])
def test_fifos_sockets_dirs_and_links_at_the_solution_get_a_verdict_at_once(catalog, env):
    import time

    label, wrong, right = _played_probes(catalog, env)
    at_solution = {f"session_{k}_at_solution" for k in ("fifo", "socket")}
    assert at_solution <= {w.kind for w in wrong}
    wrong = [w for w in wrong if w.kind in at_solution]
    right = [r for r in right if r.kind == "session_odd_neighbours"]
    for probe in [*wrong, *right]:
        ep = catalog.episode(label)
        ep.reset()
        start = time.monotonic()
        step = ep.step(probe.turns[0])
        took = time.monotonic() - start
        v = step.verdict
        assert step.done and v.error is None, (probe.kind, v.error)  # a verdict, never "no verdict"
        assert step.info["infra_retries"] == 0 and took < 20, (probe.kind, took)  # nothing blocked or was retried
        if probe in wrong:
            kind = probe.kind.split("_")[1]
            assert v.reward == 0.0 and not v.passed
            assert "could not write" in step.observation and f"is a {kind}" in step.observation
            assert "nothing to grade" in step.observation
        else:
            assert v.reward == 1.0 and v.passed, v.details


def test_device_nodes_cannot_be_made_in_a_session(catalog):
    ep, _ = open_episode(catalog)
    step = ep.step("```bash\nmknod dev c 1 3; echo rc=$?; mknod blk b 7 0; echo rc=$?\n```")
    assert step.observation.count("rc=1") == 2 and "Operation not permitted" in step.observation
    ep.close()


def test_a_docstring_with_a_fenced_example_is_graded_as_the_file_is(catalog):
    label = {"env": "terminal/session-static-ruff-unused-v1", "seed": 0}
    ep = catalog.episode(label)
    ep.reset()
    code = body(ep.task.reference)
    documented = '"""Word statistics.\n\nExample:\n\n```python\n>>> top_words("a b a", 1)\n```\n"""\n' + code
    step = ep.step("````python file=solution.py\n" + documented + "````\nSUBMIT\n")  # a longer fence around ```
    assert "wrote solution.py" in step.observation
    assert step.verdict.error is None and step.verdict.reward == 1.0, step.verdict.details


def test_observations_are_capped_with_a_marker(catalog):
    from rlhub_terminal.session import MAX_OBSERVATION_CHARS

    ep, _ = open_episode(catalog)
    turn = "```x\n```\n" * 2000  # 18 KB of empty blocks of an unknown language: one note each, before
    turn += "```bash\nyes abcdefghij | head -c 200000; yes 0123456789 | head -c 200000 >&2\n```\n" * 8
    step = ep.step(turn)
    assert not step.done and len(step.observation) <= MAX_OBSERVATION_CHARS + 200
    assert "ignored a ```x block" in step.observation and "(x2000)" in step.observation  # one note, counted
    assert "characters cut" in step.observation
    ep.close()


def test_turn_budget_cuts_a_slow_turn_and_says_so(catalog):
    import time

    ep, _ = open_episode(catalog)
    ep.turn_budget_s = 2.0
    start = time.monotonic()
    step = ep.step("```bash\nsleep 1.5; echo one\n```\n```bash\nsleep 5; echo two\n```\n```bash\necho three\n```\n")
    assert time.monotonic() - start < 8
    assert "one" in step.observation and "timed out" in step.observation  # the 2nd was cut to what was left
    assert "not run: this turn's 2 s for commands were used up (1 action(s) skipped)" in step.observation
    assert not step.done and step.info["infra_retries"] == 0
    ep.close()


def test_close_from_another_thread_kills_the_running_step_and_nothing_reopens(catalog):
    import threading
    import time

    before = _children()
    ep, _ = open_episode(catalog)
    ep.step("```bash\necho warm\n```")
    out = {}
    runner = threading.Thread(target=lambda: out.setdefault("step", ep.step("```bash\nsleep 60\n```\n```bash\nsleep 60\n```")))
    runner.start()
    time.sleep(1.0)
    start = time.monotonic()
    ep.close()
    runner.join(10)
    assert not runner.is_alive() and time.monotonic() - start < 5  # killed, not waited for
    step = out["step"]
    assert step.done and step.verdict.error and "closed" in step.verdict.error and step.info.get("closed")
    assert step.info["infra_retries"] == 0  # the kill was not taken for a fault to retry
    assert _children() == before  # no sandbox reopened for a replay
    with pytest.raises(RuntimeError, match="closed"):
        ep.reset()


# -- red team, round 2: the file graded is the file's bytes, one size rule, no outcome to pick -------

STATIC = {"env": "terminal/session-static-ruff-unused-v1", "seed": 0}
WORDS = {"env": "terminal/session-word-frequency-v1", "seed": 0}
SHELL = {"env": "terminal/session-sh-count-lines-v1", "seed": 0}


def _played(catalog, label, turn):
    ep = catalog.episode(label)
    ep.reset()
    code = body(ep.task.reference)
    step = ep.step(turn(code))
    assert step.done and step.verdict.error is None, step.verdict.error  # a verdict, never "no verdict"
    return step


def test_an_analyser_crashing_on_the_file_costs_its_component_not_the_verdict(catalog):
    """ruff overflows its stack on a 40,000-term string annotation (signal 6): before, no verdict."""
    union = '_z: "' + "|".join(["int"] * 40_000) + '" = 0\n'
    step = _played(catalog, STATIC, lambda code: fenced_file("solution.py", code + "\n\n" + union) + "SUBMIT\n")
    v = step.verdict
    assert v.reward == pytest.approx(0.6) and not v.passed
    ruff = v.details["parts"]["ruff"]
    assert ruff["reward"] == 0.0 and ruff["details"]["limit"] == "crash" and "overflowed its stack" in ruff["details"]["reason"]


@pytest.mark.parametrize("label", [WORDS, STATIC], ids=["unit_tests", "rubric"])
def test_a_python_file_that_is_not_utf8_is_not_python(catalog, label):
    """CPython's import lets a bad byte in a comment through, `python3 solution.py` refuses the file:
    it is not Python source. Before, the grader read it with replacement characters: 1.0."""
    step = _played(catalog, label, lambda code: fenced_file("solution.py", code)
                   + "```bash\nprintf '# \\xff\\xfe bad\\n' >> solution.py; python3 solution.py; echo rc=$?\n```\nSUBMIT\n")
    assert "rc=1" in step.observation and "SyntaxError" in step.observation
    v = step.verdict
    assert v.reward == 0.0 and "it is not Python source text (byte" in v.details["reason"], v.details


def test_a_declared_encoding_is_python_as_python_reads_it(catalog):
    step = _played(catalog, WORDS, lambda code: "```bash\nprintf '# -*- coding: latin-1 -*-\\n# caf\\xe9\\n' > solution.py\n```\n"
                   + "```python file=body.py\n" + code.strip() + "\n```\n```bash\ncat body.py >> solution.py\n```\nSUBMIT\n")
    assert step.verdict.reward == 1.0, step.verdict.details


def test_a_script_is_graded_as_the_bytes_bash_runs(catalog):
    """Bash reads bytes: a comment that is not UTF-8 changes nothing, carriage returns change what
    the commands are (`set -o pipefail\r` is refused). Both are graded as the file holds them."""
    step = _played(catalog, SHELL, lambda code: fenced_file("solution.sh", code, "bash")
                   + "```bash\nprintf '# \\xff\\xfe bad\\n' >> solution.sh\n```\nSUBMIT\n")
    assert step.verdict.reward == 1.0, step.verdict.details
    step = _played(catalog, SHELL, lambda code: fenced_file("solution.sh", code, "bash")
                   + "```bash\nsed -i 's/$/\\r/' solution.sh; bash solution.sh; echo rc=$?\n```\nSUBMIT\n")
    assert step.verdict.reward == 0.0, step.verdict.details


@pytest.mark.parametrize("label", [WORDS, STATIC], ids=["unit_tests", "rubric"])
def test_one_size_rule_for_a_sessions_file(catalog, label):
    """Graded up to 256 KiB (what a file= block may write), whichever verifier grades it; before,
    the rubric refused 250 KB (its response cap) and unit_tests graded 300 KB."""
    from rlhub_terminal.actions import MAX_FILE_BYTES

    def padded(total):
        return lambda code: fenced_file("solution.py", code) + (
            f"```bash\npython3 -c \"import os; open('solution.py', 'a').write('#' * ({total} - os.path.getsize('solution.py') - 1) + '\\\\n')\"\n"
            "wc -c < solution.py\n```\nSUBMIT\n")

    step = _played(catalog, label, padded(MAX_FILE_BYTES))
    assert f"\n{MAX_FILE_BYTES}\n" in step.observation and step.verdict.reward == 1.0, step.verdict.details
    step = _played(catalog, label, padded(MAX_FILE_BYTES + 1))
    assert step.verdict.reward == 0.0
    assert step.verdict.details["reason"] == f"solution.py: it is {MAX_FILE_BYTES + 1} bytes, more than a session's files may hold ({MAX_FILE_BYTES})"
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step("```python file=solution.py\n" + "#" * MAX_FILE_BYTES + "\n```\n")  # the same bound on a write
    assert f"not written: solution.py is larger than {MAX_FILE_BYTES} bytes" in step.observation
    ep.close()


def test_a_write_through_a_symlinked_parent_is_refused_like_any_other(catalog):
    ep, _ = open_episode(catalog)
    step = ep.step("```bash\nln -s /tmp t; ln -s .. u; mkdir real; ln -s real v\n```\n"
                   + "".join(f"```text file={d}/x.txt\nhello\n```\n" for d in "tuv")
                   + "```bash\nls -A real /tmp\n```\n")
    for d in "tuv":
        assert f"could not write {d}/x.txt: {d}/x.txt: {d} is a symbolic link, not a directory: remove it first" in step.observation
    assert "wrote" not in step.observation and "x.txt" not in step.observation.split("$ ls -A")[1]
    ep.close()


def test_an_unreadable_solution_is_named(catalog):
    ep, _ = open_episode(catalog)
    step = ep.step(fenced_file("solution.py", body(ep.task.reference)) + "```bash\nchmod 000 solution.py\n```\nSUBMIT\n")
    v = step.verdict
    assert v.error is None and v.reward == 0.0 and v.details["reason"] == "solution.py: it cannot be read (mode ----------)"
