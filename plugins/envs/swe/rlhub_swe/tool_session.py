"""The repository session's tool front end, in SWE-agent's editing style: `view`, `search`,
`replace` (a piece that occurs exactly once), `create`, `run`, `run_tests`, `submit`. The same
work-dir core (hub.sessions) and the same grading of the whole work tree (WorkTree) as the text
session (session.py), whose tool twin `swe/<...>-session-tools-v1` is.
"""

from __future__ import annotations

import difflib
import shlex

from hub import Variant
from hub.sessions.actions import Action, check_path
from hub.sessions.tools import WorkDirToolEpisode
from hub.tools import ToolCall, ToolError, tool
from hub.tools.formats import DEFAULT_FORMAT, render

from . import prompts
from .envs import SESSION_TURNS, SweEnvironment
from .session import CACHE_DIRS, WorkTree
from .tasks import build

LINKED = "RLHUB_PATH_THROUGH_A_LINK"
MAX_PATTERN_CHARS = 1000
MAX_MATCHES = 100
SNIPPET_CONTEXT = 3  # lines shown around an edit


def positions(text: str, piece: str) -> list[int]:
    """Where `piece` starts in `text`, overlapping occurrences included."""
    out, at = [], text.find(piece)
    while at != -1:
        out.append(at)
        at = text.find(piece, at + 1)
    return out


class SweToolEpisode(WorkTree, WorkDirToolEpisode):
    @tool
    def view(self, path: str, start_line: int | None = None, end_line: int | None = None) -> str:
        """Show a file's lines with their numbers (at most 400 a call), or a directory's files.

        Args:
            path: relative to the repository root ("." for the root).
            start_line: the first line to show, from 1 (default: the first).
            end_line: the last line to show, included (default: the last).
        """
        try:
            if path.rstrip("/") in ("", "."):  # the root: the file helper reads files only
                raise ToolError("the root is a directory")
            text = self.read_text(path)
        except ToolError as exc:
            if "is a directory" not in str(exc):
                raise
            path = path.rstrip("/") or "."
            prune = " -o ".join(f"-name {shlex.quote(d)}" for d in CACHE_DIRS)
            r = self._with_retries(Action("run", f"find {shlex.quote(path)} -maxdepth 2 \\( {prune} \\) -prune -o "
                                                 f"-print | LC_ALL=C sort | head -n 300"))
            return f"[{path} is a directory: its files, two levels deep]\n" + r.stdout
        return self.lines(text, start_line, end_line, numbered=True)

    @tool
    def search(self, pattern: str, path: str = ".") -> str:
        """Find a text (as written, not a regular expression) in the files under a path: each match
        as path:line:text (the first 100).

        Args:
            pattern: the text to find.
            path: a file or directory, relative to the repository root.
        """
        if not pattern or len(pattern) > MAX_PATTERN_CHARS or "\n" in pattern:
            raise ToolError(f"search: the pattern must be one line of 1 to {MAX_PATTERN_CHARS} characters")
        problem = None if path == "." else check_path(path)
        if problem:
            raise ToolError(f"search: path {path!r}: {problem}")
        skip = " ".join(f"--exclude-dir={shlex.quote(d)}" for d in CACHE_DIRS)
        q = shlex.quote(path)
        # grep -r follows a link named on its command line: a path through a link (to /etc, to ..) is
        # refused, as view and replace refuse it; links met inside the tree are not followed.
        linked = f'[ "$(realpath -s -e -- {q})" = "$(realpath -e -- {q})" ] || {{ echo {LINKED}; exit 3; }}; '
        r = self._with_retries(Action("run", linked + f"grep -rnIF {skip} -e {shlex.quote(pattern)} -- {q} "
                                             f"| head -n {MAX_MATCHES + 1}"))
        if r.stdout.strip() == LINKED:
            raise ToolError(f"search: path {path!r} goes through a symbolic link: search the files themselves")
        rows = r.stdout.splitlines()
        if not rows:
            return f"no match for {pattern!r} under {path}" + (f" ({r.stderr.strip()[:300]})" if r.stderr.strip() else "")
        more = f"\n[more than {MAX_MATCHES} matches: search a narrower path]" if len(rows) > MAX_MATCHES else ""
        return "\n".join(rows[:MAX_MATCHES]) + more

    @tool
    def replace(self, path: str, old: str, new: str) -> str:
        """Replace a piece of a file by another: `old` must occur in the file exactly once (copy it
        from `view`, whitespace included; add surrounding lines to make it unique).

        Args:
            path: the file, relative to the repository root.
            old: the text to replace, exactly as the file has it.
            new: the text to put in its place.
        """
        if not old:
            raise ToolError("replace: old is empty (to write a whole file use create)")
        text = self.read_text(path)
        found = positions(text, old)
        if len(found) != 1:
            where = ", ".join(str(text.count("\n", 0, at) + 1) for at in found[:10])
            raise ToolError(f"replace: old occurs {len(found)} times in {path}" + (f" (at lines {where}): include more "
                            "surrounding lines so that it occurs once" if found else ": view the file and copy the "
                            "text exactly, whitespace included") + "; nothing was changed")
        changed = text[:found[0]] + new + text[found[0] + len(old):]
        self.write(path, changed)
        first = changed.count("\n", 0, found[0]) + 1
        last = first + new.count("\n")
        rows = changed.splitlines()
        lo, hi = max(1, first - SNIPPET_CONTEXT), min(len(rows), last + SNIPPET_CONTEXT)
        shown = "\n".join(f"{n:>5}  {rows[n - 1]}" for n in range(lo, hi + 1))
        return f"replaced in {path}; lines {lo}-{hi} now read:\n{shown}"

    @tool
    def create(self, path: str, content: str) -> str:
        """Write a whole file (a new one, or replacing one as a whole).

        Args:
            path: relative to the repository root (letters, digits, '.', '_', '-', '/').
            content: the file's whole text.
        """
        return self.write(path, content)

    @tool
    def run_tests(self, path: str = "") -> str:
        """Run the repository's tests with pytest (`python -m pytest -x -q`), stopping at the first failure.

        Args:
            path: a test file or directory (default: all of the repository's tests).
        """
        return self.run(f"python -m pytest -x -q {shlex.quote(path)}" if path else "python -m pytest -x -q")


