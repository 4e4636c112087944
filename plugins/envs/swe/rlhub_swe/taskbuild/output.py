"""What a build writes: the repository snapshot (a git repository, one tagged commit per instance:
the project with its bug and without the test modules that hold its hidden tests), the instances
in SWE-bench's schema (JSONL through `datasets`), a registry that serves them through the
`swebench` preset, and the build report."""

from __future__ import annotations

import json
import os
import subprocess

from .. import patch

IDENTITY = ["-c", "user.name=rlhub swe build", "-c", "user.email=swe-build@rlhub.invalid", "-c", "commit.gpgsign=false",
            "-c", "gc.auto=0", "-c", "maintenance.auto=false"]  # no background gc racing the next commit


def _git(repo: str, *args: str, input: str | None = None) -> str:
    run = subprocess.run(["git", *IDENTITY, "-C", repo, *args], capture_output=True, text=True, input=input)
    if run.returncode:
        raise RuntimeError(f"git {' '.join(args[:2])} in {repo}: {run.stderr.strip()[:300]}")
    return run.stdout.strip()


def _write_tree(root: str, tree: dict[str, str]) -> None:
    for path, text in tree.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="") as f:
            f.write(text)


def snapshot(repo: str, base: dict[str, str], instances: list[dict]) -> dict[str, str]:
    """Commits each instance's starting tree into `repo` (made anew), tagged with its id:
    {instance id: commit sha}. The commits share one root commit holding the release as shipped."""
    if os.path.exists(repo):
        subprocess.run(["rm", "-rf", repo], check=True)
    os.makedirs(repo)
    _git(repo, "init", "-q", "-b", "release")
    _write_tree(repo, base)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "the release as published")
    shas = {}
    for inst in instances:
        _git(repo, "checkout", "-q", "-B", "work", "release")
        _write_tree(repo, inst["bug_files"])
        for path in inst["hidden_modules"]:
            os.remove(os.path.join(repo, path))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"{inst['instance_id']}: the task's starting point")
        _git(repo, "tag", "-f", inst["instance_id"])
        shas[inst["instance_id"]] = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "release")
    if instances:
        _git(repo, "branch", "-q", "-D", "work")
    return shas


def rows(project, repo_name: str, base: dict[str, str], instances: list[dict], shas: dict[str, str]) -> list[dict]:
    """SWE-bench's columns (instance_id, repo, base_commit, version, problem_statement, patch,
    test_patch, FAIL_TO_PASS, PASS_TO_PASS) plus rlhub's: the terse statement, the difficulty
    estimate and how the bug was made."""
    out = []
    for inst in instances:
        buggy = {**base, **inst["bug_files"]}
        start = {p: t for p, t in buggy.items() if p not in inst["hidden_modules"]}
        gold = patch.make(start, {**start, **{p: base[p] for p in inst["bug_files"]}})
        test_patch = patch.make(start, buggy)
        out.append({
            "instance_id": inst["instance_id"], "repo": repo_name, "base_commit": shas[inst["instance_id"]],
            "version": project.version, "problem_statement": inst["statements"]["detailed"],
            "problem_statement_terse": inst["statements"]["terse"], "patch": gold, "test_patch": test_patch,
            "FAIL_TO_PASS": json.dumps(inst["f2p"]), "PASS_TO_PASS": json.dumps(inst["p2p"]),
            "difficulty": difficulty(inst), "strategies": inst["strategies"],
        })
    return out


def difficulty(inst: dict) -> dict:
    sites, files, f2p = len(inst["strategies"]), len(inst["bug_files"]), len(inst["f2p"])
    level = "hard" if files > 1 or sites >= 3 else "medium" if sites == 2 else "easy"
    return {"sites": sites, "files": files, "f2p": f2p, "level": level}


def write_dataset(path: str, records: list[dict]) -> None:
    from datasets import Dataset

    Dataset.from_list(records).to_json(path, lines=True, force_ascii=False)


def write_registry(path: str, slug: str, repo_dir: str, deps_dir: str | None = None) -> None:
    from .deps import MOUNT_POINT

    profile = (f"""profiles:
  swe-{slug}:                 # the swe profile with the project's test dependencies (installed at build time)
    extends: swe
    mounts: [{{src: {json.dumps(deps_dir)}, dst: {MOUNT_POINT}}}]
""" if deps_dir else "")
    use = f"    profile: swe-{slug}\n" if deps_dir else ""
    text = f"""# Built by `rlhub swe build`: `rlhub check --registry {os.path.basename(path)}` checks every instance,
# `rlhub list --registry {os.path.basename(path)}` shows the two environments (a detailed and a terse report).
version: 1
{profile}environments:
  - dataset:
      id: {slug}/swe-v1
      path: instances.jsonl
      preset: swebench
      assets: {repo_dir}
{use}  - dataset:
      id: {slug}/swe-terse-v1
      path: instances.jsonl
      preset: swebench
      assets: {repo_dir}
      columns: {{prompt: problem_statement_terse}}
{use}"""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
