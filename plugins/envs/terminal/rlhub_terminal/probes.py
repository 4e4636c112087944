"""What a model can leave in a session's work dir besides files, as checks play it: each probe is
one reply (shell commands, maybe a file or a fix, SUBMIT) whose verdict is known in advance.

Everything the model leaves is the model's doing, so every probe must end with a verdict (the
checks play them on a family's first task only: what they prove does not depend on the task):
- a FIFO, socket, directory or symlink where the solution should be: graded as no solution (0);
- the same objects beside a correct solution, and names with a newline in them: earn what the
  reference earns (nothing of them is read, nothing blocks).
Device nodes need CAP_MKNOD, which no sandboxed task has: they cannot be left at all.

The file is graded as its bytes: a byte that is not UTF-8 appended to a Python solution makes it a
file `python3` refuses (0, however right the code), the same byte in a shell script is what bash
runs (the reference's reward).

A static-analysis family (a rubric of the tests and an analyser) also gets, single-turn and in a
session: the reference with one line the analyser crashes on (ruff and mypy: a string annotation
of 40,000 `int`s; bandit: 2,500 string literals added together). The tests pass; the crash is the
model's failure for the analyser: at most the tests' weight, with a verdict, never "no verdict".
"""

from __future__ import annotations

import hashlib
import shlex

from hub import Variant
from hub.core.response import fenced

from .analysis import TESTS_WEIGHT

# One Unix socket bound at a path, as a model would leave one (the process exits, the socket stays).
SOCKET = "python3 -c \"import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])\" {path}"
# (A directory or a symlink there is a hostile case of the session's own tests; the checks play the
# two kinds that used to block the file helper.)
IN_THE_WAY = {
    "fifo": "mkfifo {path}",
    "socket": SOCKET,
}
# Beside the solution: a FIFO, a socket, a link out, and names that split a newline-separated listing.
ODD_NEIGHBOURS = ("mkfifo pipe; " + SOCKET.format(path="sock") + "; ln -s /etc/passwd link; "
                  "touch \"$(printf 'odd\\nname.txt')\"; mkfifo \"$(printf 'z\\npipe')\"")


# The ways models say they are done (actions.py reads them all): each right probe ends with one,
# chosen by its code, so the families between them play every form.
SUBMIT_FORMS = ("SUBMIT\n", "SUBMIT:\n", "**SUBMIT**\n", "All done: the tests should pass now. SUBMIT\n", "```\nSUBMIT\n```\n")
# A turn that only talks: no command, no file, no SUBMIT (played until the turns run out).
TALK = "I have read the task carefully. My solution is correct and complete, and it handles every edge case."


def submit_form(code: str) -> str:
    return SUBMIT_FORMS[int(hashlib.sha256(code.encode()).hexdigest(), 16) % len(SUBMIT_FORMS)]


def only_talks(turns: int = 64) -> Variant:
    """Enough talking turns for any registry's max_turns (the play stops where the episode ends)."""
    return Variant("session_only_talks", TALK, max_reward=0.0, turns=(TALK,) * turns,
                   note="every turn talks about a solution and none writes one: nothing to grade")


def bash(*commands: str) -> str:
    return "".join(f"```bash\n{c}\n```\n" for c in commands)


def write(path: str, text: str, language: str) -> str:
    return fenced(text, f"{language} file={path}")


# One line the analyser crashes on (a stack overflow or a segfault in the tool, checked in
# plugins/verifiers/static/tests/test_static_crashes.py); valid Python that imports unchanged.
CRASH_LINES = {
    "ruff": '_z: "' + "|".join(["int"] * 40_000) + '" = 0\n',
    "mypy": '_z: "' + "|".join(["int"] * 40_000) + '" = 0\n',
    "bandit": "_z = " + "+".join(['"a"'] * 2_500) + "\n",
}
NOT_UTF8 = "printf '# \\xff\\xfe not UTF-8\\n' >> {path}"


def analyser_crash(code: str, analyser: str) -> str | None:
    """The reference with a line `analyser` crashes on appended (None: no such line for it)."""
    line = CRASH_LINES.get(analyser)
    return None if line is None else code.rstrip("\n") + "\n\n\n" + line


def crash_variant(code: str, analyser: str, session: tuple[str, str] | None = None) -> list[Variant]:
    """The analyser-crash wrong answer, as a response or (`session`: its path and fence language)
    played as one session reply."""
    crashing = analyser_crash(code, analyser)
    if crashing is None:
        return []
    note = f"the reference plus a line {analyser} crashes on: its component earns 0 (the model's file broke it)"
    if session is None:
        return [Variant("analyser_crash", fenced(crashing, "python"), note=note, max_reward=TESTS_WEIGHT)]
    reply = write(session[0], crashing, session[1]) + "SUBMIT\n"
    return [Variant("session_analyser_crash", reply, note=note, max_reward=TESTS_WEIGHT, turns=(reply,))]


def terminal(solution_path: str, code: str, language: str) -> tuple[list[Variant], list[Variant]]:
    """(wrong, right) probes of a terminal session whose answer is `code` at `solution_path`."""
    path = shlex.quote(solution_path)
    wrong = [Variant(f"session_{kind}_at_solution", reply, note=f"a {kind} where {solution_path} should be, then the "
                     "right code written to it (refused): nothing to grade", max_reward=0.0, turns=(reply,))
             for kind, make in IN_THE_WAY.items()
             for reply in [bash(f"rm -rf {path}; " + make.format(path=path)) + write(solution_path, code, language) + "SUBMIT\n"]]
    form = submit_form(code)
    reply = bash(ODD_NEIGHBOURS) + write(solution_path, code, language) + form
    right = [Variant("session_odd_neighbours", reply, note="the right code beside FIFOs, a socket, a link and names "
                     f"with newlines, then {form.strip()!r}", turns=(reply,))]
    wrong.append(only_talks())
    not_utf8 = write(solution_path, code, language) + bash(NOT_UTF8.format(path=path)) + "SUBMIT\n"
    if language == "python":
        wrong.append(Variant("session_not_utf8", not_utf8, max_reward=0.0, turns=(not_utf8,),
                             note="the right code plus a comment that is not UTF-8: python3 refuses the file"))
    elif language == "bash":
        right.append(Variant("session_not_utf8", not_utf8, turns=(not_utf8,),
                             note="the right script plus a comment that is not UTF-8: bash runs it as it is"))
    return wrong, right
