"""Sandbox side of the in-process mode (SWE-bench-shaped data on real repositories): pytest runs
the repository's tests, the model's code in the same process, as the benchmark's own harness does.

The harness itself never runs that code: it forks a child that runs pytest and sends one line of
JSON per test phase over a pipe as it goes, so a child that crashes, exits or hangs loses only the
tests after it. What the child reports is trusted no further than the verifier's defences (a hidden
sentinel test that must fail; every expected test id must be reported).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import signal
import sys

from .pipe import read_until

DEPS = "/opt/rlhub-swe-deps"  # taskbuild.deps.MOUNT_POINT
_NO_PLUGINS = [a for n in ("cacheprovider", "stepwise", "pastebin", "junitxml") for a in ("-p", f"no:{n}")]


class _Reporter:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def _send(self, **event) -> None:
        try:
            os.write(self.fd, (json.dumps(event) + "\n").encode())
        except OSError:
            pass

    def pytest_runtest_logreport(self, report):
        message = ""
        if report.failed:
            try:
                message = report.longreprtext[-1500:]
            except Exception:
                message = str(report.longrepr)[-1500:]
        self._send(id=report.nodeid, when=report.when, outcome=report.outcome, wasxfail=hasattr(report, "wasxfail"),
                   message=message, duration=round(float(getattr(report, "duration", 0.0) or 0.0), 4))

    def pytest_collectreport(self, report):
        if report.failed:
            self._send(collect_error=str(report.nodeid), message=str(report.longrepr)[-1500:])


def _forget_installed_copies() -> None:
    """The repository's own packages win over an installed release of the same name that the warm
    worker's imports brought in (cachetools under google-auth, say): its modules are dropped from
    sys.modules, so the tests import the tree's."""
    here = os.getcwd()
    tops = {name for root in (here, os.path.join(here, "src")) if os.path.isdir(root)
            for name in os.listdir(root) if os.path.isfile(os.path.join(root, name, "__init__.py"))
            or (name.endswith(".py") and not name.startswith("test"))}
    tops = {t[:-3] if t.endswith(".py") else t for t in tops}
    for name in list(sys.modules):
        top = name.split(".", 1)[0]
        if top in tops:
            path = getattr(sys.modules[name], "__file__", None) or ""
            if not os.path.abspath(path).startswith(here + os.sep):
                del sys.modules[name]


class _FromSource(importlib.machinery.SourceFileLoader):
    """Compiles from the source every time: bytecode the run itself left in __pycache__ is never read."""

    def get_code(self, fullname):
        return self.source_to_code(self.get_data(self.path), self.path)


def _source_only() -> None:
    """What the repository imports comes from its .py files: a .pyc or an extension module written into
    the work dir while the tests run (a forger's way past a diff reader) is never imported, and cached
    bytecode (CPython's and pytest's rewritten tests) goes to a fresh folder of this run's own."""
    import tempfile

    here = os.getcwd()
    finder = importlib.machinery.FileFinder.path_hook((_FromSource, importlib.machinery.SOURCE_SUFFIXES))

    def hook(path):
        full = os.path.abspath(path or here)
        if full == here or full.startswith(here + os.sep):
            return finder(full)
        raise ImportError("not the repository's")  # the next hook (site-packages, the stdlib) takes it

    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()
    sys.pycache_prefix = tempfile.mkdtemp(prefix="pyc-")


def run(ids: list[str], timeout_s: float = 60.0, tb: str = "native") -> dict:
    """{"results": {node id: {"outcome", "message", "call", "duration"}}, "collect_errors": [...], "status": "done"|"timeout"|"ended"}
    ("call": whether a call-phase report came for it; "duration": its phases' seconds together)

    `tb`: pytest's traceback style for failure messages. Grading uses "native": pytest's own
    styles find each frame's statement range by parsing its whole module, which made a wrong
    answer failing 252 sqlparse tests take 14 s instead of 1.4 s (near the time limit, so its
    verdict depended on the machine's load). A build asks for "auto": its statements are written
    from the `>` and `E` lines."""
    from rlhub_unittest.stand_in import not_dumpable

    not_dumpable()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            os.setsid()
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            sys.path.insert(0, os.getcwd())
            if os.path.isdir("src"):  # a src layout: the package lives under src/, as its test config says
                sys.path.insert(0, os.path.join(os.getcwd(), "src"))
            if os.path.isdir(DEPS):  # the project's test dependencies (taskbuild.deps), after the tree itself
                sys.path.insert(2 if os.path.isdir("src") else 1, DEPS)
            _forget_installed_copies()
            _source_only()
            import pytest

            pytest.main([*dict.fromkeys(ids), "-q", "--rootdir", os.getcwd(), "-o", "addopts=", f"--tb={tb}", *_NO_PLUGINS],
                        plugins=[_Reporter(write_fd)])
        finally:
            os._exit(0)
    os.close(write_fd)
    data, timed_out = read_until(read_fd, timeout_s, cap=8 << 20)
    status = "timeout" if timed_out else "done"
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except OSError:
            pass
    os.waitpid(pid, 0)
    results: dict[str, dict] = {}
    errors = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        if "collect_error" in event:
            errors.append(str(event.get("message", ""))[-1500:])
            continue
        node = event.get("id")
        if not isinstance(node, str):
            continue
        entry = results.setdefault(node, {"outcome": "passed", "message": "", "call": False, "duration": 0.0})
        if isinstance(event.get("duration"), (int, float)):
            entry["duration"] = round(entry["duration"] + float(event["duration"]), 4)
        if event.get("when") == "call":
            entry["call"] = True  # passed only with a call phase: a test reported without one never ran
        if event.get("outcome") != "passed" or event.get("wasxfail"):
            if entry["outcome"] == "passed":
                entry["outcome"] = "skipped" if event.get("outcome") == "skipped" else "failed"
                entry["message"] = str(event.get("message", ""))[-1500:]
    return {"results": results, "collect_errors": errors[:3], "status": status}
