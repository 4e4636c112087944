"""Hostile programs every sandboxed runner must survive: reusable by any verifier's tests.

Each `HostileCase` is a program (Python or sh) with `$placeholders` filled from a `HostContext`
(things the test sets up on the host: a loopback listener, a secret env var and file, a unix
socket, a victim process). A program prints `ESCAPED: <what>` whenever it managed something it
must not; `problems(case, result, ctx, profile)` lists what is wrong with a run's outcome (empty
list: acceptable). `PROBE` is the program a test runs right after a hostile case, in the same
place, to show nothing carried over.

    @pytest.mark.parametrize("case", HOSTILE_CASES, ids=lambda c: c.name)
    def test_mine(case, host_ctx): ...
"""

from __future__ import annotations

import signal as _signal
from dataclasses import dataclass, field
from string import Template
from typing import Callable

from ..sandbox.profile import Profile
from ..sandbox.result import RunResult

ESCAPED = "ESCAPED"


@dataclass(frozen=True)
class HostContext:
    """What the host side of a test prepared, and that a program must not reach."""

    port: int  # a listener on the host's 127.0.0.1
    secret_env: str  # name of an env var set in the host process
    secret_value: str  # its value; also the content of secret_file
    secret_file: str  # a host file outside every mount
    unix_path: str  # a listening unix socket on the host filesystem
    abstract_name: str  # a listening abstract unix socket (without the leading NUL)
    victim_pid: int  # a host process (another uid, like a sibling sandbox) that must survive


@dataclass(frozen=True)
class HostileCase:
    name: str
    language: str  # "python" or "sh"
    code: str
    expect: Callable[[RunResult, Profile], str | None] = field(default=lambda r, p: None)
    description: str = ""

    def source(self, ctx: HostContext) -> str:
        return Template(self.code).safe_substitute(**ctx.__dict__)

    @property
    def filename(self) -> str:
        return "main.py" if self.language == "python" else "main.sh"

    @property
    def argv(self) -> list[str]:
        return ["python3", self.filename] if self.language == "python" else ["sh", self.filename]


def _timed_out(r: RunResult, p: Profile) -> str | None:
    return None if r.timed_out else "expected the wall-clock timeout to stop it"


def _stopped(r: RunResult, p: Profile) -> str | None:
    return None if (r.timed_out or r.signal is not None) else "expected a signal or the timeout to stop it"


def _memory(r: RunResult, p: Profile) -> str | None:
    if r.exit_code == 0:
        return "a memory bomb finished normally: the limit did not hold"
    if r.memory_limit == "cgroup" and not r.oom and r.signal != _signal.SIGKILL and "MemoryError" not in r.stderr:
        return "expected an OOM kill (cgroup) or a MemoryError"
    return None


def _truncated(r: RunResult, p: Profile) -> str | None:
    if not r.stdout_truncated or len(r.stdout.encode()) > p.output_bytes:
        return "expected stdout capped at output_bytes and flagged truncated"
    return None


def _finished(r: RunResult, p: Profile) -> str | None:
    return None if not r.timed_out else "should have finished (EOF on stdin), not hung"


def _c(name, language, code, expect=None, description=""):
    return HostileCase(name, language, code.strip() + "\n", expect or (lambda r, p: None), description)


_PY_FILL = '''
import os
total, i = 0, 0
try:
    while total < 1 << 30:
        with open(os.path.join("$dir", f"fill{i}"), "wb") as f:
            for _ in range(16):
                f.write(b"x" * 65536)
                total += 65536
        i += 1
except OSError as e:
    print("error", e)
print("wrote", total)
'''


def _bounded_by_tmpfs(r: RunResult, p: Profile) -> str | None:
    written = [int(line.split()[1]) for line in r.stdout.splitlines() if line.startswith("wrote ")]
    if written and written[0] > p.tmpfs_mb << 20:
        return f"wrote {written[0]} bytes, more than the {p.tmpfs_mb} MiB tmpfs"
    return None if written or r.signal or r.oom else "the filler did not report"


def _fill(name: str, directory: str) -> HostileCase:
    return _c(name, "python", _PY_FILL.replace("$dir", directory), _bounded_by_tmpfs,
              description=f"fill {directory} until the filesystem refuses")


