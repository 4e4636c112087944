"""The sandbox: the only way rlhub runs model output (bubblewrap, warm workers, sessions).

    sb = get_sandbox()       # process-wide, thread-safe; SandboxUnavailable if bwrap/root missing
    r = sb.run(profile, ["python3", "main.py"], files={"main.py": "print(1)"}, stdin=b"")   # cold
    r = sb.call(profile, "pkg.runner:run_tests", files={...}, args={...})                   # warm
    with sb.session(profile) as s:                                                          # multi-turn
        s.write_files({"a.py": "..."}); r = s.run(["python3", "a.py"]); s.read_files(["out.txt"])

What a task sees: the interpreter and its site-packages (read-only; installed rlhub packages
masked), a few /etc files, `profile.mounts` (read-only; tasks run as an unprivileged uid,
so a mount must be world-readable on the host), fresh sized tmpfs on /sandbox (its cwd,
HOME), /tmp and /dev/shm, its own /proc; no network, a hostname of "sandbox", a clean env
(PATH, HOME, LANG, PYTHONDONTWRITEBYTECODE, PYTEST_DISABLE_PLUGIN_AUTOLOAD=1, plus `env=`).

Who it is: an unprivileged uid leased per live sandbox (uids.py), no capabilities (bounding set
included), no-new-privs, a seccomp filter (seccomp_filter.py), its own session, rlimits for CPU,
file size, open files and processes, memory bounded by a cgroup (or RLIMIT_AS where the machine
has no writable memory cgroup: `RunResult.memory_limit` says which).

How (supervisor.py has the details): bwrap starts a small trusted supervisor, which forks a
*namespace zygote* before it imports anything. Per task, a fork of the zygote unshares fresh
namespaces, mounts sized tmpfs and starts the pid namespace's init; the supervisor forks the task
into them (only the task is a copy of the warm worker). When the task's main process exits or its
wall clock runs out, its pid namespace is torn down (every process it started dies) and its
filesystems vanish. A warm worker is the same supervisor having imported `profile.preload`
(imports only: CadQuery geometry must not run before fork).

`call` runs a TRUSTED function in the same process as the model code it runs: its return value
is only as trustworthy as that process. Verifiers add their own defences (sentinels, reports
made outside the candidate process).

`RunResult.infra_error` set means the sandbox failed, not the model: never charge the model.
`hostile.py` is the hostile-program suite, reusable by every verifier's tests.
"""

from .profile import DEFAULT_PROFILES, Mount, Profile
from .result import RunResult, SandboxUnavailable
from .sandbox import Sandbox, get_sandbox
from .session import Session

__all__ = [
    "DEFAULT_PROFILES", "Mount", "Profile", "RunResult", "Sandbox", "SandboxUnavailable", "Session", "get_sandbox",
]
