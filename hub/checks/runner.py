"""`rlhub check`: pytest over a registry file with the rlhub plugin, and a summary of what it found."""

from __future__ import annotations

import fnmatch
import json
import os
import sys


def run_checks(registry: str | None, select: str | None, seeds: int, fail_fast: bool = False,
               verbose: bool = False, json_out: bool = False, workers: int = 0) -> int:
    """`rlhub check`: pytest over the registry file with the rlhub plugin."""
    import pytest

    paths = registry_files(registry, select)
    print(f"rlhub: registry: {', '.join(paths)}", file=sys.stderr)
    args = [*paths, *(f"--rlhub-registry={p}" for p in paths), f"--rlhub-seeds={seeds}", "-p", "no:cacheprovider",
            "-W", "ignore::pytest.PytestAssertRewriteWarning",  # hub is imported before pytest starts: expected
            "--rootdir", os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in paths]) or "."]
    if select:
        args.append(f"--rlhub-select={select}")
    if fail_fast:
        args.append("-x")
    args.append("-v" if verbose else "-q")
    summary = _Summary()
    code = pytest.main(args, plugins=[summary])
    if json_out:
        print(json.dumps({"exit_code": int(code), **summary.counts, "failures": summary.failures}))
    return 0 if code == 0 else (2 if code in (3, 4) else 1)


def registry_files(registry: str | None, select: str | None) -> list[str]:
    """The registry files to collect: the one named, else the default registry's files that hold
    a selected environment. A selection that matches nothing is a UserError, before pytest runs."""
    from ..config.catalog import Catalog
    from ..config.registry import default_sources

    paths = [str(registry)] if registry else [str(p) for p in default_sources()]
    keep = []
    for path in paths:
        cat = Catalog.load(path)
        if select is None or any(fnmatch.fnmatchcase(env_id, select) for env_id in cat.envs):
            keep.append(path)
    if not keep:
        Catalog.load(registry).select(select)  # raises the one-line error, with suggestions
    return keep


class _Summary:
    def __init__(self) -> None:
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        self.failures: list[dict[str, str]] = []

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            self.counts[report.outcome] = self.counts.get(report.outcome, 0) + 1
            if report.failed:
                self.failures.append({"check": report.nodeid, "message": str(report.longrepr)[-1000:]})
