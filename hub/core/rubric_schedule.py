"""Running a rubric's components: concurrently where they are independent, in one sandbox session
where they share files, and not at all where a gate did not pass.

- Every component that analyses files in a work dir (`WorkDirVerifier`) says which files it needs;
  those with identical files and the same profile form one *group*: one session, the files written
  once, each member run there in turn (gate order). A group opens no session if no member runs.
- Every other component (unit tests in a warm worker, a length check) is a group of its own.
- Groups run in parallel threads; a component first waits for the components it is gated on.
  Each group handles its members in the rubric's gate order, so every wait is on a component
  earlier in that order: no group can wait on another that waits on it.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import replace
from typing import TYPE_CHECKING

from .errors import TaskError, VerifierError
from .rubric import Part, Skipped
from .verifier import Verdict, VerifyContext, grade
from .workdir import WorkDirVerifier, in_workdir, open_workdir

if TYPE_CHECKING:
    from .task import Task

Result = Verdict | Skipped


def run_parts(parts: list[Part], task: "Task", response: str, ctx: VerifyContext) -> dict[str, Result]:
    """Every part's verdict (or why it was skipped); `parts` in gate order."""
    futures: dict[str, Future] = {p.name: Future() for p in parts}
    files_of: dict[str, dict[str, str] | Verdict] = {}
    groups: dict[tuple, list[Part]] = {}  # in first-seen order
    for part in parts:
        key: tuple = ("alone", part.name)
        if isinstance(part.verifier, WorkDirVerifier):
            files = files_of[part.name] = _files(part, task, response)
            if isinstance(files, dict):
                key = ("shared", part.profile or ctx.profile, tuple(sorted(files.items())))
        groups.setdefault(key, []).append(part)

    def gate_failure(part: Part) -> str | None:
        for name in part.gates:
            result = futures[name].result()
            if isinstance(result, Skipped) or result.error is not None or not result.passed:
                return f"gate {name!r} did not pass"
        return None

    def run_one(part: Part, stack: ExitStack, workdir: list) -> Result:
        why = gate_failure(part)
        if why:
            return Skipped(why)
        pctx = _context(ctx, part)
        files = files_of.get(part.name)
        if isinstance(files, Verdict):  # nothing to analyse (no code): decided without a sandbox
            return _identified(files, part)
        if files is None:
            return grade(part.verifier, part.identity, task, response, pctx)
        if not workdir:  # the group's session opens only when a member runs
            workdir.append(stack.enter_context(open_workdir(pctx, files, pctx.profile)))
        return grade(in_workdir(part.verifier, workdir[0]), part.identity, task, response, pctx)

    def run_group(group: list[Part]) -> None:
        workdir: list = []
        try:
            with ExitStack() as stack:
                for part in group:
                    try:
                        result = run_one(part, stack, workdir)
                    except VerifierError as exc:  # the shared session failed: not the model's doing
                        result = _identified(Verdict.no_verdict(str(exc)), part)
                    futures[part.name].set_result(result)
        finally:  # whatever happened, nobody waits forever on a part of this group
            for part in group:
                if not futures[part.name].done():
                    futures[part.name].set_result(_identified(Verdict.no_verdict("the rubric's runner failed"), part))

    with ThreadPoolExecutor(max_workers=len(groups), thread_name_prefix="rlhub-rubric") as pool:
        done = [pool.submit(run_group, group) for group in groups.values()]
    for f in done:
        f.result()  # a bug of ours surfaces (grade() already turned every verifier crash into no verdict)
    return {name: f.result() for name, f in futures.items()}


def _files(part: Part, task: "Task", response: str) -> dict[str, str] | Verdict:
    try:
        return part.verifier.files(task, response)  # type: ignore[union-attr]
    except (VerifierError, TaskError) as exc:
        return Verdict.no_verdict(str(exc))
    except Exception as exc:
        return Verdict.no_verdict(f"verifier {part.verifier.name} crashed: {type(exc).__name__}: {exc}")


def _identified(verdict: Verdict, part: Part) -> Verdict:
    verdict.verifier = part.identity
    return verdict


def _context(ctx: VerifyContext, part: Part) -> VerifyContext:
    """The part's context: its own profile, the same sandbox."""
    return ctx if part.profile is None else replace(ctx, profile=part.profile)
