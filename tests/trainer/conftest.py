"""Fixtures come from openrlhf_harness.py (a uniquely named module, so tests can import its helpers too)."""

from openrlhf_harness import *  # noqa: F401,F403
