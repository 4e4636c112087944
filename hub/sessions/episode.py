"""The work-dir episode: a model acts in a persistent sandboxed work dir, observes, revises and
submits; what it leaves there is graded. The domain-agnostic core of a session, shared by its
front ends: the text one (a domain parses fenced blocks into `Action`s, e.g. rlhub_terminal's
session) and the tool one (`hub.sessions.tools`: the actions are tool calls).

Each episode owns one sandbox session (`ctx.sandbox.session(ctx.profile)`), opened lazily. The
model's own failures (non-zero exit, timeout, a bad path, a FIFO or directory where a file should
be) come back to it, and at the end are graded as the model's failure. Sandbox failures are
infrastructure: the session is reopened, the episode's journal of successful actions replayed,
and the action retried; if that keeps failing the episode ends with *no verdict* (never a zero
charged to the model).

`close()` ends the episode for good, from any thread: a step running in it is killed in the
sandbox and returns at once (`EpisodeClosed`), and nothing is retried, replayed or reopened
after it. `turn_budget_s` (set by the trainer's agent) bounds the time a turn's own commands may
take: each command's wall clock is cut to what is left, and what does not fit is not run.

Grading hooks: `grade_work(report)` (default: the solution file's exact bytes, `solution_path`,
graded by the verifier's `verify_files` or as a fenced answer) and `summary(verdict)`.
"""

from __future__ import annotations

import logging
import shlex
import threading
import time
from typing import Any, ClassVar

from ..core.env import Episode, Step
from ..core.response import fenced, source_text
from ..core.rubric import Rubric
from ..core.verifier import Verdict, grade
from .actions import MAX_FILE_BYTES, Action
from .observe import describe_run

log = logging.getLogger(__name__)

RETRIES = 2  # extra attempts after an infrastructure fault


class InfraFault(RuntimeError):
    """The sandbox failed (not the model's code)."""


class Refused(Exception):
    """The sandbox refused a file write/read because of what the model left in the work dir
    (a directory, symlink, FIFO or socket in the way, a full tmpfs): the model's doing, fed back to it."""


class EpisodeClosed(Exception):
    """The episode was closed (by its owner, e.g. at a step deadline) while a step ran in it."""


