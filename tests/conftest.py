"""Shared fixtures for the core's tests."""

from pathlib import Path

import pytest


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    """Where a test installs throw-away plugin distributions (put on PYTHONPATH by run_rlhub)."""
    return tmp_path / "site"
