"""Fixtures come from mesh_harness.py (a uniquely named module, so tests can import its helpers too)."""

from mesh_harness import *  # noqa: F401,F403
from mesh_harness import _private_cache  # noqa: F401  (autouse; star imports skip _names)
