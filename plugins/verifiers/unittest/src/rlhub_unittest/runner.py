"""Sandbox side, in a forked child: load the hidden module from memory and run it under pytest.

Before any of the model's code can run, the child
- closes every inherited fd but stdio and its event pipe (the sandbox's result pipe included);
- takes the work dir off sys.path and installs an import finder that serves exactly the
  solution module from it (so a planted pytest.py, conftest.py, os.py, sitecustomize.py or
  .pth file is never imported);
- runs pytest with no ini file (`-c /dev/null`), no conftest, no plugin autoload, no cache;
- gives the test module its own copy of the builtins, taken now (patching builtins later
  cannot reach the tests' asserts), and the strict comparison helpers.
"""

from __future__ import annotations

import ast
import builtins
import gc
import importlib.abc
import importlib.util
import json
import linecache
import os
import sys
import types

from . import strict

# Plugins a hidden suite does not need; unraisableexception and threadexception alone cost
# five full gc.collect() passes per session.
_NO_PLUGINS = [arg for name in ("cacheprovider", "stepwise", "unraisableexception", "threadexception", "faulthandler",
                                "pastebin", "junitxml", "doctest", "warnings", "nose", "legacypath")
               for arg in ("-p", f"no:{name}")]
_BAD_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONPATH", "PYTHONSTARTUP")


class _Events:
    """JSON lines to the parent. Bound methods captured now, before model code runs."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._write, self._dumps = os.write, json.dumps

    def send(self, **event) -> None:
        data = (self._dumps(event, default=str) + "\n").encode()
        while data:
            data = data[self._write(self.fd, data):]


class _WorkDirFinder(importlib.abc.MetaPathFinder):
    """Serves the solution module (from the work dir) and the task's trusted fixture modules
    (from memory). Nothing else in the work dir is importable."""

    def __init__(self, solution_module: str, solution_path: str, modules: dict[str, str]) -> None:
        self.solution = (solution_module, solution_path)
        self.modules = modules

    def find_spec(self, name, path=None, target=None):
        if name == self.solution[0] and os.path.isfile(self.solution[1]):
            return importlib.util.spec_from_file_location(name, self.solution[1])
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


def _isolate_imports(spec: dict) -> None:
    work = os.path.realpath(spec["workdir"])
    sys.path[:] = [p for p in sys.path if p and not os.path.realpath(p).startswith(work)]
    sys.path_importer_cache.clear()
    solution_path = os.path.join(work, spec["solution_file"])
    sys.meta_path.insert(0, _WorkDirFinder(spec["solution_module"], solution_path, spec["modules"]))
    strict.untrusted_roots[:] = [work + os.sep]
    for name in _BAD_ENV:
        os.environ.pop(name, None)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"


def _test_module(spec: dict, path: str, config) -> types.ModuleType:
    """The hidden tests as a module compiled from memory, asserts rewritten by pytest for
    readable failures, with a private builtins copy."""
    from _pytest.assertion.rewrite import rewrite_asserts

    source = spec["source"]
    tree = ast.parse(source)
    try:
        rewrite_asserts(tree, source.encode(), path, config)
    except Exception:  # readable messages are a nicety; the strict asserts are already in place
        tree = ast.parse(source)
    module = types.ModuleType("test_hidden")
    module.__file__ = path
    module.__rlhub_trusted__ = True
    module.__dict__["__builtins__"] = _PRISTINE
    strict.inject(module.__dict__)
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    sys.modules["test_hidden"] = module
    exec(compile(tree, path, "exec"), module.__dict__)
    return module


class _Plugin:
    def __init__(self, spec: dict, events: _Events, deselect: list[str]) -> None:
        self.spec, self.events, self.deselect = spec, events, set(deselect)

    def pytest_pycollect_makemodule(self, module_path, parent):
        import pytest

        spec = self.spec

        class HiddenModule(pytest.Module):
            def _getobj(self):
                return _test_module(spec, str(self.path), self.config)

        return HiddenModule.from_parent(parent, path=module_path)

    def pytest_collection_modifyitems(self, session, config, items):
        names = [_name(item.nodeid) for item in items]
        self.events.send(t="collected", ids=names)
        items[:] = [item for item, name in zip(items, names) if name not in self.deselect]

    def pytest_collectreport(self, report):
        if report.failed or report.skipped:
            self.events.send(t="collect_error", message=_text(report))

    def pytest_runtest_logstart(self, nodeid, location):
        self.events.send(t="start", id=_name(nodeid))

    def pytest_runtest_logreport(self, report):
        self.events.send(t="result", id=_name(report.nodeid), when=report.when, outcome=report.outcome,
                         wasxfail=hasattr(report, "wasxfail"), message=_text(report) if report.failed or report.skipped else "")


def _name(nodeid: str) -> str:
    """'…/test_hidden.py::TestX::test_y[1]' -> 'TestX::test_y[1]'."""
    return nodeid.split("::", 1)[1] if "::" in nodeid else nodeid


def _text(report) -> str:
    try:
        text = report.longreprtext
    except Exception:
        text = str(report.longrepr)
    return text[-2000:]


_PRISTINE: dict = {}


def main(spec: dict, placeholder: str, deselect: list[str], wfd: int) -> None:
    """Never returns: the child ends with os._exit, so nothing of the parent's runs twice."""
    code = 1
    try:
        os.setpgid(0, 0)
        _keep_only_fds({0, 1, 2, wfd})
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        gc.freeze()  # the warm worker's objects: never traversed again by this child's collections
        _PRISTINE.update(vars(builtins))
        events = _Events(wfd)
        _isolate_imports(spec)
        import pytest

        args = [placeholder, "-c", os.devnull, "--rootdir", os.path.dirname(placeholder), "--noconftest",
                "-q", "--tb=short", "-o", "python_files=test_*.py", *_NO_PLUGINS]
        pytest.main(args, plugins=[_Plugin(spec, events, deselect)])
        events.send(t="done")
        code = 0
    except BaseException as exc:  # e.g. the model's code raised SystemExit past pytest
        try:
            events.send(t="aborted", message=f"{type(exc).__name__}: {exc}"[:500])
        except Exception:
            pass
    finally:
        os._exit(code)


def _keep_only_fds(keep: set[int]) -> None:
    low = 0
    for fd in sorted(keep):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 20)
