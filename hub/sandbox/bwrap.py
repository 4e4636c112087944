"""The bwrap command line: what a sandbox can see, and which privileges its supervisor keeps."""

from __future__ import annotations

import functools
import os
import shutil
import site
import sys

from .profile import Profile
from .result import SandboxUnavailable

# The supervisor (trusted, ours) needs these to build each task's namespaces and drop to the
# slot's uid; the task itself ends up with none (see supervisor.drop_privileges).
SUPERVISOR_CAPS = ("CAP_SYS_ADMIN", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP", "CAP_CHOWN", "CAP_KILL")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Only what programs need from /etc: no shadow, no ssh keys, no machine credentials.
ETC_ENTRIES = (
    "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "timezone",
    "passwd", "group", "nsswitch.conf", "hosts", "mime.types", "ssl", "ca-certificates", "fonts",
    "matplotlibrc", "protocols", "services",
)
WORK_DIR = "/sandbox"  # a name no host path is likely to have (checkouts often live under /work)


@functools.lru_cache(maxsize=1)
def bwrap_path() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: install the Debian package `bubblewrap`. "
            "Model output is never run outside the sandbox."
        )
    return path


@functools.lru_cache(maxsize=1)
def python_dirs() -> tuple[str, ...]:
    """The interpreter and its site-packages, made visible read-only."""
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    dirs.update(site.getsitepackages())
    found = tuple(sorted(os.path.realpath(d) for d in dirs if os.path.isdir(d)))
    hidden = [d for d in found + (os.path.abspath(sys.executable),) if d.startswith(("/tmp/", "/dev/shm/"))]
    if hidden:  # each task gets a private /tmp and /dev/shm, which would hide the interpreter
        raise SandboxUnavailable(
            f"the Python environment lives under /tmp or /dev/shm ({hidden[0]}), which every sandboxed task "
            "gets a private copy of: create the virtual environment elsewhere (e.g. ~/.venvs/rlhub)"
        )
    return found


def module_dirs(names: tuple[str, ...]) -> tuple[str, ...]:
    """Where these modules' top-level packages live (editable installs too): just the package
    directory (or module file), not the checkout around it, so sandboxed code sees no more of
    the project than the trusted code it is handed to needs."""
    import importlib.util

    out = set()
    for name in names:
        top = name.partition(":")[0].split(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        locations = list(spec.submodule_search_locations or []) or ([spec.origin] if spec.origin else [])
        for loc in locations:
            if loc and os.path.exists(loc):
                out.add(os.path.realpath(loc))
    return tuple(sorted(out))


@functools.lru_cache(maxsize=1)
def rlhub_packages() -> tuple[str, ...]:
    """Installed (non-editable) package dirs of rlhub and of every plugin registered under the
    `rlhub` entry-point group. They hold task generators and verifiers: sandboxed code must not
    import them to compute the answers it is graded against, so they are masked with empty dirs."""
    from importlib import metadata

    found = set()
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower()
        if name != "rlhub" and not any(ep.group == "rlhub" for ep in dist.entry_points):
            continue
        tops = (dist.read_text("top_level.txt") or "").split()
        tops += [str(f).split("/")[0] for f in dist.files or () if str(f).endswith(".py") and "/" in str(f)]
        for top in set(tops):
            path = os.path.realpath(str(dist.locate_file(top)))
            if os.path.isdir(path) and not top.endswith((".dist-info", ".egg-info")) and top != "__pycache__":
                found.add(path)
    return tuple(sorted(found))


def _minimal(paths) -> list[str]:
    """Drop paths already inside another path of the list, or inside the system dirs."""
    result: list[str] = []
    for p in sorted(set(paths), key=len):
        if p == "/" or any(p == q or p.startswith(q.rstrip("/") + "/") for q in result + ["/usr"]):
            continue
        result.append(p)
    return result


def bwrap_argv(profile: Profile, *, persistent_work: bool, extra_dirs: tuple[str, ...] = ()) -> list[str]:
    tmpfs = str(profile.tmpfs_mb << 20)
    argv = [
        bwrap_path(),
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
    ]
    for cap in SUPERVISOR_CAPS:
        argv += ["--cap-add", cap]
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            argv += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            argv += ["--ro-bind", d, d]
    # bwrap makes the parents of bind targets 0700 (root's): the task's unprivileged uid could
    # then reach nothing in /etc (awk via /etc/alternatives, passwd, localtime, ssl).
    argv += ["--perms", "0755", "--dir", "/etc"]
    for entry in ETC_ENTRIES:
        path = os.path.join("/etc", entry)
        if os.path.exists(path):
            argv += ["--ro-bind", path, path]
    binds = [(d, d) for d in _minimal(python_dirs() + extra_dirs)] + [(m.src, m.dst) for m in profile.mounts]
    parents: list[str] = []
    for _, dst in binds:  # bwrap would copy the host's modes (/root is 0700): make them traversable
        parent = os.path.dirname(dst.rstrip("/"))
        while parent not in ("/", "") and parent not in parents:
            parents.append(parent)
            parent = os.path.dirname(parent)
    for parent in sorted(parents, key=len):
        argv += ["--perms", "0755", "--dir", parent]
    for src, dst in binds:
        argv += ["--ro-bind", src, dst]
    visible = [d for d, _ in binds]
    for pkg in rlhub_packages():
        if pkg not in extra_dirs and any(pkg.startswith(v.rstrip("/") + "/") for v in visible):
            argv += ["--size", "4096", "--perms", "0755", "--tmpfs", pkg]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    argv += ["--size", tmpfs, "--perms", "1777", "--tmpfs", "/tmp"]
    argv += ["--size", tmpfs, "--perms", "1777", "--tmpfs", "/dev/shm"]
    if persistent_work:
        argv += ["--size", tmpfs, "--perms", "0700", "--tmpfs", WORK_DIR]
    else:
        argv += ["--dir", WORK_DIR]
    argv += ["--remount-ro", "/", "--chdir", "/"]
    return argv


def sandbox_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment a task sees: nothing inherited from the host."""
    env = {
        "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
        "HOME": WORK_DIR,
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLBACKEND": "Agg",
        # Installed pytest plugins (rlhub's own included) live outside the sandbox's view;
        # verifiers that want one load it explicitly with `-p`.
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    env.update(extra or {})
    return env
