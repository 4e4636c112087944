"""A repository-scale session: the terminal session of rlhub-terminal over a whole project.

The work dir holds the repository (the task's base tree, written when the episode starts). The
model runs shell commands (`ls`, `cat`, `grep -rn`, `sed -n`, `python -m pytest -x -q ...`), applies
```diff blocks with `patch -p1`, writes whole files, and says SUBMIT; at the end (or after the
step limit) the work tree's regular files are read back and graded by `swe_tests.verify_files`:
the hidden tests run in a separate sandbox, never in the work dir while the model acts. Long
output is cut to its head and tail with a line that says how much there was.
"""

from __future__ import annotations

import secrets as _secrets
from typing import Any

from rlhub_terminal.actions import MAX_ACTIONS, Action, Turn, parse_turn
from rlhub_terminal.session import Refused, TerminalEpisode, describe_run

from hub import Verdict
from hub.core.response import read
from hub.core.verifier import grade

from . import trees

MAX_DIFF_CHARS = 256 * 1024
# What running the tools leaves behind is not part of the answer: caches are never read back.
CACHE_DIRS = (".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis")
# The work tree is read by the session's helper (hub.sandbox.Session.read_tree), never through a
# listing a command prints (which an output cap could cut short, and a name with a newline split).
MAX_TREE_ENTRIES = 10_000  # files and directories, caches not counted: a repository of a few hundred files
PATCH = "patch -p1 --forward --batch --fuzz=0 --no-backup-if-mismatch -r - <<'{tag}'\n{diff}{tag}\n"


def parse_swe_turn(text: str) -> Turn:
    """The terminal action format, plus ```diff blocks (applied with `patch -p1`)."""
    turn = Turn()
    response = read(text)
    for block in response.blocks:
        if block.closed and block.tag in ("diff", "patch"):
            body = block.body if block.body.endswith("\n") else block.body + "\n"
            if len(body) > MAX_DIFF_CHARS:
                turn.notes.append(f"not applied: a diff longer than {MAX_DIFF_CHARS} characters")
                continue
            tag = "RLHUB_PATCH_" + _secrets.token_hex(6)
            turn.actions.append(Action("run", PATCH.format(tag=tag, diff=body), path="(diff)"))
            continue
        one = parse_turn(response.visible[block.start:block.end])
        turn.actions += one.actions
        turn.notes += one.notes
        turn.submit = turn.submit or one.submit  # a block holding only SUBMIT says it
    turn.submit = turn.submit or parse_turn(response.outside_blocks()).submit
    if len(turn.actions) > MAX_ACTIONS:
        turn.notes.append(f"only the first {MAX_ACTIONS} actions of a turn are carried out "
                          f"({len(turn.actions) - MAX_ACTIONS} dropped)")
        turn.actions = turn.actions[:MAX_ACTIONS]
    return turn


def summarised(command: str, r, label: str | None = None) -> str:
    """describe_run, with a count of what long output held before it was cut."""
    text = describe_run(label or command, r)
    for name, out in (("stdout", r.stdout), ("stderr", r.stderr)):
        lines = out.count("\n")
        if len(out) > 2600:
            text = text.replace(f"--- {name} ---\n", f"--- {name} ({lines} lines, {len(out)} characters"
                                f"{', more discarded' if getattr(r, name + '_truncated') else ''}; head and tail shown) ---\n", 1)
    return text


class WorkTree:
    """A session over a repository, whichever front end: the work dir starts as the task's base
    tree, long output is summarised, and the whole work tree is graded (mixed into SweEpisode and
    the tool session, rlhub_swe.tool_session, before the work-dir core)."""

    def __init__(self, task, verifier, ctx, max_turns: int = 20) -> None:
        super().__init__(task, verifier, ctx, max_turns=max_turns)
        self.base = trees.base_tree(verifier.hidden(task).base)
        self.left_out: list[str] = []
        self.over: str | None = None

    def starting_files(self) -> dict[str, str]:
        return self.base

    def describe(self, action: Action, r) -> str:
        if action.path == "(diff)":
            return summarised(action.text, r, "patch -p1 < (your diff)")
        return summarised(action.text, r)

    def work_tree(self) -> dict[str, bytes] | None:
        """The regular files of the work dir, read in full (caches are not walked); what else is there
        (links, FIFOs, sockets, names that are not UTF-8, files of 1 MB or more, what its mode makes
        unreadable) is named in `self.left_out`. None when the tree is larger than the grader reads
        (`self.over` says which limit): a part of a tree is never graded as the tree."""
        try:
            got = self._with_retries(None, job=lambda s: s.read_tree(CACHE_DIRS, MAX_TREE_ENTRIES, trees.MAX_TREE_BYTES,
                                                                     trees.MAX_FILE_BYTES))
        except Refused as exc:  # the helper could not walk it at all
            got = {"files": {}, "left_out": [(".", str(exc))], "over": None}
        self.left_out = [f"{path} ({why})" for path, why in got["left_out"]]
        self.over = got["over"]
        return None if self.over else got["files"]

    def grade_work(self, report: list[str]) -> Verdict:
        """The work tree's regular files, graded by `verify_files` (the hidden tests, in a sandbox of
        their own); a tree larger than the grader reads is the model's doing: 0, named."""
        self.end_turn()
        files = self.work_tree()
        verifier = self.verifier
        notes: dict[str, Any] = {"left_out": self.left_out[:20]} if self.left_out else {}
        if len(self.left_out) > 20:
            notes["left_out_total"] = len(self.left_out)

        class _Tree:  # verify_files seen through grade()'s interface (crash -> no verdict)
            name = verifier.name

            @staticmethod
            def verify(task, response, ctx):
                if files is None:  # more than the grader reads: the model's doing, named
                    return Verdict(0.0, False, details={**notes, "refused": "too_large", "reason": self.over})
                return verifier.verify_files(task, files, ctx, notes)

        return grade(_Tree(), self.identity, self.task, "", self.ctx)

    def summary(self, verdict: Verdict) -> str:
        if verdict.error:
            return f"no verdict: {verdict.error}"
        if verdict.passed:
            return "graded: every hidden test passed"
        return f"graded: reward {verdict.reward:.2f} ({verdict.details.get('reason', 'hidden tests failed')})"


class SweEpisode(WorkTree, TerminalEpisode):
    """A terminal session over a repository (text front end): ```diff blocks apply too."""

    parse = staticmethod(parse_swe_turn)
    nothing_to_do = ("nothing to do: send ```bash blocks to run, ```diff blocks to apply, a ```python file=PATH "
                     "block to write a file, or SUBMIT")
