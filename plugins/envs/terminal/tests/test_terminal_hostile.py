"""The sandbox's hostile-program suite, run as a model would inside a terminal session:
written with a file= block and started from a ```bash block. Every case must come back as an
observation (no infra fault, no escape, no host secret), leave the host's bait untouched, and
leave a session in which the next command and the final grading still work."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import textwrap
import threading

import pytest
from terminal_helpers import body, fenced_file

import hub
from hub.sandbox.hostile import ESCAPED, HOSTILE_CASES, HostContext
from hub.sandbox.uids import UidLease

LABEL = {"env": "terminal/session-word-frequency-v1", "seed": 5}


@pytest.fixture(scope="module")
def tight_catalog(tmp_path_factory, catalog):  # `catalog` skips the module when bwrap is missing
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


class _Listener:
    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.accepted = sock, []
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while True:
            try:
                conn, addr = self.sock.accept()
            except OSError:
                return
            self.accepted.append(addr)
            conn.close()


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """Bait on the host: listeners, a secret (env and file), a sibling process of another uid."""
    tmp = tmp_path_factory.mktemp("bait")
    secret = "rlhub-secret-" + secrets.token_hex(8)
    (tmp / "secret.txt").write_text(secret)
    os.environ["RLHUB_TERMINAL_SECRET"] = secret
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    abstract_name = "rlhub-term-" + secrets.token_hex(4)
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + abstract_name)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(tmp / "host.sock"))
    for s in (tcp, abstract, unix):
        s.listen(16)
    listeners = [_Listener(s) for s in (tcp, abstract, unix)]
    lease = UidLease()
    victim = subprocess.Popen(["setpriv", f"--reuid={lease.uid}", f"--regid={lease.uid}", "--clear-groups", "sleep", "600"])
    ctx = HostContext(port=tcp.getsockname()[1], secret_env="RLHUB_TERMINAL_SECRET", secret_value=secret,
                      secret_file=str(tmp / "secret.txt"), unix_path=str(tmp / "host.sock"),
                      abstract_name=abstract_name, victim_pid=victim.pid)
    yield ctx, listeners, victim
    victim.kill()
    victim.wait()
    lease.release()
    for s in (tcp, abstract, unix):
        s.close()
    os.environ.pop("RLHUB_TERMINAL_SECRET", None)


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
