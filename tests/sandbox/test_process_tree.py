"""The process tree of one task (supervisor.py): who is a copy of the warm worker, what happens
when a part of the tree is killed mid-task, and that a warm worker leaks nothing over 200 tasks.

These look at the sandbox from the host, through /proc (the tests run as root, as the sandbox
does): the worker (bwrap's supervisor), its namespace zygote, the zygote's fork A (the task's
namespace supervisor), A's fork B (the task's pid 1) and the task C (the worker's fork).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter

import pytest

from hub.sandbox import Sandbox
from hub.sandbox.cgroup import MemoryCgroup
from hub.sandbox.pool import _key
from hub.testing.hostile import PROBE

from .conftest import TIGHT, sandbox_uid_processes

FUNC = "hub.testing.probes:run_program"
WARM = TIGHT.merged(name="tree-warm", preload=("hub.testing.probes",), wall_timeout_s=8.0, cpu_s=4)
SLEEPER = "import time\nprint('started', flush=True)\ntime.sleep(4)\nprint('slept')\n"


def _stat(pid: int) -> tuple[int, str, int]:
    """(parent pid, state, resident KiB) of a host process."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    rss = next((int(line.split()[1]) for line in open(f"/proc/{pid}/status") if line.startswith("VmRSS:")), 0)
    return int(fields[1]), fields[0], rss


def _uid(pid: int) -> int:
    return int(next(line for line in open(f"/proc/{pid}/status") if line.startswith("Uid:")).split()[1])


def _children(pid: int) -> list[int]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if _stat(int(name))[0] == pid:
                    out.append(int(name))
            except (OSError, IndexError):
                pass
    return sorted(out)


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        found += kids
        todo += kids
    return sorted(found)


def _worker(sb: Sandbox, profile=WARM):
    idle = sb.pool._idle[_key(profile, FUNC)]
    assert len(idle) == 1
    return idle[0]


def _comm(pid: int) -> str:
    return open(f"/proc/{pid}/comm").read().strip()


def _supervisor_pid(box) -> int:
    """The supervisor: the python among bwrap's descendants whose parent is bwrap (bwrap forks
    its own pid 1, which forks the supervisor; the zygote and the rest descend from it)."""
    tree = _descendants(box.proc.pid)
    found = [p for p in tree if "python" in _comm(p) and _comm(_stat(p)[0]) == "bwrap"]
    assert len(found) == 1, [(p, _comm(p)) for p in tree]
    return found[0]


class Tree:
    """The live processes of a running task, found from its worker."""

    def __init__(self, box, timeout: float = 5.0) -> None:
        self.worker = _supervisor_pid(box)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            kids = _children(self.worker)
            tasks = [p for p in kids if _uid(p) == box.uid]
            others = [p for p in kids if p not in tasks]
            if tasks and len(others) == 1:
                zygote_kids = _children(others[0])
                if len(zygote_kids) == 1 and len(_children(zygote_kids[0])) == 1:
                    self.task, self.zygote = tasks[0], others[0]
                    self.a = zygote_kids[0]
                    self.b = _children(self.a)[0]
                    return
            time.sleep(0.02)
        raise AssertionError(f"no running task under worker {self.worker}: children {_children(self.worker)}")


def _start(sb: Sandbox, code: str = SLEEPER):
    """Start a warm call in a thread; (thread, result holder)."""
    out: dict = {}

    def go():
        out["result"] = sb.call(WARM, FUNC, files={"main.py": code}, args={"path": "main.py"})

    thread = threading.Thread(target=go)
    thread.start()
    return thread, out


@pytest.fixture
def own_sandbox(sandbox):  # `sandbox`: the suite's availability check; each test here kills its own
    sb = Sandbox(pool_size=1)
    sb.warm(WARM, FUNC)
    yield sb
    sb.shutdown()


def test_only_the_task_is_a_copy_of_the_worker(own_sandbox):
    profile = WARM.merged(name="tree-numpy", preload=("numpy", "hub.testing.probes"))
    own_sandbox.warm(profile, FUNC)
    box = own_sandbox.pool._idle[_key(profile, FUNC)][0]
    out: dict = {}
    thread = threading.Thread(target=lambda: out.update(r=own_sandbox.call(
        profile, FUNC, files={"main.py": SLEEPER}, args={"path": "main.py"})))
    thread.start()
    tree = Tree(box)
    worker_kb = _stat(tree.worker)[2]
    small = {name: _stat(pid)[2] for name, pid in (("zygote", tree.zygote), ("A", tree.a), ("B", tree.b))}
    os.kill(tree.task, signal.SIGKILL)
    thread.join(10)
    # the worker holds numpy; the namespace processes are copies of the interpreter from before it
    assert all(kb < worker_kb / 2 for kb in small.values()), (worker_kb, small)
    assert _uid(tree.worker) == 0 and out["r"].signal == signal.SIGKILL and out["r"].infra_error is None


