"""Suppression comments (`# noqa`, `# type: ignore`, `# nosec`, `# isort: skip_file`,
`# shellcheck disable=...`) are taken out before any analyser reads the code: otherwise a model
could silence a finding instead of fixing it. Comments never change what code does, so the code
analysed behaves exactly like the code tested; each directive comment becomes NEUTRAL (still a
well-formed comment), and each is a finding of its own (rlhub_static.analyser: writing one is an
attempt to blind the analyser, whatever it would have silenced)."""

from __future__ import annotations

import io
import re
import tokenize

# Comments any Python analyser treats as an instruction: ruff/flake8 (and the isort comments ruff
# obeys even with --ignore-noqa), mypy, pyright, pyre, pytype, bandit, pylint.
PYTHON_DIRECTIVE = re.compile(r"(?i)\bnoqa\b|\btype\s*:\s*ignore|\bmypy\s*:|\bpyright\s*:|\bnosec\b|\bruff\s*:|\bpylint\s*:"
                              r"|\bisort\s*:|\bflake8\s*:|\bpyre-(?:ignore|fixme|strict|unsafe)|\bpytype\s*:")
# shellcheck reads `# shellcheck key=value` comments (disable, enable, source, shell, ...).
SHELL_DIRECTIVE = re.compile(r"#\s*shellcheck\s+[\w-]+\s*=")
NEUTRAL = "# rlhub: directive taken out"  # what a directive becomes (and how the analyser finds where one was)


def neutralise_python(code: str) -> tuple[str, list[int]]:
    """The code with every directive comment replaced, and the lines where there was one."""
    lines = code.splitlines(keepends=True)
    hits: list[tuple[int, int, int]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT and PYTHON_DIRECTIVE.search(tok.string):
                hits.append((tok.start[0], tok.start[1], tok.end[1]))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code, []  # the analysers will report the code as broken
    for row, start, end in reversed(hits):  # right to left: earlier columns stay valid
        line = lines[row - 1]
        lines[row - 1] = line[:start] + NEUTRAL + line[end:]
    return "".join(lines), sorted({row for row, _, _ in hits})


def neutralise_shell(code: str) -> tuple[str, list[int]]:
    out, rows = [], []
    for i, line in enumerate(code.splitlines(keepends=True), 1):
        new = SHELL_DIRECTIVE.sub(lambda m: NEUTRAL + " ", line)
        if new != line:
            rows.append(i)
        out.append(new)
    return "".join(out), rows


def directive_lines(neutralised: str) -> list[int]:
    """The lines where neutralise_* took a directive out."""
    return [i for i, line in enumerate(neutralised.splitlines(), 1) if NEUTRAL in line]
