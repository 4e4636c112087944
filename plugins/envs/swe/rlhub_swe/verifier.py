"""The `swe_tests` verifier: a patch (or the work tree a session left) graded as SWE-bench grades,
by hidden FAIL_TO_PASS and PASS_TO_PASS tests run in the sandbox.

reward = the fraction of FAIL_TO_PASS tests that pass, gated on every PASS_TO_PASS test still
passing (`reward: all_or_nothing`: 1 only when all of both pass). Before any test runs:
- a single-turn answer must hold a unified diff that parses (`unidiff`) and applies exactly
  (patch.py); a diff outside the repository, with binary content or symlinks, or too large is
  refused with its reason (`details.refused`);
- edits to test configuration (conftest.py, pytest.ini, setup.cfg, tox.ini, pyproject.toml, .pth)
  and to the hidden tests' own paths are put back as they were (`details.ignored_edits`): they
  never reach the hidden tests; what the model left in a protected path's way (a file where the
  tests directory was, files under a protected file turned directory) is removed and named there;
- a tree that cannot exist on disk (a path both a file and a directory, a name no file system
  takes) is the model's failure (`refused: bad_tree`), never a sandbox fault;
- a tree that ends up unchanged earns 0 without running anything (`refused: empty`).

How the hidden tests reach the code (`task.hidden.runner`):
- `stand_in` (generated projects): the hidden tests run in the test runner of rlhub-unittest,
  from memory; `import inventory.ledger` gets a stand-in of that module whose every use is a
  request to the model's own process (package mode): the model's code never runs where the
  report is made;
- `in_process` (SWE-bench-shaped data on real repositories, whose tests subclass, monkeypatch and
  reach into internals): pytest runs the repository's test files with the model's code in its own
  process (inprocess.py), defended by hidden sentinel tests (copies of FAIL_TO_PASS tests in
  their modules) that must fail and by requiring every expected test id to be reported with a
  call phase; and before any test runs, a change that reaches for the test runner, introspection or
  dynamic code is refused (shapes.py: what forging needs and a fix to the repository does not).
Generated projects' hidden suite also runs as a user runs it (plain `python -m pytest` in a venv,
plain_pytest.py) where the change reaches for what could tell its process apart and the stand-in's
verdict would earn something: a test passes only if it passes in both. A rename (`task.hidden.rename`) whose final tree keeps the old name earns 0 before
any test runs (renames.py), and so does one whose old name a lookup finds in either run (the
package, its modules, the class, the tests' instances: tasks.probe_instances); a feature (`task.hidden.stated`) earns at most the share of the parts its issue
names that work (stated.py). Write-the-tests tasks (`task.hidden.mutation`) are graded by mutants
killed (mutation.py).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Literal

from pydantic import Field

from hub import Verdict, Verifier, VerifierConfig, VerifierError
from hub.core.errors import TaskError
from hub.core.verifier import HiddenData

from . import patch, trees

UNCHANGED = "the patch changes nothing"


class SweConfig(VerifierConfig):
    reward: Literal["fraction", "all_or_nothing"] = Field(
        "fraction", description="fraction: FAIL_TO_PASS passing, gated on PASS_TO_PASS; all_or_nothing: 1 only if all pass")
    max_patch_bytes: int = Field(patch.MAX_PATCH_BYTES, gt=0, description="a larger diff is refused unread")
    runner_access: Literal["refuse", "allow"] = Field(
        "refuse", description="in-process mode: refuse a change that reaches for the test runner, introspection or "
                              "dynamic code beyond what the gold patch adds (shapes.py); allow: the sentinels alone defend")


class SweHidden(HiddenData):
    base: dict[str, Any]                  # the repository before the model acts (trees.py)
    runner: Literal["stand_in", "in_process"] = "stand_in"
    package: str | None = None            # stand_in: the package the hidden tests import
    tests: str = ""                       # stand_in: the hidden test module; in_process: the test patch (a diff)
    fail_to_pass: list[str] = Field(default_factory=list)
    pass_to_pass: list[str] = Field(default_factory=list)
    protected: list[str] = Field(default_factory=list)  # globs whose edits never count (the hidden tests' paths)
    mutation: dict[str, Any] | None = None  # write-the-tests: {"module", "tests", "min_tests"}
    stated: dict[str, list[str]] = Field(default_factory=dict)  # feature: each name the issue asks for -> its F2P tests
    rename: dict[str, Any] | None = None  # rename: {"old", "new", "package", "target"} (renames.kept)
    suite: dict[str, Any] | None = None   # stand_in: the target's recipe, whose suite runs as a user runs it (plain_pytest)


class SweTests(Verifier):
    """Hidden FAIL_TO_PASS / PASS_TO_PASS tests on the patched repository, in the sandbox."""

    name = "swe_tests"
    Config = SweConfig
    Hidden = SweHidden

    # -- the two ways an answer arrives ---------------------------------------------------------
    def verify(self, task, response: str, ctx) -> Verdict:
        h = self.hidden(task)
        read = self._read_patch(h, response)
        if isinstance(read, Verdict):
            return read
        base, final = read
        return self.grade_tree(task, h, base, final, ctx)

    def response_key(self, task, response: str) -> str | None:
        """The verdict depends on the tree the patch leaves once edits to protected paths are put
        back (and on which were): two diffs of one change, whatever their context lines and
        headers, get one verdict."""
        h = self.hidden(task)
        read = self._read_patch(h, response)
        if isinstance(read, Verdict):
            return None  # a refusal is cheap: grade it
        base, final = read
        final, put_back = trees.restore(base, final, h.protected)
        body = json.dumps([sorted(final.items()), put_back], ensure_ascii=False)
        return "tree:" + hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()

    def _read_patch(self, h: SweHidden, response: str) -> Verdict | tuple[dict[str, str], dict[str, str]]:
        """(base, final tree) for a single-turn answer, or the refusal that grades it."""
        if len(response) > 4 * self.config.max_patch_bytes:
            return _refused("too_large", f"the response is {len(response)} characters long")
        diff = patch.extract(response)
        if diff is None:
            return _refused("no_diff", "no unified diff in the response (answer with one ```diff block)")
        try:
            changes = patch.parse(diff, self.config.max_patch_bytes)
        except patch.PatchRefused as exc:
            return _refused(exc.kind, str(exc))
        base = self._base(h)
        try:
            final, _ = patch.apply(base, changes)
        except patch.DoesNotApply as exc:
            return _refused("does_not_apply", f"the patch does not apply: {exc}")
        return base, final

    def verify_files(self, task, files: dict[str, str | bytes], ctx, notes: dict[str, Any] | None = None) -> Verdict:
        """Grade the work tree a session left: `files` are its regular files (symlinks are never
        among them); binary and oversized files are left out and named."""
        h = self.hidden(task)
        base = self._base(h)
        final: dict[str, str] = {}
        left_out = []
        total = 0
        for path, data in sorted(files.items()):
            if isinstance(data, (bytes, bytearray)):
                try:
                    data = bytes(data).decode("utf-8")
                except UnicodeDecodeError:
                    left_out.append(f"{path} (binary)")
                    continue
            total += len(data)
            if len(data) > trees.MAX_FILE_BYTES or total > trees.MAX_TREE_BYTES:
                left_out.append(f"{path} (too large)")
                continue
            final[path] = data
        extra = dict(notes or {})
        left_out = [*extra.pop("left_out", []), *left_out]  # the session's: links, FIFOs, sockets, big files
        if left_out:
            extra["left_out"] = left_out[:20]
        return self.grade_tree(task, h, base, final, ctx, extra)

    # -- grading a final tree ---------------------------------------------------------------------
    def _base(self, h: SweHidden | dict[str, Any]) -> dict[str, str]:
        try:
            return trees.base_tree(h.base if isinstance(h, SweHidden) else h)
        except trees.TreeError as exc:
            raise VerifierError(f"the task's repository is unavailable: {exc}") from None

    def grade_tree(self, task, h: SweHidden, base: dict[str, str], final: dict[str, str], ctx,
                   notes: dict[str, Any] | None = None) -> Verdict:
        final, put_back = trees.restore(base, final, h.protected)
        details: dict[str, Any] = dict(notes or {})
        if put_back:
            details["ignored_edits"] = put_back[:20]
            details["ignored_why"] = "tests and test configuration are the hidden tests' own: edits to them never count"
        unwritable = [f"{p!r} ({why})" for p in final if (why := trees.bad_path(p))]
        unwritable += [f"{above!r} is a file and {below!r} needs it to be a directory" for above, below in trees.clashes(final)]
        if unwritable:  # only the model's own paths are left here (a restore resolves its clashes): its failure
            return Verdict(0.0, False, details={**details, "refused": "bad_tree",
                                                "reason": "the tree cannot exist on disk: " + "; ".join(unwritable[:5])})
        edited = trees.changed(base, final)
        if not edited:
            reason = UNCHANGED + (" once edits to tests and test configuration are set aside" if put_back else "")
            return Verdict(0.0, False, details={**details, "reason": reason, "refused": "empty"})
        details["changed"] = edited[:20]
        if sum(len(t) for t in final.values()) > trees.MAX_TREE_BYTES:
            return Verdict(0.0, False, details={**details, "reason": "the repository grew past its size limit", "refused": "too_large"})
        if h.rename is not None:
            from .renames import kept

            where = kept(h.rename, base, final, self._base(h.rename["target"]))
            if where:
                return Verdict(0.0, False, details={
                    **details, "old_name_kept": where[:10], "reason": f"the old name `{h.rename['old']}` is kept: "
                    f"{where[0]} (a rename leaves no alias)"})
        if h.mutation is not None:
            from .mutation import grade_tests

            return grade_tests(self, task, h, base, final, ctx, details)
        if h.runner == "in_process":
            from .inprocess import run_tests
            from .shapes import refusal, special_cased

            gold = self._gold_tree(task, base)
            why = refusal(base, final, gold) if self.config.runner_access == "refuse" else None
            if why:
                return Verdict(0.0, False, details={**details, "refused": "runner_access", "reason": why})
            why = special_cased(base, final, gold, _test_files(h, base), h.fail_to_pass)
            if why:
                return Verdict(0.0, False, details={**details, "refused": "special_case", "reason": why})

            outcome, more, tamper = run_tests(h, final, ctx)
        else:
            outcome, more, tamper = self._stand_in(h, final, ctx)
        details.update(more)
        return self.score(h, outcome, tamper, details)

    @staticmethod
    def _gold_tree(task, base: dict[str, str]) -> dict[str, str] | None:
        """The tree the task's reference patch leaves (None when it has none that applies)."""
        diff = patch.extract(getattr(task, "reference", "") or "")
        if not diff:
            return None
        try:
            return patch.apply(base, patch.parse(diff, max_bytes=64 << 20))[0]
        except (patch.PatchRefused, patch.DoesNotApply):
            return None

    def _stand_in(self, h: SweHidden, final: dict[str, str], ctx):
        from rlhub_unittest.verifier import TestSpec, UnitTests, UnitTestsHidden

        unit = UnitTests()
        try:
            spec = TestSpec.from_hidden(UnitTestsHidden(tests=h.tests, package=h.package,
                                                        test_ids=[*h.fail_to_pass, *h.pass_to_pass]), unit.config)
        except (ValueError, TaskError) as exc:  # a malformed hidden test module (pydantic or TaskError)
            raise VerifierError(f"the task's hidden tests are unusable: {exc}") from None
        if spec.solution_path not in final:
            return None, {"reason": f"the package {h.package} is gone ({spec.solution_path} is missing)"}, None
        suite, result = unit.run_suite(spec, final, ctx)
        outcome, details, tamper = unit.test_outcomes(suite, result)
        error = _error_line(details.get("collect_errors") or [])
        if error and details.get("reason") and not details.get("tests_passed"):
            details["reason"] = error  # the error itself, not the last line of its traceback
        earns = outcome is not None and all(outcome.get(t) for t in h.pass_to_pass) and any(
            outcome.get(t) for t in h.fail_to_pass)
        if earns and h.suite is not None and not tamper:  # (a verdict that is already 0 needs no second run)
            self._as_users_run_it(h, final, ctx, outcome, details)
        return outcome, details, tamper

    def _as_users_run_it(self, h: SweHidden, final: dict[str, str], ctx, outcome: dict[str, bool], details: dict) -> None:
        """The suite again as a user runs it (plain_pytest.py), on every answer the first run pays
        for: in a user's checkout at a path drawn per run, each test a few frames deeper than pytest
        calls it and once more from a top-level script's stack; a test passes only if it passes in
        every one of those (and in the first run)."""
        import tempfile

        from hub.sandbox.profile import Mount

        from . import plain_pytest

        files, where = plain_pytest.suite(h)
        counted = [t for t, ok in outcome.items() if ok and t in where]
        if not counted:
            return
        layout = plain_pytest.Layout(h.package or "project")
        for path in {where[t] for t in counted}:
            files[path] = plain_pytest.with_script_copies(files[path], sorted({t for t in counted if where[t] == path}))
        files["tests/conftest.py"] = plain_pytest.conftest(layout.extra_frames)
        with tempfile.TemporaryDirectory(prefix="rlhub-swe-plain-") as host_dir:
            layout.write(host_dir, {**final, **files})
            profile = ctx.profile.merged(mounts=(*ctx.profile.mounts, Mount(src=host_dir, dst=layout.root)))
            result = ctx.sandbox.run(profile, layout.command(sorted({where[t] for t in counted})))
        if result.infra_error:
            raise VerifierError(f"sandbox failed (not the model's fault): {result.infra_error}")
        ok, failed = plain_pytest.passed(result.stdout), plain_pytest.failed(result.stdout)
        lost = [t for t in counted if not all(plain_pytest.test_passed(f"{where[t]}::{t}{suffix}", ok, failed)
                                               for suffix in ("", plain_pytest.AS_A_SCRIPT))]
        found = plain_pytest.suspects(self._base(h), final, h.package or "")
        details["plain_pytest"] = {"where": layout.root, "extra_frames": layout.extra_frames,
                                   "passed": f"{len(counted) - len(lost)}/{len(counted)}"}
        if found:
            details["plain_pytest"]["looks_at"] = found[:5]
        if lost:
            details["plain_pytest"]["failed"] = lost[:10]
            script = [t for t in lost if plain_pytest.test_passed(f"{where[t]}::{t}", ok, failed)]
            how = (f"{len(script)} of them only when called from a top-level script's stack" if script else
                   f"run from {layout.root}, {layout.extra_frames} frames deeper")
            details["reason"] = (f"{len(lost)} test(s) pass under the grader but not under a user's plain `python -m pytest` "
                                 f"({how}" + (f"; the change looks at its process: {found[0]}" if found else "") + ")")
            for t in lost:
                outcome[t] = False

    def explain_reward(self, verdict: dict[str, Any]) -> str | None:
        """The rule (`reward: fraction` or `all_or_nothing`) applied to this verdict's test counts,
        and what set the reward aside from it (a refusal, forged results, broken PASS_TO_PASS
        tests, a kept old name, the share of the issue's parts that work)."""
        d = verdict.get("details") or {}
        reward = float(verdict.get("reward") or 0.0)
        if verdict.get("error"):
            return None
        if d.get("refused"):
            return f"0: the answer was refused before any test ran ({d['refused']})"
        if "fail_to_pass" not in d:
            return f"{reward:.4g}: {d['reason']}" if d.get("reason") and reward == 0 else None
        fixed, f2p = _counts(d["fail_to_pass"])
        kept, p2p = _counts(d.get("pass_to_pass", "0/0"))
        failing = d.get("fail_to_pass_failing") or []
        rule = (f"reward: {self.config.reward}: the share of FAIL_TO_PASS tests that pass ({fixed}/{f2p} = {fixed / f2p:.4g}), "
                if self.config.reward == "fraction" and f2p else
                f"reward: {self.config.reward}: 1 only when all {f2p} FAIL_TO_PASS tests pass ({fixed} do), ")
        rule += f"counted only while every PASS_TO_PASS test still passes ({kept}/{p2p} do)"
        if d.get("tampering"):
            return f"0: {d['tampering']} (the run's results cannot be trusted; {rule})"
        if kept < p2p:
            named = d.get("pass_to_pass_broken") or []
            more = p2p - kept - len(named)
            broken = ", ".join(named) + (f" and {more} more" if more > 0 else "")
            cause = f", as {d['reason']}" if d.get("reason") and not fixed and not kept else ""
            return (f"0 with {fixed}/{f2p} FAIL_TO_PASS passing: {p2p - kept} PASS_TO_PASS test(s) broke{cause} "
                    f"({broken}); {rule}")
        if d.get("old_name_kept"):
            return f"0: {d.get('reason')} ({rule})"
        why = f"{reward:.4g} = {rule}"
        if failing:
            why += f"; still failing: {', '.join(failing)}"
        if d.get("stated_api") and d.get("stated_api_missing"):
            why += (f"; at most the share of the issue's named parts that work, {d['stated_api']} "
                    f"(missing: {', '.join(d['stated_api_missing'])})")
        return why

    def score(self, h: SweHidden, outcome: dict[str, bool] | None, tamper: str | None, details: dict[str, Any]) -> Verdict:
        if outcome is None:
            return Verdict(0.0, False, details=details)
        f2p = [t for t in h.fail_to_pass]
        fixed = [t for t in f2p if outcome.get(t)]
        broken = [t for t in h.pass_to_pass if not outcome.get(t)]
        fraction = len(fixed) / len(f2p) if f2p else 1.0
        kept = 1.0 - len(broken) / len(h.pass_to_pass) if h.pass_to_pass else 1.0
        details.update(fail_to_pass=f"{len(fixed)}/{len(f2p)}", pass_to_pass=f"{len(h.pass_to_pass) - len(broken)}/"
                                                                           f"{len(h.pass_to_pass)}")
        if broken:
            details["pass_to_pass_broken"] = broken[:10]
        still = [t for t in f2p if not outcome.get(t)]
        if still:
            details["fail_to_pass_failing"] = still[:10]
        components = {"fail_to_pass": fraction, "pass_to_pass": kept}
        if tamper:
            return Verdict(0.0, False, components=components, details=details)
        if h.rename is not None:  # the old name found by a look-up (the package, its modules, the class, an instance)
            where = self._old_name_found(h, outcome, details)
            if where:
                details["old_name_kept"] = where[:10]
                details["reason"] = f"the old name `{h.rename['old']}` is kept: {where[0]} (a rename leaves no alias)"
                return Verdict(0.0, False, components=components, details=details)
        if broken:
            details.setdefault("reason", f"{len(broken)} PASS_TO_PASS test(s) broken: the change broke what worked")
            return Verdict(0.0, False, components=components, details=details)
        passed = len(fixed) == len(f2p)
        reward = fraction if self.config.reward == "fraction" else float(passed)
        if h.stated:  # a feature: at most the share of the parts the issue names that works
            parts = {n: sum(bool(outcome.get(t)) for t in tests) / len(tests) for n, tests in h.stated.items() if tests}
            share = sum(parts.values()) / len(parts) if parts else 1.0
            details["stated_api"] = f"{share:.3g} ({sum(v == 1.0 for v in parts.values())}/{len(parts)} parts whole)"
            if share < 1.0:
                details["stated_api_missing"] = [n for n, v in parts.items() if v < 1.0]
                reward = min(reward, share)
        return Verdict(reward, passed, components=components, details=details)

    @staticmethod
    def _old_name_found(h: SweHidden, outcome: dict[str, bool], details: dict[str, Any]) -> list[str]:
        """Where a run found the old name: the failing look-ups' own words (tasks.KEPT), or that the
        old-name test failed (in the stand-in's run or in the plain one)."""
        from .tasks import KEPT, OLD_NAME_TEST

        marker = KEPT.format(h.rename["old"])
        found = [f"{t}: " + str(m).split(marker, 1)[1].splitlines()[0][:200]
                 for t, m in (details.get("failures") or {}).items() if marker in str(m)]
        if not found and not outcome.get(OLD_NAME_TEST):
            found = [f"{OLD_NAME_TEST} fails (the old name answers, or the new one does not)"]
        return found

    def hacks(self, task) -> list:
        from .hacks import task_hacks

        return task_hacks(self.hidden(task), task)


_ERROR_LINE = re.compile(r"^(?:[\w.]+\.)?\w*(?:Error|Exception|Interrupt|Exit)\b.*$", re.M)


def _counts(text: Any) -> tuple[int, int]:
    """(passing, total) from a verdict's "3/5"."""
    try:
        a, b = str(text).split("/", 1)
        return int(a), int(b)
    except ValueError:
        return 0, 0


def _error_line(messages: list[str]) -> str | None:
    """'SyntaxError: ...' from the first message that names an exception (what a person reads first)."""
    for message in messages:
        m = _ERROR_LINE.search(str(message))
        if m:
            return m.group(0).strip()[:300]
    return None


def _refused(kind: str, reason: str) -> Verdict:
    return Verdict(0.0, False, details={"refused": kind, "reason": reason})


def _test_files(h: SweHidden, base: dict[str, str]) -> dict[str, str]:
    """The hidden test files the task's test patch writes ({} when it has none that applies)."""
    if not h.tests.strip():
        return {}
    try:
        tree, _ = patch.apply(base, patch.parse(h.tests, max_bytes=64 << 20))
    except (patch.PatchRefused, patch.DoesNotApply):
        return {}
    return {p: t for p, t in tree.items() if t != base.get(p)}
