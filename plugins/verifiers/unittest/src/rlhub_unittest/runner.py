"""Sandbox side, trusted: the test runner (in the harness's process: see harness.py).

The model's code never runs here. `import solution` in the tests gets a stand-in whose
attributes are calls into the solution's own process (stand_in.py), started on first use by
a fresh exec of Python. This process
- is not dumpable, so the solution's process (same uid) can read neither its memory nor its
  fds; the solution's process holds none of ours (it closes them all when it starts);
- ignores the signals a neighbour could send to derail it (SIGKILL and SIGSTOP cannot be
  ignored: they cost the run its report, which then earns nothing);
- takes the work dir off sys.path: only the stand-in and the task's fixture modules (served
  from memory) are importable from there;
- runs pytest-style suites under pytest (`-c /dev/null`, no conftest, no plugin autoload) and
  check programs (HumanEval/MBPP, stdio cases) with a plain loop over their `test_case_N`
  functions; the test module is compiled from memory with a private copy of the builtins;
- bounds each test with a timer (SIGALRM): a test that overruns fails, the next one runs.

Events (dicts, in order): collected, start, result, collect_error, solution_started, timings,
done, aborted. The harness decides the outcome from them.
"""

from __future__ import annotations

import ast
import builtins
import gc
import importlib
import importlib.abc
import importlib.util
import linecache
import marshal
import os
import resource
import signal
import sys
import time
import traceback
import types

from . import shown, stand_in, strict
from .suite import BIND, PLACEHOLDER

_BAD_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONPATH", "PYTHONSTARTUP")
_IGNORED_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGTSTP", "SIGTTIN", "SIGTTOU")
MARGIN_S = 0.25  # a call into the solution gives up this long before the test's own timer fires


class _Events(list):
    def send(self, **event) -> None:
        self.append(event)


class TestTimedOut(BaseException):
    """Raised in a test by the per-test timer (a BaseException: a test's `except Exception`
    does not swallow it)."""


class _Finder(importlib.abc.MetaPathFinder):
    """Serves the stand-in for the solution module and the task's fixture modules (from
    memory). Nothing else in the work dir is importable here."""

    def __init__(self, solution: str, loader, modules: dict[str, str], package: bool = False) -> None:
        self.solution, self.loader, self.modules, self.package = solution, loader, modules, package

    def find_spec(self, name, path=None, target=None):
        if self.loader is not None and (name == self.solution or (self.package and name.startswith(self.solution + "."))):
            # a package's modules are stand-ins too (each served from the solution's process); the
            # package and its subpackages get a __path__ so that their submodules can be imported
            return importlib.util.spec_from_loader(name, self.loader, is_package=self.package)
        if name in self.modules:
            return importlib.util.spec_from_loader(name, _SourceLoader(name, self.modules[name]))
        return None


class _SourceLoader(importlib.abc.Loader):
    def __init__(self, name: str, source: str) -> None:
        self.name, self.source = name, source

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__rlhub_trusted__ = True
        exec(compile(self.source, f"<fixture {self.name}>", "exec"), module.__dict__)


