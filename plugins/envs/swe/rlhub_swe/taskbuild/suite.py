"""Running a project's own test suite in the sandbox, as grading will (the in-process harness:
pytest, unittest suites through pytest), and keeping the tests a task can stand on: those that
pass on every run, quickly."""

from __future__ import annotations

from dataclasses import dataclass, field

from hub.sandbox.profile import Mount, Profile

from ..inprocess import HARNESS
from ..plugin import SWE_PROFILE

# One whole-suite run at build time: larger than a grading run (a whole suite, not a task's tests).
BUILD_PROFILE: Profile = SWE_PROFILE.merged(name="swe-build", wall_timeout_s=120.0, cpu_s=120, memory_mb=2048,
                                            tmpfs_mb=256)
SLOW_S = 1.0          # a test slower than this on any run is dropped (a task's grading stays within seconds)


def profile_with(deps_dir: str | None, base: Profile = BUILD_PROFILE) -> Profile:
    """`base` with the project's test dependencies mounted read-only where the harness looks."""
    if not deps_dir:
        return base
    from .deps import MOUNT_POINT

    return base.merged(mounts=(*base.mounts, Mount(src=deps_dir, dst=MOUNT_POINT)))


class SuiteError(RuntimeError):
    """The sandbox could not run the suite at all (not the project's fault)."""


@dataclass
class Suite:
    passing: list[str]                               # node ids that passed, with a call phase, on every run
    durations: dict[str, float]                      # the slowest run's seconds per kept test
    dropped: dict[str, str] = field(default_factory=dict)   # node id -> why (flaky, slow, odd id, failing)
    collect_errors: list[str] = field(default_factory=list)
    timed_out: bool = False


def run_once(sandbox, tree: dict[str, str], targets: list[str], profile: Profile = BUILD_PROFILE) -> dict:
    """The harness's report for `targets` (test files or node ids) on `tree`."""
    result = sandbox.call(profile, HARNESS, files=tree,
                          args={"ids": list(targets), "timeout_s": max(1.0, profile.wall_timeout_s * 0.9 - 1.0),
                                "tb": "auto"})  # statements are written from its > and E lines
    if result.infra_error:
        raise SuiteError(f"the sandbox failed: {result.infra_error}")
    report = result.value if isinstance(result.value, dict) else None
    if report is None or not isinstance(report.get("results"), dict):
        why = "timed out" if result.timed_out else f"exit {result.exit_code}, signal {result.signal}"
        return {"results": {}, "collect_errors": [f"no test report ({why})"], "status": "timeout" if result.timed_out else "ended"}
    return report


def passed(entry) -> bool:
    return isinstance(entry, dict) and entry.get("outcome") == "passed" and bool(entry.get("call"))


def usable_id(node: str) -> bool:
    """Node ids that survive a round trip through pytest's command line and a JSON dataset."""
    return node.isascii() and node.isprintable() and " " not in node and "::" in node and len(node) < 300


def baseline(sandbox, tree: dict[str, str], test_files: list[str], runs: int = 3,
             profile: Profile = BUILD_PROFILE) -> Suite:
    reports = [run_once(sandbox, tree, test_files, profile) for _ in range(runs)]
    ids = sorted({n for r in reports for n in r["results"]})
    suite = Suite([], {}, collect_errors=list(reports[0].get("collect_errors") or []),
                  timed_out=any(r.get("status") == "timeout" for r in reports))
    for node in ids:
        entries = [r["results"].get(node) for r in reports]
        ok = [passed(e) for e in entries]
        slowest = max((float(e.get("duration", 0.0)) for e in entries if isinstance(e, dict)), default=0.0)
        if not any(ok):
            suite.dropped[node] = "fails or skips on the unchanged project"
        elif not all(ok):
            suite.dropped[node] = f"flaky: passed {sum(ok)} of {runs} runs"
        elif slowest > SLOW_S:
            suite.dropped[node] = f"slow: {slowest:.2f} s (limit {SLOW_S} s)"
        elif not usable_id(node):
            suite.dropped[node] = "a node id that does not survive the command line"
        else:
            suite.passing.append(node)
            suite.durations[node] = slowest
    return suite


def failing(report: dict, ids: list[str]) -> list[str]:
    """Of `ids`, those the report does not show passing."""
    results = report.get("results") or {}
    return [t for t in ids if not passed(results.get(t))]
