"""What the model sees of its session: a command's run (exit status, output's head and tail), and
a step's notes capped in total and each, every cut marked with what it cut."""

from __future__ import annotations

HEAD_CHARS = 1500
TAIL_CHARS = 1000
MAX_OBSERVATION_CHARS = 24_000  # one step's whole observation
MAX_NOTE_CHARS = 6_000  # one note of it (a command's report is itself cut to its head and tail)


def capped(notes: list[str], total: int = MAX_OBSERVATION_CHARS, each: int = MAX_NOTE_CHARS) -> str:
    """The notes as one observation: repeats of one note counted once, each note cut to `each`
    characters and the whole to `total`, every cut marked with what it cut."""
    merged: list[tuple[str, int]] = []
    for note in notes:
        if merged and merged[-1][0] == note:
            merged[-1] = (note, merged[-1][1] + 1)
        else:
            merged.append((note, 1))
    parts = []
    for note, n in merged:
        if len(note) > each:
            note = note[:each] + f"\n[... note cut: {len(note) - each} more characters]"
        parts.append(note + (f" (x{n})" if n > 1 else ""))
    text = "\n\n".join(parts)
    if len(text) > total:
        text = text[:total] + f"\n[... observation cut: {len(text) - total} more characters]"
    return text


def shorten(text: str, truncated: bool = False) -> str:
    """Head and tail of long output, with a marker saying how much was cut."""
    if len(text) > HEAD_CHARS + TAIL_CHARS + 100:
        cut = len(text) - HEAD_CHARS - TAIL_CHARS
        text = f"{text[:HEAD_CHARS]}\n[... {cut} characters cut ...]\n{text[-TAIL_CHARS:]}"
    if truncated:
        text += "\n[output limit reached: the rest was discarded]"
    return text


def describe_run(command: str, r) -> str:
    """A command's run as the model sees it: its first line, how it ended, its output shortened."""
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
