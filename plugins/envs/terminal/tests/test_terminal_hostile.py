"""The sandbox's hostile-program suite, run as a model would inside a terminal session:
written with a file= block and started from a ```bash block. Every case must come back as an
observation (no infra fault, no escape, no host secret), leave the host's bait untouched, and
leave a session in which the next command and the final grading still work."""

from __future__ import annotations

import textwrap

import pytest
from terminal_helpers import body, fenced_file

import hub
from hub.testing.hostbait import HostBait
from hub.testing.hostile import ESCAPED, HOSTILE_CASES

LABEL = {"env": "terminal/session-word-frequency-v1", "seed": 5}


@pytest.fixture(scope="module")
def tight_catalog(tmp_path_factory, catalog):  # `catalog` fails with the reason where bwrap is missing
    path = tmp_path_factory.mktemp("reg") / "registry.yaml"
    path.write_text(textwrap.dedent("""\
        version: 1
        profiles:
          terminal-hostile:
            extends: pytest
            wall_timeout_s: 4
            tmpfs_mb: 32
        environments:
          - id: "terminal/session-word-frequency-v1"
            profile: terminal-hostile
    """))
    return hub.load(path)


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """Bait on the host: listeners, a secret (env and file), a sibling process of another uid."""
    with HostBait(tmp_path_factory.mktemp("bait"), "RLHUB_TERMINAL_SECRET") as bait:
        yield bait.ctx, bait.listeners, bait.victim


@pytest.mark.parametrize("case", HOSTILE_CASES, ids=lambda c: c.name)
def test_hostile_program_in_a_session(tight_catalog, host, case):
    ctx, listeners, victim = host
    ep = tight_catalog.episode(LABEL)
    ep.reset()
    lang = "python" if case.language == "python" else "bash"
    runner = "python3" if case.language == "python" else "sh"
    step = ep.step(fenced_file(case.filename, case.source(ctx), lang) + f"```bash\n{runner} {case.filename}\n```")
    assert not step.done and step.info["infra_retries"] == 0, (step.info, step.observation[-500:])
    assert f"wrote {case.filename}" in step.observation
    assert not any(line.startswith(ESCAPED) for line in step.observation.splitlines()), step.observation[-800:]
    assert ctx.secret_value not in step.observation
    assert len(step.observation) < 6000
    assert all(not listener.accepted for listener in listeners), "a command reached a host listener"
    assert victim.poll() is None, "a command killed a process outside its sandbox"
    step = ep.step("```bash\necho alive\n```")
    assert "alive" in step.observation and "exit code 0" in step.observation, step.observation[-500:]
    # The work dir persists, so what the program left (a filled disk) is the model's to clean up.
    step = ep.step("```bash\nfind . -mindepth 1 -delete\n```\n" + fenced_file("solution.py", body(ep.task.reference)) + "SUBMIT")
    assert step.done and step.verdict.error is None and step.verdict.passed, step.verdict.details
