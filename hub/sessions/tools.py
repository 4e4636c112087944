"""The tool front end of a work-dir session: the same episode core (hub.sessions.episode), with
the model's actions as tool calls (hub.tools.episode) instead of fenced blocks.

A domain's tool session subclasses `WorkDirToolEpisode` (and its own text session's grading, if
that differs) and adds its tools; `run` and `submit` are here. Whatever the model got wrong (a
refused path, a FIFO where a file should be, content too large, a command past the turn's budget)
is a `ToolError` it can act on; a sandbox fault (InfraFault) or close() (EpisodeClosed) ends the
episode with no verdict, as in the text session.
"""

from __future__ import annotations

from typing import Any

from ..core.env import Step
from ..tools import ToolError, tool
from ..tools.episode import TOOL_INSTRUCTIONS, ToolEpisode
from .actions import MAX_COMMAND_CHARS, MAX_FILE_BYTES, Action, check_path
from .episode import RETRIES, EpisodeClosed, InfraFault, Refused, WorkDirEpisode

MAX_READ_LINES = 400  # lines one read shows (the rest is asked for by line range)


def tools_prompt(finish: str, turns: int, calls: int) -> str:
    """How a tool session works, for its prompt (the schemas travel in the tools column)."""
    return TOOL_INSTRUCTIONS.format(finish=finish, turns=turns, calls=calls)


class WorkDirToolEpisode(ToolEpisode, WorkDirEpisode):
    max_calls_per_turn = 8  # as a text turn's actions: each command may take the profile's wall clock

    # -- the front end's glue -------------------------------------------------------------------
    def step(self, action: Any) -> Step:
        if self.final is None:
            self.start_turn()
        try:
            return super().step(action)
        finally:
            self.end_turn()

    def on_abort(self, exc: BaseException) -> Step:
        if isinstance(exc, EpisodeClosed):
            return self._end_without_verdict(str(exc), closed=True)
        if isinstance(exc, InfraFault):
            return self._end_without_verdict(f"sandbox failed after {RETRIES + 1} attempts: {exc}", infra_error=str(exc))
        step = super().on_abort(exc)
        self._drop()
        return step

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {**self.tool_info(), **extra}

    def tool_info(self, **extra: Any) -> dict[str, Any]:
        return {**super().tool_info(), "infra_retries": self.infra_retries, **extra}

    def last_turn(self):
        verdict = self.grade_work([])
        verdict.details["episode"] = self.episode_details(submitted=False)
        self._drop()
        return verdict

    # -- helpers for a domain's tools -----------------------------------------------------------
    def act(self, action: Action):
        """Carry out the model's action; what the model can act on is a ToolError."""
        if self.budget_spent():
            raise ToolError(f"not run: this turn's {self.turn_budget_s:g} s for commands were used up; "
                            "call it again next turn")
        try:
            return self.perform(action)
        except Refused as exc:
            raise ToolError(f"could not write {action.path}: {exc}") from None

    def write(self, path: str, content: str) -> str:
        problem = check_path(path)
        if problem:
            raise ToolError(f"not written: {path!r}: {problem}")
        size = len(content.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            raise ToolError(f"not written: {path} would be {size} bytes, more than the {MAX_FILE_BYTES} a file may hold")
        self.act(Action("write", content, path))
        return f"wrote {path} ({size} bytes)"

    def read_text(self, path: str) -> str:
        """A regular file's text; a ToolError says why there is none (missing, a FIFO, not UTF-8...)."""
        problem = check_path(path)
        if problem:
            raise ToolError(f"cannot read {path!r}: {problem}")
        try:
            data = (self._with_retries(None, read=[path]) or {}).get(path)
        except Refused as exc:
            raise ToolError(f"cannot read {path}: {exc}") from None
        if data is None:
            raise ToolError(f"cannot read {path}: {self._missing_why(path)}")
        try:
            return bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolError(f"cannot read {path}: it is not UTF-8 text (byte {exc.start}); use run to look at it") from None

    @staticmethod
    def lines(text: str, start_line: int | None, end_line: int | None, numbered: bool) -> str:
        """Lines start_line..end_line (from 1, both included) of `text`, at most MAX_READ_LINES,
        with a line saying what else there is."""
        rows = text.splitlines()
        first = max(1, start_line or 1)
        last = min(len(rows), end_line if end_line is not None else len(rows))
        if rows and first > len(rows):
            raise ToolError(f"start_line {first} is past the end: the file has {len(rows)} lines")
        if last < first and rows:
            raise ToolError(f"end_line {last} is before start_line {first}")
        cut = last - first + 1 > MAX_READ_LINES
        last = first + MAX_READ_LINES - 1 if cut else last
        shown = [f"{n:>5}  {rows[n - 1]}" if numbered else rows[n - 1] for n in range(first, last + 1)]
        head = f"[lines {first}-{last} of {len(rows)}]" if rows else "[the file is empty]"
        tail = [f"[... {len(rows) - last} more lines: ask for start_line={last + 1}]"] if last < len(rows) else []
        return "\n".join([head, *shown, *tail])

    # -- the tools every work-dir session has ------------------------------------------------------
    @tool
    def run(self, command: str) -> str:
        """Run a shell command with `bash -c` in the work directory (no network). You see its exit
        code, stdout and stderr (long output is shortened to its head and tail).

        Args:
            command: the command line (several lines are one script).
        """
        if len(command) > MAX_COMMAND_CHARS:
            raise ToolError(f"not run: the command is longer than {MAX_COMMAND_CHARS} characters")
        if not command.strip():
            raise ToolError("not run: the command is empty")
        action = Action("run", command)
        return self.describe(action, self.act(action))

    @tool
    def submit(self) -> str:
        """End the session: what the work directory holds is graded by hidden tests. Nothing can be
        changed after this."""
        report: list[str] = []
        verdict = self.grade_work(report)
        verdict.details["episode"] = self.episode_details(submitted=True)
        summary = self.summary(verdict)
        self.conclude(verdict, note=summary)
        self._drop()
        return "\n".join([*report, summary])
