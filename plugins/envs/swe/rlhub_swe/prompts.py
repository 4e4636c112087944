"""What the model reads: the issue, and the repository shown three ways (a session's work dir, the
files a fix concerns, or the whole repository in one prompt)."""

from __future__ import annotations

from hub.core.response import fenced

LANG = {".py": "python", ".md": "markdown", ".toml": "toml", ".cfg": "ini", ".ini": "ini", ".txt": "text",
        ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".sh": "bash"}
ANSWER = ("Answer with a unified diff against the repository root, as `git diff` writes it (paths a/... and b/...), "
          "in one ```diff block. It must apply to the files as shown.")

SESSION = """\
You work in a shell session in the repository's directory (no network; Python and pytest are installed).
Each reply may contain, in order:
- ```bash blocks: each runs with `bash -c` in the repository (e.g. `ls`, `cat`, `grep -rn`, `sed -n 1,80p`,
  `python -m pytest -x -q tests/test_x.py`); you see the exit code and the output (long output is shortened);
- ```diff blocks: a unified diff, applied at the repository root with `patch -p1` (its output is shown);
- a fenced block with file=PATH after the language (```python file=pkg/mod.py): the whole file is written;
- the word `SUBMIT` on a line of its own ends the session; the repository is then graded.
You have {turns} replies; after the last one the repository is graded as it stands. It is graded by hidden
tests, not by the repository's own: changing tests or test configuration earns nothing."""


def fence(path: str, text: str) -> str:
    lang = next((v for k, v in LANG.items() if path.endswith(k)), "")
    return f"### {path}\n{fenced(text, lang)}"


def listing(files: dict[str, str]) -> str:
    return "\n".join(f"  {path}  ({text.count(chr(10))} lines)" for path, text in sorted(files.items()))


def describe(pkg: str, files: dict[str, str]) -> str:
    modules = sum(1 for p in files if p.startswith(pkg + "/") and p.endswith(".py"))
    lines = sum(t.count("\n") for p, t in files.items() if p.endswith(".py"))
    return f"the repository of `{pkg}`, a Python package of {modules} modules ({lines} lines of Python with its tests)"


def session(pkg: str, files: dict[str, str], issue: str, turns: int) -> str:
    top = sorted({p.split("/", 1)[0] + ("/" if "/" in p else "") for p in files})
    return (f"You are working in {describe(pkg, files)}. Its top level: {', '.join(top)}.\n\n"
            f"## Issue\n\n{issue}\n\n## How to work\n\n" + SESSION.format(turns=turns))


def oracle(pkg: str, files: dict[str, str], issue: str, shown: list[str]) -> str:
    body = "\n".join(fence(p, files[p]) for p in shown if p in files)
    return (f"This is {describe(pkg, files)}. Its files:\n{listing(files)}\n\n## Issue\n\n{issue}\n\n"
            f"## The files this concerns\n\n{body}\n{ANSWER}")


def whole(pkg: str, files: dict[str, str], issue: str) -> str:
    body = "\n".join(fence(p, t) for p, t in sorted(files.items()))
    return (f"## Issue\n\n{issue}\n\n## The repository\n\nThis is {describe(pkg, files)}, every file of it:\n\n{body}\n"
            f"## Your answer\n\nResolve the issue above. {ANSWER}")


TOOLS = """\
You work in the repository's directory (no network; Python and pytest are installed) through tools:
`view` shows a file's lines, numbered (or a directory's files), `search` finds a text in the files, `replace`
changes a piece of a file that occurs in it exactly once, `create` writes a whole file, `run` runs a shell
command, `run_tests` runs pytest. `submit` ends the session; the repository is then graded. You have {turns}
turns (a turn is one reply, with as many calls as you need, up to {calls}); after the last one the repository
is graded as it stands. It is graded by hidden tests, not by the repository's own: changing tests or test
configuration earns nothing."""


def tools_session(pkg: str, files: dict[str, str], issue: str, turns: int, calls: int) -> str:
    """The session prompt of the tool version (the tools' schemas travel beside it, not in it)."""
    top = sorted({p.split("/", 1)[0] + ("/" if "/" in p else "") for p in files})
    return (f"You are working in {describe(pkg, files)}. Its top level: {', '.join(top)}.\n\n"
            f"## Issue\n\n{issue}\n\n## How to work\n\n" + TOOLS.format(turns=turns, calls=calls))