@pytest.mark.parametrize("victim", ["A", "B", "worker", "zygote"])
def test_killing_part_of_the_tree_mid_task_gets_a_verdict_and_leaves_nothing(own_sandbox, victim):
    box = _worker(own_sandbox)
    thread, out = _start(own_sandbox)
    tree = Tree(box)
    os.kill({"A": tree.a, "B": tree.b, "worker": tree.worker, "zygote": tree.zygote}[victim], signal.SIGKILL)
    t = time.monotonic()
    thread.join(WARM.wall_timeout_s + 10)
    r = out["result"]
    if victim == "zygote":  # this task's namespaces were made already: it runs to its end
        assert r.exit_code == 0 and r.stdout == "started\nslept\n", r
    else:  # answered at once, not at the wall clock
        assert time.monotonic() - t < 3.0 and "slept" not in r.stdout, r
    if victim == "B":  # the pid namespace ended under the task: it was killed, as by the sandbox
        assert r.signal == signal.SIGKILL and r.infra_error is None, r
    elif victim in ("A", "worker"):  # the sandbox's own machinery failed: never the model's doing
        assert r.infra_error and r.exit_code is None, r
    assert sandbox_uid_processes() == [], "a process of the task outlived it"
    # the next task gets a clean sandbox (after a dead zygote: once the worker was replaced)
    for _ in range(2):
        r = own_sandbox.call(WARM, FUNC, files={"probe.py": PROBE}, args={"path": "probe.py"})
        if r.infra_error is None:
            break
        assert victim == "zygote" and "zygote" in r.infra_error, r
    assert r.stdout.strip() == "CLEAN", (r.stdout, r.stderr, r.infra_error)
    assert sandbox_uid_processes() == []


LEAVES_EVERYTHING = r'''
import ctypes, os, socket
for d in ("/tmp", "/dev/shm", "."):
    with open(os.path.join(d, "blob"), "wb") as f:
        f.write(b"x" * (1 << 20))
ctypes.CDLL(None).shmget(0x1234, 1 << 16, 0o1666)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0rlhub-tree-marker")
s.listen()
keep = [os.open("/dev/null", os.O_RDONLY) for _ in range(8)]
if os.fork() == 0:
    os.setsid()
    import time
    time.sleep(1000)
print("left")
'''


def _fd_kinds(pid: int) -> Counter:
    kinds = Counter()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        kinds[target.split(":[")[0] if ":[" in target else target] += 1
    return kinds


def _snapshot(box) -> dict:
    tree = _descendants(box.proc.pid)
    procs = {p: _stat(p) for p in tree}
    return {
        "processes": sorted((_comm(p), state) for p, (_, state, _) in procs.items()),
        "fds": {p: _fd_kinds(p) for p in tree},
        "mount namespaces": len({os.readlink(f"/proc/{p}/ns/mnt") for p in tree}),
        "pid namespaces": len({os.readlink(f"/proc/{p}/ns/pid") for p in tree}),
    }


def test_200_tasks_on_one_warm_worker_leak_no_fd_mount_cgroup_or_process(sandbox, monkeypatch):
    made = []
    create = MemoryCgroup.create.__func__
    monkeypatch.setattr(MemoryCgroup, "create", classmethod(lambda cls: made.append(create(cls)) or made[-1]))
    profile = WARM.merged(name="tree-200", recycle_after=1000)
    sb = Sandbox(pool_size=1)
    try:
        def task():
            r = sb.call(profile, FUNC, files={"main.py": LEAVES_EVERYTHING}, args={"path": "main.py"})
            assert r.stdout == "left\n" and r.exit_code == 0, (r.stdout, r.stderr, r.infra_error)

        task()
        box = _worker(sb, profile)
        first, memory = _snapshot(box), box.cgroup.usage() if box.cgroup else 0
        for _ in range(199):
            task()
        assert _worker(sb, profile) is box and box.tasks_done == 200 and box.alive
        last = _snapshot(box)
        assert last == first  # the same processes, fds of every kind, namespaces
        assert last["pid namespaces"] == 1  # bwrap's: no task's pid namespace is alive
        assert sandbox_uid_processes() == []
        if box.cgroup:  # 3 MiB of tmpfs a task: 600 MiB if their filesystems outlived them
            assert box.cgroup.usage() < memory + (32 << 20), (memory, box.cgroup.usage())
        assert len(made) == 1  # one cgroup: this worker's
    finally:
        sb.shutdown()
    assert [g.path for g in made if g is not None and os.path.exists(g.path)] == [], "a cgroup was left behind"
    assert sandbox_uid_processes() == []
