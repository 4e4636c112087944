"""A rubric's resolved components (`Part`) and how they run: concurrently where they are independent, together in one sandbox
task where they analyse the same files, and not at all where a gate did not pass.

- Components that analyse files in a work dir (`WorkDirVerifier`) with identical files, profile
  and gates form one *group*: once the gates passed, one session, the files written once, every
  member's command run at the same time in one sandboxed task (`WorkDir.run_all`), each member
  judging its own run. If the gates did not pass, no session is opened.
- Every other component (unit tests in a warm worker, a length check) is a group of its own.
- Groups run in parallel threads, each first waiting for its gates. A group waits only on
  components outside it (its members share their gates), and gates are acyclic, so no two
  groups can wait on each other.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from .errors import TaskError, VerifierError
from .verifier import Verdict, Verifier, VerifierIdentity, VerifyContext, grade
from .workdir import WorkDirVerifier, judged, open_workdir

if TYPE_CHECKING:
    from ..sandbox import Profile
    from .task import Task


@dataclass(frozen=True)
class Part:
    """A resolved component: its verifier instance and identity."""

    name: str
    verifier: Verifier
    identity: VerifierIdentity
    weight: float
    gates: tuple[str, ...] = ()
    profile: "Profile | None" = None  # None: the environment's

    def describe(self) -> dict[str, Any]:
        return {"verifier": asdict(self.identity), "weight": self.weight, "gate": list(self.gates)}


@dataclass
class Skipped:
    """A component that was not run because a gate did not pass."""

    reason: str


Result = Verdict | Skipped


def run_parts(parts: list[Part], task: "Task", response: str, ctx: VerifyContext,
              tree: dict[str, str | bytes] | None = None) -> dict[str, Result]:
    """Every part's verdict (or why it was skipped); `parts` in gate order. With `tree` (the files a
    session left, exact bytes) the parts that can grade files read them (`verify_files`,
    `WorkDirVerifier.tree_files`); the others grade `response`."""
    futures: dict[str, Future] = {p.name: Future() for p in parts}
    files_of: dict[str, dict[str, str | bytes] | Verdict] = {}
    groups: dict[tuple, list[Part]] = {}  # in first-seen order
    for part in parts:
        key: tuple = ("alone", part.name)
        if isinstance(part.verifier, WorkDirVerifier):
            files = files_of[part.name] = _files(part, task, response, tree)
            if isinstance(files, dict):
                key = ("shared", part.profile or ctx.profile, tuple(sorted(files.items())), tuple(sorted(part.gates)))
        groups.setdefault(key, []).append(part)

    def gate_failure(part: Part) -> str | None:
        for name in part.gates:
            result = futures[name].result()
            if isinstance(result, Skipped) or result.error is not None or not result.passed:
                return f"gate {name!r} did not pass"
        return None

    def run_alone(part: Part) -> Result:
        files = files_of.get(part.name)
        if isinstance(files, Verdict):  # nothing to analyse (no code): decided without a sandbox
            return _identified(files, part)
        if tree is not None and hasattr(part.verifier, "verify_files"):
            return grade(_on_files(part.verifier, tree), part.identity, task, response, _context(ctx, part))
        return grade(part.verifier, part.identity, task, response, _context(ctx, part))

    def run_shared(group: list[Part]) -> dict[str, Result]:
        pctx = _context(ctx, group[0])
        out: dict[str, Result] = {}
        jobs, support = {}, {}
        for part in group:
            try:
                argv = part.verifier.command(task)  # type: ignore[union-attr]
                support.update(part.verifier.support_files(task))  # type: ignore[union-attr]
            except VerifierError as exc:  # e.g. its tool is not installed
                out[part.name] = _identified(Verdict.no_verdict(str(exc)), part)
                continue
            jobs[part.name] = argv
        if jobs:
            with open_workdir(pctx, files_of[group[0].name], pctx.profile, support) as workdir:  # type: ignore[arg-type]
                runs = workdir.run_all(jobs)
                for part in group:
                    if part.name in runs:
                        out[part.name] = grade(judged(part.verifier, runs[part.name], workdir),  # type: ignore[arg-type]
                                               part.identity, task, response, pctx)
        return out

    def run_group(key: tuple, group: list[Part]) -> None:
        results: dict[str, Result] = {}
        try:
            why = gate_failure(group[0])  # a group's members share their gates
            if why:
                results = {p.name: Skipped(why) for p in group}
            elif key[0] == "shared":
                results = run_shared(group)
            else:
                results = {group[0].name: run_alone(group[0])}
        except VerifierError as exc:  # the shared session failed: not the model's doing
            results = {p.name: _identified(Verdict.no_verdict(str(exc)), p) for p in group}
        finally:  # whatever happened, nobody waits forever on a part of this group
            for part in group:
                futures[part.name].set_result(
                    results.get(part.name) or _identified(Verdict.no_verdict("the rubric's runner failed"), part))

    with ThreadPoolExecutor(max_workers=len(groups), thread_name_prefix="rlhub-rubric") as pool:
        done = [pool.submit(run_group, key, group) for key, group in groups.items()]
    for f in done:
        f.result()  # a bug of ours surfaces (grade() already turned every verifier crash into no verdict)
    return {name: f.result() for name, f in futures.items()}


def _on_files(verifier: Verifier, tree: dict[str, str | bytes]) -> Any:
    """`verifier.verify_files(task, tree, ctx)` seen through grade()'s verify(task, response, ctx)."""

    class _Files:
        name = verifier.name

        @staticmethod
        def verify(task: "Task", response: str, ctx: VerifyContext) -> Verdict:
            return verifier.verify_files(task, tree, ctx)  # type: ignore[attr-defined]

    return _Files()


def _files(part: Part, task: "Task", response: str, tree: dict[str, str | bytes] | None = None) -> dict[str, str | bytes] | Verdict:
    try:
        if tree is not None:
            return part.verifier.tree_files(task, tree, response)  # type: ignore[union-attr]
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
