"""Sandbox side of write-the-tests grading: the model's test file run against each version of one
module (the original, an equivalent rewrite, the mutants), `repeats` times each, every run in a
fresh forked child.

The model's tests are model code, so they run in the children only. Between runs the parent (which
never runs them, and is not dumpable) removes every trace a run could leave for the next one: every
other process of the task is killed, the run's directory, /tmp, /dev/shm and the work dir are
emptied, System V IPC objects removed. The version under test is on disk as the tests see it: the
module's file holds that version's text (padded to one length for every version, so its size tells
nothing), and the child forgets which version it is (the parent's list of versions and results is
emptied in the child before any test runs). What could still tell the versions apart is watched by
an audit hook (read_guard.py): a test that opens the module's file, reads its code objects, walks
frames or memory ends its run `flagged`. Failure reports carry no tracebacks (no source is read to
make them). The runs come in the order the host chose (a random one).
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import shutil
import signal
import sys
import time

import pytest

from . import read_guard
from .pipe import read_until

RUN_DIR = "/tmp/rlhub-run"
_OWN = ("rlhub_swe", "rlhub_unittest", "hub")  # rlhub's packages on the stack below the tests
_NO_PLUGINS = [a for n in ("cacheprovider", "stepwise", "faulthandler", "pastebin", "junitxml", "doctest", "legacypath")
               for a in ("-p", f"no:{n}")]


class _Outcomes:
    """Counts the call phase's outcomes; makes every report itself, without a traceback (making one
    reads the source of the frames, the mutated module's among them)."""

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

    @pytest.hookimpl(tryfirst=True)  # firstresult: ours answers it, with no traceback
    def pytest_make_collect_report(self, collector):
        from _pytest.outcomes import skip
        from _pytest.reports import CollectReport
        from _pytest.runner import CallInfo

        call = CallInfo.from_call(lambda: list(collector.collect()), "collect")
        if call.excinfo is None:
            return CollectReport(collector.nodeid, "passed", None, call.result)
        if isinstance(call.excinfo.value, skip.Exception):
            return CollectReport(collector.nodeid, "skipped", (str(collector.path), 0, "skipped"), None)
        return CollectReport(collector.nodeid, "failed", call.excinfo.typename, None)

    @pytest.hookimpl(tryfirst=True)  # firstresult: ours answers it
    def pytest_runtest_makereport(self, item, call):
        from _pytest.outcomes import skip
        from _pytest.reports import TestReport

        excinfo = call.excinfo
        if excinfo is None:
            outcome, longrepr = "passed", None
        elif isinstance(excinfo.value, skip.Exception):
            outcome, longrepr = "skipped", (str(item.path), 0, "skipped")
        else:
            outcome, longrepr = "failed", f"{excinfo.typename}"
        return TestReport(item.nodeid, item.location, {}, outcome, longrepr, call.when, [], call.duration,
                          call.start, call.stop, [])


class _Compiled:
    """Finds the package's other modules (not the one under test) at their files, with code the
    parent compiled once: every run imports them afresh without compiling them again."""

    def __init__(self, codes: dict[str, tuple[str, object]]) -> None:
        self.codes = codes  # module name -> (file, code)

    def find_spec(self, name, path=None, target=None):
        found = self.codes.get(name)
        if found is None:
            return None
        import importlib.util

        return importlib.util.spec_from_file_location(name, found[0], loader=self)

    def is_package(self, name) -> bool:
        return self.codes[name][0].endswith("/__init__.py")

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(self.codes[module.__spec__.name][1], module.__dict__)


def _compiled(tree: dict[str, str], top: str, module_path: str) -> dict[str, tuple[str, object]]:
    out = {}
    for path, text in tree.items():
        if path.startswith(top + "/") and path.endswith(".py") and path != module_path:
            full = os.path.join(RUN_DIR, path)
            try:
                out[path[:-3].replace("/", ".").removesuffix(".__init__")] = (full, compile(text, full, "exec", dont_inherit=True))
            except (SyntaxError, ValueError):
                continue  # imported from its file in each run, as it would be
    return out


def _cache_rewritten_tests(config, test_path: str) -> None:
    """pytest rewrites the test module's asserts and compiles it: once here (compiling is not
    running), not in every run."""
    from pathlib import Path

    from _pytest.assertion import rewrite

    target = Path(os.path.join(RUN_DIR, test_path))
    try:
        made = rewrite._rewrite_test(target, config)
    except Exception:
        return  # the tests' own error, met by each run as it collects them
    original = rewrite._rewrite_test
    rewrite._rewrite_test = lambda fn, cfg: made if Path(fn) == target else original(fn, cfg)


def _write_tree(tree: dict[str, str], module_path: str, source: str, length: int) -> None:
    for path, text in {**tree, module_path: source + "\n#" + " " * max(0, length - len(source))}.items():
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


