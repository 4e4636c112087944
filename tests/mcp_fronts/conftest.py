"""A service on a loopback port over the default registry, shared by the MCP tests."""

from __future__ import annotations

import pytest

from hub.serve.config import ServeConfig
from hub.serve.server import BackgroundServer
from hub.serve.work import load_catalog


@pytest.fixture(scope="session")
def default_catalog():
    return load_catalog(None)


@pytest.fixture
def service(default_catalog):
    """service(**config) -> a started BackgroundServer over the default registry; stopped after."""
    servers = []

    def start(**overrides) -> BackgroundServer:
        server = BackgroundServer(ServeConfig.build(port=0, **overrides), catalog=default_catalog).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
