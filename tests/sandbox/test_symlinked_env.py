"""Python environments as users have them: a venv reached through a symlink (`~/venv -> /opt/venv`,
symlinked homes, shared environments) runs sandboxed verification like any other, and a sandbox
that cannot start Python says which path it tried and what to do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from hub.sandbox import bwrap
from hub.sandbox.profile import Profile
from hub.sandbox.result import SandboxUnavailable

LABEL = '{"env": "terminal/word-frequency-v1", "seed": 2}'


@pytest.fixture
def linked_venv():
    """This test run's own virtual environment, reached through a symlink outside /tmp (as
    `~/venv -> /opt/venv` would be); the link is removed afterwards."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("the tests do not run in a virtual environment")
    root = Path.home() / ".cache" / "rlhub-tests" / uuid.uuid4().hex[:12]
    root.mkdir(parents=True)
    alias = root / "venv"
    alias.symlink_to(os.path.realpath(sys.prefix), target_is_directory=True)
    try:
        yield alias
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_venv_reached_through_a_symlink_verifies_in_the_sandbox(linked_venv, tmp_path):
    python = linked_venv / "bin" / "python"
    code = ("import json, sys; from hub.sandbox import get_sandbox, Profile; "
            "r = get_sandbox().run(Profile(name='p', wall_timeout_s=30), [sys.executable, '-c', 'import sys; print(sys.prefix)']); "
            "print(json.dumps({'prefix': sys.prefix, 'out': r.stdout, 'err': r.infra_error or r.stderr}))")
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.splitlines()[-1])
    assert seen["prefix"] == str(linked_venv)  # Python runs from the symlinked path...
    assert seen["out"].strip() == str(linked_venv), seen  # ...and so does the sandboxed Python
    # the whole path a user takes: a verifier running model code (pytest) in the sandbox
    repo = Path(__file__).resolve().parents[2]
    ref = subprocess.run([str(python), "-m", "hub.cli", "reference", "--label", LABEL], capture_output=True,
                         text=True, timeout=300, cwd=repo)
    verdict = subprocess.run([str(python), "-m", "hub.cli", "verify", "--label", LABEL, "--response-file", "-"],
                             input=ref.stdout, capture_output=True, text=True, timeout=300, cwd=repo)
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr[-3000:]
    assert json.loads(verdict.stdout)["passed"] is True


def test_binds_cover_the_real_and_the_started_path(monkeypatch, linked_venv):
    # as the interpreter of the linked venv would see itself, without starting one
    monkeypatch.setattr(sys, "prefix", str(linked_venv))
    monkeypatch.setattr(sys, "exec_prefix", str(linked_venv))
    monkeypatch.setattr(sys, "executable", str(linked_venv / "bin" / "python"))
    bwrap.python_binds.cache_clear()
    try:
        binds = set(bwrap.python_binds())
    finally:
        bwrap.python_binds.cache_clear()
    real = os.path.realpath(linked_venv)
    assert (real, real) in binds and (real, str(linked_venv)) in binds


def test_a_python_the_sandbox_cannot_start_is_named_with_the_fix(monkeypatch):
    from hub.sandbox.process import SandboxProcess

    monkeypatch.setattr(sys, "executable", "/opt/nowhere/bin/python3")
    bwrap.python_binds.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable) as info:
            SandboxProcess(Profile(name="p", wall_timeout_s=10)).close()
    finally:
        bwrap.python_binds.cache_clear()
    message = str(info.value)
    assert "could not start Python at /opt/nowhere/bin/python3" in message and "Fix:" in message
