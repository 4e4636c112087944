"""pytest fixtures for rlhub's tests and plugin authors' (loaded through the `pytest11` entry
point, so `pip install rlhub` is all a plugin's test suite needs).

One policy for a machine where the sandbox cannot run (no bubblewrap, not root): a test that
needs it FAILS with the reason, because a verifier whose sandbox silently went missing is not
tested. Mark a test `@pytest.mark.sandbox_optional`, or run with `--rlhub-without-sandbox=skip`,
to skip instead.

    def test_my_verifier(sandbox, rlhub_registry):
        cat = rlhub_registry("environments:\\n  - id: 'mine/*'\\n")
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

MARKER = "sandbox_optional"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rlhub-testing", "rlhub test fixtures")
    group.addoption("--rlhub-without-sandbox", choices=("fail", "skip"), default="fail",
                    help="what a test that needs the sandbox does where bwrap cannot run (default: fail)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: skip (rather than fail) where the sandbox cannot run")


def require_sandbox(request: pytest.FixtureRequest):
    """The process-wide sandbox, or this machine's reason for having none: a failure, or a skip
    where the test is marked sandbox_optional or the run asked for skips."""
    from ..sandbox import SandboxUnavailable, get_sandbox

    try:
        return get_sandbox()
    except SandboxUnavailable as exc:
        node = request.node
        optional = (request.config.getoption("rlhub_without_sandbox") == "skip"
                    or (isinstance(node, pytest.Item) and node.get_closest_marker(MARKER) is not None))
        reason = f"the sandbox cannot run here: {exc}"
        if optional:
            pytest.skip(reason)
        pytest.fail(reason + " (install bubblewrap and run as root, or mark the test sandbox_optional)", pytrace=False)


@pytest.fixture
def sandbox(request: pytest.FixtureRequest):
    """The real sandbox (bwrap), shared by the whole process."""
    return require_sandbox(request)


@pytest.fixture
def rlhub_registry(tmp_path: Path):
    """A factory: `rlhub_registry(yaml_text, plugins=[module, ...])` writes a registry file in a
    temporary folder and returns its catalog (installed plugins plus `plugins`)."""
    from ..config.catalog import Catalog
    from ..plugins.manager import collect, installed

    def make(text: str, plugins: list = (), name: str = "registry.yaml"):
        path = tmp_path / name
        path.write_text(textwrap.dedent(text))
        extra = [(getattr(m, "__name__", f"plugin{i}").rsplit(".", 1)[-1], m) for i, m in enumerate(plugins)]
        return Catalog.load(path, plugins=collect(extra_plugins=extra) if extra else installed())

    return make
