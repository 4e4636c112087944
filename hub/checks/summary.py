"""What a check run found: counts, failures, the slowest environments, the exit code, and the
JSON summary line of `rlhub check --json`."""

from __future__ import annotations

import json
import sys


class Summary:
    """Counts and failures of a check run (a pytest plugin object here; filled directly by the
    Ray runner), and the JSON summary line of `rlhub check --json`."""

    def __init__(self, workers: int = 0, quick: bool = False) -> None:
        self.quick = quick  # the edit loop's tier: it proves less, and the JSON line says so
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        self.failures: list[dict[str, str]] = []
        self.slowest: list[dict] = []
        self.workers = workers
        self.exit_code = 0

    def record(self, check: str, outcome: str, message: str = "") -> None:
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        if outcome == "failed":
            self.failures.append({"check": check, "message": message[-1000:]})

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            self.record(report.nodeid, report.outcome, str(report.longrepr))

    def pytest_unconfigure(self, config) -> None:
        progress = config.pluginmanager.get_plugin("rlhub-progress")
        if progress is not None:
            self.slowest = progress.slowest()

    def finish(self, json_out: bool) -> int:
        if self.quick:
            print("rlhub check --quick: one seed, no determinism or fresh-process checks; "
                  "this proves less than `rlhub check` (and CI)", file=sys.stderr)
        if json_out:
            print(json.dumps({"exit_code": self.exit_code, **self.counts, "failures": self.failures,
                              "workers": self.workers, "slowest": self.slowest, "quick": self.quick}))
            sys.stdout.flush()
        return self.exit_code
