"""The multi-turn terminal episode: act in a persistent sandbox work dir, observe, revise, submit.

`reset()` / `step(action)` is the whole interface (OpenRLHF's multi-turn executor drives it).
Each episode owns one sandbox session (`ctx.sandbox.session(ctx.profile)`), opened lazily.
The model's own failures (non-zero exit, timeout, a bad path) come back as the next
observation. Sandbox failures are infrastructure: the session is reopened, the episode's
journal of successful actions replayed, and the action retried; if that keeps failing the
episode ends with *no verdict* (never a zero charged to the model).
"""

from __future__ import annotations

import logging
from typing import Any

from hub import Episode, Step, Verdict
from hub.core.verifier import grade

from .actions import Action, Turn, parse_turn
from .family import fenced

log = logging.getLogger(__name__)

SESSION_INSTRUCTIONS = """\
You are working in a shell session in a work directory of your own (no network). Each of your
replies may contain, in order:
- ```bash blocks: each is run with `bash -c` in the work directory; you will see its exit code,
  stdout and stderr (long output is shortened);
- a fenced block with file=PATH after the language, e.g. ```python file={path} : its text is
  written to PATH (relative to the work directory);
- a line containing only SUBMIT: ends the session and grades {path} with hidden tests.
You have {turns} replies; after the last one {path} is graded as it stands."""

HEAD_CHARS = 1500
TAIL_CHARS = 1000
RETRIES = 2  # extra attempts after an infrastructure fault


class InfraFault(RuntimeError):
    """The sandbox failed (not the model's code)."""


class Refused(Exception):
    """The sandbox refused a file write/read because of what the model left in the work dir
    (a directory or symlink in the way, a full tmpfs): the model's doing, fed back to it."""


def shorten(text: str, truncated: bool = False) -> str:
    """Head and tail of long output, with a marker saying how much was cut."""
    if len(text) > HEAD_CHARS + TAIL_CHARS + 100:
        cut = len(text) - HEAD_CHARS - TAIL_CHARS
        text = f"{text[:HEAD_CHARS]}\n[... {cut} characters cut ...]\n{text[-TAIL_CHARS:]}"
    if truncated:
        text += "\n[output limit reached: the rest was discarded]"
    return text


def describe_run(command: str, r) -> str:
    first = command.strip().splitlines()[0] if command.strip() else ""
    head = f"$ {first[:200]}" + (" ..." if len(command.strip().splitlines()) > 1 or len(first) > 200 else "")
    if r.timed_out:
        status = "timed out (the command was killed)"
    elif r.oom:
        status = "killed: out of memory"
    elif r.signal:
        status = f"killed by signal {r.signal}"
    else:
        status = f"exit code {r.exit_code}"
    parts = [head, status]
    if r.stdout:
        parts.append("--- stdout ---\n" + shorten(r.stdout, r.stdout_truncated))
    if r.stderr:
        parts.append("--- stderr ---\n" + shorten(r.stderr, r.stderr_truncated))
    return "\n".join(parts)


