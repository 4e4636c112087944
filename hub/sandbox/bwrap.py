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
# slot's uid (CAP_SYS_CHROOT: the task joins its mount namespace with setns, which asks for it);
# the task itself ends up with none (see supervisor.drop_privileges).
SUPERVISOR_CAPS = ("CAP_SYS_ADMIN", "CAP_SYS_CHROOT", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP", "CAP_CHOWN",
                   "CAP_KILL")
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
def python_binds() -> tuple[tuple[str, str], ...]:
    """The interpreter and its site-packages, made visible read-only, as (host path, sandbox path).

    Each directory is bound at its real path and, where Python reached it through a symlink (a
    venv behind `~/venv -> /opt/venv`, a symlinked home, a shared environment), also at the path
    it was started from: `sys.executable` and `sys.path` name the latter. A `--user` site that
    is on sys.path is included; conda environments are plain prefixes.
    """
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable),
            os.path.dirname(os.path.realpath(sys.executable)), *site.getsitepackages()}
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user_site and user_site in sys.path:
        dirs.add(user_site)
    pairs = set()
    for d in dirs:
        if not os.path.isdir(d):
            continue
        real = os.path.realpath(d)
        pairs.add((real, real))
        if os.path.abspath(d) != real:
            pairs.add((real, os.path.abspath(d)))
    hidden = [dst for _, dst in pairs if dst.startswith(("/tmp/", "/dev/shm/"))]
    hidden += [p for p in (os.path.abspath(sys.executable),) if p.startswith(("/tmp/", "/dev/shm/"))]
    if hidden:  # each task gets a private /tmp and /dev/shm, which would hide the interpreter
        raise SandboxUnavailable(
            f"the Python environment lives under /tmp or /dev/shm ({hidden[0]}), which every sandboxed task "
            "gets a private copy of: create the virtual environment elsewhere (e.g. ~/.venvs/rlhub)"
        )
    return tuple(sorted(pairs, key=lambda p: (p[1], p[0])))


def start_failure(detail: str) -> str:
    """Why a sandbox did not start, with the fix where the cause is the Python environment."""
    if "execvp" not in detail and "No such file" not in detail:
        return detail
    tried = sys.executable
    real = os.path.realpath(tried)
    bound = ", ".join(sorted({dst for _, dst in python_binds()}))
    return (f"{detail.strip()}: the sandbox could not start Python at {tried}"
            + (f" (really {real})" if real != tried else "")
            + f"; it makes these read-only: {bound}. Fix: run rlhub with an interpreter whose environment lies "
              "inside those (e.g. its real path), or create the virtual environment where it is used "
              "(`python -m venv ~/.venvs/rlhub`), not under /tmp or /dev/shm")


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


def _minimal(binds) -> list[tuple[str, str]]:
    """Drop (host, sandbox) binds whose sandbox path is already inside another one, or inside the
    system dirs."""
    result: list[tuple[str, str]] = []
    for src, dst in sorted(set(binds), key=lambda b: (len(b[1]), b)):
        if dst == "/" or any(dst == q or dst.startswith(q.rstrip("/") + "/") for q in [d for _, d in result] + ["/usr"]):
            continue
        result.append((src, dst))
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
    binds = _minimal(python_binds() + tuple((d, d) for d in extra_dirs)) + [(m.host_path(), m.dst) for m in profile.mounts]
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
    masked = set()
    for pkg in rlhub_packages():  # under every sandbox path it is visible at (a symlinked venv: two)
        if pkg in extra_dirs:
            continue
        for src, dst in binds:
            if pkg.startswith(src.rstrip("/") + "/"):
                masked.add(dst.rstrip("/") + pkg[len(src.rstrip("/")):])
    for path in sorted(masked):
        argv += ["--size", "4096", "--perms", "0755", "--tmpfs", path]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    argv += ["--size", tmpfs, "--perms", "1777", "--tmpfs", "/tmp"]
    argv += ["--size", tmpfs, "--perms", "1777", "--tmpfs", "/dev/shm"]
    if persistent_work:
        argv += ["--size", tmpfs, "--perms", "0700", "--tmpfs", WORK_DIR]
    else:
        argv += ["--dir", WORK_DIR]
    argv += ["--remount-ro", "/", "--chdir", "/"]
    return argv


WRITABLE_AREAS = ("/tmp", "/dev/shm", WORK_DIR)  # private and writable in every task (see supervisor.supervise_task)


def sandbox_sys_path() -> list[str]:
    """The host's sys.path as the sandbox's trusted processes get it: absolute entries outside
    the places a task can write. An entry under /tmp (a Ray job's working_dir, a pytest tmp dir)
    would name a directory of the task's own private /tmp, where it could plant a module that
    the test runner then imports; such an entry never held anything importable in the sandbox
    anyway (the host's /tmp is not visible there). Every entry left is a read-only bind or a
    path on the read-only root."""
    return [p for p in sys.path if p and os.path.isabs(p)
            and not any(os.path.abspath(p) == a or os.path.abspath(p).startswith(a + "/") for a in WRITABLE_AREAS)]


def sandbox_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment a task sees: nothing inherited from the host."""
    env = {
        "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
        "HOME": WORK_DIR,
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        # Messages untranslated, and gettext told so: Python 3.11 reads C.UTF-8 as en_US and looks
        # for catalogs on disk on every call (argparse calls it per option: a CLI that builds its
        # parser per call spent a quarter of its time there).
        "LANGUAGE": "C",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLBACKEND": "Agg",
        # Installed pytest plugins (rlhub's own included) live outside the sandbox's view;
        # verifiers that want one load it explicitly with `-p`.
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    env.update(extra or {})
    return env