class Run:
    """One run of the hidden tests: the events, the solution's process, the clocks."""

    def __init__(self, spec: dict, events: _Events) -> None:
        self.spec, self.events = spec, events
        self.process: stand_in.SolutionProcess | None = None
        self.deadline = spec["deadline"]
        self.timings: dict[str, float] = {"start": time.monotonic()}  # wall seconds per phase, for the bench
        self.current: str | None = None  # the test in progress

    def timed(self, phase: str, fn, *args):
        began = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.timings[phase] = self.timings.get(phase, 0.0) + time.perf_counter() - began

    def report_timings(self) -> None:
        timings = dict(self.timings)
        if self.process is not None:
            timings.update(self.process.timings)
            self.process.kill()  # reaped: its CPU time counts among ours
        timings.update(runner_cpu=cpu_seconds(resource.RUSAGE_SELF), solution_cpu=cpu_seconds(resource.RUSAGE_CHILDREN))
        self.events.send(t="timings", **timings)

    def isolate_imports(self) -> None:
        spec = self.spec
        work = os.path.realpath(spec["workdir"])
        sys.path[:] = [p for p in sys.path if p and not os.path.realpath(p).startswith(work)]
        sys.path_importer_cache.clear()
        loader = None
        if spec["solution_module"] and spec.get("null_solution"):
            loader = stand_in.NullLoader()  # the tests loaded without the solution (see collect_error)
        elif spec["solution_module"]:
            self.process = stand_in.SolutionProcess({
                "module": spec["solution_module"], "path": os.path.join(work, spec["solution_file"]),
                "workdir": work, "fixtures": spec["modules"],
                "package": bool(spec.get("package")),
            }, spec["python"])
            self.process.protected = frozenset(spec.get("test_names", ()))
            self.process.on_start = lambda: self.events.send(t="solution_started")
            loader = stand_in.StandInLoader(self.process)
        sys.meta_path.insert(0, _Finder(spec["solution_module"], loader, spec["modules"], bool(spec.get("package"))))
        for name in _BAD_ENV:
            os.environ.pop(name, None)
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"

    def test_started(self, test_id: str) -> None:
        self.events.send(t="start", id=test_id)
        self.limit_next(self.spec["test_timeout_s"])
        self.current = test_id
        left = min(self.deadline, time.monotonic() + self.spec["test_timeout_s"]) - time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, max(0.001, left))

    def test_ended(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.current = None

    def alarm(self, signum, frame) -> None:
        if self.current is not None:  # outside a test the timer means nothing (a neighbour's SIGALRM)
            test, self.current = self.current, None
            raise TestTimedOut(f"{test} ran past its time limit ({self.spec['test_timeout_s']:.1f} s)")

    def limit_next(self, seconds: float) -> None:
        """Calls into the solution from now on end by this time (before the harness's own limit)."""
        if self.process is not None:
            self.process.deadline = min(self.deadline, time.monotonic() + seconds) - MARGIN_S

    def touched_solution(self) -> bool:
        return self.process is not None and self.process.started > 0

    def collect_error(self, exc: BaseException, message: str) -> None:
        """The tests failed to load. Whose doing it was: "solution" when the failure came from
        the solution's process (its exception, its crash), "tests" when the solution was never
        asked anything, else "unknown": the verifier loads the tests again without the solution
        (null_solution) and blames the tests only if that fails too."""
        cause = "solution" if _remote(exc) else "unknown" if self.touched_solution() else "tests"
        self.events.send(t="collect_error", message=message[-2000:], cause=cause)


def cpu_seconds(who) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _remote(exc: BaseException | None) -> bool:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if getattr(exc, "__rlhub_remote__", False) or isinstance(exc, (stand_in.SolutionError, stand_in.SolutionImportError,
                                                                         stand_in.SolutionRaised)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _helpers(run: Run) -> dict:
    """Runner-side functions the generated test modules call (check and stdio styles)."""
    from . import io_cases

    def main(stdin: str) -> str:
        if run.process is None:
            raise RuntimeError("stdio tests need a Python solution")
        out, _err, _status = run.process.request("main", stdin, [], what="running the program")
        return out

    def call(name: str, args: list):
        return io_cases.call(importlib.import_module(run.spec["solution_module"]), name, args)

    return {BIND: stand_in.bind, io_cases.MAIN: main, io_cases.CALL: call,
            io_cases.SAME_OUTPUT: io_cases.same_output, io_cases.SAME_VALUE: io_cases.same_value}


def _test_module(spec: dict, path: str, config=None, helpers: dict | None = None) -> types.ModuleType:
    """The hidden tests as a module compiled from memory, with a private builtins copy; under
    pytest, asserts rewritten by pytest for readable failures."""
    source = spec["source"]
    if spec.get("code") and path == PLACEHOLDER:
        code = marshal.loads(spec["code"])  # compiled by the host for this very file name (suite.py)
    else:
        tree = ast.parse(source)
        if config is not None:
            from _pytest.assertion.rewrite import rewrite_asserts

            try:
                rewrite_asserts(tree, source.encode(), path, config)
            except Exception:  # readable messages are a nicety; the strict asserts are already in place
                tree = ast.parse(source)
        code = compile(tree, path, "exec")
    module = types.ModuleType("test_hidden")
    module.__file__ = path
    module.__rlhub_trusted__ = True
    module.__dict__["__builtins__"] = _PRISTINE
    strict.inject(module.__dict__)
    module.__dict__.update(helpers or {})
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    sys.modules["test_hidden"] = module
    exec(code, module.__dict__)
    return module


# -- check programs: a plain loop ------------------------------------------------------------------
def run_plain(run: Run, path: str) -> None:
    run.limit_next(run.spec["test_timeout_s"])
    try:
        module = run.timed("load", _test_module, run.spec, path, None, _helpers(run))
    except BaseException as exc:
        run.collect_error(exc, _failure_text(exc, path))
        return
    tests = [(name, fn) for name, fn in vars(module).items()
             if name.startswith("test") and isinstance(fn, types.FunctionType)]
    run.events.send(t="collected", ids=[name for name, _ in tests])
    run.timed("tests", _run_tests, run, tests, path)


def _run_tests(run: Run, tests: list, path: str) -> None:
    for name, fn in tests:
        run.test_started(name)
        outcome, message = "passed", ""
        try:
            fn()
        except BaseException as exc:
            outcome, message = "failed", _failure_text(exc, path)
        finally:
            run.test_ended()
        run.events.send(t="result", id=name, when="call", outcome=outcome, wasxfail=False, message=message)
        run.events.send(t="result", id=name, when="teardown", outcome="passed", wasxfail=False, message="")


def _failure_text(exc: BaseException, path: str) -> str:
    """The failing line of the tests and what went wrong, as a person reads it (never raises:
    what the solution raised or returned may be unprintable, shown.py)."""
    try:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        where = f"{frames[-1].line.strip()}\n" if frames and frames[-1].line else ""
        text, hit = shown.exception_text(exc)
        detail = ""
        if isinstance(exc, AssertionError) and text == type(exc).__name__:
            detail, hit_detail = strict.explain_last()
            hit = hit or hit_detail
        notes = "".join(f"\n{n}" for n in getattr(exc, "__notes__", ()) if isinstance(n, str))
        limit = f"\n{shown.limit_line()}" if hit else ""
        return f"{where}{text}{detail}{notes}"[-(2000 - len(limit)):] + limit
    except Exception as err:
        return f"{type(exc).__name__} (the failure could not be described: {type(err).__name__})"


_PRISTINE: dict = {}


def run(spec: dict, placeholder: str, run_pytest=None) -> list[dict]:
    """Run the hidden tests in this process; the events, in order (never raises). `run_pytest`:
    the pytest style (pytest_run.py builds on this module, so the harness hands it in)."""
    events = _Events()
    run = Run(spec, events)
    try:
        for name in _IGNORED_SIGNALS:
            signal.signal(getattr(signal, name), signal.SIG_IGN)
        signal.signal(signal.SIGALRM, run.alarm)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # what the tests print goes nowhere (capsys still sees it)
            os.dup2(devnull, fd)
        os.close(devnull)
        gc.freeze()  # the warm worker's objects: never traversed again by this run's collections
        _PRISTINE.update(vars(builtins))
        strict.harden_unittest()
        run.isolate_imports()
        run.timings["setup"] = time.monotonic() - run.timings["start"]
        if spec["style"] == "pytest":
            if run_pytest is None:
                raise RuntimeError("pytest-style tests need run_pytest (rlhub_unittest.pytest_run)")
            run_pytest(run, placeholder)
        else:
            run_plain(run, placeholder)
        run.test_ended()
        run.report_timings()
        events.send(t="done")
    except BaseException as exc:  # our own failure, or the run's time is up: "aborted"
        signal.setitimer(signal.ITIMER_REAL, 0)
        events.send(t="aborted", message=f"{type(exc).__name__}: {exc}"[:500])
        if run.process is not None:
            run.process.kill()
    return events
