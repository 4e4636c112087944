"""What a model can leave in a session's work dir besides files, as checks play it: each probe is
one reply (shell commands, maybe a file or a fix, SUBMIT) whose verdict is known in advance.

Everything the model leaves is the model's doing, so every probe must end with a verdict (the
checks play them on a family's first task only: what they prove does not depend on the task):
- a FIFO, socket, directory or symlink where the solution should be: graded as no solution (0);
- the same objects beside a correct solution, and names with a newline in them: earn what the
  reference earns (nothing of them is read, nothing blocks).
Device nodes need CAP_MKNOD, which no sandboxed task has: they cannot be left at all.
"""

from __future__ import annotations

import shlex

from hub import Variant
from hub.core.response import fenced

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


def bash(*commands: str) -> str:
    return "".join(f"```bash\n{c}\n```\n" for c in commands)


def write(path: str, text: str, language: str) -> str:
    return fenced(text, f"{language} file={path}")


def terminal(solution_path: str, code: str, language: str) -> tuple[list[Variant], list[Variant]]:
    """(wrong, right) probes of a terminal session whose answer is `code` at `solution_path`."""
    path = shlex.quote(solution_path)
    wrong = [Variant(f"session_{kind}_at_solution", reply, note=f"a {kind} where {solution_path} should be, then the "
                     "right code written to it (refused): nothing to grade", max_reward=0.0, turns=(reply,))
             for kind, make in IN_THE_WAY.items()
             for reply in [bash(f"rm -rf {path}; " + make.format(path=path)) + write(solution_path, code, language) + "SUBMIT\n"]]
    reply = bash(ODD_NEIGHBOURS) + write(solution_path, code, language) + "SUBMIT\n"
    right = [Variant("session_odd_neighbours", reply, note="the right code beside FIFOs, a socket, a link and names "
                     "with newlines", turns=(reply,))]
    return wrong, right
