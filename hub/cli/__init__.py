"""The `rlhub` command line: the parser, and every verb as a command module."""

from .main import main

__all__ = ["main"]
