"""The sandbox's hostile programs (hub/sandbox/hostile.py) submitted as solutions.

Each gets a verdict (reward 0, never a crash or "no verdict"), the host is untouched (no
connection to its listeners, the sibling process alive, the secret not in the verdict), and the
next task on the same warm worker still grades an honest solution 1.0.
"""

from __future__ import annotations

import pytest
from rlhub_unittest.plugin import PYTEST_PROFILE
from rlhub_unittest.verifier import UnitTests, UnitTestsConfig
from ut_helpers import make_task

from hub import VerifyContext
from hub.sandbox import Sandbox
from hub.testing.hostbait import HostBait
from hub.testing.hostile import HOSTILE_CASES
from hub.core.verifier import grade

# Tight limits keep 40-odd cases fast; the warm worker still has pytest preloaded.
TIGHT = PYTEST_PROFILE.merged(name="pytest-tight", wall_timeout_s=3.0, cpu_s=2, memory_mb=256, max_procs=32,
                              file_size_mb=1, open_files=64, output_bytes=4096, tmpfs_mb=8, recycle_after=1000)
PY_TESTS = "import solution\n\ndef test_answer():\n    assert solution.answer() == 42\n"
SH_TESTS = ("import subprocess\n\ndef test_answer():\n"
            "    r = subprocess.run(['sh', 'solution.sh'], capture_output=True, timeout=2)\n"
            "    assert r.stdout == b'42\\n'\n")
HONEST = {"python": ("def answer():\n    return 42\n", PY_TESTS), "sh": ("echo 42\n", SH_TESTS)}


@pytest.fixture(scope="module")
def one_worker():
    sb = Sandbox(pool_size=1)  # one warm worker: the next task runs where the hostile one ran
    yield sb
    sb.shutdown()


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """Bait on the host: listeners, a secret (env and file), a sibling process of another uid."""
    with HostBait(tmp_path_factory.mktemp("bait"), "RLHUB_UNITTEST_SECRET") as bait:
        yield bait.ctx, bait.listeners, bait.victim


def _verify(sandbox, code: str, language: str):
    tests = PY_TESTS if language == "python" else SH_TESTS
    hidden = {} if language == "python" else {"language": "bash", "solution_path": "solution.sh"}
    fence = "python" if language == "python" else "bash"
    ctx = VerifyContext(profile=TIGHT, _sandbox=sandbox)
    return grade(UnitTests(UnitTestsConfig()), None, make_task(tests, **hidden), f"```{fence}\n{code}```\n", ctx)


@pytest.mark.parametrize("case", HOSTILE_CASES, ids=lambda c: c.name)
def test_hostile_solution_gets_a_verdict(case, one_worker, host):
    ctx, listeners, victim = host
    verdict = _verify(one_worker, case.source(ctx), case.language)
    assert verdict.error is None, verdict.error
    assert verdict.reward == 0.0 and not verdict.passed, verdict.details
    assert ctx.secret_value not in repr(verdict.to_dict())
    assert all(not listener.accepted for listener in listeners), "a solution reached a host listener"
    assert victim.poll() is None, "a solution killed a process outside its sandbox"
    code, _ = HONEST[case.language]
    after = _verify(one_worker, code, case.language)
    assert after.reward == 1.0 and after.passed, ("the next task was affected", after.details)
