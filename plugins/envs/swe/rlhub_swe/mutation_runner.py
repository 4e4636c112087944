"""Sandbox side of write-the-tests grading: the model's test file run against each version of one
module (the original, an equivalent rewrite, the mutants), each run in a fresh forked child.

The model's tests are model code, so they run in the children only. Between runs the parent (which
never runs them, and is not dumpable) removes every trace a run could leave for the next one: every
other process of the task is killed, the run's directory, /tmp, /dev/shm and the work dir are
emptied, System V IPC objects removed. Each child gets the same directory and the same files on
disk (the module's original text): the version under test is served from memory by an import hook,
so reading the source tells a run nothing; only behaviour does. The runs come in a random order.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import sys

from .pipe import read_until

RUN_DIR = "/tmp/rlhub-run"
_NO_PLUGINS = [a for n in ("cacheprovider", "stepwise", "faulthandler", "pastebin", "junitxml", "doctest", "legacypath")
               for a in ("-p", f"no:{n}")]


class _Outcomes:
    def __init__(self) -> None:
        self.passed = self.failed = self.skipped = 0
        self.errors = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call":
            if report.passed:
                self.passed += 1
            elif report.skipped:
                self.skipped += 1
            else:
                self.failed += 1
        elif report.failed:
            self.errors += 1

    def pytest_collectreport(self, report):
        if report.failed:
            self.errors += 1


class _Served:
    """Serves one module's source from memory (as if read from its file)."""

    def __init__(self, name: str, path: str, source: str) -> None:
        self.name, self.path, self.source = name, path, source

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(name, self, origin=self.path)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__file__ = self.path
        exec(compile(self.source, self.path, "exec"), module.__dict__)


def _write_tree(tree: dict[str, str]) -> None:
    for path, text in tree.items():
        full = os.path.join(RUN_DIR, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def _wipe() -> None:
    me, parent = os.getpid(), os.getppid()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in (1, me, parent):
            try:
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass
    for place in (RUN_DIR, "/tmp", "/dev/shm", os.environ.get("HOME", "/sandbox")):
        for name in os.listdir(place) if os.path.isdir(place) else ():
            full = os.path.join(place, name)
            if os.path.isdir(full) and not os.path.islink(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                try:
                    os.unlink(full)
                except OSError:
                    pass
    _remove_ipc()


def _remove_ipc() -> None:
    """Remove every System V shared memory segment, semaphore set and message queue (IPC_RMID)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for kind in ("shm", "sem", "msg"):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            ident = int(row.split()[1])
            if kind == "shm":
                libc.shmctl(ident, 0, None)
            elif kind == "sem":
                libc.semctl(ident, 0, 0)
            else:
                libc.msgctl(ident, 0, None)


def _prepared(test_path: str):
    from _pytest.config import _prepareconfig
    from _pytest.main import Session

    os.makedirs(RUN_DIR, exist_ok=True)
    target = os.path.join(RUN_DIR, test_path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    open(target, "w").close()
    outcomes = _Outcomes()
    config = _prepareconfig([target, "--rootdir", RUN_DIR, "--noconftest", "-c", os.devnull, "-q", "-s",
                             "-o", "python_files=test_*.py", *_NO_PLUGINS], plugins=[outcomes])
    config._do_configure()
    session = Session.from_config(config)
    session.exitstatus = 0
    config.hook.pytest_sessionstart(session=session)
    return config, session, outcomes


def _child(config, session, outcomes, module: str, path: str, source: str, write_fd: int) -> None:
    try:
        os.setsid()
        os.chdir(RUN_DIR)
        sys.path.insert(0, RUN_DIR)
        sys.meta_path.insert(0, _Served(module, path, source))
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        config.hook.pytest_collection(session=session)
        config.hook.pytest_runtestloop(session=session)
        result = {"passed": outcomes.passed, "failed": outcomes.failed, "skipped": outcomes.skipped,
                  "errors": outcomes.errors}
        os.write(write_fd, json.dumps(result).encode())
    finally:
        os._exit(0)


def run(tree: dict[str, str], module_path: str, test_path: str, versions: list[dict], timeout_s: float = 5.0) -> dict:
    """{"runs": {version id: {"passed", "failed", "skipped", "errors"} or {"status": "timeout"|"crashed"}}}."""
    from rlhub_unittest.stand_in import not_dumpable

    not_dumpable()
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGTSTP", "SIGTTIN", "SIGTTOU"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    _wipe()
    config, session, outcomes = _prepared(test_path)
    module = module_path[:-3].replace("/", ".").removesuffix(".__init__")
    path = os.path.join(RUN_DIR, module_path)
    runs = {}
    for version in versions:
        _write_tree(tree)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _child(config, session, outcomes, module, path, version["source"], write_fd)
        os.close(write_fd)
        data, timed_out = read_until(read_fd, timeout_s)
        status = "timeout" if timed_out else None
        os.close(read_fd)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(pid, 0)
        _wipe()
        if status is None:
            try:
                status = json.loads(data.decode())
            except ValueError:
                status = "crashed"
        runs[version["id"]] = status if isinstance(status, dict) else {"status": status}
    return {"runs": runs}
