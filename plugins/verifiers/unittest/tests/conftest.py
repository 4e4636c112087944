"""Shared helpers: verify a response against hidden tests in the real sandbox (bwrap)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rlhub_unittest.plugin import PYTEST_PROFILE
from rlhub_unittest.verifier import UnitTests, UnitTestsConfig
from ut_helpers import make_task

from hub import VerifyContext
from hub.testing.fixtures import require_sandbox
from hub.core.verifier import grade


@pytest.fixture(scope="session")
def sandbox(request):
    return require_sandbox(request)  # where bwrap cannot run: fail with the reason (hub.testing's policy)


@pytest.fixture
def verify(sandbox):
    """verify(tests, response, reward=..., extract=..., **hidden) -> Verdict (never raises)."""

    def run(tests, response, *, reward="all_or_nothing", extract="auto", profile=PYTEST_PROFILE, **hidden):
        verifier = UnitTests(UnitTestsConfig(reward=reward, extract=extract))
        ctx = VerifyContext(profile=profile, _sandbox=sandbox)
        return grade(verifier, None, make_task(tests, **hidden), response, ctx)

    return run


@pytest.fixture
def verify_files(sandbox):
    """Grade a work dir the model wrote (multi-turn): {name: text} with the solution in it."""

    def run(tests, files, *, reward="all_or_nothing", **hidden):
        verifier = UnitTests(UnitTestsConfig(reward=reward))
        ctx = VerifyContext(profile=PYTEST_PROFILE, _sandbox=sandbox)
        return verifier.verify_files(make_task(tests, **hidden), files, ctx)

    return run


class LocalSolution:
    """The stand-in module over a real solution process, outside the sandbox: for tests of the
    boundary itself, with solutions written by these tests (never model output)."""

    def __init__(self, directory, code: str, fixtures: dict[str, str] | None = None, imported: bool = True) -> None:
        import importlib.util
        import sys

        from rlhub_unittest import stand_in

        path = directory / "solution.py"
        path.write_text(code)
        self.process = stand_in.SolutionProcess({"module": "solution", "path": str(path), "workdir": str(directory),
                                                 "fixtures": fixtures or {}},
                                                sys.executable)
        loader = stand_in.StandInLoader(self.process)
        self.module = loader.create_module(importlib.util.spec_from_loader("solution", loader))
        if imported:  # a program that reads stdin at import is run as __main__ instead ("main" requests)
            loader.exec_module(self.module)

    def call(self, name, *args, **kwargs):
        return getattr(self.module, name)(*args, **kwargs)


@pytest.fixture
def solution_process(tmp_path):
    made = []

    def start(code: str, **kwargs) -> LocalSolution:
        made.append(LocalSolution(tmp_path, code, **kwargs))
        return made[-1]

    yield start
    for solution in made:
        solution.process.kill()


@pytest.fixture
def naive_pytest_passes(sandbox):
    """What a naive grader would conclude: `python -m pytest` in the work dir exited 0.

    Used to show that each reward hack below is real (it fools the naive way) before showing
    that the verifier gives it nothing."""

    def run(tests, files) -> bool:
        r = sandbox.run(PYTEST_PROFILE, ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_hidden.py"],
                        files={**files, "test_hidden.py": tests}, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
        assert r.infra_error is None, r.infra_error
        return r.exit_code == 0

    return run
