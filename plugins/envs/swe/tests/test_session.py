"""Repository-scale sessions (SweEpisode) driven through reset()/step() on the real bwrap sandbox:
a scripted agent that explores, reproduces, fixes, re-runs and submits; doing nothing; huge
output; the step limit; a workspace that persists; hidden tests that are never in the work dir;
and bad input that gets a defined verdict with the next episode starting clean."""

from __future__ import annotations

import base64
import re

import pytest
from rlhub_swe import patch, scripted
from rlhub_swe.projects.kinds import NAMES, kind
from rlhub_swe.scripted import bash, fix_diff, fix_files, repro_test
from swe_helpers import find


def session_env(name: str) -> str:
    return f"swe/{name}-bug-{kind(name).bugs[0].cls.replace('_', '-')}-session-v1"


def hidden_only(built) -> list[str]:
    """Hidden tests that the repository does not show (FAIL_TO_PASS ones are never visible)."""
    visible = "\n".join(t for p, t in built.base.files.items() if p.startswith("tests/"))
    return [t for t in built.fail_to_pass if f"def {t}(" not in visible]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("how", ["patch", "write"])
def test_scripted_agent_explores_reproduces_fixes_and_earns_one(catalog, name, how):
    label, _task, built = find(catalog, session_env(name))
    pkg, module = built.base.package, fix_files(built)
    ep = catalog.episode(label)
    prompt = ep.reset()
    assert built.issue in prompt and "```diff" in prompt and "SUBMIT" in prompt

    step = ep.step(bash("ls", f"ls {pkg} | head -50"))
    assert not step.done and "README.md" in step.observation and "tests" in step.observation
    assert "__init__.py" in step.observation

    target = next(iter(module))
    word = re.findall(r"def (\w+)\(", built.base.files[target])[0]
    step = ep.step(bash(f"grep -rn 'def {word}(' {pkg}", f"sed -n 1,20p {target}"))
    assert f"{target}:" in step.observation  # grep -rn names the file and line

    test_name, repro = repro_test(built)
    step = ep.step(f"```python file=tests/test_issue.py\n{repro}```\n" + bash("python -m pytest -x -q tests/test_issue.py"))
    assert "wrote tests/test_issue.py" in step.observation
    assert "exit code 1" in step.observation and "1 failed" in step.observation and test_name in step.observation

    if how == "patch":
        step = ep.step(fix_diff(built))
        assert "patch -p1 < (your diff)" in step.observation and "exit code 0" in step.observation
        assert all(f"patching file {p}" in step.observation for p in module)
    else:
        step = ep.step("".join(f"```python file={p}\n{text}```\n" for p, text in module.items()))
        assert all(f"wrote {p}" in step.observation for p in module)

    step = ep.step(bash("python -m pytest -x -q tests/test_issue.py", "python -m pytest -x -q"))
    assert "1 passed" in step.observation and "failed" not in step.observation
    assert step.observation.count("exit code 0") == 2

    step = ep.step("All tests pass now.\nSUBMIT\n")
    assert step.done and step.verdict is not None and step.verdict.error is None
    assert step.verdict.reward == 1.0 and step.verdict.passed, step.verdict.details
    assert step.verdict.details["episode"] == {"turns": 6, "submitted": True, "infra_retries": 0}
    assert step.verdict.details["changed"] == sorted(module)
    assert step.verdict.details["ignored_edits"] == ["tests/test_issue.py"]  # the agent's own test never counts
    assert "graded: every hidden test passed" in step.observation
    assert ep.step("```bash\nls\n```") is step  # a finished episode stays finished


@pytest.mark.parametrize("name", NAMES)
def test_scripted_agent_writes_a_feature_across_modules(catalog, name):
    """rlhub_swe.scripted's turns on a feature session: the feature spans two modules or more."""
    label, _task, built = find(catalog, f"swe/{name}-feature-session-v1")
    assert len(fix_files(built)) >= 2
    ep = catalog.episode(label)
    ep.reset()
    observations = [ep.step(turn).observation for turn in scripted.turns(built)]
    assert "1 failed" in observations[1] and "1 passed" in observations[2]
    assert ep.final is not None and ep.final.verdict.reward == 1.0, ep.final.verdict.details
    assert ep.final.verdict.details["changed"] == sorted(fix_files(built))


