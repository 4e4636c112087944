"""`rlhub swe build SOURCE --out DIR`: validated bug-fix tasks from a real Python project.

The steps (each named in the report, resumable from `DIR/.build/state.json`):
1. fetch the project (source.py), find its packages and tests (layout.py), and install the test
   dependencies it declares where the sandbox can read them (deps.py);
2. run its suite in the sandbox 3 times; keep the tests that pass on every run in under a second
   (suite.py: flaky and slow ones are named and dropped);
3. make candidate bugs in its source (bugs.py: SWE-smith's procedural modifiers, cosmic-ray's
   operators), then combinations of 2-3 validated ones;
4. validate each: its suite runs with the bug; FAIL_TO_PASS = kept tests that now fail (>= 1),
   PASS_TO_PASS = kept tests of the same modules that still pass (>= 1); a second run of exactly
   those ids, as grading runs them, must agree; every test module must still import; one
   instance per failing-test signature;
5. write statements from the failures (statement.py), the snapshot, the dataset and a registry
   (output.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass, field

from hub.core.errors import UserError

from . import bugs, deps, layout, output, source, statement, suite

GRADE_BUDGET_S = 8.0     # the hidden tests of one instance together (the swe profile's 20 s holds them with margin)
MAX_P2P = 40


class BuildError(UserError):
    """The project cannot be built into tasks (no tests, nothing passes, C extensions...): exit 2."""


@dataclass
class Options:
    max_candidates: int = 200        # single-site candidates tried
    combos: int = 40                 # multi-site candidates tried
    seed: int = 0
    runs: int = 3                    # baseline runs of the suite
    slug: str | None = None          # the environments' namespace (default: the project's name)
    test_deps: str = "auto"          # auto: what the project declares; none; or requirements, comma-separated
    progress: bool = True


@dataclass
class Report:
    project: str
    version: str
    tests_found: int = 0
    tests_kept: int = 0
    dropped_tests: dict[str, str] = field(default_factory=dict)
    candidates: int = 0
    kept: int = 0
    dropped: dict[str, int] = field(default_factory=dict)     # why -> how many
    seconds: float = 0.0
    sandbox_runs: int = 0

    def drop(self, why: str) -> None:
        self.dropped[why] = self.dropped.get(why, 0) + 1


def _key(cand: dict) -> str:
    return hashlib.sha256(json.dumps(cand["files"], sort_keys=True).encode()).hexdigest()[:16]


class _State:
    """What earlier runs of this build found, so a rerun never pays for it again."""

    def __init__(self, path: str, fingerprint: str) -> None:
        self.path = path
        self.data = {"fingerprint": fingerprint, "baseline": None, "verdicts": {}}
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                old = json.load(f)
            if old.get("fingerprint") == fingerprint:
                self.data = old

    def save(self) -> None:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.data, f)
        os.replace(tmp, self.path)


def _progress(total: int, enabled: bool, desc: str):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="bug", disable=not enabled, file=sys.stderr, leave=True)


def build(src: str, out: str, options: Options | None = None, sandbox=None) -> Report:
    opts = options or Options()
    started = time.monotonic()
    project = source.load(src)
    tree = project.tree
    pkgs = layout.packages(tree)
    tests = layout.test_files(tree)
    report = Report(project.name, project.version)
    if not pkgs:
        raise BuildError(f"{src}: no package or module found (expected a directory with __init__.py at the root or under src/)")
    native = source.native_files(tree, pkgs)
    if native:
        raise BuildError(f"{src}: C extensions need a build step the sandbox does not run ({', '.join(native[:3])})")
    if not tests:
        raise BuildError(f"{src}: no tests found (test_*.py or *_test.py at the root or under tests/, test/, testing/)")
    sources = layout.source_files(tree, pkgs)
    if opts.test_deps == "auto":
        requirements = deps.declared(tree, project.name)
    elif opts.test_deps == "none":
        requirements = []
    else:
        requirements = [r.strip() for r in opts.test_deps.split(",") if r.strip()]
    deps_dir = deps.install(project.name, project.version, requirements)
    profile = suite.profile_with(deps_dir)
    fingerprint = hashlib.sha256(json.dumps([sorted(tree.items()), opts.seed, requirements],
                                            sort_keys=True).encode()).hexdigest()
    state = _State(os.path.join(out, ".build", "state.json"), fingerprint)
    own = sandbox is None
    if own:
        from hub.sandbox import Sandbox

        sandbox = Sandbox()
    try:
        instances = _build(project, tree, tests, sources, pkgs, opts, state, report, sandbox, profile)
    finally:
        state.save()
        if own:
            sandbox.shutdown()
    slug = opts.slug or _slug(project.name)
    owner = "pypi" if src.startswith("pypi:") else "local"
    repo_name = f"{owner}/{_slug(project.name)}"
    shas = output.snapshot(os.path.join(out, "repos", repo_name.replace("/", "__")), tree, instances)
    records = output.rows(project, repo_name, tree, instances, shas)
    output.write_dataset(os.path.join(out, "instances.jsonl"), records)
    output.write_registry(os.path.join(out, "registry.yaml"), slug, "repos", deps_dir)
    report.kept = len(records)
    report.seconds = round(time.monotonic() - started, 1)
    with open(os.path.join(out, "report.json"), "w", encoding="utf-8") as f:
        json.dump({**report.__dict__, "source": src, "sha256": project.sha256, "packages": pkgs,
                   "test_deps": requirements, "deps_dir": deps_dir,
                   "lines": layout.count_lines(tree, sources)}, f, indent=1)
    return report


def _slug(name: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "project"


def _build(project, tree, tests, sources, pkgs, opts, state, report, sandbox, profile) -> list[dict]:
    if state.data["baseline"] is None:
        base = suite.baseline(sandbox, tree, tests, opts.runs, profile)
        report.sandbox_runs += opts.runs
        state.data["baseline"] = base.__dict__
        state.save()
    base = suite.Suite(**state.data["baseline"])
    report.tests_found = len(base.passing) + len(base.dropped)
    report.tests_kept = len(base.passing)
    report.dropped_tests = dict(list(base.dropped.items())[:200])
    if not base.passing:
        why = "; ".join(base.collect_errors[:2]) or "none passed"
        raise BuildError(f"{project.origin}: no test passes on the unchanged project in the sandbox ({why[:400]}); "
                         "name its test dependencies with --test-deps if it does not declare them")
    modules = sorted({t.split("::", 1)[0] for t in base.passing})
    singles = bugs.candidates(tree, sources, opts.seed, opts.max_candidates)
    kept: list[dict] = []
    signatures: set[tuple[str, ...]] = set()
    bar = _progress(len(singles), opts.progress, f"{project.name}: single bugs")
    for cand in singles:
        _consider(cand, tree, base, modules, pkgs, state, report, sandbox, kept, signatures, profile)
        bar.update(1)
        bar.set_postfix(kept=len(kept), dropped=sum(report.dropped.values()))
    bar.close()
    combos = bugs.combine(tree, [k["candidate"] for k in kept if len(k["candidate"]["strategies"]) == 1],
                          opts.seed, opts.combos)
    bar = _progress(len(combos), opts.progress, f"{project.name}: combined bugs")
    for cand in combos:
        _consider(cand, tree, base, modules, pkgs, state, report, sandbox, kept, signatures, profile)
        bar.update(1)
        bar.set_postfix(kept=len(kept), dropped=sum(report.dropped.values()))
    bar.close()
    report.candidates = len(singles) + len(combos)
    instances = []
    for i, k in enumerate(kept):
        cand = k["candidate"]
        bug_patch = output.patch.make(tree, {**tree, **cand["files"]})
        hidden = {m: tree[m] for m in k["hidden_modules"]}
        instances.append({
            "instance_id": f"{_slug(project.name)}-{project.version}-{i:04d}", "bug_files": cand["files"],
            "hidden_modules": k["hidden_modules"], "f2p": k["f2p"], "p2p": k["p2p"], "strategies": cand["strategies"],
            "statements": statement.write(_package_of(cand["files"], pkgs), k["f2p"], k["messages"], hidden, bug_patch)})
    return instances


def _package_of(files: dict[str, str], pkgs: list[str]) -> str:
    """The import name the bug is in (a project may ship several: toolz and tlz)."""
    path = sorted(files)[0].removeprefix("src/")
    top = path.split("/", 1)[0].removesuffix(".py")
    return top if top in pkgs else pkgs[0]


def _consider(cand, tree, base, modules, pkgs, state, report, sandbox, kept, signatures, profile) -> None:
    key = _key(cand)
    verdict = state.data["verdicts"].get(key)
    if verdict is None:
        verdict = _validate(cand, tree, base, modules, sandbox, report, profile)
        state.data["verdicts"][key] = verdict
        if len(state.data["verdicts"]) % 10 == 0:
            state.save()
    if "dropped" in verdict:
        report.drop(verdict["dropped"])
        return
    signature = tuple(sorted(verdict["f2p"]))
    if signature in signatures:
        report.drop("the same failing tests as a kept bug (duplicate)")
        return
    signatures.add(signature)
    kept.append({**verdict, "candidate": cand})


def _validate(cand, tree, base, modules, sandbox, report, profile) -> dict:
    buggy = {**tree, **cand["files"]}
    first = suite.run_once(sandbox, buggy, modules, profile)
    report.sandbox_runs += 1
    if first.get("collect_errors"):
        return {"dropped": "a test module no longer imports (collection error)"}
    if first.get("status") == "timeout":
        return {"dropped": "the suite timed out with the bug (a hang)"}
    f2p = suite.failing(first, base.passing)
    if not f2p:
        return {"dropped": "no test fails (the behaviour is kept, or no test covers it)"}
    hidden_modules = sorted({t.split("::", 1)[0] for t in f2p})
    p2p = [t for t in base.passing if t.split("::", 1)[0] in hidden_modules and t not in f2p][:MAX_P2P]
    if not p2p:
        return {"dropped": "no PASS_TO_PASS test beside the failing ones"}
    if sum(base.durations.get(t, 0.0) for t in f2p + p2p) > GRADE_BUDGET_S:
        return {"dropped": f"its hidden tests take over {GRADE_BUDGET_S:.0f} s"}
    again = suite.run_once(sandbox, buggy, f2p + p2p, profile)  # exactly what grading runs
    report.sandbox_runs += 1
    if sorted(suite.failing(again, f2p + p2p)) != sorted(f2p):
        return {"dropped": "the failing tests differ between runs"}
    messages = {t: str((first["results"].get(t) or {}).get("message") or "") for t in f2p[:6]}
    return {"f2p": f2p, "p2p": p2p, "hidden_modules": hidden_modules, "messages": messages}
