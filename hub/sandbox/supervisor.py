"""The supervisor: runs INSIDE a bwrap sandbox, as sandbox-root with a few capabilities.

Standard library only: the host starts it as `python -I [-S] -c <this source> <socket fd>`.
It talks to the host over a socketpair (length-prefixed JSON, pipes passed as SCM_RIGHTS).
Before it imports anything for a warm worker, it forks the *namespace zygote*: a copy of this
small interpreter that stays small. For every task:

  A  the zygote forks a namespace supervisor, which unshares fresh mount/pid/ipc/net/uts
     namespaces and mounts sized tmpfs on /sandbox, /tmp and /dev/shm (nothing written by one
     task is seen by the next);
  B  A forks pid 1 of the new pid namespace: it mounts its /proc, then only reaps. Killing B
     tears the namespace down, which is how every process the task started is gone afterwards;
     A hands the namespaces to the worker as fds, with a pidfd of B;
  C  the worker forks the task itself into B's pid namespace (setns), and the task joins A's
     other namespaces: new session, stdio on the host's pipes, every other fd closed,
     capabilities (bounding set included) dropped, the slot's unprivileged uid, no-new-privs,
     rlimits, the seccomp filter; then exec()s the program or, in a warm worker, calls a
     trusted function in the already-imported interpreter;
  A  once C has exited (or was killed at its wall clock), kills B, waits until everything of
     the task is dead, drops to the task's uid and collects the profile's files (so a symlink
     planted by the task can never make a privileged process read for it).

Only C is a copy of the warm worker: A and B are copies of the zygote, a few MB instead of the
hundreds a CadQuery worker holds (benchmarks/bench_process_tree.py measured the candidates).
If A dies mid-task, the worker kills C and B itself and answers an infra error.

A warm worker is this same process with modules preloaded: forking it is what makes tasks cheap.
It only ever imports (never builds CadQuery geometry: OCC state does not survive fork).
"""

import base64
import ctypes
import fcntl
import json
import os
import select
import signal
import socket
import stat
import struct
import sys
import time
import traceback

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_CAP_AMBIENT = 24, 38, 22, 47
SECCOMP_MODE_FILTER, PR_CAP_AMBIENT_CLEAR_ALL = 2, 4
MAX_VALUE_BYTES = 16 << 20
WORK = "/sandbox"


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def mount(src, target, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None  # noqa: E731
    check(libc.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def prctl(option, arg=0):
    check(libc.prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)), f"prctl {option}")


def close_fds_except(keep):
    low = 0
    for fd in sorted(keep):
        if fd > low:  # os.closerange(n, n) closes everything from n on (close_range(n, -1))
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 20)


def occupy_stdio():
    """Point any closed fd 0-2 at /dev/null, so new pipes never land where stdio will go."""
    for fd in range(3):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open("/dev/null", os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_all(fd, limit=None):
    chunks, size = [], 0
    while chunk := os.read(fd, 1 << 16):
        size += len(chunk)
        if limit is None or size <= limit:
            chunks.append(chunk)
    return b"".join(chunks)


def send(sock, obj, fds=()):
    data = json.dumps(obj).encode()
    header = struct.pack(">I", len(data))
    if fds:
        socket.send_fds(sock, [header], list(fds))
    else:
        sock.sendall(header)
    sock.sendall(data)


def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise EOFError
        buf += chunk
    return bytes(buf)


MAX_FDS = 8  # the most any message carries: a task's namespaces (4), B's pid namespace and pidfd


def recv(sock):
    header, fds, _, _ = socket.recv_fds(sock, 4, MAX_FDS)
    if not header:
        return None, []
    header += recv_exact(sock, 4 - len(header))
    return json.loads(recv_exact(sock, struct.unpack(">I", header)[0])), fds


# ---------------------------------------------------------------- privileges


def drop_privileges(uid, bpf=None):
    """Irreversibly become the slot's unprivileged uid with no capabilities, then seccomp."""
    last_cap = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last_cap + 1):
        prctl(PR_CAPBSET_DROP, cap)
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # clears the permitted and effective capability sets
    clear_capabilities()  # and the inheritable one
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    if bpf:
        install_seccomp(bpf)


