"""`rlhub check`: pytest over a registry file with the rlhub plugin, and a summary of what it found."""

from __future__ import annotations

import json
import os


def run_checks(registry: str | None, select: str | None, seeds: int, fail_fast: bool = False,
               verbose: bool = False, json_out: bool = False, workers: int = 0) -> int:
    """`rlhub check`: pytest over the registry file with the rlhub plugin."""
    import pytest

    from ..config.registry import default_path

    path = str(registry or default_path())
    args = [path, f"--rlhub-registry={path}", f"--rlhub-seeds={seeds}", "-p", "no:cacheprovider",
            "--rootdir", os.path.dirname(os.path.abspath(path)) or "."]
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


class _Summary:
    def __init__(self) -> None:
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        self.failures: list[dict[str, str]] = []

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            self.counts[report.outcome] = self.counts.get(report.outcome, 0) + 1
            if report.failed:
                self.failures.append({"check": report.nodeid, "message": str(report.longrepr)[-1000:]})
