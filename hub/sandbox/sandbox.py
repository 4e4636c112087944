"""`Sandbox`: the one way model output runs in rlhub (cold runs, warm calls, sessions)."""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

from .pool import WarmPool
from .process import SandboxProcess, check_available
from .profile import Profile
from .result import RunResult, SandboxUnavailable
from .session import Session


class Sandbox:
    """Thread-safe. `pool_size` bounds the warm workers of each preload set (default: cores)."""

    def __init__(self, pool_size: int | None = None) -> None:
        check_available()
        self.pool = WarmPool(pool_size or os.cpu_count() or 1)
        self._closed = False
        self._pid = os.getpid()

    def run(
        self,
        profile: Profile,
        argv: list[str],
        files: dict[str, str | bytes] | None = None,
        stdin: bytes | str = b"",
        env: dict[str, str] | None = None,
    ) -> RunResult:
        """Run `argv` in a fresh sandbox (cwd: a fresh work dir holding `files`)."""
        if not argv:
            raise ValueError("argv must name a program")
        try:
            box = SandboxProcess(profile)
        except SandboxUnavailable as exc:  # this one sandbox failed to start: not the model's doing
            return RunResult(infra_error=str(exc))
        try:
            return box.run_task(profile, argv=list(argv), files=files, stdin=stdin, env=env)
        finally:
            box.close()

    def call(
        self,
        profile: Profile,
        func: str,
        files: dict[str, str | bytes] | None = None,
        args: dict[str, Any] | None = None,
        stdin: bytes | str = b"",
        env: dict[str, str] | None = None,
    ) -> RunResult:
        """Call a TRUSTED `"package.module:function"` in a child forked from a warm worker that
        has imported `profile.preload`; `function(**args)` comes back as `value`.

        The function runs in the same process as whatever model code it runs, so `value` is only
        as trustworthy as that process: verifiers should confirm what matters from outside it.
        """
        module, sep, name = func.partition(":")
        if not sep or not module or not name:
            raise ValueError(f"func must look like 'package.module:function', got {func!r}")
        try:
            return self.pool.call(profile, func, files=files, args=args, stdin=stdin, env=env)
        except SandboxUnavailable as exc:  # a worker failed to start (e.g. a preload import failed)
            return RunResult(infra_error=str(exc))

    def session(self, profile: Profile) -> Session:
        """A persistent work dir for multi-turn episodes; each run is a fresh sandboxed process."""
        return Session(profile)

    def warm(self, profile: Profile, func: str | None = None) -> None:
        """Start the pool's workers for this profile now (e.g. to hide CadQuery's import)."""
        self.pool.prewarm(profile, func)

    def shutdown(self) -> None:
        if os.getpid() != self._pid:  # in a forked child: the workers belong to the parent
            return
        if not self._closed:
            self._closed = True
            self.pool.shutdown()


_sandbox: Sandbox | None = None
_sandbox_pid = 0
_sandbox_lock = threading.Lock()


def get_sandbox() -> Sandbox:
    """The process-wide sandbox, created (and checked to work) on first use."""
    global _sandbox, _sandbox_pid
    with _sandbox_lock:
        if _sandbox is None or _sandbox_pid != os.getpid():  # a forked child must not share workers
            _sandbox = None
            sandbox = Sandbox()
            probe = sandbox.run(Profile(name="probe", wall_timeout_s=20), ["/bin/true"])
            if probe.infra_error or probe.exit_code != 0:
                raise SandboxUnavailable(
                    f"bwrap is installed but a sandboxed /bin/true failed: {probe.infra_error or probe.stderr}"
                )
            _sandbox, _sandbox_pid = sandbox, os.getpid()
            atexit.register(sandbox.shutdown)
        return _sandbox