class TerminalEpisode(Episode):
    parse = staticmethod(parse_turn)  # a model's turn as actions (a domain with more kinds of block has its own)
    nothing_to_do = "nothing to do: send ```bash blocks to run, a ```python file=PATH block to write a file, or SUBMIT"

    def __init__(self, task, verifier, ctx, max_turns: int = 6) -> None:
        super().__init__(task, verifier, ctx, max_turns=max_turns)
        self.solution_path = task.hidden.get("solution_path", "solution.py")
        self.language = task.hidden.get("language", "python")
        self._cm: Any = None
        self._session: Any = None
        self._journal: list[Action] = []  # successful actions, replayed after a sandbox fault
        self.final: Step | None = None
        self.infra_retries = 0

    # -- sandbox session lifecycle ------------------------------------------------------------
    def _open(self):
        cm = self.ctx.sandbox.session(self.ctx.profile)
        session = cm.__enter__()
        self._cm, self._session = cm, session
        starters = self.task.hidden.get("files") or {}
        if starters:
            session.write_files(dict(starters))
        for action in self._journal:
            self._apply(session, action)
        return session

    def _drop(self) -> None:
        cm, self._cm, self._session = self._cm, None, None
        if cm is not None:
            try:
                cm.__exit__(None, None, None)
            except Exception:  # a dead sandbox may fail to close; it is being replaced anyway
                log.debug("closing a failed sandbox session", exc_info=True)

    @staticmethod
    def _apply(session, action: Action):
        if action.kind == "write":
            try:
                session.write_files({action.path: action.text})
            except ValueError as exc:
                raise Refused(str(exc)) from None
            return None
        r = session.run(["bash", "-c", action.text])
        if r.infra_error:
            raise InfraFault(r.infra_error)
        return r

    def _with_retries(self, action: Action | None, read: str | None = None):
        """Carry out one action (or read one file) in the session, retrying sandbox faults."""
        last = ""
        for attempt in range(RETRIES + 1):
            try:
                session = self._session or self._open()
                if read is not None:
                    try:
                        return session.read_files([read])
                    except ValueError as exc:
                        raise Refused(str(exc)) from None
                return self._apply(session, action)
            except Refused:
                raise
            except Exception as exc:  # the model's code runs inside bwrap: an exception here is the sandbox's
                last = f"{type(exc).__name__}: {exc}"
                log.warning("terminal session sandbox fault (attempt %d): %s", attempt + 1, last)
                self.infra_retries += 1
                self._drop()
        raise InfraFault(last)

    # -- the episode interface ------------------------------------------------------------------
    def reset(self) -> str:
        self._drop()
        self._journal.clear()
        self.final = None
        self.infra_retries = 0
        return super().reset()

    def step(self, action: str) -> Step:
        if self.final is not None:
            return self.final
        self.turn += 1
        turn = self.parse(action if isinstance(action, str) else str(action))
        try:
            report = self._act(turn)
            if turn.submit or self.turn >= self.max_turns:
                return self._finish(report, submitted=turn.submit)
        except InfraFault as exc:
            verdict = Verdict.no_verdict(f"sandbox failed after {RETRIES + 1} attempts: {exc}", turns=self.turn)
            verdict.verifier = self.identity
            self.final = Step(observation="", done=True, verdict=verdict, info=self._info(infra_error=str(exc)))
            self._drop()
            return self.final
        left = self.max_turns - self.turn
        report.append(f"[turn {self.turn} of {self.max_turns}: {left} left; write SUBMIT on its own line to finish]")
        return Step(observation="\n\n".join(report), done=False, info=self._info())

    def _act(self, turn: Turn) -> list[str]:
        report = list(turn.notes)
        if not turn.actions and not turn.submit:
            report.append(self.nothing_to_do)
        for action in turn.actions:
            try:
                r = self._with_retries(action)
            except Refused as exc:
                report.append(f"could not write {action.path}: {exc}")
                continue
            self._journal.append(action)
            if action.kind == "write":
                report.append(f"wrote {action.path} ({len(action.text.encode())} bytes)")
            else:
                report.append(self.describe(action, r))
        return report

    def describe(self, action: Action, r) -> str:
        """What the model sees of a command's run."""
        return describe_run(action.text, r)

    def _grade_files(self, files: dict[str, str]) -> Verdict:
        """Grade the work dir's solution file (the verifier's `verify_files` when it has one,
        else the file's text as a fenced answer), with `grade`'s crash-to-no-verdict safety."""
        verifier = self.verifier
        if hasattr(verifier, "verify_files"):
            class _Files:  # adapts verify_files to grade()'s verify(task, response, ctx)
                name = verifier.name

                @staticmethod
                def verify(task, response, ctx):
                    return verifier.verify_files(task, files, ctx)

            return grade(_Files(), self.identity, self.task, "", self.ctx)
        text = files.get(self.solution_path, "")
        return self.grade(fenced(text, self.language) if text.strip() else "")

    def _solution_text(self) -> str | None:
        try:
            got = self._with_retries(None, read=self.solution_path) or {}
        except Refused:
            return None
        data = got.get(self.solution_path)
        if data is None:
            return None
        return data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) else str(data)

    def _finish(self, report: list[str], submitted: bool) -> Step:
        text = self._solution_text()
        if text is None:
            report.append(f"{self.solution_path} does not exist: nothing to grade")
        verdict = self._grade_files({} if text is None else {self.solution_path: text})
        verdict.details["episode"] = {"turns": self.turn, "submitted": submitted, "infra_retries": self.infra_retries}
        summary = "all hidden tests passed" if verdict.passed else f"graded: reward {verdict.reward:.2f}"
        report.append(summary)
        self.final = Step(observation="\n\n".join(report), done=True, verdict=verdict, info=self._info())
        self._drop()
        return self.final

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"turn": self.turn, "infra_retries": self.infra_retries, **extra}

    def close(self) -> None:
        self._drop()
