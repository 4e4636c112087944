"""The `swebench` dataset preset: SWE-bench-shaped rows graded by `swe_tests` in-process mode.

    - dataset: {id: mybench/swe-v1, path: data/swe.jsonl, preset: swebench, assets: repos/}

A row has instance_id, repo ("owner/name"), base_commit, problem_statement, patch (the gold
patch: the reference), test_patch, FAIL_TO_PASS and PASS_TO_PASS (JSON lists of pytest node ids,
or lists). Nothing is fetched: the repository must be in the entry's `assets` folder, as
- a git repository (a clone or a bare mirror) named `owner__name` (SWE-bench's own convention),
  `name`, or `owner/name`, holding `base_commit`; or
- a tarball of the tree at the base commit: `<instance_id>.tar.gz` (or .tar, .tgz).
The tests run in-process (the repositories' tests subclass, monkeypatch and reach into
internals): see inprocess.py for the defences that mode relies on.
"""

from __future__ import annotations

import json
import os

from . import patch

PROMPT = ("You are given a Python repository, {repo} at commit {base_commit}, and an issue reported against it.\n\n"
          "## Issue\n\n{prompt}\n\n## Your answer\n\nResolve the issue. " + "{answer}")


def _ids(value) -> list[str]:
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else []
        except ValueError:
            value = [value]
    return [str(v) for v in value or []]


def locate(assets: str, row: dict) -> dict:
    """The base tree of a row: {"git": {...}} or {"tarball": path}; a clear error when it is not there."""
    repo = str(row.get("repo") or "")
    owner, _, name = repo.partition("/")
    iid = str(row.get("instance_id") or "")
    for ext in (".tar.gz", ".tgz", ".tar"):
        path = os.path.join(assets, iid + ext)
        if iid and os.path.isfile(path):
            return {"tarball": path}
    for candidate in (f"{owner}__{name}", name, repo):
        path = os.path.join(assets, candidate) if candidate else ""
        if path and (os.path.isdir(os.path.join(path, ".git")) or os.path.isfile(os.path.join(path, "HEAD"))):
            return {"git": {"repo": path, "commit": str(row.get("base_commit") or "HEAD")}}
    raise ValueError(f"row {iid or repo!r}: no repository for {repo!r} in {assets} (expected a git repository named "
                     f"{owner}__{name} or {name}, or a tarball {iid}.tar.gz)")


def prepare(row: dict) -> dict:
    """Derived columns: the base tree, the runner, the id lists, the test patch's paths (protected)."""
    assets = row.get("assets")
    if not assets:
        raise ValueError("the swebench preset needs the entry's `assets:` folder (where the repositories are)")
    row["swe_base"] = locate(str(assets), row)
    row["swe_runner"] = "in_process"
    row["swe_f2p"] = _ids(row.get("FAIL_TO_PASS"))
    row["swe_p2p"] = _ids(row.get("PASS_TO_PASS"))
    try:
        row["swe_protected"] = sorted({c.path for c in patch.parse(row.get("test_patch") or "", max_bytes=64 << 20)}
                                      | {c.old_path for c in patch.parse(row.get("test_patch") or "", max_bytes=64 << 20)
                                         if c.old_path})
    except patch.PatchRefused:
        row["swe_protected"] = []
    row["answer"] = "Answer with a unified diff against the repository root (paths a/... and b/...) in one ```diff block."
    row["gold"] = patch.fenced(row.get("patch") or "")
    return row


def register_preset(register) -> None:
    register("swebench", dataset={
        "columns": {"prompt": "problem_statement", "base": "swe_base", "runner": "swe_runner", "tests": "test_patch",
                    "fail_to_pass": "swe_f2p", "pass_to_pass": "swe_p2p", "protected": "swe_protected"},
        "prompt_template": PROMPT, "reference_template": "{gold}", "domain": "swe"},
        verifier="swe_tests", profile="swe", tags=("swe", "code", "python", "swebench"), prepare=prepare,
        description="SWE-bench shape: instance_id, repo, base_commit, problem_statement, patch (the reference), "
                    "test_patch, FAIL_TO_PASS, PASS_TO_PASS; repositories (git or tarballs) in the entry's `assets` folder")
