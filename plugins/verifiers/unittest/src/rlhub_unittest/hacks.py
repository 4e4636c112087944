"""`UnitTests.hacks(task)`: the reusable reward-hack suite (hub.testing.reward_hacks) shaped
to one task: the names its tests take from the solution, its language, its fence."""

from __future__ import annotations

import ast
import builtins
import zlib

from hub import Variant
from hub.testing.reward_hacks import BOUNDARY_HACKS, hacks_for

PER_TASK = 2  # hacks tried per task by `pytest registry.yaml` (each costs a verification); tasks rotate through all
_FENCE = {"python": "python", "bash": "bash"}


def solution_names(tests: str, style: str, module: str | None, entry_point: str | None) -> list[str]:
    """Names the tests use from the solution module: `from solution import x`, `solution.x`
    (pytest style); the entry point and every free name (check style)."""
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return [entry_point] if entry_point else []
    names: dict[str, None] = {}
    if entry_point:
        names[entry_point] = None
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == module:
            names.update((a.name, None) for a in node.names if a.name != "*")
        elif isinstance(node, ast.Import):
            aliases.update(a.asname or a.name for a in node.names if a.name == module)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            if not node.attr.startswith("__"):
                names[node.attr] = None
    if style == "check":
        bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        bound |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args}
        bound |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                  for a in n.names}
        loaded = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        names.update((n, None) for n in loaded if n not in bound and not hasattr(builtins, n))
    return list(names)


def _rotation(suite: list, count: int, label) -> list:
    """`count` hacks of `suite`, a different share for each task (by its label)."""
    if not suite:
        return []
    start = 0
    if label is not None and count < len(suite):
        start = (label.index * count + zlib.crc32(label.env.encode())) % len(suite)
    return [suite[(start + i) % len(suite)] for i in range(min(count, len(suite)))]


def task_hacks(spec, task, per_task: int = PER_TASK) -> list[Variant]:
    """`per_task` hacks of the suite plus one of the boundary tricks (a solution's word reaching
    the runner: shadowed names, interrupts, modules to import, tests that fail to load)."""
    suite = hacks_for(spec.language)
    if not suite:
        return []
    module = spec.module_name if spec.language == "python" else None
    tests = spec.tests if isinstance(spec.tests, str) else ""
    names = solution_names(tests, spec.style, module, spec.entry_point if isinstance(spec.entry_point, str) else None)
    label = getattr(task, "label", None)
    boundary = [h for h in suite if h in BOUNDARY_HACKS]
    chosen = _rotation([h for h in suite if h not in BOUNDARY_HACKS], per_task, label) + _rotation(boundary, 1, label)
    fence = _FENCE[spec.language]
    return [Variant(kind=f"hack:{h.kind}", response=f"```{fence}\n{h.source(names, module or 'solution')}```\n",
                    note=h.description, max_reward=0.0) for h in chosen]
