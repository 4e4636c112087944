"""Progress and timing of the verifier checks, by environment.

`Board` keeps the score: how many checks each environment has, how many are done and failed,
and each environment's time over its checks. With `show` it reports environments done / total,
failed checks and the rate on stderr: a tqdm bar on a terminal, a line per tenth elsewhere.
`CheckProgress` feeds it from pytest (registered by the rlhub pytest plugin in the process that
reports: xdist's controller, or the only process) and prints the slowest environments in the
terminal summary; the Ray runner feeds it directly.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections import Counter, defaultdict
from typing import Callable, ContextManager

import pytest

SLOWEST = 10


def env_of(nodeid: str) -> str | None:
    """The environment of a check's node id (`registry.yaml::cad/x-v1::wrong_fails[0]`); None for
    anything that is not a registry check."""
    path, _, rest = nodeid.partition("::")
    if not path.endswith((".yaml", ".yml")) or "::" not in rest:
        return None
    return rest.split("::", 1)[0]


class Board:
    def __init__(self, show: bool, suspend: Callable[[], ContextManager] = contextlib.nullcontext) -> None:
        self.show = show
        self.suspend = suspend  # writes to the real stderr happen inside it (pytest: capturing suspended)
        self.checks: Counter[str] = Counter()  # env -> checks expected
        self.finished: Counter[str] = Counter()
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.failed: Counter[str] = Counter()
        self.envs_done = 0
        self._bar = None
        self._start = time.monotonic()
        self._next_line = 0.1

    def expect(self, envs: Counter[str]) -> None:
        self.checks.update(envs)

    def add(self, env: str, seconds: float = 0.0, failed: bool = False, finished: bool = False) -> None:
        self.seconds[env] += seconds
        self.failed[env] += bool(failed)
        if finished:
            self.finished[env] += 1
            if self.finished[env] == self.checks.get(env):
                self.envs_done += 1
                with self.suspend():
                    self._report()

    def _report(self) -> None:
        if not self.show:
            return
        failed = sum(self.failed.values())
        if self._bar is None and sys.stderr.isatty():  # made at the first environment done: workers are up by then
            from tqdm import tqdm

            self._bar = tqdm(total=len(self.checks), desc="environments", unit="env", file=sys.stderr,
                             dynamic_ncols=True, initial=self.envs_done - 1)
        if self._bar is not None:
            self._bar.set_postfix_str(f"failed checks: {failed}", refresh=False)
            self._bar.update()
            return
        total = len(self.checks)
        if self.envs_done >= self._next_line * total or self.envs_done == total:
            self._next_line = int(self.envs_done / total * 10 + 1) / 10
            elapsed = time.monotonic() - self._start
            print(f"rlhub check: {self.envs_done}/{total} environments, {failed} failed checks, "
                  f"{self.envs_done / elapsed if elapsed else 0:.2f} env/s", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            with self.suspend():
                self._bar.close()
            self._bar = None

    def slowest(self, n: int = SLOWEST) -> list[dict]:
        ranked = sorted(self.seconds.items(), key=lambda kv: -kv[1])[:n]
        return [{"env": env, "seconds": round(s, 3), "checks": self.checks.get(env, 0), "failed": self.failed.get(env, 0)}
                for env, s in ranked]

    def slowest_lines(self) -> list[str]:
        rows = self.slowest()
        lines = [f"slowest {len(rows)} environments (time over all their checks):"] if rows else []
        for row in rows:
            failed = f", {row['failed']} failed" if row["failed"] else ""
            lines.append(f"{row['seconds']:9.2f}s  {row['env']}  ({row['checks']} checks{failed})")
        if rows:  # the whole registry pass, so its growth shows at every run, and which domain it came from
            domains: dict[str, list[float]] = {}
            for env, s in self.seconds.items():
                domains.setdefault(env.split("/")[0], []).append(s)
            lines.append("  by domain: " + ", ".join(f"{d} {sum(v):.0f}s over {len(v)}" for d, v in
                                                   sorted(domains.items(), key=lambda kv: -sum(kv[1]))))
            lines.append(f"{sum(self.seconds.values()):9.2f}s  total over {len(self.seconds)} environments "
                         f"({sum(self.checks.values())} checks)")
        return lines


class CheckProgress:
    """The pytest side: collection says what to expect, each report adds its phase's time, a
    check is done at its teardown."""

    def __init__(self, config: pytest.Config, bar: bool) -> None:
        capture = config.pluginmanager.getplugin("capturemanager")
        self.board = Board(show=bar and config.getoption("verbose") <= 0,  # -v lists every check instead
                           suspend=capture.global_and_fixture_disabled if capture else contextlib.nullcontext)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not self.board.checks:  # without workers: this process collected everything
            self._expect(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids) -> None:
        if not self.board.checks:  # every worker collects the same checks: count them once
            self._expect(ids)

    def _expect(self, nodeids) -> None:
        self.board.expect(Counter(env for env in map(env_of, nodeids) if env is not None))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        env = env_of(report.nodeid)
        if env is not None:
            self.board.add(env, report.duration, report.failed, finished=report.when == "teardown")

    @pytest.hookimpl(wrapper=True)
    def pytest_report_teststatus(self, report, config):
        status = yield
        if self.board.show and status and env_of(report.nodeid) is not None:
            return status[0], "", status[2]  # no dot per check: the progress line says it
        return status

    def slowest(self) -> list[dict]:
        return self.board.slowest()

    def pytest_terminal_summary(self, terminalreporter) -> None:
        self.board.close()
        lines = self.board.slowest_lines()
        if lines:
            terminalreporter.section(lines[0].rstrip(":"))
            for line in lines[1:]:
                terminalreporter.write_line(line)