HOSTILE_CASES: list[HostileCase] = [
    _c("fork_bomb_sh", "sh", ":(){ :|:& };:\nsleep 1\necho done"),
    _c("fork_bomb_python", "python", '''
import os, time
deadline = time.time() + 1.0
n = 0
while time.time() < deadline:
    try:
        if os.fork() == 0:
            n = 0
        else:
            n += 1
    except OSError:
        time.sleep(0.01)
'''),
    _c("thread_bomb", "python", '''
import threading, time
threads = []
try:
    for _ in range(100000):
        t = threading.Thread(target=time.sleep, args=(60,), daemon=True)
        t.start()
        threads.append(t)
except RuntimeError as e:
    print("stopped after", len(threads), e)
if len(threads) >= 100000:
    print("ESCAPED: unbounded threads")
'''),
    _c("heap_bomb", "python", '''
blocks = []
while True:
    blocks.append(bytearray(8 << 20))
''', _memory),
    _c("mmap_bomb", "python", '''
import mmap
maps = []
while True:
    m = mmap.mmap(-1, 64 << 20)
    for i in range(0, len(m), 4096):
        m[i] = 1
    maps.append(m)
''', _memory),
    _fill("fill_tmp", "/tmp"),
    _fill("fill_dev_shm", "/dev/shm"),
    _fill("fill_workdir", "."),
    _c("fill_root", "sh", '''
for d in / /usr /etc /bin /sandbox/..; do
  if (echo x > "$d/hostile-file") 2>/dev/null; then echo "ESCAPED: wrote to $d"; fi
done
mkdir /newdir 2>/dev/null && echo "ESCAPED: mkdir /newdir"
echo done
'''),
    _c("file_over_size_limit", "python", '''
import os, signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
written = 0
try:
    with open("big", "wb") as f:
        for _ in range(4096):
            f.write(b"x" * 65536)
            f.flush()
            written += 65536
except OSError as e:
    print("refused:", e)
size = os.path.getsize("big")
if size >= 256 << 20:
    print("ESCAPED: file of", size, "bytes")
'''),
    _c("too_many_open_files", "python", '''
import os
fds = []
try:
    while len(fds) < 1000000:
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    print("stopped at", len(fds), e)
if len(fds) >= 1000000:
    print("ESCAPED: unbounded fds")
'''),
    _c("cpu_spin", "python", "while True:\n    pass", _stopped),
    _c("sleep_forever", "python", "import time\ntime.sleep(10 ** 6)", _timed_out),
    _c("read_stdin", "python", "import sys\ndata = sys.stdin.buffer.read()\nprint('read', len(data))", _finished),
    _c("stdout_flood", "python", '''
import sys
chunk = b"x" * (1 << 20)
for _ in range(1024):  # a gigabyte
    sys.stdout.buffer.write(chunk)
''', _truncated),
    _c("deep_recursion", "python", '''
import sys
sys.setrecursionlimit(10 ** 9)
def f(n):
    return f(n + 1) + 1
f(0)
'''),
    _c("segfault", "python", "import ctypes\nctypes.string_at(0)", lambda r, p: None if r.signal == _signal.SIGSEGV else f"expected SIGSEGV, got {r}"),
    _c("double_fork_daemon", "python", '''
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in range(3):
            os.close(fd)
        while True:
            try:
                with open("/tmp/daemon-was-here", "a") as f:
                    f.write("x")
            except OSError:
                pass
            time.sleep(0.05)
    os._exit(0)
time.sleep(0.2)
print("parent leaves")
'''),
    _c("setsid_daemon_sh", "sh", '''
setsid sh -c 'while true; do echo x >> /tmp/setsid-was-here; sleep 0.1; done' </dev/null >/dev/null 2>&1 &
nohup sleep 1000 </dev/null >/dev/null 2>&1 &
sleep 0.2
echo launched
'''),
    _c("connect_host_loopback", "python", '''
import socket
for host in ("127.0.0.1", "localhost", "::1"):
    try:
        s = socket.create_connection((host, $port), timeout=1)
        print("ESCAPED: connected to", host, $port)
        s.close()
    except OSError as e:
        print("refused", host, e)
'''),
    _c("connect_outside", "python", '''
import socket
try:  # TEST-NET-1: documentation range, never routed; must fail locally anyway
    socket.create_connection(("192.0.2.1", 80), timeout=1)
    print("ESCAPED: reached an outside address")
except OSError as e:
    print("refused", e)
try:
    socket.getaddrinfo("pypi.org", 443)
    print("ESCAPED: name resolution works")
except OSError as e:
    print("no dns", e)
import os
print(sorted(os.listdir("/sys/class/net")) if os.path.isdir("/sys/class/net") else "no /sys")
'''),
    _c("unix_sockets", "python", '''
import socket
for addr in ("\\0$abstract_name", "$unix_path", "/run/docker.sock", "/var/run/docker.sock", "/run/dbus/system_bus_socket"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(addr)
        print("ESCAPED: connected to unix socket", repr(addr))
    except OSError as e:
        print("refused", repr(addr), e)
    finally:
        s.close()
'''),
    _c("read_host_secrets", "python", '''
import os, glob
print(dict(os.environ))
for path in ["/proc/1/environ", "/proc/self/environ", "$secret_file", "/etc/shadow", "/root/.bash_history",
             "/proc/1/root/$secret_file", "/proc/1/cwd", "/sys/fs/cgroup"] + glob.glob("/proc/*/environ"):
    try:
        if os.path.isdir(path):
            print(path, os.listdir(path))
        else:
            print(path, open(path, "rb").read()[:4096])
    except OSError as e:
        print("denied", path, e)
if "$secret_env" in os.environ:
    print("ESCAPED: host env var visible")
'''),
    _c("write_readonly_mounts", "python", '''
import os, sys, sysconfig
targets = [sys.executable, sysconfig.get_paths()["purelib"] + "/hostile.pth", "/etc/passwd", "/usr/bin/hostile"]
for line in open("/proc/self/mountinfo"):  # every read-only mount, the profile's own mounts included
    fields = line.split()
    point, options = fields[4], fields[5].split(",")
    if "ro" in options and not point.startswith(("/proc", "/sys", "/dev")):
        targets.append(os.path.join(point if os.path.isdir(point) else os.path.dirname(point), "hostile-write"))
        if os.path.isfile(point):
            targets.append(point)
for t in targets:
    try:
        with open(t, "ab") as f:
            f.write(b"#")
        print("ESCAPED: wrote", t)
    except OSError as e:
        print("refused", t, e)
'''),
    _c("remount_readonly_rw", "python", '''
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
MS_REMOUNT, MS_BIND = 32, 4096
for target in (b"/usr", sys.prefix.encode(), b"/"):
    if libc.mount(None, target, None, MS_REMOUNT | MS_BIND, None) == 0:
        print("ESCAPED: remounted", target, "read-write")
if libc.mount(b"tmpfs", b"/usr", b"tmpfs", 0, None) == 0:
    print("ESCAPED: mounted over /usr")
if libc.umount2(b"/usr", 2) == 0:
    print("ESCAPED: unmounted /usr")
print("done")
'''),
    _c("symlink_escape", "sh", '''
ln -s /etc/shadow shadow.txt
ln -s $secret_file secret.txt
ln -s / root.txt
ln -s /proc/1/root proc1root.txt
mkdir -p out && ln -s /etc out/etc.txt
cat secret.txt 2>/dev/null && echo "ESCAPED: read the secret through a symlink"
echo done
'''),
    _c("hardlink_escape", "python", '''
import os
for src in ("/etc/passwd", "/usr/bin/sh", "$secret_file", "/proc/self/exe"):
    try:
        os.link(src, "link-" + os.path.basename(src))
        print("note: hardlinked", src)
        if src == "$secret_file":
            print("ESCAPED: hardlinked the secret")
    except OSError as e:
        print("refused", src, e)
'''),
    _c("mknod", "python", '''
import os, stat
for name, mode, dev in (("null", stat.S_IFCHR, os.makedev(1, 3)), ("mem", stat.S_IFCHR, os.makedev(1, 1)),
                        ("disk", stat.S_IFBLK, os.makedev(8, 0))):
    try:
        os.mknod(name, mode | 0o666, dev)
        print("ESCAPED: made device node", name)
    except OSError as e:
        print("refused", name, e)
'''),
    _c("ptrace", "python", '''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
PTRACE_TRACEME, PTRACE_ATTACH = 0, 16
for pid in (1, os.getppid()):
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
        print("ESCAPED: attached to", pid)
child = os.fork()
if child == 0:
    import time; time.sleep(5); os._exit(0)
if libc.ptrace(PTRACE_ATTACH, child, None, None) == 0:
    print("ESCAPED: ptrace works in the sandbox")
os.kill(child, 9)
print("done")
'''),
    _c("unshare", "python", '''
import ctypes, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
for name, flag in (("user", 0x10000000), ("mount", 0x00020000), ("net", 0x40000000), ("pid", 0x20000000)):
    if libc.unshare(flag) == 0:
        print("ESCAPED: unshare", name)
r = subprocess.run(["unshare", "-Urm", "sh", "-c", "mount -o remount,rw /usr && echo remounted"], capture_output=True, text=True)
if "remounted" in r.stdout or r.returncode == 0:
    print("ESCAPED: unshare -Urm worked", r.stdout)
print("unshare cli:", r.returncode, r.stderr.strip()[:200])
'''),
    _c("tiocsti", "python", '''
import fcntl, os, termios
for fd in (0, 1, 2):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"x")
        print("ESCAPED: TIOCSTI on", fd)
    except OSError as e:
        print("refused", fd, e)
try:
    fd = os.open("/dev/tty", os.O_RDWR)
    fcntl.ioctl(fd, termios.TIOCSTI, b"x")
    print("ESCAPED: TIOCSTI on /dev/tty")
except OSError as e:
    print("no tty", e)
'''),
    _c("kill_everything", "python", '''
import os, signal
for pid in ($victim_pid, 1, os.getppid()):
    try:
        os.kill(pid, signal.SIGKILL)
        print("sent SIGKILL to", pid)
    except OSError as e:
        print("refused", pid, e)
for pid in range(2, 4096):
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
print("now kill -1")
os.kill(-1, signal.SIGKILL)
print("survived kill -1")
'''),
    _c("kill_minus_one_sh", "sh", "kill -9 -1\necho survived"),
]

