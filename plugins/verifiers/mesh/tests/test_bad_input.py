"""The issue's bad inputs: each gets a defined low reward and a verdict that names it, within the
profile's limits, and the next verification is unaffected."""

import time

import pytest
from mesh_harness import PLATE, cq_task, ensure_warm

pytestmark = pytest.mark.usefixtures("ctx")

CASES = {
    "no solid": ("import cadquery as cq\nresult = cq.Workplane().rect(20, 10)", "invalid", 0.02, "Wire"),
    "disjoint solids": ("import cadquery as cq\nresult = cq.Workplane().box(10, 10, 10).union("
                        "cq.Workplane().box(10, 10, 10).translate((30, 0, 0)))", "invalid", 0.02, "found 2"),
    "solids touching on an edge": ("import cadquery as cq\nresult = cq.Workplane().box(10, 10, 10).union("
                                   "cq.Workplane().box(10, 10, 10).translate((10, 10, 0)))", "invalid", 0.02, "found 2"),
    "open shell": ("import cadquery as cq\nfaces = cq.Workplane().box(10, 10, 10).faces().vals()[:5]\n"
                   "result = cq.Solid.makeSolid(cq.Shell.makeShell(faces))", "invalid", 0.02, "open"),
    "10 m part": ("import cadquery as cq\nresult = cq.Workplane().box(10000, 400, 80)", "wrong_size", 0.05, "10000 x 400 x 80 mm"),
    "10,000 holes": ("import cadquery as cq\nresult = cq.Workplane().box(220, 220, 2).faces('>Z').workplane()"
                     ".rarray(2, 2, 100, 100).hole(0.5)", "timeout", 0.0, "limit"),
    "a minute of work": ("x = 0\nfor i in range(10 ** 10):\n    x += i * i\nresult = x\n", "timeout", 0.0, "limit"),
}


@pytest.mark.usefixtures("fresh_worker")
@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_gets_a_named_low_verdict(verifier, ctx, profile, name):
    script, stage, reward, says = CASES[name]
    task = cq_task(PLATE)
    start = time.monotonic()
    v = verifier.verify(task, f"```python\n{script}\n```", ctx)
    assert time.monotonic() - start < profile.wall_timeout_s + 5
    assert v.details["stage"] == stage and v.reward == reward and not v.passed, v.details
    assert says in (v.details.get("reason") or ""), v.details
    ensure_warm(ctx.sandbox)
    assert verifier.verify(task, task.reference, ctx).reward == 1.0  # the next verification is unaffected


def test_absurdly_many_faces_are_too_complex(ctx):
    """A part with more faces than any task needs is refused before validity checking costs
    seconds (the real limit is 5000 faces; 100 holes here, against a limit of 50)."""
    from rlhub_mesh.verifier import MeshIoU

    strict = MeshIoU(MeshIoU.Config(max_faces=50))
    many = ("import cadquery as cq\nresult = cq.Workplane().box(100, 100, 2).faces('>Z').workplane()"
            ".rarray(8, 8, 10, 10).hole(1)")
    v = strict.verify(cq_task(PLATE), f"```python\n{many}\n```", ctx)
    assert v.details["stage"] == "too_complex" and v.reward == 0.02 and "limit is 50" in v.details["reason"]
