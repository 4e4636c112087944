"""hub.testing's fixtures as a plugin author meets them: the no-sandbox policy and the
temporary-registry factory, in a real inner pytest run."""

import os
import subprocess
import sys
import textwrap

TESTS = '''
import pytest

def test_needs_it(sandbox):
    pass

@pytest.mark.sandbox_optional
def test_optional(sandbox):
    pass

def test_registry(rlhub_registry):
    cat = rlhub_registry("environments:\\n  - id: 'arith/add-v1'\\n    weight: 3\\n")
    assert list(cat.envs) == ["arith/add-v1"] and cat.get("arith/add-v1").weight == 3
'''


def run_inner(tmp_path, *args):
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(TESTS))
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap on PATH: the sandbox cannot run
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *args, "test_inner.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_without_the_sandbox_a_test_that_needs_it_fails_with_the_reason(tmp_path):
    out = run_inner(tmp_path)
    assert out.returncode == 1, out.stdout
    assert "ERROR test_inner.py::test_needs_it - Failed: the sandbox cannot run here: bub" in out.stdout
    assert "1 passed, 1 skipped, 1 error" in out.stdout and "PASSED test_inner.py::test_registry" in out.stdout


def test_the_run_can_ask_for_skips_instead(tmp_path):
    out = run_inner(tmp_path, "--rlhub-without-sandbox=skip")
    assert out.returncode == 0, out.stdout
    assert "2 skipped" in out.stdout and "1 passed" in out.stdout
