"""Host side of one bwrap sandbox running the supervisor: start it, send tasks, read results.

Used three ways: a cold run (one sandbox, one task, closed), a warm worker (preloaded, many
tasks in turn) and a session (one persistent work dir, many runs).
"""

from __future__ import annotations

import base64
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .. import tracing
from . import spans, supervisor as _supervisor_module
from .bwrap import bwrap_argv, bwrap_path, module_dirs, sandbox_env, sandbox_sys_path, start_failure
from .cgroup import MemoryCgroup
from .profile import Profile
from .result import RunResult, SandboxUnavailable
from .seccomp_filter import filter_bpf
from .supervisor import recv, safe_relpath, send
from .uids import UidLease

_spawner: tuple[int, ThreadPoolExecutor] | None = None
_spawner_lock = threading.Lock()


def spawner() -> ThreadPoolExecutor:
    """The one thread that forks every bwrap of this process (re-made in a forked child)."""
    global _spawner
    with _spawner_lock:
        if _spawner is None or _spawner[0] != os.getpid():
            _spawner = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="rlhub-sandbox-spawner"))
        return _spawner[1]


SUPERVISOR_SOURCE = Path(_supervisor_module.__file__).read_text()
STARTUP_TIMEOUT_S = 180.0  # a preload such as CadQuery takes seconds; a hung one must not hang us
GRACE_S = 5.0  # beyond the task's own wall clock, for set-up, tear-down and collection
SUPERVISOR_OVERHEAD = 64 << 20  # memory the supervisor itself may use on top of the task's
PRELOAD_ALLOWANCE = 4 << 30  # a warm worker's imports, before its first task
MEMORY_ERROR_MARKS = ("MemoryError", "std::bad_alloc", "Cannot allocate memory", "out of memory")


def check_available() -> None:
    """Raise SandboxUnavailable unless this machine can run the sandbox as designed."""
    bwrap_path()
    if os.geteuid() != 0:
        raise SandboxUnavailable(
            "the sandbox drops each task to its own unprivileged uid, which needs root "
            "(as CI and GPU nodes run); refusing to run model output with weaker isolation"
        )


