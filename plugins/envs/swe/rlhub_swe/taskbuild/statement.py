"""Problem statements from behaviour, never from the diff: what a failing test called, what it
expected and what happened, as a user's report says it, at two levels of detail.

- terse: the symptom in a sentence or two (the failing call and the error it ends in);
- detailed: the symptom, a reproduction (the failing test's own code, as a user would paste a
  script), and how many other checks fail.
Any line that repeats a line the bug changed (or the fix would restore) is left out of both."""

from __future__ import annotations

import ast
import re

E_LINE = re.compile(r"^E\s+(.*)$", re.M)
CALL_LINE = re.compile(r"^>\s+(.*\S)\s*$", re.M)


def banned_lines(bug_patch: str) -> set[str]:
    """The changed lines of the bug's diff (both sides), stripped: what a statement must not show."""
    out = set()
    for line in bug_patch.splitlines():
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---")):
            text = line[1:].strip()
            if len(text) >= 6:
                out.add(text)
    return out


def _readable(test_id: str) -> str:
    """'tests/test_lru.py::LRUCacheTest::test_expire' -> 'LRUCacheTest: expire'."""
    parts = test_id.split("::")[1:]
    words = [p[len("test_"):] if p.startswith("test_") else p for p in parts]
    words[-1] = words[-1].replace("_", " ")
    return ": ".join(w for w in words if w)


def test_source(module_text: str, test_id: str) -> str | None:
    """The source of the test function `test_id` names (a method of a class, or module level)."""
    parts = [p.split("[", 1)[0] for p in test_id.split("::")[1:]]
    try:
        nodes = ast.parse(module_text).body
    except SyntaxError:
        return None
    node = None
    for name in parts:
        node = next((n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == name), None)
        if node is None:
            break
        nodes = node.body
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # inherited from a mixin of the module
        funcs = [n for n in ast.walk(ast.parse(module_text)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == parts[-1]]
        if len(funcs) != 1:
            return None
        node = funcs[0]
    import textwrap

    return textwrap.dedent(ast.get_source_segment(module_text, node) or "") or None


def symptom(message: str) -> tuple[str | None, str]:
    """(the test's failing line, the error it ended in) from pytest's report of a failure."""
    calls = CALL_LINE.findall(message)
    errors = [e.strip() for e in E_LINE.findall(message) if e.strip()]
    error = errors[0] if errors else (message.strip().splitlines() or ["the check fails"])[-1].strip()
    if len(errors) > 1 and errors[0].startswith("assert "):  # pytest's `assert 3 == 4` + `where 3 = f(x)`
        error = " ".join(errors[:3])
    return (calls[0] if calls else None), error[:400]


def write(package: str, f2p: list[str], messages: dict[str, str], hidden: dict[str, str], bug_patch: str) -> dict[str, str]:
    """{"terse": ..., "detailed": ...} for a bug whose FAIL_TO_PASS tests failed with `messages`
    (test id -> pytest's report); `hidden` holds the test modules the model will not see."""
    banned = banned_lines(bug_patch)
    first = f2p[0]
    call, error = symptom(messages.get(first, ""))
    source = test_source(hidden.get(first.split("::", 1)[0], ""), first)
    if call and (not source or call.strip() not in source):  # a frame of the package's (the report was cut): not shown
        call = None
    where = _readable(first)
    lines = [f"`{package}` misbehaves: {where}."]
    if call:
        lines.append(f"`{call}` fails with `{error}`.")
    else:
        lines.append(f"It fails with `{error}`.")
    terse = "\n".join(lines)
    body = [f"## `{package}`: {where}", "", "What I did:"]
    if source:
        body += ["", "```python", *source.rstrip("\n").splitlines(), "```"]
    else:
        body += ["", f"ran the check `{first}`"]
    body += ["", "What I expected: the check above passes, as it did before.", "",
             "What happened:" + (f" `{call}` raised" if call else ""), "", "```", error, "```"]
    if len(f2p) > 1:
        others = [_readable(t) for t in f2p[1:6]]
        more = f" (and {len(f2p) - 6} more)" if len(f2p) > 6 else ""
        body += ["", f"{len(f2p) - 1} other check(s) fail the same way: " + "; ".join(others) + more + "."]
    # every line that repeats a changed one goes, whichever part wrote it
    return {"terse": scrub(terse, banned), "detailed": scrub("\n".join(body), banned)}


def scrub(text: str, banned: set[str]) -> str:
    """`text` without a line that repeats a banned one (a 'What happened' line keeps its heading)."""
    out = []
    for line in text.splitlines():
        if any(b in line for b in banned):
            if line.startswith("What happened:"):
                out.append("What happened:")
            continue
        out.append(line)
    return "\n".join(out)
