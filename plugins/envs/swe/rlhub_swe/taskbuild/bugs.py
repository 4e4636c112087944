"""Candidate bugs in a project's source: SWE-smith's procedural modifiers (the `swesmith`
package: removed conditions, assignments, loops and wrappers, inverted if/else, changed and
swapped operators and constants) and cosmic-ray's operators (comparison and arithmetic operators,
off-by-one numbers, True/False, `not` added, and/or swapped, a loop that never runs), each at one
site; `combine` makes bugs of 2-3 validated ones, in one module or across modules.

A candidate is `{"id", "strategies", "files": {path: mutated text}}`, deterministic for a seed."""

from __future__ import annotations

import ast
import hashlib
import random
from typing import Any

from .. import patch

# Modifiers whose change keeps the behaviour more often than not (shuffled methods, shuffled
# lines) would mostly be dropped by validation: not tried.
SKIPPED_MODIFIERS = {"func_pm_class_shuffle_funcs", "func_pm_ctrl_shuffle"}


def _seeded(*parts: Any) -> random.Random:
    return random.Random(hashlib.sha256(repr(parts).encode()).digest())


def _replace_lines(text: str, entity, rewrite: str) -> str | None:
    """`text` with the entity's lines replaced by `rewrite` at its indentation (swesmith's
    apply_code_change, on a string instead of a file)."""
    lines = text.splitlines(keepends=True)
    if not 1 <= entity.line_start <= entity.line_end <= len(lines):
        return None
    pad = " " * entity.indent_level * entity.indent_size
    change = [pad + x if x.strip() else x for x in rewrite.splitlines(keepends=True)]
    if not change:
        return None
    last = lines[entity.line_end - 1]
    if last.endswith("\n") and not change[-1].endswith("\n"):
        change[-1] += "\n"
    return "".join(lines[:entity.line_start - 1] + change + lines[entity.line_end:])


def swesmith_candidates(path: str, text: str, seed: int) -> list[dict]:
    from swesmith.bug_gen.adapters.python import _build_entity
    from swesmith.bug_gen.procedural.python import MODIFIERS_PYTHON

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    entities = [_build_entity(n, text, path) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    out, seen = [], set()
    for modifier in MODIFIERS_PYTHON:
        if modifier.name in SKIPPED_MODIFIERS:
            continue
        for entity in entities:
            if not modifier.can_change(entity):
                continue
            modifier.rand = _seeded(seed, path, modifier.name, entity.line_start)
            try:
                rewrite = modifier.modify(entity)
            except Exception:  # a modifier that trips on unusual code: that site is simply not a candidate
                continue
            mutated = _replace_lines(text, entity, rewrite.rewrite) if rewrite else None
            if not mutated or mutated == text or mutated in seen or not _parses(mutated):
                continue
            seen.add(mutated)
            out.append({"id": f"{path}:{entity.line_start}:{modifier.name}", "strategies": [modifier.name],
                        "files": {path: mutated}})
    return out


def cosmic_ray_candidates(path: str, text: str, count: int) -> list[dict]:
    from ..mutation import mutants

    return [{"id": f"{path}:{name.split('@')[1]}:cr_{name.split('@')[0]}", "strategies": [f"cr_{name.split('@')[0]}"],
             "files": {path: tidy(text, mutated)}} for name, mutated in mutants(text, count)]


def tidy(original: str, mutated: str) -> str:
    """`mutated` without the space a mutator puts before the token it replaces (cosmic-ray writes
    `g( 127)` for `g(128)`): an odd-looking line would point at the bug without reading the code."""
    a, b = original.splitlines(keepends=True), mutated.splitlines(keepends=True)
    if len(a) != len(b):
        return mutated
    out = []
    for old, new in zip(a, b):
        if old != new:
            k = next((i for i, (x, y) in enumerate(zip(old, new)) if x != y), min(len(old), len(new)))
            if k < len(new) and new[k] == " " and (k >= len(old) or old[k] != " "):
                new = new[:k] + new[k + 1:]
        out.append(new)
    result = "".join(out)
    return result if result != original and _parses(result) else mutated


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except SyntaxError:
        return False


def candidates(tree: dict[str, str], sources: list[str], seed: int, limit: int) -> list[dict]:
    """Up to `limit` single-site candidates, spread over the modules (round robin over a shuffled order)."""
    per_module = []
    for path in sources:
        found = swesmith_candidates(path, tree[path], seed) + cosmic_ray_candidates(path, tree[path], 24)
        _seeded(seed, path).shuffle(found)
        if found:
            per_module.append(found)
    _seeded(seed).shuffle(per_module)
    out = []
    while per_module and len(out) < limit:
        for group in list(per_module):
            if group:
                out.append(group.pop())
            if not group:
                per_module.remove(group)
            if len(out) >= limit:
                break
    return out


def combine(base: dict[str, str], kept: list[dict], seed: int, count: int) -> list[dict]:
    """Up to `count` bugs made of 2-3 validated ones at different sites (they must apply together)."""
    rng = _seeded(seed, "combine")
    out, tried = [], set()
    for _ in range(count * 8):
        if len(out) >= count or len(kept) < 2:
            break
        group = rng.sample(kept, rng.choice((2, 3)) if len(kept) >= 3 else 2)
        key = tuple(sorted(c["id"] for c in group))
        if key in tried or len({c["id"].rsplit(":", 1)[0] for c in group}) < len(group):
            continue  # the same combination, or two bugs on one line
        tried.add(key)
        tree: dict[str, str] | None = dict(base)
        for c in group:
            diff = patch.make(base, {**base, **c["files"]})
            try:
                tree, _ = patch.apply(tree, patch.parse(diff))
            except (patch.PatchRefused, patch.DoesNotApply):
                tree = None
                break
        if tree is None:
            continue
        files = {p: t for p, t in tree.items() if base.get(p) != t}
        out.append({"id": "+".join(key), "strategies": [s for c in group for s in c["strategies"]], "files": files,
                    "parts": list(key)})
    return out