class SandboxProcess:
    supervisor_source = SUPERVISOR_SOURCE  # benchmarks start an earlier supervisor beside this one

    def __init__(
        self,
        profile: Profile,
        *,
        preload: tuple[str, ...] = (),
        persistent_work: bool = False,
        extra_modules: tuple[str, ...] = (),
    ) -> None:
        check_available()
        self.profile = profile
        self.persistent_work = persistent_work
        self.tasks_done = 0
        self.lease = UidLease()
        self.cgroup = MemoryCgroup.create()
        self._lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        try:
            self._start(preload, extra_modules)
        except BaseException:
            self.close()
            raise

    @property
    def uid(self) -> int:
        return self.lease.uid

    @property
    def memory_limit(self) -> str:
        return "cgroup" if self.cgroup else "rlimit"

    def _start(self, preload: tuple[str, ...], extra_modules: tuple[str, ...]) -> None:
        ours, theirs = socket.socketpair()
        self.sock = ours
        extra_dirs = module_dirs(preload + extra_modules)
        python = [sys.executable, "-I"] + ([] if preload or extra_modules else ["-S"])
        argv = bwrap_argv(self.profile, persistent_work=self.persistent_work, extra_dirs=extra_dirs)
        argv += ["--", *python, "-c", self.supervisor_source, str(theirs.fileno())]
        if self.cgroup:
            # Only trusted imports run before the first task (which sets its own limit), but a
            # preload such as CadQuery needs far more than a task's budget on top.
            startup = PRELOAD_ALLOWANCE if preload or extra_modules else 0
            self.cgroup.set_limit((self.profile.memory_mb << 20) + SUPERVISOR_OVERHEAD + startup)
            # Join the cgroup before bwrap forks; shield the supervisor from the OOM killer where we
            # may (needs CAP_SYS_RESOURCE; the task raises its own score to 1000 regardless).
            argv = ["/bin/sh", "-c", 'echo $$ > "$0" || exit 125; (echo -1000 > /proc/self/oom_score_adj) 2>/dev/null; exec "$@"',
                    self.cgroup.procs_file, *argv]
        self.errlog = tempfile.TemporaryFile()
        # bwrap --die-with-parent fires when the *thread* that forked it exits; pool workers
        # outlive the request threads, so every sandbox is forked by one long-lived thread.
        self.proc = spawner().submit(
            subprocess.Popen, argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errlog,
            pass_fds=[theirs.fileno()], env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"}, start_new_session=True,
        ).result()
        theirs.close()
        send(self.sock, {
            "uid": self.uid,
            "seccomp": base64.b64encode(filter_bpf()).decode(),
            "preload": list(preload + extra_modules),  # trusted: the function's module too
            "sys_path": sandbox_sys_path(),
            "persistent_work": self.persistent_work,
        })
        reply = self._reply_within(STARTUP_TIMEOUT_S)
        if not reply or not reply.get("ready"):
            detail = (reply or {}).get("error") or self._errlog_tail() or "no reply"
            raise SandboxUnavailable(f"the sandbox did not start: {start_failure(detail.strip())}")
        if self.cgroup:
            self._baseline = self.cgroup.usage()

    def _errlog_tail(self, n: int = 4000) -> str:
        try:
            if self.proc is not None and self.proc.poll() is None:
                time.sleep(0.05)
            self.errlog.seek(0)
            return self.errlog.read()[-n:].decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def run_task(
        self,
        profile: Profile,
        *,
        argv: list[str] | None = None,
        func: str | None = None,
        args: dict[str, Any] | None = None,
        files: dict[str, str | bytes] | None = None,
        stdin: bytes | str = b"",
        env: dict[str, str] | None = None,
    ) -> RunResult:
        span = spans.run_span(profile, "call" if func else "exec")
        try:
            with self._lock:
                result = self._run_task(profile, argv, func, args, files, stdin, env)
        except BaseException as exc:
            span.record_exception(exc)
            tracing.end(span)
            raise
        spans.finish(span, result)
        return result

    def _run_task(self, profile, argv, func, args, files, stdin, env) -> RunResult:
        if isinstance(stdin, str):
            stdin = stdin.encode()
        for name in files or {}:
            safe_relpath(name)  # raises ValueError for absolute paths and `..`
        memory = profile.memory_mb << 20
        if self.cgroup:  # the task gets memory_mb on top of what the (warm) supervisor holds now
            self.cgroup.set_limit(self.cgroup.usage() + memory + (16 << 20))
            ooms_before = self.cgroup.oom_kills()
        msg = {
            "op": "task",
            "mode": "call" if func else "exec",
            "argv": list(argv or []),
            "func": func,
            "args": args or {},
            "files": {k: base64.b64encode(v.encode() if isinstance(v, str) else v).decode() for k, v in (files or {}).items()},
            "stdin": base64.b64encode(stdin).decode(),
            "env": sandbox_env(env),
            "uid": self.uid,
            "collect": list(profile.collect),
            "persistent_work": self.persistent_work,
            "limits": {
                "wall_s": profile.wall_timeout_s,
                "cpu_s": profile.cpu_s,
                "file_size": profile.file_size_mb << 20,
                "open_files": profile.open_files,
                "max_procs": profile.max_procs,
                "tmpfs_bytes": profile.tmpfs_mb << 20,
                "collect_bytes": profile.tmpfs_mb << 20,
                "address_space": None if self.cgroup else memory,
            },
        }
        result = RunResult(memory_limit=self.memory_limit)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            send(self.sock, msg, [out_w, err_w])
        except OSError as exc:
            for fd in (out_r, out_w, err_r, err_w):
                os.close(fd)
            result.infra_error = f"sandbox supervisor is gone: {exc}; {self._errlog_tail()}"
            return result
        os.close(out_w)
        os.close(err_w)
        reply, out, err = self._collect(out_r, err_r, profile)
        result.stdout, result.stdout_truncated = out.text(), out.truncated
        result.stderr, result.stderr_truncated = err.text(), err.truncated
        self.tasks_done += 1
        if reply is None:
            self.kill()
            result.infra_error = f"sandbox supervisor did not answer: {self._errlog_tail()}".strip()
            return result
        if reply.get("infra_error"):
            result.infra_error = reply["infra_error"]
            return result
        result.exit_code = reply["exit_code"]
        result.signal = reply["signal"]
        result.timed_out = reply["timed_out"]
        result.duration_s = reply["duration_s"]
        result.timings = reply.get("timings") or {}
        result.files = {k: base64.b64decode(v) for k, v in reply.get("files", {}).items()}
        result.value = reply.get("value")
        if self.cgroup:
            result.oom = self.cgroup.oom_kills() > ooms_before
        else:
            result.oom = any(mark in result.stderr for mark in MEMORY_ERROR_MARKS)
        return result

    def _collect(self, out_r: int, err_r: int, profile: Profile):
        """Read the result and both pipes together (a task may fill a pipe before it exits)."""
        out, err = _Capped(profile.output_bytes), _Capped(profile.output_bytes)
        streams = {out_r: out, err_r: err}
        sel = selectors.DefaultSelector()
        for fd in streams:
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ)
        sel.register(self.sock, selectors.EVENT_READ)
        deadline = time.monotonic() + profile.wall_timeout_s + GRACE_S
        reply, have_reply = None, False
        try:
            while (not have_reply or streams) and time.monotonic() < deadline:
                for key, _ in sel.select(max(0.0, deadline - time.monotonic())):
                    if key.fileobj is self.sock:
                        sel.unregister(self.sock)
                        reply = self._reply_within(max(1.0, deadline - time.monotonic()))
                        have_reply = True
                        if reply is None:  # supervisor gone: its processes died with it
                            deadline = min(deadline, time.monotonic() + 1.0)
                        continue
                    fd = key.fileobj
                    try:
                        chunk = os.read(fd, 1 << 16)
                    except BlockingIOError:
                        continue
                    if chunk:
                        streams[fd].feed(chunk)
                    else:
                        sel.unregister(fd)
                        del streams[fd]
        finally:
            sel.close()
            os.close(out_r)
            os.close(err_r)
        return reply, out, err

    def _reply_within(self, timeout: float) -> dict[str, Any] | None:
        """The supervisor's next message, or None if it is gone, garbled or late."""
        self.sock.settimeout(timeout)
        try:
            return recv(self.sock)[0]
        except (OSError, EOFError, ValueError):
            return None
        finally:
            self.sock.settimeout(None)

    def request(self, msg: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """A session job (write/read files) answered by the supervisor."""
        with self._lock:
            send(self.sock, msg)
            self.sock.settimeout(timeout)
            try:
                reply, _ = recv(self.sock)
            finally:
                self.sock.settimeout(None)
            if reply is None:
                raise RuntimeError("sandbox supervisor is gone")
            return reply

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()

    def close(self) -> None:
        """Stop the sandbox: no process of it survives, its filesystems vanish with it. From any
        thread: a task or request in flight is killed with the sandbox (its caller gets an infra
        error at once), and the uid, lock and cgroup are released only after it has returned."""
        while not self._lock.acquire(timeout=0.05):
            self.kill()
        try:
            self._close()
        finally:
            self._lock.release()

    def _close(self) -> None:
        if getattr(self, "sock", None) is not None:
            try:
                send(self.sock, {"op": "exit"})
            except OSError:
                pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "sock", None) is not None:
            self.sock.close()
            self.sock = None
        if self.cgroup:
            self.cgroup.destroy()
            self.cgroup = None
        if getattr(self, "errlog", None) is not None:
            self.errlog.close()
            self.errlog = None
        self.lease.release()


class _Capped:
    """Keeps the first `cap` bytes of a stream and drains (discards) the rest."""

    def __init__(self, cap: int) -> None:
        self.cap, self.buf, self.truncated = cap, bytearray(), False

    def feed(self, chunk: bytes) -> None:
        room = self.cap - len(self.buf)
        if len(chunk) > room:
            self.truncated = True
        if room > 0:
            self.buf += chunk[:room]

    def text(self) -> str:
        return self.buf.decode("utf-8", "replace")
