"""Shared fixtures: one real sandbox (bwrap + warm CadQuery worker) for the whole session."""

from __future__ import annotations

import os

import pytest

from hub import Task, VerifyContext


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """References cache into a fresh directory: tests must not depend on (or fill) ~/.cache."""
    os.environ["RLHUB_MESH_CACHE"] = str(tmp_path_factory.mktemp("mesh-cache"))
    yield


@pytest.fixture(scope="session")
def sandbox():
    from hub.sandbox import SandboxUnavailable, get_sandbox

    try:
        return get_sandbox()
    except SandboxUnavailable as exc:  # CI installs bubblewrap; say so clearly where it is missing
        pytest.skip(f"no sandbox: {exc}")


@pytest.fixture(scope="session")
def profile():
    """The plugin's own `cadquery` profile, with short limits so hostile tests finish fast."""
    from rlhub_mesh.plugin import CADQUERY_PROFILE

    return CADQUERY_PROFILE.merged(wall_timeout_s=8, cpu_s=4, memory_mb=768)


@pytest.fixture(scope="session")
def ctx(sandbox, profile):
    ensure_warm(sandbox)
    return VerifyContext(profile=profile, _sandbox=sandbox)


def ensure_warm(sandbox) -> None:
    """Have a worker with CadQuery imported, paid under the full profile's wall clock: a fresh
    worker's first task also waits for its preload, which can exceed the short test limit on a
    loaded machine (and a worker is replaced after a task that timed out or ran out of memory)."""
    from rlhub_mesh.plugin import CADQUERY_PROFILE

    first = sandbox.call(CADQUERY_PROFILE, "rlhub_mesh.runner:build", args={"script": "result = None"})
    assert first.infra_error is None, first.infra_error


@pytest.fixture
def fresh_worker(sandbox):
    ensure_warm(sandbox)
    yield
    ensure_warm(sandbox)


@pytest.fixture(scope="session")
def verifier():
    from rlhub_mesh.verifier import MeshIoU

    return MeshIoU()


def cq_task(reference: str, **hidden) -> Task:
    return Task(prompt="model this part", hidden={"reference_script": reference, **hidden},
                reference=f"```python\n{reference}\n```")


PLATE = """import cadquery as cq
result = (cq.Workplane("XY").box(60, 40, 8)
          .faces(">Z").workplane().pushPoints([(-18, 0), (18, 0)]).hole(8)
          .edges("|Z").fillet(3))
"""
