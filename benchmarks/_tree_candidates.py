"""Runs INSIDE a bwrap sandbox (as bench_process_tree.py starts it): candidate process trees
for one sandboxed task, timed against each other in the same process, interleaved.

Standard library only. argv: <json options>. Prints one JSON object on stdout.

Every candidate gives the task (C, here a process that joins its namespaces and exits) fresh
mount/pid/ipc/net/uts namespaces with sized tmpfs on /tmp and /sandbox, a pid-1 init that
mounts /proc and reaps, and tears the pid namespace down by killing that init. They differ in
which processes are copies of this (big, preloaded) interpreter:

  fork3   the design until now: A (supervisor), B (init) and C (task) are forks of the worker
  spawn   A and B are a fresh small interpreter (posix_spawn, no copy of the worker); C is a fork
          of the worker that joins A's namespaces with setns
  zygote  A and B are forks of a small helper forked before the preload; C as in spawn
  floor   C alone, no namespaces: one fork and exit of the worker (what no design can avoid)
"""

import ctypes
import json
import os
import resource
import signal
import socket
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18
NS_FILES = (("mnt", CLONE_NEWNS), ("net", CLONE_NEWNET), ("ipc", CLONE_NEWIPC), ("uts", CLONE_NEWUTS))

HELPER = r'''
import ctypes, os, signal, socket
libc = ctypes.CDLL(None, use_errno=True)

def check(ret, what):
    if ret != 0:
        raise OSError(ctypes.get_errno(), what)

def mount(src, target, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None
    check(libc.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), "mount " + target)

def namespaces(sock):
    """A: fresh namespaces and tmpfs; B: pid 1. Hands C the namespaces as fds; ends B on request."""
    check(libc.unshare(0x00020000 | 0x20000000 | 0x08000000 | 0x40000000 | 0x04000000), "unshare")
    mount(None, "/", None, 16384 | (1 << 18))
    for target in ("/tmp", "/sandbox"):
        mount("tmpfs", target, "tmpfs", 2 | 4, "size=67108864,mode=1777")
    fds = [os.open(f"/proc/self/ns/{name}", os.O_RDONLY) for name in ("mnt", "net", "ipc", "uts")]
    go_r, go_w = os.pipe()
    r, w = os.pipe()
    init = os.fork()
    if init == 0:
        os.closerange(3, go_r)
        os.closerange(go_r + 1, w)
        os.closerange(w + 1, 1 << 16)
        os.read(go_r, 1)  # until the helper has opened its pid namespace through the old /proc
        mount("proc", "/proc", "proc", 2 | 4 | 8)
        os.write(w, b"1")
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
        while True:
            try:
                while os.waitpid(-1, os.WNOHANG)[0] > 0:
                    pass
            except ChildProcessError:
                pass
            signal.sigwait({signal.SIGCHLD})
    fds.insert(0, os.open(f"/proc/{init}/ns/pid", os.O_RDONLY))
    os.write(go_w, b"1")
    os.read(r, 1)
    socket.send_fds(sock, [b"r"], fds)
    sock.recv(1)
    os.kill(init, signal.SIGKILL)
    os.waitpid(init, 0)
    sock.send(b"d")
'''
exec(HELPER)


def own_ns(name):
    return os.open(f"/proc/self/ns/{name}", os.O_RDONLY)


def task_in(fds, own_pid):
    """C: fork the worker into the namespaces the helper made, as the real task would be."""
    check(libc.setns(fds[0], CLONE_NEWPID), "setns pid")
    try:
        pid = os.fork()
        if pid == 0:
            for fd, (_, flag) in zip(fds[1:], NS_FILES):
                check(libc.setns(fd, flag), "setns")
            os.chdir("/sandbox")
            os._exit(0 if os.getpid() == 2 else 3)
    finally:
        check(libc.setns(own_pid, CLONE_NEWPID), "setns back")
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"task failed: {status}")