def _child(config, session, outcomes, module: str, module_path: str, package_files: list[str], write_fd: int,
           forget: list, codes) -> None:
    try:
        for thing in forget:  # this process's copy of what tells the versions apart
            thing.clear()
        del forget[:]
        os.setsid()
        os.chdir(RUN_DIR)
        sys.path.insert(0, RUN_DIR)
        sys.dont_write_bytecode = True
        sys.meta_path.insert(0, _Compiled(codes))
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        try:
            importlib.import_module(module)  # before the guard: importing reads the file, as it must
        except BaseException:
            os.write(write_fd, json.dumps({"passed": 0, "failed": 0, "skipped": 0, "errors": 1}).encode())
            return
        full = os.path.join(RUN_DIR, module_path)
        os.utime(full, ns=(0, os.stat(full).st_mtime_ns))  # read since (by any path, any means): atime moves
        os.write(write_fd, b'{"armed": true}\n')  # the parent may now read the access time
        own = [os.path.dirname(os.path.abspath(m.__file__)) for m in map(sys.modules.get, _OWN) if m and m.__file__]
        read_guard.install(os.path.join(RUN_DIR, module_path), module.split(".")[0], package_files, write_fd, own)
        config.hook.pytest_collection(session=session)
        config.hook.pytest_runtestloop(session=session)
        result = {"passed": outcomes.passed, "failed": outcomes.failed, "skipped": outcomes.skipped,
                  "errors": outcomes.errors}
        os.write(write_fd, json.dumps(result).encode())
    finally:
        os._exit(0)


def _one_run(config, session, outcomes, module: str, module_path: str, package_files: list[str], timeout_s: float,
             forget: list, codes) -> dict:
    """One fork of the prepared session over what is on disk: its counts, or {"status": ...}."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(config, session, outcomes, module, module_path, package_files, write_fd, forget, codes)
    os.close(write_fd)
    data, timed_out = read_until(read_fd, timeout_s)
    os.close(read_fd)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    os.waitpid(pid, 0)
    try:
        read = os.stat(os.path.join(RUN_DIR, module_path)).st_atime_ns != 0
    except OSError:
        read = True  # gone: the tests removed it
    _wipe()
    if read and data.startswith(b'{"armed": true}\n'):
        return {"status": "flagged", "flagged": "the module's file was read during the run (its access time moved)"}
    if timed_out:
        return {"status": "timeout"}
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if isinstance(report, dict) and report.get("armed") is True:
            continue
        if isinstance(report, dict) and isinstance(report.get("flagged"), str):
            return {"status": "flagged", "flagged": report["flagged"]}
        if isinstance(report, dict):
            return report
    return {"status": "crashed"}


def run(tree: dict[str, str], module_path: str, test_path: str, versions: list[dict], timeout_s: float = 5.0,
        deadline_s: float = 60.0) -> dict:
    """{"runs": {version id: [run, ...]}}: each run {"passed", "failed", "skipped", "errors"} or
    {"status": "timeout" | "crashed" | "flagged"}. A version is {"id", "source", "repeats" (default 1),
    "until_pass" (stop repeating once a run passes: a mutant that survived once survived),
    "must_pass" (a run that does not pass decides the verdict)}. A run that is flagged, or a
    must_pass run that fails, ends the whole call. Runs past `deadline_s` are not made."""
    from rlhub_unittest.stand_in import not_dumpable

    began = time.monotonic()
    not_dumpable()
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGTSTP", "SIGTTIN", "SIGTTOU"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    _wipe()
    config, session, outcomes = _prepared(test_path)
    module = module_path[:-3].replace("/", ".").removesuffix(".__init__")
    top = module.split(".")[0]
    package_files = sorted(os.path.join(RUN_DIR, p) for p in tree if p.startswith(top + "/") and p.endswith(".py"))
    if module_path not in tree:
        package_files.append(os.path.join(RUN_DIR, module_path))
    length = max((len(v["source"]) for v in versions), default=0) + 64
    codes = _compiled(tree, top, module_path)
    _write_tree(tree, module_path, "", length)
    _cache_rewritten_tests(config, test_path)
    runs: dict[str, list] = {}
    took: list[float] = []  # seconds per run, in order
    forget = [versions, runs]
    for index in range(len(versions)):
        _write_tree(tree, module_path, versions[index]["source"], length)
        repeats = max(1, int(versions[index].get("repeats", 1)))
        out = runs.setdefault(versions[index]["id"], [])
        forget[2:] = [*versions, out]
        for _ in range(repeats):
            left = deadline_s - (time.monotonic() - began)
            if left <= 0.2:
                return {"runs": runs, "status": "deadline", "took": took}
            if out:
                _write_tree(tree, module_path, versions[index]["source"], length)
            started = time.monotonic()
            result = _one_run(config, session, outcomes, module, module_path, package_files, min(timeout_s, left), forget,
                              codes)
            took.append(round(time.monotonic() - started, 3))
            out.append(result)
            if result.get("status") == "flagged":
                return {"runs": runs, "status": "flagged", "took": took}
            if versions[index].get("until_pass") and _passed(result):
                break
            if versions[index].get("must_pass") and not _passed(result):
                return {"runs": runs, "status": "decided", "took": took}  # the verdict is 0: spare the rest
    return {"runs": runs, "status": "done", "took": took}


def _passed(result: dict) -> bool:
    return not result.get("status") and result.get("failed") == 0 and result.get("errors") == 0 and result.get("passed", 0) > 0
