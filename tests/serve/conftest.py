"""Fixtures of the reward-service tests: a real server on a loopback port."""

from __future__ import annotations

import pytest

from hub.serve.config import ServeConfig
from hub.serve.server import BackgroundServer
from hub.serve.work import load_catalog

from .helpers import SYNTHETIC, write_registry


@pytest.fixture
def serve(tmp_path):
    """serve(synthetic={...}, backend=None, **config) -> a started BackgroundServer; stopped after
    the test. `backend(catalog, config)`, if given, makes the service's backend."""
    servers = []

    def start(synthetic: dict[str, dict] | None = None, backend=None, **overrides) -> BackgroundServer:
        reg = write_registry(tmp_path / f"registry{len(servers)}.yaml", synthetic)
        config = ServeConfig.build(registry=str(reg), plugins=[SYNTHETIC], port=0, **overrides)
        catalog = load_catalog(str(reg), [SYNTHETIC])
        server = BackgroundServer(config, catalog=catalog,
                                  backend=backend(catalog, config) if backend else None).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


