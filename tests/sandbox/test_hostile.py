"""Every hostile program, through a cold `run` and a warm `call`: the sandbox holds, the host and
the next task (on the same warm worker) are untouched."""

from __future__ import annotations

import pytest

from hub.testing.hostile import HOSTILE_CASES, PROBE, problems

from .conftest import TIGHT, assert_host_untouched

WARM = TIGHT.merged(name="tight-warm", preload=("hub.testing.probes",))


def _probe_cold(sandbox):
    r = sandbox.run(TIGHT, ["python3", "probe.py"], files={"probe.py": PROBE})
    assert r.stdout.strip() == "CLEAN", (r.stdout, r.stderr)


def _probe_warm(sandbox):
    r = sandbox.call(WARM, "hub.testing.probes:run_program", files={"probe.py": PROBE}, args={"path": "probe.py"})
    assert r.stdout.strip() == "CLEAN", (r.stdout, r.stderr)


@pytest.mark.parametrize("case", HOSTILE_CASES, ids=lambda c: c.name)
def test_hostile_cold(case, sandbox, host):
    ctx = host[0]
    r = sandbox.run(TIGHT, case.argv, files={case.filename: case.source(ctx)})
    assert problems(case, r, ctx, TIGHT) == [], (r.stdout[-2000:], r.stderr[-2000:], r)
    assert_host_untouched(host)
    _probe_cold(sandbox)


@pytest.mark.parametrize("case", HOSTILE_CASES, ids=lambda c: c.name)
def test_hostile_warm(case, sandbox, host):
    ctx = host[0]
    r = sandbox.call(WARM, "hub.testing.probes:run_program", files={case.filename: case.source(ctx)},
                     args={"path": case.filename, "language": case.language})
    assert problems(case, r, ctx, WARM) == [], (r.stdout[-2000:], r.stderr[-2000:], r)
    assert_host_untouched(host)
    _probe_warm(sandbox)
