"""The solution file a response makes: its code, read the way the benchmarks' own harnesses read it.

- The code is the response's last Python block, or, where the task names its entry point, the
  last block that defines it (an "Example usage:" block after the answer is not the answer).
- Check style (HumanEval): the prompt's code comes first; a whole function redefines the stub
  after it, a bare completion continues it.
- A preset may put the imports its benchmark's harness puts before every solution first
  (LiveCodeBench, APPS: `preambles.py`).
- `from __future__` imports of the code (and of the prompt) go to the very top of the file,
  where Python requires them: putting code in front of a module must not break it.
"""

from __future__ import annotations

import ast
import re

from hub.core.response import read

from . import io_cases
from .extract import extract_code, python_parses
from .preambles import preamble

# `name(` in a prompt: the functions it asks for (`Write slugify(title)`, MBPP's shown assert)
_CALLED = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\(")


def defines(code: str, names) -> bool:
    """Does `code` define one of `names` at top level, or as a method of a top-level class
    (LiveCodeBench's `class Solution: def maxPairSum`)?"""
    names = {names} if isinstance(names, str) else set(names or ())
    if not names:
        return False
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return False
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for node in tree.body:
        if isinstance(node, defs) and node.name in names:
            return True
        if isinstance(node, ast.ClassDef) and any(isinstance(m, defs) and m.name in names for m in node.body):
            return True
    return False


def entry_names(spec, prompt: object) -> frozenset[str]:
    """The names the task asks the code to define: its entry point (HumanEval's, an APPS or
    LiveCodeBench function), else, for check and pytest styles, the functions the prompt
    writes as calls (`slugify(title)`, MBPP's `assert remove_Occ("hello","l") == "heo"`)."""
    entry = io_cases.fn_name(spec.entry_point) if spec.entry_point else None
    if entry:
        return frozenset({entry})
    if spec.style == "stdio" or spec.language != "python":
        return frozenset()
    texts = [prompt] if isinstance(prompt, str) else [m.get("content") for m in prompt if isinstance(m, dict)] \
        if isinstance(prompt, list) else []
    return frozenset(n for t in texts if isinstance(t, str) for n in _CALLED.findall(t))


def prompt_prefix(spec, prompt: object) -> str:
    """hidden['prompt_prefix'], else (HumanEval data declared in a registry) the prompt itself
    when it is Python code; only check-style tasks have one."""
    if spec.style != "check":
        return ""
    return spec.prompt_prefix or (prompt if isinstance(prompt, str) and python_parses(prompt) else "")


def futures_first(*parts: str) -> str:
    """The parts joined, with every top-level `from __future__` import of each moved to the top
    (its line left blank, so the rest keeps its line numbers). A part that does not parse on its
    own, or shares a line with such an import, is left as it is."""
    futures, out = [], []
    for part in parts:
        hoisted, rest = _futures(part)
        futures += hoisted
        out.append(rest)
    return "".join(line + "\n" for line in futures) + "".join(out)


def _futures(code: str) -> tuple[list[str], str]:
    if "__future__" not in code:
        return [], code
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return [], code
    lines = code.splitlines(True)
    found = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__" and node.level == 0:
            after = lines[node.end_lineno - 1][node.end_col_offset:].strip()  # the line holds nothing else
            if node.col_offset or (after and not after.startswith("#")):
                return [], code  # `from __future__ import x; y = 1`: not ours to split
            found.append(node)
    for node in found:
        for i in range(node.lineno - 1, node.end_lineno):
            lines[i] = "\n" if lines[i].endswith("\n") else ""
    return [" ".join(ast.get_source_segment(code, node).split()) for node in found], "".join(lines)


def assemble(spec, response: str, mode: str, prompt: object = None, preamble_name: str = "none",
             by_entry: bool = True) -> str | None:
    """The solution file: the extracted code, after the preset's preamble and (check style) the
    prompt's code before a bare completion or a whole function; None when there is no code.
    `by_entry=False`: the last block, even after the one defining the entry point (a rubric whose
    analyser reads the last block must have the tests grade that same code)."""
    if spec.language != "python":
        return extract_code(response, spec.language, mode)  # type: ignore[arg-type]
    prefix, names = prompt_prefix(spec, prompt), entry_names(spec, prompt) if by_entry else frozenset()

    def joined(code: str) -> str:
        front = preamble(preamble_name, code)
        if prefix and defines(code, spec.entry_point):  # a whole function redefines the prompt's stub after it
            return futures_first(front, f"{prefix.rstrip()}\n\n\n", code)
        if prefix:  # a completion continues the prompt
            return futures_first(front, prefix + code)
        return futures_first(front, code) if front else code

    code = extract_code(response, "python", mode, parses=(lambda c: python_parses(joined(c))) if prefix else None,
                        prefer=(lambda block: defines(block, names)) if names else None)  # type: ignore[arg-type]
    return joined(code) if code is not None else None


def with_usage_example(spec, reference: str, prompt: object) -> str | None:
    """`reference` (its code fenced, if bare) with an "Example usage:" block after it that calls
    the entry point, as models often end an answer; None where the task names no entry point or
    the reference's code defines none of its names (a stdin program)."""
    names = entry_names(spec, prompt) if spec.language == "python" else frozenset()
    blocks = read(reference).blocks
    code = extract_code(reference, "python") if blocks else reference
    if not names or not code or not defines(code, names):
        return None
    name = next(n for n in sorted(names) if defines(code, n))
    tree = ast.parse(code)
    owner = next((node.name for node in tree.body if isinstance(node, ast.ClassDef) and node.name != name
                  and any(getattr(m, "name", None) == name for m in node.body)), None)
    call = f"{owner}().{name}(...)" if owner and not any(getattr(n, "name", None) == name for n in tree.body) else f"{name}(...)"
    answer = reference.rstrip("\n") + "\n" if blocks else f"```python\n{reference.strip(chr(10))}\n```\n"
    return f"{answer}\nExample usage:\n\n```python\nprint({call})\n```\n"
