"""Item 1 of issue 25: the grade does not depend on how a part was built. Every family's
reference and its alternative construction (a sketch cut instead of `shell()`, a revolve instead
of stacked extrusions, unions left uncleaned, a sketch polygon for a polyline...) are built in the
sandbox as a model's parts are; their measured features must be identical (to a ten-thousandth
of the part's size) and the alternative must earn exactly 1.0 in every task kind."""

import pytest

from rlhub_cad.constructions import check, differences, ok
from rlhub_cad.families import FAMILIES


@pytest.fixture(scope="module", autouse=True)
def _private_mesh_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("RLHUB_MESH_CACHE", str(tmp_path_factory.mktemp("mesh-cache")))
    yield
    mp.undo()


def test_every_family_has_a_second_construction():
    import random

    missing = [f.name for f in FAMILIES if f.alternative(f.sample(random.Random(0))) is None]
    assert not missing, missing


def test_two_constructions_measure_the_same_features_and_earn_one():
    rows = check("cad/*", seeds=1, log=lambda *a: None)
    assert len(rows) == len(FAMILIES)
    bad = {r["family"]: (r["differences"][:3], {k: v for k, v in r["rewards"].items() if v[0] != 1.0})
           for r in rows if not ok(r)}
    assert not bad, bad


def test_feature_lists_that_differ_are_told_apart():
    hole = {"kind": "hole", "foot": [0.0, 0.0, 0.0], "at": [0.0, 0.0, 5.0], "d": 5.0, "through": True, "entry": 1}
    assert differences([hole], [dict(hole)], 100.0) == []
    assert differences([hole], [{**hole, "d": 5.001}], 100.0) == []  # float noise
    assert differences([hole], [{**hole, "d": 5.1}], 100.0)
    assert differences([hole], [{**hole, "through": False}], 100.0)
    assert "feature counts differ" in differences([hole], [hole, hole], 100.0)[0]
