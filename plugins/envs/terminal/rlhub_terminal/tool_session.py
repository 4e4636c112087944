"""The terminal session's tool front end: the same work-dir episode core as the text session
(hub.sessions), the same tasks and hidden graders, with the model's actions as tool calls:
`run(command)`, `write_file(path, content)`, `read_file(path, start_line, end_line)`, `submit()`.

`terminal/session-<family>-tools-v1` is the tool twin of `terminal/session-<family>-v1`: its tasks
are drawn from the text env's seeds, and what grades them is checked under the text env.
"""

from __future__ import annotations

import shlex

from hub import Variant
from hub.sessions.tools import WorkDirToolEpisode, tools_prompt
from hub.tools import ToolCall, tool
from hub.tools.formats import DEFAULT_FORMAT, render

from .envs import SESSION_TURNS, TerminalEnvironment
from .family import FENCE

INTRO = ("You are working in a work directory of your own (no network), through tools: `run` runs a shell command "
         "there, `write_file` writes a file, `read_file` reads one.")


class TerminalToolEpisode(WorkDirToolEpisode):
    fence_languages = FENCE

    @tool
    def write_file(self, path: str, content: str) -> str:
        """Write a file in the work directory (created, or replaced as a whole).

        Args:
            path: the file's path, relative to the work directory (letters, digits, '.', '_', '-', '/').
            content: the file's whole text.
        """
        return self.write(path, content)

    @tool
    def read_file(self, path: str, start_line: int | None = None, end_line: int | None = None) -> str:
        """Read a file of the work directory (at most 400 lines a call).

        Args:
            path: the file's path, relative to the work directory.
            start_line: the first line to show, from 1 (default: the first).
            end_line: the last line to show, included (default: the last).
        """
        return self.lines(self.read_text(path), start_line, end_line, numbered=False)


def tool_turns(path: str, code: str) -> list[list[ToolCall]]:
    return [[ToolCall("write_file", {"path": path, "content": code}), ToolCall("submit", {})]]


def _play(*turns: list[ToolCall]) -> tuple[str, ...]:
    return tuple(render(turn, DEFAULT_FORMAT) for turn in turns)


def wrong_plays(path: str, code: str, wrong_code: str, wrong_max: float | None) -> list[Variant]:
    """Wrong plays of a tool session whose answer is `code` at `path`, each ending with a verdict below it."""
    quoted = shlex.quote(path)
    write, submit = ToolCall("write_file", {"path": path, "content": code}), ToolCall("submit", {})
    plays = {
        "tools_submit_unchanged": ("submit at once: the work dir as it was handed out", None, [submit]),
        "tools_wrong_code": ("the family's first wrong code written, then submit", wrong_max,
                             [ToolCall("write_file", {"path": path, "content": wrong_code}), submit]),
        "tools_fifo_at_solution": ((f"a FIFO made at {path} with run; reading it and writing the right code there "
                                    "are refused (tool errors): nothing to grade"), 0.0,
                                   [ToolCall("run", {"command": f"rm -rf {quoted}; mkfifo {quoted}"}),
                                    ToolCall("read_file", {"path": path}), write, submit]),
        "tools_directory_at_solution": (f"a directory made at {path} with run; writing the right code there is refused",
                                        0.0, [ToolCall("run", {"command": f"rm -rf {quoted}; mkdir -p {quoted}/x"}),
                                              write, submit]),
        "tools_call_after_submit": ("submit, then the right code in the same turn: not run", None, [submit, write]),
    }
    return [Variant(kind, _play(calls)[0], note=note, max_reward=cap, turns=_play(calls))
            for kind, (note, cap, calls) in plays.items()]


class TerminalToolEnvironment(TerminalEnvironment):
    """`terminal/session-<family>-tools-v1`: the session task, played through tools."""

    def __init__(self, env_id: str, family, kind: str) -> None:
        super().__init__(env_id, family, kind)
        self.text_twin = env_id.removesuffix("-tools-v1") + "-v1"

    def generate(self, rng, index: int):
        task = super().generate(rng, index)
        spec, fam = self.params(index), self.family.family
        path, listing = fam.solution_path, ""
        if spec.files:
            listing = "\n\nThe work directory already holds: " + ", ".join(sorted(spec.files)) + "."
        finish = (f"write your solution to {path}; `submit` ends the session and grades {path} with hidden tests "
                  "(after your last turn it is graded as it stands)")
        task.prompt = (spec.prompt.rsplit("\n\nReply with", 1)[0] + listing + "\n\n" + INTRO + " "
                       + tools_prompt(finish, SESSION_TURNS, TerminalToolEpisode.max_calls_per_turn))
        return task

    tool_episode = TerminalToolEpisode  # its @tool methods are the prompt's tools

    def episode(self, task, verifier, ctx):
        return TerminalToolEpisode(task, verifier, ctx, max_turns=SESSION_TURNS)

    def tool_turns(self, task) -> list[list[ToolCall]]:
        return tool_turns(self.family.family.solution_path, self._params_of(task).reference)

    def episode_probes(self, task):
        """On the first task only (what they prove does not depend on the task): the wrong plays."""
        if task.label.seed != 0:
            return [], []
        spec, fam = self._params_of(task), self.family.family
        first = spec.wrong[0]
        wrong_code = first.response if isinstance(first, Variant) else first
        cap = first.max_reward if isinstance(first, Variant) else None
        return wrong_plays(fam.solution_path, spec.reference, wrong_code, cap), []