@pytest.mark.parametrize("name", NAMES)
def test_doing_nothing_earns_zero(catalog, name):
    label, _task, _built = find(catalog, session_env(name))
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(bash("ls", "python -m pytest -q"))  # looking is not changing
    assert not step.done and "passed" in step.observation
    step = ep.step("SUBMIT")
    assert step.done and step.verdict.error is None and step.verdict.reward == 0.0 and not step.verdict.passed
    assert step.verdict.details["refused"] == "empty" and step.verdict.details["reason"] == "the patch changes nothing"
    assert step.verdict.details["episode"]["submitted"] is True


def test_huge_observations_are_summarised(catalog):
    label, _task, built = find(catalog, session_env(NAMES[0]))
    pkg = built.base.package
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(bash(f"cat $(find {pkg} -name '*.py' | sort)", "seq 1 5000", "python -c \"print('x' * 200000)\""))
    obs = step.observation
    # every command's output cut to its head and tail, saying how much there was
    assert re.search(r"--- stdout \(\d+ lines, 65536 characters, more discarded; head and tail shown\) ---", obs)
    assert "--- stdout (5000 lines, 23893 characters; head and tail shown) ---" in obs
    assert "\n1\n2\n3\n" in obs and "\n4999\n5000\n" in obs and "\n2500\n" not in obs
    assert obs.count("characters cut ...]") == 3
    assert len(obs) < 3 * 3200 + 1000  # three commands, each at most head + tail + its lines of status
    ep.close()


def test_step_limit_ends_the_episode_and_grades_the_tree(catalog):
    label, _task, built = find(catalog, session_env(NAMES[0]))
    ep = catalog.episode(label)
    ep.reset()
    fix = fix_diff(built)
    step = ep.step(fix)  # fixed in the first turn, never submitted
    assert not step.done and f"[turn 1 of {ep.max_turns}: {ep.max_turns - 1} left" in step.observation
    for turn in range(2, ep.max_turns):
        step = ep.step(bash(f"echo thinking {turn}"))
        assert not step.done and f"{ep.max_turns - turn} left" in step.observation
    step = ep.step(bash("echo out of time"))
    assert step.done and step.verdict.reward == 1.0  # the work tree as it stands is graded
    assert step.verdict.details["episode"] == {"turns": ep.max_turns, "submitted": False, "infra_retries": 0}
    assert ep.max_turns == catalog.get(label["env"]).max_turns == 20


def test_workspace_persists_between_steps(catalog):
    """A diff written to a file in one step, applied by a command in the next, run in the third,
    graded at the end: each step sees what the ones before it left."""
    label, _task, built = find(catalog, session_env(NAMES[0]))
    diff = patch.make(built.base.files, {**built.base.files, **fix_files(built)})
    _test_name, repro = repro_test(built)
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(f"```text file=fix.diff\n{diff}```\n```python file=tests/test_issue.py\n{repro}```\n"
                   + bash("mkdir -p notes && echo 'first step' > notes/log.txt"))
    assert "wrote fix.diff" in step.observation
    step = ep.step(bash("cat notes/log.txt", "patch -p1 --batch < fix.diff && rm fix.diff"))
    assert "first step" in step.observation and "exit code 0" in step.observation
    step = ep.step(bash("ls fix.diff; python -m pytest -q tests/test_issue.py"))
    assert "No such file" in step.observation and "1 passed" in step.observation
    step = ep.step("SUBMIT")
    assert step.verdict.reward == 1.0
    assert "notes/log.txt" in step.verdict.details["changed"]  # a new file is part of the final tree


