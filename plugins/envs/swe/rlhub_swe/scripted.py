"""A scripted agent for bug and feature sessions: what a model that knows the answer does, turn by
turn (look around, reproduce the issue with a test of its own, apply the fix as a diff and re-run
that test, submit). Its verdict is known (full reward), which makes it the end-to-end path of the
plugin's tests, the trainer tests and benchmarks/bench_swe.py.
"""

from __future__ import annotations

import re

from . import patch
from .projects.template import render as render_text
from .tasks import Built

REPRO_PATH = "tests/test_issue.py"


def fix_files(b: Built) -> dict[str, str]:
    """The files the reference changes outside tests/, as they end."""
    return {p: b.target_files[p] for p in b.touched if p in b.target_files and not p.startswith("tests/")}


def fix_diff(b: Built) -> str:
    """The fix alone (no test edits) as one ```diff block."""
    return patch.fenced(patch.make(b.base.files, {**b.base.files, **fix_files(b)}))


def repro_test(b: Built) -> tuple[str, str]:
    """(test name, module) of a test that shows the issue, as an agent writes one from the report:
    the task's first FAIL_TO_PASS test with its area's imports."""
    headers, blocks = b.kind.parsed
    block = next(x for x in blocks if x.name == b.fail_to_pass[0])
    values = b.base.values
    return block.name, render_text(headers[block.area], values) + "\n\n" + render_text(block.source, values)


def bash(*commands: str) -> str:
    return "".join(f"```bash\n{c}\n```\n" for c in commands)


def turns(b: Built) -> list[str]:
    """Explore, reproduce (the test fails), fix and re-run (it passes), submit."""
    if b.params.task not in ("bug", "feature"):
        raise ValueError(f"the scripted agent fixes bugs and writes features, not {b.params.task!r} tasks")
    target = next(iter(fix_files(b)))
    word = (re.findall(r"^(?:def|class) (\w+)", b.base.files.get(target, ""), re.MULTILINE) or [b.base.package])[0]
    _, repro = repro_test(b)
    run = f"python -m pytest -x -q {REPRO_PATH}"
    return [
        "Let me look around.\n" + bash("ls", f"grep -rn '{word}' {b.base.package} | head -20"),
        f"```python file={REPRO_PATH}\n{repro}```\n" + bash(run),
        "The fix:\n" + fix_diff(b) + bash(run),
        "SUBMIT",
    ]