# Run right after a hostile case, in the same mode (cold / same warm worker / same session):
# prints CLEAN, or what the previous task left behind.
PROBE = r'''
import os, socket
left = []
for d in ("/tmp", "/dev/shm"):
    if os.listdir(d):
        left.append(f"{d} not empty: {os.listdir(d)[:5]}")
extra = sorted(set(os.listdir(".")) - {"probe.py"})
if extra:
    left.append(f"work dir not fresh: {extra[:5]}")
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
others = [p for p in pids if p not in (1, os.getpid())]
if others:
    left.append(f"other processes visible: {others[:10]}")
shm = open("/proc/sysvipc/shm").read().splitlines()[1:]
if shm:
    left.append("SysV shared memory left over")
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.bind("\0rlhub-hostile-marker")
except OSError:
    left.append("abstract socket of a previous task still bound")
if "HOSTILE_MARKER" in os.environ:
    left.append("environment carried over")
print("CLEAN" if not left else "DIRTY: " + "; ".join(left))
'''

# A task that deliberately leaves every kind of state behind; PROBE must then still say CLEAN.
STATE_LEFT_BEHIND = r'''
import os, socket, mmap, ctypes, random, sys
open("/tmp/left", "w").write("x")
open("/dev/shm/left", "w").write("x")
open("left-in-workdir", "w").write("x")
os.environ["HOSTILE_MARKER"] = "1"
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0rlhub-hostile-marker")
s.listen()
libc = ctypes.CDLL(None)
libc.shmget(0x1234, 4096, 0o1666)  # IPC_CREAT | 0666
import json
json.dumps = lambda *a, **k: "poisoned"
random.seed(12345)
if os.fork() == 0:
    os.setsid()
    import time
    time.sleep(1000)
print("left state behind")
'''


def problems(case: HostileCase, result: RunResult, ctx: HostContext, profile: Profile) -> list[str]:
    """What is unacceptable about `result` for `case` (empty: the sandbox held)."""
    found = []
    if result.infra_error:
        found.append(f"infra error: {result.infra_error}")
    seen = result.stdout + result.stderr + repr(result.value) + "".join(
        v.decode("utf-8", "replace") for v in result.files.values())
    for line in (result.stdout + result.stderr).splitlines():
        if line.startswith(ESCAPED) or f": {ESCAPED}" in line:
            found.append(line.strip())
    if ctx.secret_value in seen:
        found.append("the host secret reached the result")
    if result.duration_s > profile.wall_timeout_s + 2:
        found.append(f"ran {result.duration_s:.1f}s, past the wall clock {profile.wall_timeout_s}s")
    extra = case.expect(result, profile)
    if extra:
        found.append(extra)
    return found
