"""Helpers the mesh tests import by name (fixtures live in conftest.py)."""

from __future__ import annotations

from hub import Task


def ensure_warm(sandbox) -> None:
    """Have a worker with CadQuery imported, paid under the full profile's wall clock: a fresh
    worker's first task also waits for its preload, which can exceed the short test limit on a
    loaded machine (and a worker is replaced after a task that timed out or ran out of memory)."""
    from rlhub_mesh.plugin import CADQUERY_PROFILE

    first = sandbox.call(CADQUERY_PROFILE, "rlhub_mesh.runner:build", args={"script": "result = None"})
    assert first.infra_error is None, first.infra_error


def cq_task(reference: str, **hidden) -> Task:
    return Task(prompt="model this part", hidden={"reference_script": reference, **hidden},
                reference=f"```python\n{reference}\n```")


PLATE = """import cadquery as cq
result = (cq.Workplane("XY").box(60, 40, 8)
          .faces(">Z").workplane().pushPoints([(-18, 0), (18, 0)]).hole(8)
          .edges("|Z").fillet(3))
"""
