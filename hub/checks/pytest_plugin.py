"""pytest plugin (entry point `pytest11`): `pytest registry.yaml` runs the verifier checks.

Any YAML file named `registry*.yaml` given to pytest (or named by `--rlhub-registry`) is
collected as one test per (environment, check, task index). Plugin authors point pytest at
their own registry fragment and get every check for free.

In parallel (`pytest registry.yaml -n auto`, pytest-xdist) the distribution defaults to
`--dist loadscope`, and a check's scope is its environment (`registry.yaml::<env id>`), so each
environment is checked on one worker: its verdicts are memoised there and shared between its
checks, and that worker's second interpreter (`other_process`) computes what the
other-process checks need for that environment's labels only. (Not `loadgroup`: pytest-xdist
3.8 cannot rename node ids under pytest 9, so its groups silently do nothing.) The summary
names the slowest environments; `--rlhub-progress` shows environments done / total on stderr
(`rlhub check` sets it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .. import tracing
from .library import CHECKS, CheckFailed, CheckSkipped, planned, run_check
from .other_process import EnvAnswers
from .progress import CheckProgress


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rlhub", "rlhub verifier checks")
    group.addoption("--rlhub-registry", metavar="PATH", action="append", default=[],
                    help="collect checks from this registry file (repeatable)")
    group.addoption("--rlhub-select", metavar="GLOB", help="only environments matching GLOB")
    group.addoption("--rlhub-seeds", type=int, default=2, metavar="N", help="task indices checked per environment")
    group.addoption("--rlhub-quick", action="store_true",
                    help="leave out the determinism and fresh-process checks (the edit loop's tier: proves less)")
    group.addoption("--rlhub-progress", action="store_true",
                    help="show environments done / total, failures and rate on stderr (instead of a dot per check)")


def _is_registry(path: Path, explicit: list[str]) -> bool:
    if any(Path(p).resolve() == path.resolve() for p in explicit):
        return True
    return path.suffix in (".yaml", ".yml") and path.name.startswith("registry")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if _is_registry(file_path, parent.config.getoption("rlhub_registry")):
        return RegistryFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """With xdist workers and no --dist given, registry checks are scheduled by scope: one
    environment (`registry.yaml::<env id>`) at a time per worker."""
    if not config.pluginmanager.hasplugin("xdist") or not config.getoption("numprocesses", None):
        return
    given = config.invocation_params.args
    if any(str(a).startswith(("--dist", "-d")) for a in given):
        return
    if any(_is_registry(Path(str(a).split("::")[0]), config.getoption("rlhub_registry")) for a in config.args):
        config.option.dist = "loadscope"


class RegistryFile(pytest.File):
    def collect(self):
        from ..config.catalog import Catalog
        from ..core.errors import UserError

        try:
            self.catalog = Catalog.load(self.path)
            envs = self.catalog.select(self.config.getoption("rlhub_select"))
        except UserError as exc:
            raise self.CollectError(str(exc)) from None
        seeds = self.config.getoption("rlhub_seeds")
        self.answers = EnvAnswers(str(self.path), seeds)  # the second interpreter starts on first need
        self.config.add_cleanup(self.answers.close)
        for renv in envs:  # the node id's scope, `registry.yaml::<env id>`, keeps an environment on one worker
            for name, index in planned(renv, seeds, self.config.getoption("rlhub_quick")):
                yield CheckItem.from_parent(self, name=f"{renv.id}::{name}[{index}]", renv=renv, check=name, index=index)

    class CollectError(Exception):
        pass

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, self.CollectError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CheckItem(pytest.Item):
    def __init__(self, *, renv, check: str, index: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.renv, self.check, self.index = renv, check, index
        self.label = renv.label(index).to_json()
        self.add_marker(getattr(pytest.mark, f"rlhub_{check}"))

    def runtest(self) -> None:
        try:
            run_check(self.parent.catalog, self.renv, self.check, self.index,
                      lambda what: self.parent.answers.get(self.renv, what))
        except CheckSkipped as exc:
            pytest.skip(str(exc))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return f"{self.check} failed: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.renv.id} {self.check} {self.label}"


def pytest_configure(config: pytest.Config) -> None:
    tracing.setup("rlhub-check")  # a span per check, exported only if OTEL_EXPORTER_OTLP_ENDPOINT is set
    for name in CHECKS:
        config.addinivalue_line("markers", f"rlhub_{name}: rlhub verifier check '{name}'")
    if not hasattr(config, "workerinput"):  # the controller (or a run without workers) reports
        config.pluginmanager.register(CheckProgress(config, bar=config.getoption("rlhub_progress")), "rlhub-progress")
