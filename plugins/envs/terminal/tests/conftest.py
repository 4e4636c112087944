"""Shared fixtures: a catalog over the terminal environments with a short-timeout profile, so
hostile commands (sleep forever) cost seconds, not the production profile's 20 s."""

from __future__ import annotations

import textwrap

import pytest

import hub
from hub.testing.fixtures import require_sandbox


@pytest.fixture(scope="session")
def catalog(tmp_path_factory, request):
    require_sandbox(request)  # where bwrap cannot run: fail with the reason (hub.testing's policy)
    path = tmp_path_factory.mktemp("reg") / "registry.yaml"
    path.write_text(textwrap.dedent("""\
        version: 1
        profiles:
          terminal-test:
            extends: pytest
            wall_timeout_s: 6
        environments:
          - id: "terminal/*"
            profile: terminal-test
    """))
    return hub.load(path)
