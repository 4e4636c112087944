"""Fixtures shared by the sandbox tests: a real Sandbox and the host-side bait for hostile code."""

from __future__ import annotations

import os
import tempfile

import pytest

from hub.sandbox import Mount, Profile, Sandbox
from hub.testing.fixtures import require_sandbox
from hub.testing.hostbait import HostBait
from hub.sandbox.uids import UID_BASE, UID_COUNT

# A host directory mounted (read-only) into every test sandbox: hostile code must not change it.
MOUNTED = tempfile.mkdtemp(prefix="rlhub-sandbox-mounted-")
os.chmod(MOUNTED, 0o755)  # tasks run as an unprivileged uid: mounts must be world-readable
with open(os.path.join(MOUNTED, "data.txt"), "w") as _f:
    _f.write("read-only data")

# Tight limits keep the hostile suite fast on two cores.
TIGHT = Profile(
    name="tight", wall_timeout_s=2.0, cpu_s=1, memory_mb=96, max_procs=32, file_size_mb=1,
    open_files=64, output_bytes=4096, tmpfs_mb=8, collect=("**/*.txt",), recycle_after=1000,
    mounts=(Mount(src=MOUNTED, dst="/data"),),
)


@pytest.fixture(scope="session")
def sandbox(request):
    require_sandbox(request)  # where bwrap cannot run: fail with the reason (hub.testing's policy)
    sb = Sandbox(pool_size=1)  # one warm worker: the task after a hostile one runs on the same worker
    yield sb
    sb.shutdown()


@pytest.fixture(scope="session")
def host(tmp_path_factory):
    with HostBait(tmp_path_factory.mktemp("host-secrets")) as bait:
        VICTIMS.add(bait.victim.pid)
        yield bait.ctx, bait.listeners, bait.victim, bait.lease


VICTIMS: set[int] = set()  # host processes the tests started under a sandbox uid on purpose


def sandbox_uid_processes(exclude=()) -> list[str]:
    """Our descendants running as a sandbox uid (there must be none between tasks). Only our
    own: other test runs on this machine may be using the sandbox at the same time."""
    parent, info = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read()
            status = open(f"/proc/{pid}/status").read()
        except OSError:
            continue
        parent[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
        info[int(pid)] = (int(status.split("\nUid:")[1].split()[1]), status.splitlines()[0])
    me, found = os.getpid(), []
    for pid, (uid, name) in info.items():
        if pid in exclude or pid in VICTIMS or not UID_BASE <= uid < UID_BASE + UID_COUNT:
            continue
        p, seen = pid, 0
        while p > 1 and seen < 64:
            p, seen = parent.get(p, 0), seen + 1
            if p == me:
                found.append(f"{pid} uid={uid} {name}")
                break
    return found


def assert_host_untouched(host_fixture) -> None:
    ctx, listeners, victim, _ = host_fixture
    assert all(not l.accepted for l in listeners), "a sandboxed program connected to a host listener"
    assert victim.poll() is None, "the victim (sibling) process was killed"
    assert open(ctx.secret_file).read() == ctx.secret_value
    assert os.listdir(MOUNTED) == ["data.txt"] and open(os.path.join(MOUNTED, "data.txt")).read() == "read-only data"
    assert sandbox_uid_processes(exclude={victim.pid}) == [], "a sandboxed process outlived its task"
