"""The multi-turn terminal episode, text front end: the model's replies are fenced blocks
(```bash to run, file=PATH to write, SUBMIT to finish; actions.py), carried out in the work-dir
session core (hub.sessions: sandbox lifecycle, journal replay after sandbox faults, close() from
any thread, turn budget, grading of the solution file's bytes). Its tool front end, over the same
core, is rlhub_terminal.tool_session.

`reset()` / `step(action)` is the whole interface (OpenRLHF's multi-turn executor drives it).
Observations are capped in total and per note, with a marker.
"""

from __future__ import annotations

from hub import Step
from hub.sessions import (
    MAX_NOTE_CHARS,
    MAX_OBSERVATION_CHARS,
    RETRIES,
    EpisodeClosed,
    InfraFault,
    Refused,
    WorkDirEpisode,
    capped,
    describe_run,
    shorten,
)
from hub.sessions.observe import HEAD_CHARS, TAIL_CHARS

from .actions import Turn, parse_turn
from .family import FENCE

__all__ = ["HEAD_CHARS", "MAX_NOTE_CHARS", "MAX_OBSERVATION_CHARS", "RETRIES", "SESSION_INSTRUCTIONS", "TAIL_CHARS",
           "EpisodeClosed", "InfraFault", "Refused", "TerminalEpisode", "capped", "describe_run", "shorten"]

SESSION_INSTRUCTIONS = """\
You are working in a shell session in a work directory of your own (no network). Each of your
replies may contain, in order:
- ```bash blocks: each is run with `bash -c` in the work directory; you will see its exit code,
  stdout and stderr (long output is shortened);
- a fenced block with file=PATH after the language, e.g. ```python file={path} : its text is
  written to PATH (relative to the work directory);
- the word `SUBMIT` on a line of its own ends the session and grades {path} with hidden tests.
You have {turns} replies; after the last one {path} is graded as it stands."""


class TerminalEpisode(WorkDirEpisode):
    parse = staticmethod(parse_turn)  # a model's turn as actions (a domain with more kinds of block has its own)
    nothing_to_do = "nothing to do: send ```bash blocks to run, a ```python file=PATH block to write a file, or SUBMIT"
    fence_languages = FENCE

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
            return self._end_without_verdict(f"sandbox failed after {RETRIES + 1} attempts: {exc}", infra_error=str(exc))
        except EpisodeClosed as exc:
            return self._end_without_verdict(str(exc), closed=True)
        left = self.max_turns - self.turn
        trailer = f"[turn {self.turn} of {self.max_turns}: {left} left; write SUBMIT on its own line to finish]"
        return Step(observation=capped(report) + "\n\n" + trailer, done=False, info=self._info())

    def _act(self, turn: Turn) -> list[str]:
        report = list(turn.notes)
        if not turn.actions and not turn.submit:
            report.append(self.nothing_to_do)
        self.start_turn()
        for i, action in enumerate(turn.actions):
            if self.budget_spent():
                report.append(f"not run: this turn's {self.turn_budget_s:g} s for commands were used up "
                              f"({len(turn.actions) - i} action(s) skipped)")
                break
            try:
                r = self.perform(action)
            except Refused as exc:
                report.append(f"could not write {action.path}: {exc}")
                continue
            if action.kind == "write":
                report.append(f"wrote {action.path} ({len(action.text.encode())} bytes)")
            else:
                report.append(self.describe(action, r))
        return report

    def _finish(self, report: list[str], submitted: bool) -> Step:
        verdict = self.grade_work(report)
        verdict.details["episode"] = self.episode_details(submitted)
        self.final = Step(observation=capped(report) + "\n\n" + self.summary(verdict), done=True, verdict=verdict,
                          info=self._info())
        self._drop()
        return self.final
