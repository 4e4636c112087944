"""Verifiers that grade files in a sandbox work dir by running programs there (linters, type
checkers, security scanners): the kind a rubric can run together on one copy of the files.

    class Ruff(WorkDirVerifier):
        def files(self, task, response):          # what to write, or a verdict (no code found)
            code = read(response).code("python")
            return {"solution.py": code} if code else Verdict(0.0, False, details={"reason": "no code"})

        def verify_in(self, task, workdir, ctx):  # the files are there: run programs on them
            r = workdir.run(["ruff", "check", "solution.py"])
            ...

Alone, such a verifier opens its own sandbox session, writes its files and runs. In a rubric,
every component whose `files` are identical (and whose profile is the same) shares one session:
the files are written once and each component runs there in turn. Components must only read
what they were given; nothing they run may execute the model's code (that is what makes sharing
the work dir safe).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

from .errors import VerifierError
from .verifier import Verdict, Verifier

if TYPE_CHECKING:
    from ..sandbox import Profile, RunResult, Session
    from .task import Task
    from .verifier import VerifyContext


class WorkDir:
    """Files written once to a sandbox session's work dir; every `run` is a fresh sandboxed
    process there, under `profile`'s limits."""

    def __init__(self, session: "Session", profile: "Profile", files: dict[str, str]) -> None:
        self.session, self.profile, self.files = session, profile, files

    def run(self, argv: list[str], env: dict[str, str] | None = None, stdin: bytes | str = b"") -> "RunResult":
        result = self.session.run(argv, stdin=stdin, env=env, profile=self.profile)
        if result.infra_error:
            raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
        return result


@contextmanager
def open_workdir(ctx: "VerifyContext", files: dict[str, str], profile: "Profile | None" = None) -> Iterator[WorkDir]:
    """A session holding `files`; a sandbox that cannot start or take the files is no verdict."""
    from ..sandbox import SandboxUnavailable

    profile = profile or ctx.profile
    try:
        session = ctx.sandbox.session(profile)
    except SandboxUnavailable as exc:
        raise VerifierError(f"sandbox failed (not the model's fault): {exc}") from None
    try:
        try:
            session.write_files(files)
        except (ValueError, RuntimeError) as exc:
            raise VerifierError(f"could not write the files to analyse: {exc}") from None
        yield WorkDir(session, profile, files)
    finally:
        session.close()


class WorkDirVerifier(Verifier):
    """Base of verifiers that analyse files in a work dir. Subclasses implement `files` and
    `verify_in`; `verify` (alone) and rubrics (together) call them."""

    def files(self, task: "Task", response: str) -> dict[str, str] | Verdict:
        """The files to analyse, by relative path; or the verdict when there is nothing to
        analyse (no code in the response). Cheap and deterministic: rubrics compare the results."""
        raise NotImplementedError

    def verify_in(self, task: "Task", workdir: WorkDir, ctx: "VerifyContext") -> Verdict:
        """Grade the files already written to `workdir` (run programs with `workdir.run`)."""
        raise NotImplementedError

    def verify(self, task: "Task", response: str, ctx: "VerifyContext") -> Verdict:
        files = self.files(task, response)
        if isinstance(files, Verdict):
            return files
        with open_workdir(ctx, files) as workdir:
            return self.verify_in(task, workdir, ctx)


def in_workdir(verifier: WorkDirVerifier, workdir: WorkDir) -> Any:
    """`verifier` seen through `grade`'s interface (verify(task, response, ctx)), grading the
    files already in `workdir`: so a rubric's shared session keeps grade's crash handling."""

    class _InWorkDir:
        name = verifier.name

        @staticmethod
        def verify(task: "Task", response: str, ctx: "VerifyContext") -> Verdict:
            return verifier.verify_in(task, workdir, ctx)

    return _InWorkDir()
