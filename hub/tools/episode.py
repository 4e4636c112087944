"""The tool front end of an episode: a turn is text plus tool calls; each call's result goes back
as a `tool` message.

A domain's tool episode subclasses `ToolEpisode` (next to the episode core it shares with its
text front end) and writes its tools as `@tool` methods. One of them ends the episode (`submit`,
`answer`) by calling `self.conclude(verdict)`; the verdict it returns is the episode's. When the
last turn passes without one, `last_turn()` grades what the model left.

`step` takes the model's turn in any of the forms a trainer or client has:
- its raw text, with calls written in the run's tool-call format (`tool_format`, hub/tools/formats.py);
- an OpenAI assistant message (`{"content": ..., "tool_calls": [...]}`);
- a list of `ToolCall`s.
Calls the model got wrong are answered with an error the model can act on and counted
(`Step.info["tool_errors"]`, and the verdict's `details["tools"]`), never raised. An exception
a tool did not mean (a sandbox that failed) ends the episode with no verdict: the environment's
fault, never a zero charged to the model.
"""

from __future__ import annotations

import logging
from typing import Any

from ..core.env import Episode, Step
from ..core.verifier import Verdict
from . import formats
from .schema import ToolBox, ToolCall, ToolResult, tools_of

log = logging.getLogger(__name__)

TOOL_INSTRUCTIONS = """\
Act through the tools you are given: call them, read each result, and call again; {finish}.
You have {turns} turns (a turn is one reply, with as many calls as you need, up to {calls})."""


class ToolEpisode(Episode):
    tool_format: str = formats.DEFAULT_FORMAT  # how calls are read from raw text; set per run
    max_calls_per_turn: int = 16

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._toolbox: ToolBox | None = None
        self.final: Step | None = None
        self.turn_problems = 0  # turns with calls that could not be read

    # -- what a domain provides -----------------------------------------------------------------
    def last_turn(self) -> Verdict:
        """The verdict when the last turn ends without the tool that concludes (grade what the
        model left). Default: nothing was submitted, 0."""
        return Verdict(0.0, False, details={"reason": "the episode ended without a submission"})

    def on_abort(self, exc: BaseException) -> Step:
        """The step when a tool raised what no tool means to (the sandbox failed): no verdict."""
        log.warning("tool episode aborted: %s: %s", type(exc).__name__, exc)
        verdict = Verdict.no_verdict(f"{type(exc).__name__}: {exc}", turns=self.turn)
        verdict.verifier = self.identity
        self.final = Step(observation="", done=True, verdict=verdict, info=self.tool_info(aborted=True))
        return self.final

    # -- the front end --------------------------------------------------------------------------
    @property
    def toolbox(self) -> ToolBox:
        if self._toolbox is None:
            self._toolbox = ToolBox(tools_of(self), max_calls=self.max_calls_per_turn)
        return self._toolbox

    def tool_schemas(self) -> list[dict[str, Any]]:
        if getattr(self, "_schemas", None) is None:  # read at every turn (raw-text formats type values by them)
            self._schemas = self.toolbox.schemas()
        return self._schemas

    def conclude(self, verdict: Verdict, note: str = "") -> Verdict:
        """End the episode with `verdict` (called by the tool that concludes)."""
        verdict.details.setdefault("tools", {}).update(self.tool_counts())
        verdict.details.setdefault("episode", {}).update({"turns": self.turn})
        self.final = Step(observation=note, done=True, verdict=verdict, info=self.tool_info())
        return verdict

    def concluded(self) -> bool:
        return self.final is not None

    def tool_counts(self) -> dict[str, Any]:
        box = self.toolbox
        return {"calls": box.calls, "errors": dict(box.errors), "unreadable_turns": self.turn_problems}

    def tool_info(self, **extra: Any) -> dict[str, Any]:
        return {"turn": self.turn, "tool_errors": sum(self.toolbox.errors.values()), **extra}

    def read(self, action: Any) -> formats.ParsedTurn:
        """The turn's calls, from raw text, an OpenAI assistant message or a list of calls."""
        if isinstance(action, str):
            return formats.parse(action, self.tool_format, self.tool_schemas())
        if isinstance(action, dict):  # an OpenAI assistant message
            calls = [ToolCall.from_openai(c) for c in action.get("tool_calls") or [] if isinstance(c, dict)]
            text = action.get("content") or ""
            if isinstance(text, str) and not calls:  # a client that sent the text only
                return formats.parse(text, self.tool_format, self.tool_schemas())
            return formats.ParsedTurn(calls=calls, text=text if isinstance(text, str) else "")
        if isinstance(action, (list, tuple)):
            return formats.ParsedTurn(calls=[c if isinstance(c, ToolCall) else ToolCall.from_openai(c)
                                             for c in action])
        return formats.parse(str(action), self.tool_format, self.tool_schemas())

    def reset(self) -> str:
        self.final = None
        self._toolbox = None
        self.turn_problems = 0
        return super().reset()

    def step(self, action: Any) -> Step:
        if self.final is not None:  # a call after the end: answered, never run
            turn = self.read(action)
            results = [self.toolbox.error("after_end", c, "the episode has ended; this call was not run")
                       for c in turn.calls]
            return Step(observation=self.final.observation, done=True, verdict=self.final.verdict,
                        info=self.final.info, tool_results=results)
        self.turn += 1
        turn = self.read(action)
        if turn.problems:
            self.turn_problems += 1
        try:
            results = self.toolbox.run(turn.calls, stop=self.concluded)
            if not turn.calls and not turn.problems:
                results = []
            if self.final is None and self.turn >= self.max_turns:
                self.conclude(self.last_turn(), note="that was the last turn: graded as it stands")
        except Exception as exc:  # noqa: BLE001 - a tool meant ToolError; anything else is the environment's
            return self.on_abort(exc)
        notes = list(turn.problems)
        if not turn.calls and not turn.problems and self.final is None:
            notes.append(self.no_calls_note())
        if self.final is not None:
            return Step(observation=self.observation(results, notes, final=True), done=True,
                        verdict=self.final.verdict, info=self.tool_info(), tool_results=results)
        return Step(observation=self.observation(results, notes), done=False, info=self.tool_info(),
                    tool_results=results, notes=notes)

    def no_calls_note(self) -> str:
        names = ", ".join(self.toolbox.tools)
        return f"no tool was called: call one of {names} (each call as the tools' format asks)"

    def observation(self, results: list[ToolResult], notes: list[str], final: bool = False) -> str:
        """A plain-text view of the results (the text front end's; trainers render each result as a
        `tool` message in the model's chat template instead)."""
        parts = [f"[{r.name}] {r.content}" for r in results] + notes
        if final and self.final is not None and self.final.observation:
            parts.append(self.final.observation)
        elif not final:
            parts.append(f"[turn {self.turn} of {self.max_turns}: {self.max_turns - self.turn} left]")
        return "\n\n".join(parts)