def fork3(ctx):
    a = os.fork()
    if a == 0:
        try:
            check(libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS), "unshare")
            mount(None, "/", None, MS_REC | MS_PRIVATE)
            for target in ("/tmp", "/sandbox"):
                mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, "size=67108864,mode=1777")
            r, w = os.pipe()
            init = os.fork()
            if init == 0:
                mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
                os.write(w, b"1")
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
                while True:
                    signal.sigwait({signal.SIGCHLD})
            os.read(r, 1)
            c = os.fork()
            if c == 0:
                os.chdir("/sandbox")
                os._exit(0)
            os.waitpid(c, 0)
            os.kill(init, signal.SIGKILL)
            os.waitpid(init, 0)
        finally:
            os._exit(0)
    os.waitpid(a, 0)


def with_helper(ctx, start):
    ours, theirs = socket.socketpair()
    handle = start(theirs)
    theirs.close()
    _, fds, _, _ = socket.recv_fds(ours, 1, 8)
    try:
        task_in(fds, ctx["own_pid"])
    finally:
        for fd in fds:
            os.close(fd)
    ours.send(b"e")
    ours.recv(1)
    ours.close()
    if handle is not None:
        os.waitpid(handle, 0)


def spawn(ctx):
    def start(theirs):
        os.set_inheritable(theirs.fileno(), True)
        src = HELPER + f"\nnamespaces(socket.socket(fileno={theirs.fileno()}))\n"
        return os.posix_spawn(sys.executable, [sys.executable, "-I", "-S", "-c", src], {})
    with_helper(ctx, start)


def zygote(ctx):
    def start(theirs):
        socket.send_fds(ctx["zygote"], [b"n"], [theirs.fileno()])
        return None
    with_helper(ctx, start)


def floor(ctx):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def zygote_loop(sock):
    """The small helper: forks one namespace helper per request; on b"c", reaps every child
    and reports its CPU with theirs (so the zygote's share is counted too)."""
    while True:
        msg, fds, _, _ = socket.recv_fds(sock, 1, 1)
        if not msg:
            os._exit(0)
        if msg == b"c":
            try:
                while True:
                    os.waitpid(-1, 0)
            except ChildProcessError:
                pass
            sock.send(json.dumps(cpu_seconds()).encode())
            continue
        pid = os.fork()
        if pid == 0:
            sock.close()
            try:
                namespaces(socket.socket(fileno=fds[0]))
            finally:
                os._exit(0)
        os.close(fds[0])
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass


def cpu_seconds():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def tree_cpu(ctx):
    """CPU seconds of this worker, the zygote and every process either has reaped."""
    ctx["zygote"].send(b"c")
    return cpu_seconds() + json.loads(ctx["zygote"].recv(64))


def main():
    opts = json.loads(sys.argv[1])
    zsock, theirs = socket.socketpair()
    zpid = os.fork()  # before the preload: the zygote stays a small interpreter
    if zpid == 0:
        zsock.close()
        zygote_loop(theirs)
    theirs.close()
    t = time.perf_counter()
    for name in opts["preload"]:
        __import__(name)
    preload_s = time.perf_counter() - t
    import gc

    gc.collect()
    gc.freeze()
    ctx = {"zygote": zsock, "own_pid": own_ns("pid")}
    candidates = {"fork3": fork3, "spawn": spawn, "zygote": zygote, "floor": floor}
    candidates = {k: v for k, v in candidates.items() if k in opts.get("only", candidates)}
    walls = {k: [] for k in candidates}
    cpus = {k: 0.0 for k in candidates}
    for name, fn in candidates.items():  # warm-up, and proof that each works
        fn(ctx)
    for _ in range(opts["rounds"]):
        for name, fn in candidates.items():
            before = tree_cpu(ctx)
            for _ in range(opts["batch"]):
                t = time.perf_counter()
                fn(ctx)
                walls[name].append(time.perf_counter() - t)
            cpus[name] += tree_cpu(ctx) - before
    statm = open("/proc/self/statm").read().split()
    maps = sum(1 for _ in open("/proc/self/maps"))
    zsock.close()
    os.waitpid(zpid, 0)
    print(json.dumps({"walls": walls, "cpu": cpus, "preload_s": preload_s, "maps": maps,
                      "rss_mb": int(statm[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20}))


main()
