"""Bait on the host for hostile-program tests: what a sandboxed program must never reach.

Listeners on 127.0.0.1 and on abstract and path unix sockets (each records any connection), a
secret in an environment variable and in a file outside every mount, and a sibling process
running under another sandbox uid. Every verifier's hostile tests set up the same bait:

    with HostBait(tmp_path) as bait:
        run(case.source(bait.ctx))
        assert bait.problems() == []
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import threading
from pathlib import Path

from .hostile import HostContext
from ..sandbox.uids import UidLease


class Listener:
    """Accepts and records connections; a sandboxed program must never produce one."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.accepted = sock, []
        sock.listen(16)
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while True:
            try:
                conn, addr = self.sock.accept()
            except OSError:
                return
            self.accepted.append(addr)
            conn.close()


class HostBait:
    def __init__(self, tmp_dir: str | os.PathLike, env_name: str = "RLHUB_TEST_SECRET") -> None:
        self.tmp = Path(tmp_dir)
        self.env_name = env_name

    def __enter__(self) -> "HostBait":
        self.tmp.mkdir(parents=True, exist_ok=True)
        secret = "rlhub-secret-" + secrets.token_hex(8)
        secret_file = self.tmp / "secret.txt"
        secret_file.write_text(secret)
        os.environ[self.env_name] = secret
        tcp = socket.socket()
        tcp.bind(("127.0.0.1", 0))
        abstract_name = "rlhub-bait-" + secrets.token_hex(4)
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        abstract.bind("\0" + abstract_name)
        unix_path = str(self.tmp / "host.sock")
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.bind(unix_path)
        self.sockets = (tcp, abstract, unix)
        self.listeners = [Listener(s) for s in self.sockets]
        self.lease = UidLease()  # the victim stands for a sibling sandbox: another slot's uid
        self.victim = subprocess.Popen(["setpriv", f"--reuid={self.lease.uid}", f"--regid={self.lease.uid}",
                                        "--clear-groups", "sleep", "600"])
        self.ctx = HostContext(port=tcp.getsockname()[1], secret_env=self.env_name, secret_value=secret,
                               secret_file=str(secret_file), unix_path=unix_path, abstract_name=abstract_name,
                               victim_pid=self.victim.pid)
        return self

    def problems(self) -> list[str]:
        """What a program reached on the host; empty when the host is untouched."""
        found = []
        if any(listener.accepted for listener in self.listeners):
            found.append("a sandboxed program connected to a host listener")
        if self.victim.poll() is not None:
            found.append("the sibling process was killed")
        if open(self.ctx.secret_file).read() != self.ctx.secret_value:
            found.append("the host secret file was changed")
        return found

    def __exit__(self, *exc: object) -> None:
        self.victim.kill()
        self.victim.wait()
        self.lease.release()
        for s in self.sockets:
            s.close()
        os.environ.pop(self.env_name, None)
