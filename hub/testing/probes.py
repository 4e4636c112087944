"""Tiny trusted functions for `Sandbox.call`: the sandbox's own tests and availability checks."""

from __future__ import annotations

import os


def echo(**kwargs):
    """Return the arguments, with what the task can see of its surroundings."""
    return {"args": kwargs, "uid": os.getuid(), "cwd": os.getcwd(), "files": sorted(os.listdir("."))}


def run_program(path: str, language: str = "python"):
    """Run a program the way a warm verifier runs model code: in this very process."""
    if language == "python":
        import runpy

        runpy.run_path(path, run_name="__main__")
        return "returned"
    os.execv("/bin/sh", ["sh", path])


def run_pytest(*args: str) -> int:
    """pytest.main in this (warm, pytest-preloaded) process: how a unit-test verifier runs."""
    import pytest

    return int(pytest.main(["-q", "-p", "no:cacheprovider", *args]))
