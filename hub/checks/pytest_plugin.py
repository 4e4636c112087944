"""pytest plugin (entry point `pytest11`): `pytest registry.yaml` runs the verifier checks.

Any YAML file named `registry*.yaml` given to pytest (or named by `--rlhub-registry`) is
collected as one test per (environment, check, task index). Plugin authors point pytest at
their own registry fragment and get every check for free.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .library import CHECKS, CheckFailed, CheckSkipped, in_other_process


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rlhub", "rlhub verifier checks")
    group.addoption("--rlhub-registry", metavar="PATH", action="append", default=[],
                    help="collect checks from this registry file (repeatable)")
    group.addoption("--rlhub-select", metavar="GLOB", help="only environments matching GLOB")
    group.addoption("--rlhub-seeds", type=int, default=2, metavar="N", help="task indices checked per environment")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    is_explicit = any(Path(p).resolve() == file_path.resolve() for p in parent.config.getoption("rlhub_registry"))
    if is_explicit or (file_path.suffix in (".yaml", ".yml") and file_path.name.startswith("registry")):
        return RegistryFile.from_parent(parent, path=file_path)
    return None


# Checks that compare against a second interpreter, and what they need from it.
OTHER_PROCESS_CHECKS = {"digests": "generation_deterministic", "references": "reference_fresh_process"}


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
        self._other_process: dict[str, dict] = {}
        for renv in envs:
            n = seeds if renv.num_tasks is None else min(seeds, renv.num_tasks)
            for name in CHECKS:
                for index in range(n):
                    yield CheckItem.from_parent(self, name=f"{renv.id}::{name}[{index}]",
                                                renv=renv, check=name, index=index)

    def other_process(self, what: str) -> dict:
        """`what` ("digests", "references") for every label of this file that a collected check
        needs, computed once in a second interpreter on first need."""
        if what not in self._other_process:
            check = OTHER_PROCESS_CHECKS[what]
            labels = sorted({i.label for i in self.session.items
                             if isinstance(i, CheckItem) and i.parent is self and i.check == check})
            self._other_process[what] = in_other_process(str(self.path), labels, what)
        return self._other_process[what]

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
        cat = self.parent.catalog
        try:
            what = next((w for w, c in OTHER_PROCESS_CHECKS.items() if c == self.check), None)
            if what:
                CHECKS[self.check](cat, self.renv, self.index, other_process=self.parent.other_process(what))
            else:
                CHECKS[self.check](cat, self.renv, self.index)
        except CheckSkipped as exc:
            pytest.skip(str(exc))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return f"{self.check} failed: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.renv.id} {self.check} {self.label}"


def pytest_configure(config: pytest.Config) -> None:
    for name in CHECKS:
        config.addinivalue_line("markers", f"rlhub_{name}: rlhub verifier check '{name}'")
