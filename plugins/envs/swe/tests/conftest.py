"""Shared fixtures: a catalog over the swe environments on the real sandbox, with a profile whose
wall clock is short enough that a hanging package costs seconds, not the production 20 s."""

from __future__ import annotations

import textwrap

import pytest

import hub
from hub.testing.fixtures import require_sandbox

TEST_PROFILE = "swe-test"
REGISTRY = f"""\
    version: 1
    profiles:
      {TEST_PROFILE}: {{extends: swe, wall_timeout_s: 8}}
    environments:
      - id: "swe/*"
        profile: {TEST_PROFILE}
"""


@pytest.fixture(scope="session")
def catalog(tmp_path_factory, request):
    require_sandbox(request)  # where bwrap cannot run: fail with the reason (hub.testing's policy)
    path = tmp_path_factory.mktemp("reg") / "registry.yaml"
    path.write_text(textwrap.dedent(REGISTRY))
    return hub.load(path)
