"""What a sandboxed run returns, and the error raised when no sandbox can be had."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


class SandboxUnavailable(RuntimeError):
    """bwrap (or a privilege it needs) is missing. Model output is then never run at all:
    there is deliberately no unsandboxed fallback."""


@dataclass
class RunResult:
    """Outcome of one sandboxed run (cold `run`, warm `call` or a session's `run`).

    `timed_out`: the wall clock or the CPU-time budget (profile.cpu_s) ran out; `signal` says
    which signal ended it then (SIGKILL, SIGXCPU). `infra_error` set means the sandbox itself failed (not the model's code): callers must
    not charge the model for it. `value` is what a warm `call`'s function returned; that
    function shares its process with the model's code, so `value` is only as trustworthy as
    that process (verifiers add their own defences: sentinels, reports made outside it).
    `timings` are the sandbox's own steps, in seconds, as its supervisor measured them:
    `ns_ready` (fresh namespaces, filesystems and the pid namespace's init), `task_done` (the
    task, from its fork to its exit) and `teardown` (ending the pid namespace); empty when the
    sandbox failed before its supervisor answered (`infra_error`).
    """

    exit_code: int | None = None
    signal: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    timed_out: bool = False
    oom: bool = False
    duration_s: float = 0.0
    files: dict[str, bytes] = field(default_factory=dict)
    value: Any = None
    infra_error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    memory_limit: Literal["cgroup", "rlimit"] = "rlimit"

    @property
    def ok(self) -> bool:
        """The program ran to completion and exited 0."""
        return self.exit_code == 0 and not self.timed_out and self.infra_error is None
