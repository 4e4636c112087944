"""Unprivileged uids leased one per live sandbox.

RLIMIT_NPROC counts processes per real uid across the whole machine, and a process can signal
or ptrace only processes of its own uid: so every concurrently running sandbox needs a uid of
its own. Leases are flock()ed files, which makes them safe across host processes too (several
pytest workers, a reward server and a CLI on one machine) and frees them if a holder dies.
"""

from __future__ import annotations

import fcntl
import os
import random
import tempfile
import threading

UID_BASE = 3_800_000  # far above any real account; never appears in /etc/passwd
UID_COUNT = 4096


def _lock_dir() -> str:
    for base in ("/run", tempfile.gettempdir()):
        path = os.path.join(base, "rlhub-sandbox-uids")
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            return path
        except OSError:
            continue
    raise OSError("no writable directory for sandbox uid leases")


class UidLease:
    """A uid held until `release()`; use as a context manager or release explicitly."""

    _local_held: set[int] = set()
    _local_lock = threading.Lock()

    def __init__(self) -> None:
        directory = _lock_dir()
        start = random.randrange(UID_COUNT)
        for i in range(UID_COUNT):
            uid = UID_BASE + (start + i) % UID_COUNT
            with UidLease._local_lock:
                if uid in UidLease._local_held:
                    continue
                fd = os.open(os.path.join(directory, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                UidLease._local_held.add(uid)
            self.uid, self._fd = uid, fd
            return
        raise OSError(f"all {UID_COUNT} sandbox uids are in use")

    def release(self) -> None:
        if self._fd is None:
            return
        with UidLease._local_lock:
            UidLease._local_held.discard(self.uid)
            os.close(self._fd)  # closing drops the flock
            self._fd = None

    def __enter__(self) -> "UidLease":
        return self

    def __exit__(self, *exc) -> None:
        self.release()