# -- the reference and wrong plays as tool calls --------------------------------------------------------

def edits(old: str, new: str, path: str) -> list[ToolCall]:
    """`replace` calls that turn `old` into `new`, each piece unique where it is applied (bottom up,
    so a later hunk never moves an earlier one); one `create` where that cannot be done."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    calls, text = [], old
    for tag, i1, i2, j1, j2 in reversed(difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()):
        if tag == "equal":
            continue
        for c in range(len(a) + 1):
            lo, hi = max(0, i1 - c), min(len(a), i2 + c)
            piece = "".join(a[lo:hi])
            if piece and len(positions(text, piece)) == 1:
                break
        else:
            return [ToolCall("create", {"path": path, "content": new})]
        put = "".join(a[lo:i1]) + "".join(b[j1:j2]) + "".join(a[i2:hi])
        text = text.replace(piece, put, 1)
        calls.append(ToolCall("replace", {"path": path, "old": piece, "new": put}))
    return calls if text == new else [ToolCall("create", {"path": path, "content": new})]


def reference_calls(base: dict[str, str], target: dict[str, str]) -> list[ToolCall]:
    calls = []
    for path in sorted(set(base) | set(target)):
        a, b = base.get(path), target.get(path)
        if a == b:
            continue
        if b is None:
            calls.append(ToolCall("run", {"command": f"rm -f -- {shlex.quote(path)}"}))
        elif a is None:
            calls.append(ToolCall("create", {"path": path, "content": b}))
        else:
            calls += edits(a, b, path)
    return calls


def in_turns(calls: list[ToolCall], per_turn: int) -> list[list[ToolCall]]:
    return [calls[i:i + per_turn] for i in range(0, len(calls), per_turn)] or [[]]


def breaking_replace(path: str, text: str) -> ToolCall | None:
    """A replace that leaves `path` a module Python cannot compile: an unclosed bracket put before a
    top-level statement (code, never inside a docstring) whose line occurs once."""
    import ast

    try:
        body = ast.parse(text).body
    except SyntaxError:
        return None
    rows = text.splitlines(keepends=True)
    for node in body:
        line = rows[node.lineno - 1]
        broken = text.replace(line, "(((\n" + line, 1)
        if line.strip() and len(positions(text, line)) == 1 and not _compiles(broken):
            return ToolCall("replace", {"path": path, "old": line, "new": "(((\n" + line})
    return None


def _compiles(text: str) -> bool:
    try:
        compile(text, "<module>", "exec")
    except SyntaxError:
        return False
    return True


class SweToolEnvironment(SweEnvironment):
    """`swe/<...>-session-tools-v1`: the repository session task, played through tools."""

    def __init__(self, env_id: str, family, kind: str) -> None:
        super().__init__(env_id, family, kind)
        self.text_twin = env_id.removesuffix("-tools-v1") + "-v1"

    def generate(self, rng, index: int):
        task = super().generate(rng, index)
        b = build(self.params(index))
        task.prompt = prompts.tools_session(b.base.package, b.base.files, b.issue, SESSION_TURNS,
                                            SweToolEpisode.max_calls_per_turn)
        return task

    tool_episode = SweToolEpisode  # its @tool methods are the prompt's tools

    def episode(self, task, verifier, ctx):
        return SweToolEpisode(task, verifier, ctx, max_turns=SESSION_TURNS)

    def _calls(self, task) -> tuple[list[ToolCall], object]:
        b = build(self._params_of(task))
        return reference_calls(b.base.files, b.target_files), b

    def tool_turns(self, task) -> list[list[ToolCall]]:
        calls, _ = self._calls(task)
        return in_turns(calls + [ToolCall("submit", {})], SweToolEpisode.max_calls_per_turn)

    def episode_probes(self, task):
        """Wrong plays, on the first task only (what they prove does not depend on the task): submit
        at once, the fix submitted too late (after submit in the same turn), and (one bug family per
        project and the write-the-tests family, as the text session's probe that runs the hidden
        tests) the fix followed by a replace that breaks a module, and a FIFO made where a file to fix is."""
        if task.label.seed != 0:
            return [], []
        calls, b = self._calls(task)
        submit, per = ToolCall("submit", {}), SweToolEpisode.max_calls_per_turn
        plays = submit_plays(calls)
        p = self._params_of(task)
        runs_tests = p.task == "tests" or self.text_twin == f"swe/{p.project}-bug-{_first_bug_class(p.project)}-session-v1"
        if runs_tests:
            path = next((c.arguments["path"] for c in calls if c.name in ("replace", "create")), None)
            target = b.target_files.get(path, "") if path else ""
            breaking = breaking_replace(path, target) if path else None
            if breaking is not None:
                plays["tools_fix_then_breaking_replace"] = (f"the fix, then a replace that leaves {path} uncompilable",
                                                           in_turns(calls + [breaking, submit], per))
            if path in b.base.files:
                q = shlex.quote(path)
                plays["tools_fifo_at_a_file_to_fix"] = (
                    f"a FIFO made at {path} with run: viewing, replacing and creating it are refused (tool errors)",
                    [[ToolCall("run", {"command": f"rm -f {q}; mkfifo {q}"}), ToolCall("view", {"path": path}),
                      *[c for c in calls if c.arguments.get("path") == path][:1],
                      ToolCall("create", {"path": path, "content": b.target_files[path]}), submit]])
        return played(plays), []


def submit_plays(calls: list[ToolCall]) -> dict[str, tuple[str, list[list[ToolCall]]]]:
    """The wrong plays every repository tool session shares: submit at once, and the fix after submit."""
    submit, per = ToolCall("submit", {}), SweToolEpisode.max_calls_per_turn
    return {"tools_submit_unchanged": ("submit at once: the repository as it was handed out", [[submit]]),
            "tools_call_after_submit": ("submit, then the fix in the same turn: not run", [[submit, *calls[:per - 1]]])}


def played(plays: dict[str, tuple[str, list[list[ToolCall]]]]) -> list[Variant]:
    """Each play as a wrong answer worth 0, its turns rendered in the default tool-call format."""
    out = []
    for kind, (note, turns) in plays.items():
        texts = tuple(render(t, DEFAULT_FORMAT) for t in turns)
        out.append(Variant(kind, texts[0], note=note, max_reward=0.0, turns=texts))
    return out


def _first_bug_class(project: str) -> str:
    from .projects.kinds import kind as project_kind

    return project_kind(project).bugs[0].cls.replace("_", "-")
