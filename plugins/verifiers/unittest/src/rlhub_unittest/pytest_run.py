"""pytest-style suites in the runner, under pytest.

pytest's own start-up (plugin manager, ~30 plugins registered, command line and ini parsed,
fixture definitions of every plugin indexed) is the same for every run: a warm worker does it
once, at preload (`prepare`, called by warm.py), and each runner, a fork of it, only collects
the hidden module and runs it. Outside a warm worker (or if preparing failed) each run calls
`pytest.main` with the same arguments.
"""

from __future__ import annotations

import os

from . import runner
from .suite import PLACEHOLDER

HOME = os.path.dirname(PLACEHOLDER)  # each sandboxed task has a private /tmp: one fixed name serves all
# Plugins a hidden suite does not need; unraisableexception and threadexception alone cost
# five full gc.collect() passes per session.
_NO_PLUGINS = [arg for name in ("cacheprovider", "stepwise", "unraisableexception", "threadexception", "faulthandler",
                                "pastebin", "junitxml", "doctest", "warnings", "nose", "legacypath")
               for arg in ("-p", f"no:{name}")]


def arguments(path: str) -> list[str]:
    home = os.path.dirname(path)  # root and conftest cut-off: pytest looks at nothing above it
    return [path, "-c", os.devnull, "--rootdir", home, "--confcutdir", home, "--noconftest", "-q", "-s",
            "--tb=native", "-o", "python_files=test_*.py", *_NO_PLUGINS]


class _Plugin:
    """The runner's hooks: the hidden module compiled from memory, one event per test phase."""

    def __init__(self) -> None:
        self.run: runner.Run | None = None
        self.messages: dict[tuple, str] = {}
        self.reported = False

    def pytest_pycollect_makemodule(self, module_path, parent):
        import pytest

        plugin = self

        class HiddenModule(pytest.Module):
            def _getobj(self):
                run = plugin.run
                try:
                    return runner._test_module(run.spec, str(self.path), self.config, helpers=runner._helpers(run))
                except BaseException as exc:
                    plugin.reported = True
                    run.collect_error(exc, runner._failure_text(exc, str(self.path)))
                    raise

        return HiddenModule.from_parent(parent, path=module_path)

    def pytest_collection_modifyitems(self, session, config, items):
        names = [_name(item.nodeid) for item in items]
        self.run.events.send(t="collected", ids=names)

    def pytest_collectreport(self, report):
        if report.failed and not self.reported:
            self.reported = True
            self.run.events.send(t="collect_error", message=_text(report),
                                 cause="unknown" if self.run.touched_solution() else "tests")

    def pytest_runtest_makereport(self, item, call):
        if call.excinfo is not None:  # the failing line and what went wrong, without pytest's frames
            self.messages[(item.nodeid, call.when)] = runner._failure_text(call.excinfo.value, str(item.path))

    def pytest_runtest_logstart(self, nodeid, location):
        self.run.test_started(_name(nodeid))

    def pytest_runtest_logreport(self, report):
        if report.when == "teardown":
            self.run.test_ended()
        message = ""
        if report.failed or report.skipped:
            message = self.messages.pop((report.nodeid, report.when), None) or _text(report)
        self.run.events.send(t="result", id=_name(report.nodeid), when=report.when, outcome=report.outcome,
                             wasxfail=hasattr(report, "wasxfail"), message=message)


def _name(nodeid: str) -> str:
    """'…/test_hidden.py::TestX::test_y[1]' -> 'TestX::test_y[1]'."""
    return nodeid.split("::", 1)[1] if "::" in nodeid else nodeid


def _text(report) -> str:
    try:
        text = report.longreprtext
    except Exception:
        text = str(report.longrepr)
    return text[-2000:]


class _Prepared:
    def __init__(self) -> None:
        from _pytest.config import _prepareconfig
        from _pytest.main import Session

        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the tasks' environment says so too; this is before any
        os.makedirs(HOME, exist_ok=True)
        with open(PLACEHOLDER, "w") as f:
            f.write("# the hidden tests are held in memory\n")
        self.plugin = _Plugin()
        self.config = _prepareconfig(arguments(PLACEHOLDER), plugins=[self.plugin])
        self.config._do_configure()
        self.session = Session.from_config(self.config)
        self.session.exitstatus = 0
        self.config.hook.pytest_sessionstart(session=self.session)


PREPARED: _Prepared | None = None
NOT_PREPARED = "not a warm worker"  # why PREPARED is None (reported in the run's timings)


def prepare() -> None:
    """Build the pytest configuration and session now (in a warm worker, before any task)."""
    global PREPARED, NOT_PREPARED
    try:
        PREPARED, NOT_PREPARED = _Prepared(), ""
    except Exception as exc:  # another pytest than this was written for: every run starts its own
        PREPARED, NOT_PREPARED = None, f"{type(exc).__name__}: {exc}"[:300]


def run_pytest(run: runner.Run, path: str) -> None:
    run.limit_next(run.spec["test_timeout_s"])
    prepared = PREPARED
    if prepared is not None and path == PLACEHOLDER:
        prepared.plugin.run = run
        hook = prepared.config.hook
        run.timed("load", lambda: hook.pytest_collection(session=prepared.session))
        run.timed("tests", lambda: hook.pytest_runtestloop(session=prepared.session))
        return
    import pytest

    plugin = _Plugin()
    plugin.run = run
    run.timed("tests", pytest.main, arguments(path), [plugin])
