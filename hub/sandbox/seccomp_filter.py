"""The seccomp filter every sandboxed task runs under, compiled to BPF with libseccomp.

Built once on the host (pyseccomp: ctypes bindings to libseccomp) and handed to the in-sandbox
supervisor as raw BPF, which installs it in the task process just before the model's code
starts. Default allow, deny what a sandboxed program has no business doing: changing the
mount table or namespaces (nested user namespaces included), tracing, kernel modules, keyrings,
bpf, perf, io_uring, userfaultfd, and faking terminal input (TIOCSTI). Syscalls of any other
architecture (int 0x80 tricks) kill the process: libseccomp's default for a foreign arch.
"""

from __future__ import annotations

import errno
import functools
import tempfile

from .result import SandboxUnavailable

DENIED = (
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "fanotify_init",
    "swapon", "swapoff", "reboot", "syslog", "acct", "quotactl", "quotactl_fd",
    "vhangup", "iopl", "ioperm", "uselib", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
)
CLONE_NAMESPACE_FLAGS = (
    0x10000000,  # CLONE_NEWUSER
    0x00020000,  # CLONE_NEWNS
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
    0x08000000,  # CLONE_NEWIPC
    0x04000000,  # CLONE_NEWUTS
    0x02000000,  # CLONE_NEWCGROUP
    0x00000080,  # CLONE_NEWTIME
)
DENIED_IOCTLS = (0x5412, 0x541C)  # TIOCSTI, TIOCLINUX


@functools.lru_cache(maxsize=1)
def filter_bpf() -> bytes:
    try:
        import pyseccomp as sc
    except ImportError as exc:  # pragma: no cover - dependency missing
        raise SandboxUnavailable("pyseccomp (libseccomp bindings) is required to build the sandbox's seccomp filter") from exc
    f = sc.SyscallFilter(sc.ALLOW)
    eperm = sc.ERRNO(errno.EPERM)
    for name in DENIED:
        try:
            f.add_rule(eperm, name)
        except Exception:  # a syscall this libseccomp does not know: nothing to deny
            pass
    for flag in CLONE_NAMESPACE_FLAGS:
        f.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory that BPF cannot read: say "not implemented" so libc
    # falls back to clone(), whose flags the rules above can see.
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    for request in DENIED_IOCTLS:
        f.add_rule(eperm, "ioctl", sc.Arg(1, sc.MASKED_EQ, 0xFFFFFFFF, request))
    with tempfile.TemporaryFile() as out:
        f.export_bpf(out)
        out.seek(0)
        return out.read()
