"""Grade code with the static verifiers in the real sandbox (bwrap), as a catalog would."""

from __future__ import annotations

import pytest

from hub import Task, VerifyContext
from hub.core.verifier import grade
from hub.testing.fixtures import require_sandbox
from rlhub_static.plugin import STATIC_PROFILE


@pytest.fixture(scope="session")
def sandbox(request):
    return require_sandbox(request)


@pytest.fixture
def analyse(sandbox):
    """analyse(VerifierClass, code, language="python", profile=..., **config) -> Verdict (never raises)."""

    def run(cls, code, language="python", profile=STATIC_PROFILE, **config):
        verifier = cls(cls.Config(**config))
        response = f"```{language}\n{code}\n```\n" if code is not None else "no code here"
        return grade(verifier, None, Task(prompt="p"), response, VerifyContext(profile=profile, _sandbox=sandbox))

    return run
