"""`rlhub swe ship BUILD_DIR --slug S --package P`: a build's instances into rlhub-swe's shipped
data (real/data/S.jsonl and a pin in real/projects.json), each graded once more on the shipped form:
the gold fix must earn 1.0 (an instance whose gold does not is left out and named; that an unchanged
tree fails was established at build time, twice). For a fix of several hunks, each fix-without-one-hunk that fails is recorded
(`wrong_hunks`): the checks grade those as wrong answers."""

from __future__ import annotations

import json
import os
import shutil
import sys
from importlib import resources

from .. import patch


def _data_dir() -> str:
    return str(resources.files(__package__))


def compact(build_dir: str, release: dict[str, str]) -> list[dict]:
    """The build's rows as shipped: the bug as a diff against the release (read from the build's
    snapshot at each instance's commit), the hidden modules, the test ids, the statements."""
    from datasets import load_dataset

    from .. import trees
    from ..taskbuild.statement import banned_lines, scrub

    out = []
    ds = load_dataset("json", data_files=os.path.join(build_dir, "instances.jsonl"), split="train")
    for row in ds:
        hidden = sorted(c.path for c in patch.parse(row["test_patch"], max_bytes=64 << 20))
        start = dict(trees._git(os.path.join(build_dir, "repos", row["repo"].replace("/", "__")), row["base_commit"]))
        touched = [c.path for c in patch.parse(row["patch"], max_bytes=64 << 20)]
        bug_patch = patch.make(release, {**release, **{p: start[p] for p in touched}})
        banned = banned_lines(bug_patch)
        out.append({"instance_id": row["instance_id"], "statements": {"terse": scrub(row["problem_statement_terse"], banned),
                                                                      "detailed": scrub(row["problem_statement"], banned)},
                    "bug_patch": bug_patch, "hidden_modules": hidden,
                    "FAIL_TO_PASS": json.loads(row["FAIL_TO_PASS"]), "PASS_TO_PASS": json.loads(row["PASS_TO_PASS"]),
                    "difficulty": row["difficulty"], "strategies": row["strategies"]})
    return out


def ship(build_dir: str, slug: str, package: str, sandbox=None) -> dict:
    from . import Pin, _release, cache_dir, instance, pins, rows

    with open(os.path.join(build_dir, "report.json"), encoding="utf-8") as f:
        report = json.load(f)
    src = report["source"]
    if not src.startswith("pypi:"):
        raise SystemExit(f"{build_dir}: shipped projects come from the package index (pypi:NAME==VERSION), not {src}")
    name, version = src[5:].split("==")
    from ..taskbuild.source import download_sdist, read_tarball

    sdist = download_sdist(name, version)
    pin = Pin(name=name, version=version, sdist=os.path.basename(sdist), sha256=report["sha256"], package=package,
              slug=slug, instances=0, lines=report.get("lines", 0))
    os.makedirs(cache_dir(pin), exist_ok=True)
    if not os.path.isfile(os.path.join(cache_dir(pin), pin.sdist)):
        shutil.copy(sdist, os.path.join(cache_dir(pin), pin.sdist))
    data = compact(build_dir, read_tarball(sdist))
    path = os.path.join(_data_dir(), "data", f"{slug}.jsonl")
    _write(path, data)
    projects = {p.slug: p.__dict__ for p in pins().values()}
    projects[slug] = {**pin.__dict__, "instances": len(data)}
    _write_projects(projects)
    for fn in (pins, rows, instance, _release):
        fn.cache_clear()
    kept, dropped = _regrade(slug, data, sandbox)
    _write(path, kept)
    projects[slug]["instances"] = len(kept)
    _write_projects(projects)
    for fn in (pins, rows, instance):
        fn.cache_clear()
    return {"slug": slug, "instances": len(kept), "dropped": dropped}


def _write(path: str, data: list[dict]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for row in data:
            f.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def _write_projects(projects: dict) -> None:
    with open(os.path.join(_data_dir(), "projects.json"), "w", encoding="utf-8") as f:
        json.dump({"projects": [projects[k] for k in sorted(projects)]}, f, indent=1)
        f.write("\n")


def _regrade(slug: str, data: list[dict], sandbox) -> tuple[list[dict], list[str]]:
    """Gold 1.0 and empty 0 on the shipped form; the fix's failing one-hunk omissions recorded."""
    import hub

    from . import instance
    from .envs import _hunks, _without_hunk

    from hub.plugins.manager import installed

    installed.cache_clear()  # the plugins registered before this project's data was written
    catalog = hub.load(None)
    env = f"swe/real-{slug}-diff-v1"
    from tqdm import tqdm

    kept, dropped = [], []
    bar = tqdm(total=len(data), desc=f"ship: {slug}, gold graded again", unit="instance", file=sys.stderr)
    for i, row in enumerate(data):
        bar.update(1)
        task = catalog.task({"env": env, "seed": i})
        gold = catalog.verify({"env": env, "seed": i}, task.reference)
        inst = instance(slug, i)
        # (an answer that changes nothing was graded at build time: its FAIL_TO_PASS tests failed twice)
        if gold.reward != 1.0:
            dropped.append(f"{row['instance_id']}: gold {gold.reward} ({gold.details.get('reason') or gold.error})")
            bar.write(f"ship: dropped {dropped[-1]}", file=sys.stderr)
            continue
        n = sum(len(_hunks(inst.start[p], inst.fixed[p])) for p in inst.fixed if inst.fixed[p] != inst.start[p])
        row["wrong_hunks"] = []
        if n > 1:
            for h in range(n):
                v = catalog.verify({"env": env, "seed": i}, patch.fenced(_without_hunk(inst, h)))
                if not v.passed:
                    row["wrong_hunks"].append(h)
        kept.append(row)
    bar.close()
    return kept, dropped
