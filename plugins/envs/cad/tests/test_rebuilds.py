"""Every family's reference earns exactly 1.0 on 5 rebuilds, each in a fresh sandboxed
interpreter (rlhub_cad.rebuilds; `python -m rlhub_cad.rebuilds` runs it over all 150
environments). Included: the constructions OCC rebuilds with another B-rep from one process to
the next, a shell on a revolve and cuts with arc cutters."""

import random

import pytest

from rlhub_cad.families import FAMILIES
from rlhub_cad.rebuilds import check, jobs_for


@pytest.fixture(scope="module", autouse=True)
def _private_mesh_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("RLHUB_MESH_CACHE", str(tmp_path_factory.mktemp("mesh-cache")))
    yield
    mp.undo()


def test_references_earn_one_on_five_fresh_rebuilds():
    by_name = {f.name: f for f in FAMILIES}
    extra = []
    for name in ("bottle", "plate-slots"):  # a shelled revolve; line-and-arc slot cutters
        fam = by_name[name]
        extra.append((f"{name} (alternative)", fam.alternative(fam.sample(random.Random(7)))))
    jobs = jobs_for("cad/*-dimensioned-v1", seeds=1, extra=extra)
    assert len(jobs) == len(FAMILIES) + 2
    results = check(jobs, rounds=5, parallel=2, log=lambda *a: None)
    bad = {label: r for label, r in results.items() if len(r) != 5 or any(rw != 1.0 or not ok for rw, ok, _ in r)}
    assert not bad, bad
