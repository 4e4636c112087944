"""Reading a forked child's report from a pipe, within a deadline (the sandbox-side runners)."""

from __future__ import annotations

import os
import select
import time


def read_until(fd: int, timeout_s: float, cap: int | None = None) -> tuple[bytes, bool]:
    """(what the child wrote, whether the deadline passed first); stops at end of file, or once
    more than `cap` bytes have come."""
    deadline = time.monotonic() + timeout_s
    data = b""
    while True:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return data, True
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return data, False
        data += chunk
        if cap is not None and len(data) > cap:
            return data, False
