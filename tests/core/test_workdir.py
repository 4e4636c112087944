"""WorkDir (hub/core/workdir.py) in the real sandbox: files written once, several programs run at
the same time in one sandboxed task, each with its own clock, output and exit status."""

from __future__ import annotations

import pytest

from hub import VerifyContext
from hub.core.workdir import open_workdir
from hub.sandbox import Profile

PROFILE = Profile(name="workdir-test", wall_timeout_s=6, cpu_s=6, output_bytes=1000)


@pytest.fixture
def workdir(sandbox):
    with open_workdir(VerifyContext(profile=PROFILE, _sandbox=sandbox), {"data.txt": "one\ntwo\n"}) as wd:
        yield wd


def test_jobs_run_at_the_same_time(workdir):
    # Each waits for the other's mark: only jobs that overlap in time can both finish.
    wait = "touch {me}; while [ ! -e {other} ]; do sleep 0.05; done; wc -l < data.txt"
    runs = workdir.run_all({"a": ["sh", "-c", wait.format(me="a.mark", other="b.mark")],
                            "b": ["sh", "-c", wait.format(me="b.mark", other="a.mark")]})
    assert {n: (r.exit_code, r.stdout.strip(), r.timed_out) for n, r in runs.items()} == {"a": (0, "2", False), "b": (0, "2", False)}


def test_each_job_keeps_its_own_clock_output_and_status(workdir):
    runs = workdir.run_all({"hang": ["sleep", "60"], "flood": ["sh", "-c", "yes | head -c 5000"],
                            "fail": ["sh", "-c", "echo why >&2; exit 3"], "ok": ["cat", "data.txt"]})
    assert runs["hang"].timed_out and runs["hang"].exit_code is None
    assert runs["flood"].stdout_truncated and len(runs["flood"].stdout) == 1000 and not runs["flood"].timed_out
    assert (runs["fail"].exit_code, runs["fail"].stderr) == (3, "why\n")
    assert (runs["ok"].exit_code, runs["ok"].stdout, runs["ok"].timed_out) == (0, "one\ntwo\n", False)


def test_a_program_that_cannot_start_is_no_verdict(workdir):
    from hub import VerifierError

    with pytest.raises(VerifierError, match="could not start /no/such/tool"):
        workdir.run_all({"x": ["/no/such/tool"], "y": ["true"]})
