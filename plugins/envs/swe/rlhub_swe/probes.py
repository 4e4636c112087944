"""Session probes of a repository (the checks play them, see rlhub_terminal.probes): what a model
can leave in its work tree around the paths the grader protects.

- clashes: `tests/` (the hidden tests' home, where protected) replaced by a file, `pyproject.toml`
  replaced by a directory with a file in it: the grader puts the protected paths back and removes
  and names what was in their way;
- odd objects: a FIFO at conftest.py, a socket at pytest.ini, a FIFO beside a file whose name holds a
  newline and that FIFO's name (which split a newline-separated listing), a link out: none is read,
  nothing blocks.
Alone they change nothing the hidden tests see (0, `refused: empty`, cheap: no test runs); after the
reference fix they must earn what the reference earns (the one probe that runs the hidden tests).
"""

from __future__ import annotations

from hub import Variant
from rlhub_terminal.probes import SOCKET, bash, only_talks, submit_form

ODD_OBJECTS = ("mkfifo conftest.py; " + SOCKET.format(path="pytest.ini") + "; ln -s /etc/passwd link.pth; "
               "mkfifo pipe.pth; touch \"$(printf 'z\\npipe.pth')\"")


def clashes(tests_protected: bool) -> str:
    out = "if [ -f pyproject.toml ]; then rm pyproject.toml; mkdir pyproject.toml; echo 'x = 1' > pyproject.toml/x.py; fi"
    return ("rm -rf tests && echo x > tests; " if tests_protected else "") + out


def probes(reference: str, tests_protected: bool) -> tuple[list[Variant], list[Variant]]:
    """(wrong, right) probes of a session whose reference answer is `reference` (a ```diff block)."""
    leave = bash(clashes(tests_protected), ODD_OBJECTS)
    wrong = [Variant("session_clashes_and_odd_objects", leave + "SUBMIT\n", max_reward=0.0, turns=(leave + "SUBMIT\n",),
                     note="protected paths turned file/directory, FIFOs, a socket, newline names: and no fix")]
    form = submit_form(reference)
    fixed = reference.rstrip("\n") + "\n" + leave + form
    right = [Variant("session_fix_beside_clashes_and_odd_objects", fixed, turns=(fixed,),
                     note=f"the reference fix, then the clashes and odd objects: the protected paths win ({form.strip()!r})")]
    wrong.append(only_talks())
    return wrong, right
