"""Every generated kind renders exactly what it rendered when the digests were recorded: the task
output (base and target trees, issue, hidden suite, test ids) of every bug site, feature, rename
(one of the new names a task can draw, another per seed) and write-the-tests area, at two seeds,
and the clean project at the smallest and largest unit counts. A change to a kind's templates
that is meant to change its tasks re-records that kind's digests (a new kind records its own):
`python3 plugins/envs/swe/tests/test_kind_digests.py --record KIND...`."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from rlhub_swe.projects.kinds import NAMES, kind
from rlhub_swe.projects.model import draw, render
from rlhub_swe.tasks import Params, build

RECORDED = Path(__file__).with_name("kind_digests.json")
SEEDS = (0, 1)


def _hash(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _project(p) -> list:
    return [list(p.files.items()), p.hidden_tests, list(p.test_ids), list(p.values.items()), p.units]  # in order


def _meta(k) -> list:
    """What the tasks read from a kind besides its templates."""
    u = k.units
    return [k.description, k.packages, k.names, k.constants, [u.dir, u.index, u.count, u.names, u.values],
            [vars(b) for b in k.bugs], [vars(f) for f in k.features], [vars(r) for r in k.renames], k.mutation_areas]


def tasks_of(name: str, seed: int) -> list[Params]:
    k = kind(name)
    out = [Params(name, seed, "bug", b.id) for b in k.bugs] + [Params(name, seed, "feature", f.id) for f in k.features]
    taken = set(draw(k, seed)[0].values())
    for r in k.renames:  # one of the names a rename task can draw (envs.SweFamily.sample), another per seed
        free = [c for c in k.names[r.placeholder] if c not in taken]
        out.append(Params(name, seed, "rename", r.id, new_name=free[seed % len(free)]))
    return out + [Params(name, seed, "tests", area) for area in sorted(k.mutation_areas)]


def digests(name: str) -> dict[str, str]:
    k = kind(name)
    out = {"meta": _hash(_meta(k))}
    for seed in SEEDS:
        for p in tasks_of(name, seed):
            b = build.__wrapped__(p)  # past the cache: rendered here
            out[f"{seed}:{p.task}:{p.target}:{p.new_name}"] = _hash(
                _project(b.base), _project(b.target), list(b.target_files.items()), b.issue, b.hidden_tests,
                b.fail_to_pass, b.pass_to_pass, b.touched, b.recipe, b.secrets, b.stated, b.rename, b.hidden_mutation,
                b.reordered_tests)
    for units in k.units.count:
        out[f"0:units={units}"] = _hash(_project(render.__wrapped__(k, 0, units=units)))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_kind_renders_what_was_recorded(name):
    recorded = json.loads(RECORDED.read_text())[name]
    now = digests(name)
    assert now.keys() == recorded.keys()
    changed = sorted(case for case in now if now[case] != recorded[case])
    assert not changed, f"{name}: these renderings differ from the recorded ones: {changed}"


if __name__ == "__main__" and sys.argv[1:2] == ["--record"] and set(sys.argv[2:]) <= set(NAMES):
    recorded = {**json.loads(RECORDED.read_text()), **{n: digests(n) for n in sys.argv[2:]}}
    RECORDED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