@pytest.mark.parametrize("name", NAMES)
def test_hidden_tests_are_never_in_the_work_dir(catalog, name):
    label, _task, built = find(catalog, session_env(name))
    secret = hidden_only(built)
    assert secret, "a bug's FAIL_TO_PASS tests are hidden"
    ep = catalog.episode(label)
    prompt = ep.reset()
    assert not any(f"def {t}(" in prompt for t in secret)
    # the names travel base64-encoded, so that only a match could bring them into the observation
    pattern = base64.b64encode("|".join(secret).encode()).decode()
    step = ep.step(bash(f"grep -rnaE \"$(echo {pattern} | base64 -d)\" . /tmp /dev/shm $HOME 2>/dev/null; echo grep-done $?",
                        "find / \\( -path /proc -o -path /sys \\) -prune -o -name 'test_hid''den*' -print 2>/dev/null; echo find-done"))
    assert "grep-done 1" in step.observation and "find-done" in step.observation  # grep: 1 = nothing found
    assert not any(t in step.observation for t in secret), step.observation
    assert "test_hidden" not in step.observation
    tree = ep.work_tree()
    assert set(tree) == set(built.base.files)
    assert not any(t.encode() in data for t in secret for data in tree.values())
    ep.close()


BAD_SESSIONS = {
    # name -> (commands, a check of the verdict given the package's name)
    "symlinks_out_of_the_repo": ("ln -s /etc/passwd {pkg}/passwd.py; ln -s / {pkg}/root; ln -sf /etc/hostname README.md",
                                 lambda v, pkg: v.details["changed"] == ["README.md"]),  # README gone, links not read
    "deletes_the_test_suite": ("rm -rf tests",
                               lambda v, pkg: v.details["refused"] == "empty"
                               and v.details["ignored_edits"] and all(p.startswith("tests/") for p in v.details["ignored_edits"])),
    "edits_test_configuration": (("printf '[pytest]\\naddopts = -p no:python\\n' > pytest.ini; "
                                  "echo 'collect_ignore_glob = [\"*\"]' > conftest.py"),
                                 lambda v, pkg: v.details["refused"] == "empty"
                                 and v.details["ignored_edits"] == ["conftest.py", "pytest.ini"]),
    "binary_and_huge_files": ("head -c 4096 /dev/urandom > {pkg}/blob.py; head -c 60000000 /dev/zero > big.txt; ls -la big.txt",
                              lambda v, pkg: v.details["left_out"] == ["big.txt (1 MB or more)", f"{pkg}/blob.py (binary)"]
                              and v.details["refused"] == "empty"),
    "infinite_loop_at_import": ("printf 'while True:\\n    pass\\n' >> {pkg}/__init__.py",
                                lambda v, pkg: "did not finish importing" in v.details["reason"]),
    "empties_the_repository": ("rm -rf ./* .[!.]*", lambda v, pkg: "is gone" in v.details["reason"]),
}


@pytest.mark.parametrize("case", sorted(BAD_SESSIONS))
def test_bad_input_in_a_session_gets_a_defined_verdict_and_the_next_episode_starts_clean(catalog, case):
    commands, check = BAD_SESSIONS[case]
    label, _task, built = find(catalog, session_env(NAMES[0]))
    pkg = built.base.package
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(bash(commands.format(pkg=pkg)) + "SUBMIT")
    verdict = step.verdict
    assert step.done and verdict.error is None and verdict.reward == 0.0 and not verdict.passed
    assert check(verdict, pkg), verdict.details

    again = catalog.episode(label)  # the same task again: the repository as the task has it
    again.reset()
    assert again.work_tree() == {p: t.encode() for p, t in built.base.files.items()}
    fix = fix_diff(built)
    step = again.step(fix + "SUBMIT")
    assert step.verdict.reward == 1.0, step.verdict.details


# Trees a model can leave around the protected paths, each alone: (commands, what the verdict names).
CLASHING_TREES = {
    "tests_replaced_by_a_file": ("rm -rf tests && echo x > tests", lambda v: "tests" in v.details["ignored_edits"]),
    "pyproject_made_a_directory": ("rm pyproject.toml; mkdir pyproject.toml; echo 'x = 1' > pyproject.toml/x.py",
                                   lambda v: {"pyproject.toml", "pyproject.toml/x.py"} <= set(v.details["ignored_edits"])),
    "fifo_at_conftest": ("mkfifo conftest.py", lambda v: v.details["left_out"] == ["conftest.py (a FIFO)"]),
    "socket_at_pytest_ini": ("python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('pytest.ini')\"",
                             lambda v: v.details["left_out"] == ["pytest.ini (a socket)"]),
    "fifo_and_a_name_that_splits_a_listing": ("mkfifo pipe.pth; touch \"$(printf 'z\\npipe.pth')\"",
                                              lambda v: v.details["left_out"] == ["pipe.pth (a FIFO)"]
                                              and v.details["ignored_edits"] == ["z\npipe.pth"]),
}


