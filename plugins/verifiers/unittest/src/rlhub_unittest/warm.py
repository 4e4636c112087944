"""Imported by a warm worker at preload (the `pytest` profile): what every run would otherwise
redo, done once before the first task (pytest's configuration and session)."""

from . import pytest_run

pytest_run.prepare()
