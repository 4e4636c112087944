"""Fixtures: one real sandbox (bwrap + warm CadQuery worker) for the whole session."""

from __future__ import annotations

import os

import pytest
from mesh_harness import ensure_warm

from hub import VerifyContext
from hub.testing.fixtures import require_sandbox


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """References cache into a fresh directory: tests must not depend on (or fill) ~/.cache."""
    os.environ["RLHUB_MESH_CACHE"] = str(tmp_path_factory.mktemp("mesh-cache"))
    yield


@pytest.fixture(scope="session")
def sandbox(request):
    return require_sandbox(request)  # where bwrap cannot run: fail with the reason (hub.testing's policy)


@pytest.fixture(scope="session")
def profile():
    """The plugin's own `cadquery` profile, with short limits so hostile tests finish fast."""
    from rlhub_mesh.plugin import CADQUERY_PROFILE

    return CADQUERY_PROFILE.merged(wall_timeout_s=8, cpu_s=4, memory_mb=768)


@pytest.fixture(scope="session")
def ctx(sandbox, profile):
    ensure_warm(sandbox)
    return VerifyContext(profile=profile, _sandbox=sandbox)


@pytest.fixture
def fresh_worker(sandbox):
    ensure_warm(sandbox)
    yield
    ensure_warm(sandbox)


@pytest.fixture(scope="session")
def verifier():
    from rlhub_mesh.verifier import MeshIoU

    return MeshIoU()