@pytest.mark.parametrize("case", sorted(CLASHING_TREES))
def test_a_tree_clashing_with_protected_paths_gets_a_verdict_at_once(catalog, case):
    import time

    commands, names = CLASHING_TREES[case]
    label, _task, built = find(catalog, session_env(NAMES[0]))
    ep = catalog.episode(label)
    ep.reset()
    start = time.monotonic()
    step = ep.step(bash(commands) + "SUBMIT")
    v = step.verdict
    assert step.done and v.error is None and v.reward == 0.0 and v.details["refused"] == "empty", v.details
    assert names(v), v.details
    assert step.info["infra_retries"] == 0 and time.monotonic() - start < 20  # nothing blocked, nothing replayed


def test_a_correct_fix_beside_the_clashes_earns_one(catalog):
    label, _task, built = find(catalog, session_env(NAMES[0]))
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(fix_diff(built) + bash(*(c for c, _ in CLASHING_TREES.values())) + "SUBMIT")
    v = step.verdict
    assert v.error is None and v.reward == 1.0 and v.passed, v.details
    assert {"tests", "pyproject.toml/x.py"} <= set(v.details["ignored_edits"])


# -- red team, round 2: the work tree is read in full or refused by name, never cut short --------

def _fix_then(catalog, commands: str):
    label, _task, built = find(catalog, session_env(NAMES[0]))
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(fix_diff(built) + bash(commands) + "SUBMIT")
    assert step.done and step.verdict.error is None, step.verdict.error
    return step.verdict, built.base.package


def test_a_fix_beside_thousands_of_files_is_graded_on_the_whole_tree(catalog):
    """3,000 extra files with long names: the old NUL-separated listing was cut near the output
    cap (64 KB), the cut list read as the tree, the package 'gone': 0 for a right fix."""
    v, _ = _fix_then(catalog, "mkdir aa_extra_notes_directory && cd aa_extra_notes_directory && "
                              "for i in $(seq 1 3000); do echo x > note_number_$i.txt; done")
    assert v.reward == 1.0 and v.passed, v.details


def test_a_tree_larger_than_the_grader_reads_is_refused_by_name(catalog):
    from rlhub_swe.session import MAX_TREE_ENTRIES

    v, _ = _fix_then(catalog, f"mkdir many && cd many && seq 1 {MAX_TREE_ENTRIES + 50} | xargs touch")
    assert v.reward == 0.0 and v.details["refused"] == "too_large", v.details
    assert v.details["reason"].startswith(f"the work tree holds more than {MAX_TREE_ENTRIES} files and directories")


def test_unreadable_and_oddly_named_files_are_named_in_left_out(catalog):
    """A name that is not UTF-8, a file and a directory whose mode lets nobody read them: before,
    dropped without a word."""
    v, pkg = _fix_then(catalog, "printf 'x = 1\\n' > \"$(printf 'odd_\\xff.py')\"; echo s > secret.txt; chmod 000 secret.txt; "
                                "mkdir locked; echo l > locked/a.py; chmod 000 locked")
    assert v.reward == 1.0, v.details
    assert sorted(v.details["left_out"]) == ["locked/ (a directory that cannot be read (Permission denied))",
                                             "odd_\\xff.py (a name that is not UTF-8)",
                                             "secret.txt (a file that cannot be read (Permission denied))"]


def test_a_module_made_unreadable_is_named_and_graded_as_missing(catalog):
    label, _task, built = find(catalog, session_env(NAMES[0]))
    pkg = built.base.package
    ep = catalog.episode(label)
    ep.reset()
    step = ep.step(fix_diff(built) + bash(f"chmod 000 {pkg}/__init__.py") + "SUBMIT")
    v = step.verdict
    assert v.error is None and v.reward == 0.0
    assert f"{pkg}/__init__.py (a file that cannot be read (Permission denied))" in v.details["left_out"]
