"""Verifiers that grade files in a sandbox work dir by running a program there (linters, type
checkers, security scanners): the kind a rubric can run together on one copy of the files.

    class Lint(WorkDirVerifier):
        def files(self, task, response):          # what to write, or a verdict (no code found)
            code = read(response).code("python")
            return {"solution.py": code} if code else Verdict(0.0, False, details={"reason": "no code"})

        def command(self, task):                  # the program that analyses them
            return ["my-linter", "--json", "solution.py"]

        def judge(self, task, result, workdir):   # its RunResult -> the verdict
            ...

Alone, such a verifier opens its own sandbox session, writes its files and runs its command. In a
rubric, the components whose files, profile and gates are identical share one session: the files
are written once and their commands run at the same time in one sandboxed task (each with its own
wall clock and output, hub/core/workdir_driver.py). Nothing they run may execute the model's code:
that is what makes sharing the work dir safe.
"""

from __future__ import annotations

import hashlib
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from . import workdir_driver
from .errors import VerifierError
from .verifier import Verdict, Verifier

if TYPE_CHECKING:
    from ..sandbox import Profile, RunResult, Session
    from .task import Task
    from .verifier import VerifyContext

DRIVER_SOURCE = Path(workdir_driver.__file__).read_text()
RUNS_DIR = ".rlhub-runs"  # in the work dir: where run_all's jobs leave their output
SIGKILL = 9


class WorkDir:
    """Files written once to a sandbox session's work dir; each run is a fresh sandboxed task
    there, under `profile`'s limits."""

    def __init__(self, session: "Session", profile: "Profile", files: dict[str, str | bytes]) -> None:
        self.session, self.profile, self.files = session, profile, files

    def run(self, argv: list[str], env: dict[str, str] | None = None) -> "RunResult":
        return _checked(self.session.run(argv, env=env, profile=self.profile))

    def run_all(self, jobs: dict[str, list[str]]) -> dict[str, "RunResult"]:
        """Every job's result, the jobs run at the same time in one sandboxed task. Each gets the
        profile's wall clock and output cap for itself; CPU time and file size are per process as
        always; memory and processes are shared by the task."""
        from ..sandbox import RunResult

        if len(jobs) == 1:
            (name, argv), = jobs.items()
            return {name: self.run(argv)}
        p = self.profile
        spec = {"jobs": jobs, "timeout_s": max(0.5, p.wall_timeout_s - 1.0), "dir": RUNS_DIR}
        task = _checked(self.session.run([sys.executable, "-I", "-S", "-c", DRIVER_SOURCE, json.dumps(spec)],
                                         profile=p.merged(collect=(f"{RUNS_DIR}/*",))))
        try:
            status = json.loads(task.stdout)
        except ValueError:
            raise VerifierError(f"the analysers' runner gave no report (exit {task.exit_code}, timed out: "
                                f"{task.timed_out}): {task.stderr[-400:]}") from None
        results = {}
        for name in jobs:
            s = status.get(name) or {}
            if s.get("error"):
                raise VerifierError(f"could not start {jobs[name][0]}: {s['error']}")
            out, err = (task.files.get(f"{RUNS_DIR}/{name}.{kind}", b"") for kind in ("out", "err"))
            results[name] = RunResult(
                exit_code=s.get("exit_code"), signal=s.get("signal"), duration_s=s.get("duration_s", 0.0),
                stdout=out[:p.output_bytes].decode("utf-8", "replace"), stdout_truncated=len(out) > p.output_bytes,
                stderr=err[:p.output_bytes].decode("utf-8", "replace"), stderr_truncated=len(err) > p.output_bytes,
                timed_out=bool(s.get("timed_out")) or task.timed_out,
                oom=task.oom and s.get("signal") == SIGKILL and not s.get("timed_out"),
                memory_limit=task.memory_limit)
        return results


def _checked(result: "RunResult") -> "RunResult":
    if result.infra_error:
        raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
    return result


@contextmanager
def open_workdir(ctx: "VerifyContext", files: dict[str, str | bytes], profile: "Profile | None" = None,
                 support: dict[str, str | bytes] | None = None) -> Iterator[WorkDir]:
    """A session holding `files` (and the `support` files the tools read, which `WorkDir.files`
    leaves out); a sandbox that cannot start or take the files is no verdict."""
    from ..sandbox import SandboxUnavailable

    profile = profile or ctx.profile
    try:
        session = ctx.sandbox.session(profile)
    except SandboxUnavailable as exc:
        raise VerifierError(f"sandbox failed (not the model's fault): {exc}") from None
    try:
        try:
            session.write_files({**(support or {}), **files})
        except (ValueError, RuntimeError) as exc:
            raise VerifierError(f"could not write the files to analyse: {exc}") from None
        yield WorkDir(session, profile, files)
    finally:
        session.close()


class WorkDirVerifier(Verifier):
    """Base of verifiers that analyse files in a work dir: subclasses implement `files`,
    `command` and `judge`; `verify` (alone) and rubrics (together) call them."""

    def files(self, task: "Task", response: str) -> dict[str, str | bytes] | Verdict:
        """The files to analyse, by relative path (text, or bytes written as they are); or the verdict when there is nothing to
        analyse (no code in the response). Cheap and deterministic: rubrics compare the results."""
        raise NotImplementedError

    def command(self, task: "Task") -> list[str]:
        """The program that analyses the files (run in the work dir). It must not run them."""
        raise NotImplementedError

    def tree_files(self, task: "Task", tree: dict[str, str | bytes], response: str) -> dict[str, str | bytes] | Verdict:
        """The files to analyse from a work dir a session left (`tree`: its files, exact bytes).
        By default the answer's text view, `files(task, response)`; a verifier that reads a
        file of the tree overrides this to analyse the file as it is."""
        return self.files(task, response)

    def support_files(self, task: "Task") -> dict[str, str | bytes]:
        """Trusted files the command reads besides the response's (a tool's warm cache), written
        to the work dir with them. Never part of `files`: they say nothing about the response."""
        return {}

    def judge(self, task: "Task", result: "RunResult", workdir: WorkDir) -> Verdict:
        """The verdict from the command's run (raise VerifierError when the tool itself failed)."""
        raise NotImplementedError

    def response_key(self, task: "Task", response: str) -> str | None:
        """The verdict depends on the files written alone (`command` and `judge` see only the task
        and the run): two responses whose code extracts to the same files share it."""
        try:
            files = self.files(task, response)
        except Exception:  # grading will say what is wrong; the key is only a shortcut
            return None
        if isinstance(files, Verdict):
            return None
        body = json.dumps(sorted(files.items()), ensure_ascii=False)
        return "files:" + hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()

    def verify(self, task: "Task", response: str, ctx: "VerifyContext") -> Verdict:
        files = self.files(task, response)
        if isinstance(files, Verdict):
            return files
        with open_workdir(ctx, files, support=self.support_files(task)) as workdir:
            return self.judge(task, workdir.run(self.command(task)), workdir)


def judged(verifier: WorkDirVerifier, result: "RunResult", workdir: WorkDir) -> Any:
    """`verifier` judging a run already made, seen through `grade`'s interface
    (verify(task, response, ctx)): so a rubric's shared run keeps grade's crash handling."""

    class _Judged:
        name = verifier.name

        @staticmethod
        def verify(task: "Task", response: str, ctx: "VerifyContext") -> Verdict:
            return verifier.judge(task, result, workdir)

    return _Judged()