class WorkDirEpisode(Episode):
    fence_languages: ClassVar[dict[str, str]] = {}  # the solution's language -> its fence tag, where they differ

    def __init__(self, task, verifier, ctx, max_turns: int = 6) -> None:
        super().__init__(task, verifier, ctx, max_turns=max_turns)
        self.solution_path = task.hidden.get("solution_path", "solution.py")
        self.language = task.hidden.get("language", "python")
        self._cm: Any = None
        self._session: Any = None
        self._guard = threading.Lock()  # _cm, _session and _closed, between a step and close()
        self._closed = False
        self._journal: list[Action] = []  # successful actions, replayed after a sandbox fault
        self.final: Step | None = None
        self.infra_retries = 0
        self.turn_budget_s: float | None = None  # seconds a turn's own commands may take (None: no bound)
        self._turn_ends: float | None = None

    # -- sandbox session lifecycle ------------------------------------------------------------
    def starting_files(self) -> dict[str, str]:
        """What the work dir holds before the model acts (the task's starter files)."""
        return dict(self.task.hidden.get("files") or {})

    def _open(self):
        if self._closed:
            raise EpisodeClosed("the episode is closed")
        cm = self.ctx.sandbox.session(self.ctx.profile)
        session = cm.__enter__()
        with self._guard:
            late = self._closed
            if not late:
                self._cm, self._session = cm, session
        if late:  # closed while the sandbox started: it is nobody's, end it here
            cm.__exit__(None, None, None)
            raise EpisodeClosed("the episode was closed while its sandbox started")
        starters = self.starting_files()
        if starters:
            session.write_files(starters)
        for action in self._journal:
            self._apply(session, action)
        return session

    def _drop(self) -> None:
        with self._guard:
            cm, self._cm, self._session = self._cm, None, None
        if cm is not None:
            try:
                cm.__exit__(None, None, None)
            except Exception:  # a dead sandbox may fail to close; it is being replaced anyway
                log.debug("closing a failed sandbox session", exc_info=True)

    def _run_profile(self):
        """The profile a command runs under: its wall clock cut to what is left of the turn's budget."""
        profile = self.ctx.profile
        if self._turn_ends is None:
            return None
        left = self._turn_ends - time.monotonic()
        return profile.merged(wall_timeout_s=max(0.5, left)) if left < profile.wall_timeout_s else None

    @staticmethod
    def _apply(session, action: Action, profile=None):
        if action.kind == "write":
            try:
                session.write_files({action.path: action.text})
            except ValueError as exc:
                raise Refused(str(exc)) from None
            return None
        r = session.run(["bash", "-c", action.text], profile=profile)
        if r.infra_error:
            raise InfraFault(r.infra_error)
        return r

    def _with_retries(self, action: Action | None, read: list[str] | None = None, job=None):
        """Carry out one action (or read files, or run `job(session)`: a helper's request) in the
        session, retrying sandbox faults; never after close() (EpisodeClosed)."""
        last = ""
        for attempt in range(RETRIES + 1):
            if self._closed:
                raise EpisodeClosed("the episode was closed")
            try:
                session = self._session or self._open()
                if read is not None or job is not None:
                    try:
                        return session.read_files(read) if job is None else job(session)
                    except ValueError as exc:
                        raise Refused(str(exc)) from None
                return self._apply(session, action, self._run_profile())
            except (Refused, EpisodeClosed):
                raise
            except Exception as exc:  # noqa: BLE001 - the model's code runs inside bwrap: an exception here is the sandbox's
                if self._closed:  # close() killed it: not a fault, and nothing is retried
                    raise EpisodeClosed("the episode was closed while a step ran") from None
                last = f"{type(exc).__name__}: {exc}"
                log.warning("work-dir session sandbox fault (attempt %d): %s", attempt + 1, last)
                self.infra_retries += 1
                self._drop()
        raise InfraFault(last)

    # -- what a front end calls -------------------------------------------------------------------
    def perform(self, action: Action):
        """Carry out the model's action (its run's result; None for a write) and journal it.
        Raises Refused (the model's doing), InfraFault or EpisodeClosed."""
        r = self._with_retries(action)
        self._journal.append(action)
        return r

    def start_turn(self) -> None:
        budget = self.turn_budget_s
        self._turn_ends = time.monotonic() + budget if budget else None

    def end_turn(self) -> None:
        self._turn_ends = None

    def budget_spent(self) -> bool:
        """Whether this turn's budget for commands is used up (what is left is not run)."""
        return self._turn_ends is not None and time.monotonic() >= self._turn_ends

    def describe(self, action: Action, r) -> str:
        """What the model sees of a command's run."""
        return describe_run(action.text, r)

    def reset(self) -> str:
        if self._closed:
            raise RuntimeError("the episode is closed: open a new one")
        self._drop()
        self._journal.clear()
        self.final = None
        self.infra_retries = 0
        return super().reset()

    def _end_without_verdict(self, error: str, **info: Any) -> Step:
        verdict = Verdict.no_verdict(error, turns=self.turn)
        verdict.verifier = self.identity
        self.final = Step(observation="", done=True, verdict=verdict, info=self._info(**info))
        self._drop()
        return self.final

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"turn": self.turn, "infra_retries": self.infra_retries, **extra}

    def episode_details(self, submitted: bool) -> dict[str, Any]:
        return {"turns": self.turn, "submitted": submitted, "infra_retries": self.infra_retries}

    def close(self) -> None:
        """End the episode for good (any thread): a step running in it is killed and returns."""
        with self._guard:
            self._closed = True
        self._drop()

    # -- grading (hooks) ----------------------------------------------------------------------------
    def grade_work(self, report: list[str]) -> Verdict:
        """The verdict on what the work dir holds (notes for the model appended to `report`).
        Default: the solution file, its exact bytes."""
        self.end_turn()
        data, why = self._solution_bytes()
        if data is None:
            report.append(f"{self.solution_path}: {why}: nothing to grade")
        verdict = self._grade_files({} if data is None else {self.solution_path: data})
        if data is None:
            verdict.details["reason"] = f"{self.solution_path}: {why}"
        return verdict

    def summary(self, verdict: Verdict) -> str:
        """The last line the model sees."""
        return "all hidden tests passed" if verdict.passed else f"graded: reward {verdict.reward:.2f}"

    def _grade_files(self, files: dict[str, bytes]) -> Verdict:
        """Grade the work dir's solution file as it is, its exact bytes: the verifier's
        `verify_files` when it has one (a rubric: each part that reads files gets the bytes, any
        other its text view), else the file's text as a fenced answer; with `grade`'s
        crash-to-no-verdict safety."""
        verifier = self.verifier
        data = files.get(self.solution_path, b"")
        # The text view (for verifiers that grade a response): a fence longer than any run of
        # backticks in it, so a docstring's ``` example does not end the block early.
        text = data.decode("utf-8", "replace")
        response = fenced(text, self.fence_languages.get(self.language, self.language)) if text.strip() else ""
        if hasattr(verifier, "verify_files"):
            class _Files:  # adapts verify_files to grade()'s verify(task, response, ctx)
                name = verifier.name

                @staticmethod
                def verify(task, _, ctx):
                    if isinstance(verifier, Rubric):
                        return verifier.verify_files(task, files, ctx, response=response)
                    return verifier.verify_files(task, files, ctx)

            return grade(_Files(), self.identity, self.task, response, self.ctx)
        return self.grade(response)

    def _solution_bytes(self) -> tuple[bytes | None, str]:
        """(the solution file's bytes, or None; why there is none: not a regular file, missing,
        or larger than a session's files may be)."""
        try:
            got = self._with_retries(None, read=[self.solution_path]) or {}
        except Refused as exc:
            return None, str(exc)
        data = got.get(self.solution_path)
        if data is None:
            return None, self._missing_why()
        data = data if isinstance(data, (bytes, bytearray)) else str(data).encode()
        if len(data) > MAX_FILE_BYTES:
            return None, f"it is {len(data)} bytes, more than a session's files may hold ({MAX_FILE_BYTES})"
        if self.language == "python":
            try:  # Python source is text: CPython's import lets bad bytes in a comment through, `python3 f.py` does not
                source_text(bytes(data), "python")
            except SyntaxError as exc:
                return None, f"it is not Python source text ({exc.msg}): `python3 {self.solution_path}` refuses it"
        return bytes(data), ""

    def _missing_why(self, path: str | None = None) -> str:
        """What is at `path` (the solution's, by default) when no regular file could be read (said to the model)."""
        path = path or self.solution_path
        probe = self._with_retries(Action("run", f"LC_ALL=C stat -c '%F %A' -- {shlex.quote(path)} 2>&1"))
        out = probe.stdout.strip()
        if probe.exit_code != 0:  # missing, or a parent's mode lets nobody in
            return "it does not exist" if "No such file" in out else f"it cannot be reached ({out.rsplit(': ', 1)[-1]})"
        kind, _, mode = out.rpartition(" ")
        if kind == "regular file":  # there, but its mode lets nobody read it
            return f"it cannot be read (mode {mode})"
        return f"it is a {kind}, not a regular file"