def install_seccomp(bpf):
    buf = ctypes.create_string_buffer(bpf, len(bpf))
    prog = SockFprog(len(bpf) // 8, ctypes.cast(buf, ctypes.c_void_p))
    check(libc.prctl(PR_SET_SECCOMP, ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(prog), 0, 0), "seccomp")


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def clear_capabilities():
    header = CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words
    data = (CapData * 2)()
    check(libc.capset(ctypes.byref(header), data), "capset")


def set_limits(lim, address_space):
    import resource as r

    r.setrlimit(r.RLIMIT_CORE, (0, 0))
    r.setrlimit(r.RLIMIT_CPU, (lim["cpu_s"], lim["cpu_s"] + 1))
    r.setrlimit(r.RLIMIT_FSIZE, (lim["file_size"], lim["file_size"]))
    r.setrlimit(r.RLIMIT_NOFILE, (lim["open_files"], lim["open_files"]))
    r.setrlimit(r.RLIMIT_NPROC, (lim["max_procs"], lim["max_procs"]))
    if address_space:
        r.setrlimit(r.RLIMIT_AS, (address_space, address_space))


def safe_relpath(name):
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts or name.startswith("/") or ".." in parts:
        raise ValueError(f"file name must be relative and stay in the work dir: {name!r}")
    return "/".join(parts)


KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
         (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def kind_of(mode):
    """'a FIFO (named pipe)', ... for what is not a regular file; None for a regular file."""
    return next((name for test, name in KINDS if test(mode)), None if stat.S_ISREG(mode) else "not a regular file")


def parent_dir(rel, create):
    """(an fd of the directory that holds `rel` inside the work dir, the last name): reached one
    component at a time, never through a symlink. A parent that is a link (to /tmp, to `..`, to a
    directory beside it), a file or anything else is refused, named; a missing one is made with
    `create` (FileNotFoundError without)."""
    parts = rel.split("/")
    fd = os.open(WORK, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for i, part in enumerate(parts[:-1]):
            try:
                mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
            except FileNotFoundError:
                if not create:
                    raise
                os.mkdir(part, 0o777, dir_fd=fd)
                mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
            if not stat.S_ISDIR(mode):
                where = "/".join(parts[:i + 1])
                raise ValueError(f"{rel}: {where} is {kind_of(mode) or 'a regular file'}, not a directory: remove it first")
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1]


def write_files(files):
    """Write each file; what the model left in the way (a FIFO, a socket, a directory, a symlink,
    at the path or at any parent of it) is refused, never opened in a way that could block
    (O_NONBLOCK) or follow it (O_NOFOLLOW, one component at a time)."""
    for name, b64 in files.items():
        rel = safe_relpath(name)
        parent, leaf = parent_dir(rel, create=True)
        try:
            try:
                kind = kind_of(os.stat(leaf, dir_fd=parent, follow_symlinks=False).st_mode)
            except FileNotFoundError:
                kind = None
            if kind:
                raise ValueError(f"{rel} is {kind}, not a regular file: remove it first")
            fd = os.open(leaf, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644,
                         dir_fd=parent)
        finally:
            os.close(parent)
        with os.fdopen(fd, "wb") as f:
            kind = kind_of(os.fstat(fd).st_mode)
            if kind:  # swapped in after the lstat (nothing of the model runs now, but never trust that)
                raise ValueError(f"{rel} is {kind}, not a regular file: remove it first")
            os.set_blocking(fd, True)
            f.truncate(0)
            f.write(base64.b64decode(b64))


def glob_regex(pattern):
    """A glob as a regex over relative paths: `*` and `?` stay within one component, `**` spans."""
    import re

    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def gather_files(patterns, limit, max_entries=100_000):
    """Regular files under /sandbox matching the globs. The walk never follows a symlink (a
    planted `x -> /` must not make us read the world) and never looks at more than
    `max_entries` entries."""
    regexes = [glob_regex(p[2:] if p.startswith("./") else p) for p in patterns]
    out, total, seen = {}, 0, 0
    for root, dirs, files in os.walk(WORK, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            seen += 1
            if seen > max_entries:
                return out
            path = os.path.join(root, name)
            rel = os.path.relpath(path, WORK)
            if not any(rx.match(rel) for rx in regexes):
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:  # symlinks land here (ELOOP)
                continue
            with os.fdopen(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    continue
                data = f.read(limit - total + 1)
            if total + len(data) > limit:
                return out
            total += len(data)
            out[rel] = base64.b64encode(data).decode()
        seen += len(dirs)
    return out


def as_user(uid, bpf, job):
    """Run `job()` (returns JSON-able) in a child that dropped to `uid`; its result."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            close_fds_except({w})
            drop_privileges(uid, bpf)
            os.chdir(WORK)
            payload = {"ok": job()}
        except BaseException as exc:
            payload = {"error": f"{type(exc).__name__}: {exc}"}
        write_all(w, json.dumps(payload).encode())
        os._exit(0)
    os.close(w)
    data = read_all(r)
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data) if data else {"error": "helper died"}


# ---------------------------------------------------------------- one task


def become_task(msg, out_fd, err_fd, value_w, bpf):
    """Process C: turn this fork into the sandboxed task. Never returns."""
    lim = msg["limits"]
    os.setsid()
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    if msg["mode"] == "exec":  # Python ignores these; programs it execs must not inherit that
        for sig in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)
    with open("/proc/self/oom_score_adj", "w") as f:
        f.write("1000")  # under memory pressure the task dies, never its supervisor
    stdin = os.memfd_create("stdin")
    write_all(stdin, base64.b64decode(msg["stdin"]))
    os.lseek(stdin, 0, os.SEEK_SET)
    sources = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (stdin, out_fd, err_fd)]  # out of 0-2's way
    for target, fd in enumerate(sources):
        os.dup2(fd, target, inheritable=True)
    close_fds_except({0, 1, 2} | ({value_w} if value_w is not None else set()))
    drop_privileges(msg["uid"])
    os.chdir(WORK)
    os.umask(0o022)
    write_files(msg["files"])
    address_space = None
    if lim.get("address_space"):
        address_space = lim["address_space"]
        if msg["mode"] == "call":  # the warm interpreter's own mappings come on top
            address_space += int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    set_limits(lim, address_space)
    if bpf:  # last: everything above may use calls the filter denies
        install_seccomp(bpf)
    env = msg["env"]
    if msg["mode"] == "exec":
        argv = msg["argv"]
        try:
            os.execvpe(argv[0], argv, env)
        except OSError as exc:
            os.write(2, f"sandbox: cannot execute {argv[0]!r}: {exc.strerror}\n".encode())
            os._exit(127 if isinstance(exc, FileNotFoundError) else 126)
    os.environ.clear()
    os.environ.update(env)
    reseed()
    code, value = 0, None
    try:
        module_name, _, func_name = msg["func"].partition(":")
        module = __import__(module_name, fromlist=["_"])
        value = getattr(module, func_name)(**msg["args"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    try:
        payload = json.dumps({"value": value}).encode()
    except (TypeError, ValueError) as exc:
        payload = json.dumps({"value": None, "value_error": f"return value is not JSON: {exc}"}).encode()
    try:
        write_all(value_w, payload)
    except OSError:
        pass
    os._exit(code)


def reseed():
    """A forked task must not replay its siblings' random streams."""
    import random

    random.seed()
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        try:
            numpy.random.seed()
        except Exception:
            pass


def namespace_init(go_r, ready_w):
    """Process B: pid 1 of the task's pid namespace. Mounts its /proc, then only reaps."""
    close_fds_except({go_r, ready_w})
    if os.read(go_r, 1) != b"1":  # A opens this namespace through the old /proc first
        os._exit(1)
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
    os.write(ready_w, b"1")
    os.close(ready_w)
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        signal.sigwait({signal.SIGCHLD})


# The namespaces C joins, in the order A hands them over (A's own, then B's pid namespace).
JOINED = (("net", CLONE_NEWNET), ("ipc", CLONE_NEWIPC), ("uts", CLONE_NEWUTS), ("mnt", CLONE_NEWNS))


def namespace_supervisor(req, sock, bpf):
    """Process A (a fork of the small zygote): fresh namespaces and filesystems, B as their pid 1.

    Hands the worker the namespaces as fds (C joins them) and a pidfd of B; then waits for the
    worker's "end" (or its death: EOF), kills B, which ends the pid namespace and everything of
    the task in it, and collects the task's files as the task's uid."""
    lim, uid = req["limits"], req["uid"]
    own_pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    check(libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS), "unshare")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    check(libc.sethostname(b"sandbox", 7), "sethostname")  # the host's name is none of its business
    size = lim["tmpfs_bytes"]
    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777")
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777")
    if not req["persistent_work"]:
        mount("tmpfs", WORK, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=0700,uid={uid},gid={uid}")
    fds = [os.open(f"/proc/self/ns/{name}", os.O_RDONLY | os.O_CLOEXEC) for name, _ in JOINED]
    go_r, go_w = os.pipe()
    ready_r, ready_w = os.pipe()
    init_pid = os.fork()
    if init_pid == 0:
        try:
            namespace_init(go_r, ready_w)
        finally:
            os._exit(1)
    try:
        # B is the one child of ours in its namespace: the collector (after B) is forked out here
        check(libc.setns(own_pid_ns, CLONE_NEWPID), "setns back")
        os.close(go_r)
        os.close(ready_w)
        fds.append(os.open(f"/proc/{init_pid}/ns/pid", os.O_RDONLY | os.O_CLOEXEC))
        fds.append(os.pidfd_open(init_pid))
        os.write(go_w, b"1")
        os.close(go_w)
        if os.read(ready_r, 1) != b"1":
            raise RuntimeError("the task's pid-namespace init failed")
        os.close(ready_r)
        send(sock, {"ready": True}, fds)
        for fd in fds:
            os.close(fd)
        try:
            end, _ = recv(sock)
        except (OSError, EOFError, ValueError):
            end = None  # the worker is gone: end the namespace all the same
    finally:
        start = time.monotonic()
        os.kill(init_pid, signal.SIGKILL)  # the pid namespace dies with its init: nothing survives
        os.waitpid(init_pid, 0)
    result = {"teardown": round(time.monotonic() - start, 6), "files": {}}
    if end is None:
        return
    if req["collect"]:
        # Everything of the task is dead now. A helper that dropped to the task's uid collects,
        # so no planted symlink can make a privileged process read for it; it is reaped before
        # the reply, so no process of the task's uid outlives the task.
        got = as_user(uid, bpf, lambda: gather_files(req["collect"], lim["collect_bytes"]))
        if "ok" in got:
            result["files"] = got["ok"]
        else:
            result["collect_error"] = got["error"]
    send(sock, result)


def zygote_loop(sock, bpf):
    """The namespace zygote: forked from the supervisor before any preload, so it stays a small
    interpreter; forks one A per task (a copy of it costs a fraction of a copy of the worker).
    It reaps each A as it exits (not with SIGCHLD ignored: the kernel would then drop their CPU
    time from this process's account, which benchmarks read)."""
    signal.signal(signal.SIGCHLD, lambda *_: reap_children())
    while True:
        try:
            req, fds = recv(sock)
        except (OSError, EOFError, ValueError):
            return
        if req is None:
            return
        if len(fds) == 1:
            pid = os.fork()
            if pid == 0:
                try:
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # A waits for its own children
                    close_fds_except({0, 1, 2, fds[0]})
                    task_sock = socket.socket(fileno=fds[0])
                    try:
                        namespace_supervisor(req, task_sock, bpf)
                    except BaseException:
                        try:
                            send(task_sock, {"ready": False, "error": traceback.format_exc()})
                        except OSError:
                            pass
                finally:
                    os._exit(0)
        for fd in fds:
            os.close(fd)


def reap_children():
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def start_zygote(bpf):
    """Fork the namespace zygote; our end of its socket. It holds nothing else of ours (the
    host's socket above all: the host must see EOF the moment this worker dies)."""
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        try:
            close_fds_except({0, 1, 2, theirs.fileno()})
            zygote_loop(theirs, bpf)
        finally:
            os._exit(0)
    theirs.close()
    return ours


class Namespaces:
    """One task's namespaces, made by an A that the zygote forked: their fds, A's socket, B's pidfd."""

    def __init__(self, zygote, msg):
        ours, theirs = socket.socketpair()
        self.sock, self.fds, self.init_fd = ours, {}, None
        try:
            send(zygote, {key: msg[key] for key in ("uid", "limits", "collect", "persistent_work")}, [theirs.fileno()])
        except OSError as exc:
            ours.close()
            raise TaskInfraError(f"the namespace zygote is gone: {exc}") from None
        finally:
            theirs.close()
        try:
            reply, fds = recv(ours)
        except (OSError, EOFError, ValueError):
            reply, fds = None, []
        if not reply or not reply.get("ready") or len(fds) != len(JOINED) + 2:
            if reply and reply.get("ready"):
                reply = {"error": f"{len(fds)} namespace fds came, not {len(JOINED) + 2}"}
            for fd in fds:
                os.close(fd)
            ours.close()
            raise TaskInfraError("could not make the task's namespaces: " + ((reply or {}).get("error") or "no reply"))
        self.fds = dict(zip([name for name, _ in JOINED] + ["pid"], fds))
        self.init_fd = fds[-1]

    def fork_task(self, own_pid_ns):
        """fork() this worker into the task's pid namespace (as pid 2, beside B); the child must
        still `join()` the others. The worker's own children stay in its namespace: it points
        pid_for_children back before returning."""
        check(libc.setns(self.fds["pid"], CLONE_NEWPID), "setns pid")
        try:
            pid = os.fork()
        except BaseException:
            self._restore(own_pid_ns)
            raise
        if pid != 0:
            self._restore(own_pid_ns)
            for fd in self.fds.values():
                os.close(fd)
            self.fds = {}
        return pid

    def join(self):
        """In the forked task: enter the mount, network, IPC and UTS namespaces A made."""
        for name, flag in JOINED:
            check(libc.setns(self.fds[name], flag), f"setns {name}")

    @staticmethod
    def _restore(own_pid_ns):
        if libc.setns(own_pid_ns, CLONE_NEWPID) != 0:  # never seen; a worker that cannot is no use
            os.write(2, b"sandbox: cannot return to the worker's own pid namespace\n")
            os._exit(1)

    def end(self):
        """Tell A the task is over; its reply (teardown time, files). Raises TaskInfraError if A
        failed or is gone, after killing B from here (the namespace must end regardless)."""
        reply = None
        try:
            send(self.sock, {"op": "end"})
            reply, _ = recv(self.sock)
        except (OSError, EOFError, ValueError):
            pass
        if reply is None or "teardown" not in reply:
            self.kill_init()
            self.close()
            raise TaskInfraError("the task's namespace supervisor failed before it ended the task: "
                                 + ((reply or {}).get("error") or "it died"))
        self.close()
        return reply

    def kill_init(self):
        """End the task's pid namespace without A: SIGKILL B and wait (up to a bound) until it is
        gone, which for a pid-namespace init means every process in the namespace is gone too
        (C must be reaped first: B's exit waits for that)."""
        try:
            signal.pidfd_send_signal(self.init_fd, signal.SIGKILL)
            select.select([self.init_fd], [], [], 5.0)
        except OSError:
            pass

    def close(self):
        for fd in self.fds.values():
            os.close(fd)
        self.fds = {}
        if self.init_fd is not None:
            os.close(self.init_fd)
            self.init_fd = None
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class TaskInfraError(Exception):
    """The sandbox's own machinery failed for this task (never the task's doing)."""


def supervise_task(msg, stdio, bpf, zygote, own_pid_ns):
    """In the worker: C forked into fresh namespaces, run under a wall clock; then A ends them.
    `stdio` holds the task's stdout/stderr fds; this closes them (and empties it) once C has them."""
    lim = msg["limits"]
    out_fd, err_fd = stdio
    marks = [("start", time.monotonic())]
    ns = Namespaces(zygote, msg)
    value_r = value_w = None
    try:
        marks.append(("ns_ready", time.monotonic()))
        if msg["mode"] == "call":
            value_r, value_w = os.pipe()
        start = time.monotonic()
        pid = ns.fork_task(own_pid_ns)
        if pid == 0:  # C: whatever happens here ends in exec or _exit, never back in the worker
            try:
                if value_r is not None:
                    os.close(value_r)
                ns.join()
                become_task(msg, out_fd, err_fd, value_w, bpf)
            except BaseException:
                report = ("sandbox: task setup failed:\n" + traceback.format_exc()).encode()
                for fd in (err_fd, 2):
                    try:
                        os.write(fd, report)
                        break
                    except OSError:
                        pass
            finally:
                os._exit(125)
        while stdio:
            os.close(stdio.pop())
        if value_w is not None:
            os.close(value_w)
            value_w = None
        status, usage, timed_out, value_buf, lost = wait_task(pid, ns, value_r, start + lim["wall_s"])
        duration = time.monotonic() - start
        marks.append(("task_done", time.monotonic()))
        if lost:
            raise TaskInfraError(lost)
        ended = ns.end()
        marks.append(("teardown", marks[-1][1] + ended["teardown"]))
        if value_r is not None:
            value_buf += read_all(value_r, MAX_VALUE_BYTES)
    finally:
        ns.close()
        for fd in (value_r, value_w):
            if fd is not None:
                os.close(fd)

    if os.WIFSIGNALED(status) and (os.WTERMSIG(status) == signal.SIGXCPU or (
            os.WTERMSIG(status) == signal.SIGKILL and usage.ru_utime + usage.ru_stime >= lim["cpu_s"])):
        timed_out = True  # its CPU-time budget ran out: a timeout as much as the wall clock's
    code = os.waitstatus_to_exitcode(status)
    result = {
        "exit_code": code if code >= 0 else None,
        "signal": -code if code < 0 else None,
        "timed_out": timed_out,
        "duration_s": duration,
        "files": ended.get("files") or {},
        # to the microsecond: rounded coarser, task_done could fall below duration_s, which it spans
        "timings": {name: round(t - marks[i][1], 6) for i, (name, t) in enumerate(marks[1:])},
    }
    if "collect_error" in ended:
        result["collect_error"] = ended["collect_error"]
    if msg["mode"] == "call":
        # The task's own code can write to this pipe too: take nothing from it but the value,
        # or it could forge its exit code, a timeout, or an infra error that spares it a penalty.
        try:
            payload = json.loads(value_buf[:MAX_VALUE_BYTES])
        except ValueError:
            payload = None
        payload = payload if isinstance(payload, dict) else {}
        result["value"] = payload.get("value")
        if isinstance(payload.get("value_error"), str):
            result["value_error"] = payload["value_error"][:1000]
    return result


def wait_task(pid, ns, value_r, deadline):
    """Wait for C to exit (killing it at the deadline), reading its value pipe meanwhile; a dead A
    ends the wait too (C and B are killed then). (wait status, rusage, timed out, value, lost)."""
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.register(ns.sock, select.POLLIN)  # A never speaks first: readable means it died
    if value_r is not None:
        poller.register(value_r, select.POLLIN)
    value_buf, timed_out, lost = bytearray(), False, None
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            events = dict(poller.poll(remaining * 1000))
            if pidfd in events:
                break
            if ns.sock.fileno() in events:
                lost = "the task's namespace supervisor died during the task"
                os.kill(pid, signal.SIGKILL)
                break
            if value_r in events:
                chunk = os.read(value_r, 1 << 16)
                if not chunk:
                    poller.unregister(value_r)
                elif len(value_buf) <= MAX_VALUE_BYTES:
                    value_buf += chunk
    finally:
        os.close(pidfd)
    _, status, usage = os.wait4(pid, 0)
    if lost:  # only now: B's exit waits until every process of its namespace is reaped, C too
        ns.kill_init()
    return status, usage, timed_out, value_buf, lost


def run_task(msg, fds, bpf, zygote, own_pid_ns):
    stdio = list(fds)
    try:
        return supervise_task(msg, stdio, bpf, zygote, own_pid_ns)
    except TaskInfraError as exc:
        return {"infra_error": str(exc)}
    except BaseException:
        return {"infra_error": "task supervisor failed: " + traceback.format_exc()}
    finally:
        for fd in stdio:  # still ours only if a step before the fork failed
            os.close(fd)


def session_job(msg, uid, bpf):
    if msg["op"] == "write":
        return as_user(uid, bpf, lambda: write_files(msg["files"]) or True)
    if msg["op"] == "tree":
        return as_user(uid, bpf, lambda: read_tree(msg["skip"], msg["max_entries"], msg["max_bytes"], msg["max_file_bytes"]))
    return as_user(uid, bpf, lambda: read_paths(msg["paths"], msg["limit"]))


def shown_name(rel):
    """A path as text a person can read: bytes that are not UTF-8 as \\xNN escapes."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def read_tree(skip, max_entries, max_bytes, max_file_bytes):
    """Every regular file under the work dir, one directory at a time, never through a link:
    {"files": {path: base64}, "left_out": [[path, why]], "over": why the tree was not read in full}.

    Everything that is not read is named in `left_out`: links, FIFOs, sockets, devices, names that
    are not UTF-8, files of `max_file_bytes` or more, files and directories that cannot be read (their
    mode). Directories named in `skip` (caches) are neither walked nor named. A tree of more than
    `max_entries` entries or `max_bytes` bytes is not read in full: `over` says which limit, and
    nothing of it may be graded as the whole tree."""
    files, left, total, seen = {}, [], 0, 0

    def over(why):
        return {"files": {}, "left_out": left[:200], "over": why}

    try:
        root = os.open(WORK, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        return {"files": {}, "left_out": [[".", f"a directory that cannot be read ({os.strerror(exc.errno)})"]], "over": None}
    todo = [(root, "")]
    try:
        while todo:
            fd, prefix = todo.pop()
            try:
                for name in sorted(os.listdir(fd)):
                    rel = prefix + name
                    try:
                        mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
                    except OSError as exc:
                        left.append([shown_name(rel), f"cannot be looked at ({os.strerror(exc.errno)})"])
                        continue
                    if stat.S_ISDIR(mode) and name in skip:
                        continue
                    seen += 1
                    if seen > max_entries:
                        return over(f"the work tree holds more than {max_entries} files and directories "
                                    f"(caches not counted): it is not read, so not graded")
                    try:
                        name.encode("utf-8")
                    except UnicodeEncodeError:
                        left.append([shown_name(rel), "a name that is not UTF-8"])
                        continue
                    if stat.S_ISDIR(mode):
                        try:
                            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
                        except OSError as exc:
                            left.append([rel + "/", f"a directory that cannot be read ({os.strerror(exc.errno)})"])
                            continue
                        todo.append((inner, rel + "/"))
                        continue
                    if not stat.S_ISREG(mode):
                        left.append([rel, kind_of(mode).replace(" (named pipe)", "")])
                        continue
                    try:
                        ffd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd)
                    except OSError as exc:
                        left.append([rel, f"a file that cannot be read ({os.strerror(exc.errno)})"])
                        continue
                    with os.fdopen(ffd, "rb") as f:
                        if not stat.S_ISREG(os.fstat(ffd).st_mode):
                            left.append([rel, "not a regular file"])
                            continue
                        data = f.read(max_file_bytes)
                    if len(data) >= max_file_bytes:
                        left.append([rel, f"{max_file_bytes >> 20} MB or more" if max_file_bytes >= 1 << 20
                                     else f"{max_file_bytes} bytes or more"])
                        continue
                    total += len(data)
                    if total > max_bytes:
                        return over(f"the work tree's files hold more than {max_bytes} bytes: it is not read, so not graded")
                    files[rel] = base64.b64encode(data).decode()
            except OSError as exc:
                left.append([prefix or ".", f"a directory that cannot be read ({os.strerror(exc.errno)})"])
            finally:
                os.close(fd)
    finally:
        for fd, _ in todo:
            os.close(fd)
    return {"files": files, "left_out": left, "over": None}


def read_paths(paths, limit):
    """The regular files among `paths`; anything else (missing, a FIFO, a socket, a device, a
    directory, a symlink, a path through a symlink) is left out and never opened in a way that
    could block or follow it."""
    out, total = {}, 0
    for name in paths:
        rel = safe_relpath(name)
        try:
            parent, leaf = parent_dir(rel, create=False)
        except (OSError, ValueError):  # a parent missing, a link or not a directory
            continue
        try:
            fd = os.open(leaf, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=parent)
        except OSError:  # missing, a symlink (ELOOP), a socket (ENXIO), ...
            continue
        finally:
            os.close(parent)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            continue
        with os.fdopen(fd, "rb") as f:
            data = f.read(limit - total + 1)
        if total + len(data) > limit:
            raise ValueError(f"files exceed {limit} bytes")
        total += len(data)
        out[rel] = base64.b64encode(data).decode()
    return out


def main():
    sock = socket.socket(fileno=int(sys.argv[1]))
    init, _ = recv(sock)
    uid, bpf = init["uid"], base64.b64decode(init["seccomp"])
    try:
        occupy_stdio()
        zygote = start_zygote(bpf)  # before the preload: it must stay a small interpreter
        own_pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        sys.path.extend(p for p in init["sys_path"] if p not in sys.path)
        for name in init["preload"]:
            __import__(name)
            if name == "pytest":  # pytest.main imports its ~40 builtin plugins on every run
                from _pytest.config import default_plugins

                for plugin in default_plugins:
                    try:
                        __import__("_pytest." + plugin)
                    except ImportError:
                        pass
        import gc

        gc.collect()
        gc.freeze()  # tasks' collections then skip the preloaded objects: far fewer copy-on-write faults
        if init["persistent_work"]:
            os.chown(WORK, uid, uid)  # bwrap made it 0700
    except BaseException:
        send(sock, {"ready": False, "error": traceback.format_exc()})
        return
    send(sock, {"ready": True})
    while True:
        msg, fds = recv(sock)
        if msg is None or msg["op"] == "exit":
            return
        if msg["op"] == "task":
            send(sock, run_task(msg, fds, bpf, zygote, own_pid_ns))
        else:
            send(sock, session_job(msg, uid, bpf))


if __name__ == "__main__":
    main()
