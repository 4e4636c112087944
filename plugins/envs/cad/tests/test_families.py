"""Every family's scripts build what its prompts describe (built with real CadQuery, in one child)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from rlhub_cad.env import CadEnvironment
from rlhub_cad.families import FAMILIES
from rlhub_cad.plugin import env_ids

NAMES = [f.name for f in FAMILIES]


def test_at_least_100_environments_with_unique_ids():
    ids = env_ids()
    assert len(ids) >= 100
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("name", NAMES)
def test_reference_is_one_valid_solid_in_the_stated_frame(built_references, name):
    rows = [r for r in built_references if r[0].name == name and r[2] == "reference"]
    assert rows
    for fam, seed, _, p, script, res in rows:
        assert res["ok"], f"{name} seed {seed}: {res.get('error')}\n{script}"
        assert res["valid"] and res["solids"] == 1, f"{name} seed {seed}: {res}"
        # The prompt's frame and sizes come from bbox(); the built part must agree to 0.05 mm.
        expected = fam.bbox(p)
        assert res["bbox"] == pytest.approx(expected, abs=0.05), f"{name} seed {seed}\n{script}"


@pytest.mark.parametrize("name", NAMES)
def test_wrong_answers_build_and_differ(built_references, name):
    by = {(r[1], r[2]): r[-1] for r in built_references if r[0].name == name}
    for seed in range(3):
        ref, missing, twice = by[(seed, "reference")], by[(seed, "missing")], by[(seed, "twice")]
        assert missing["ok"] and missing["solids"] == 1, missing
        assert twice["ok"] and twice["solids"] == 1, twice
        # Twice the size is eight times the volume; leaving out a feature changes the volume.
        assert twice["volume"] == pytest.approx(8 * ref["volume"], rel=1e-3)
        assert abs(missing["volume"] - ref["volume"]) > 1e-3 * ref["volume"], f"{name}: omitting {missing} changed nothing"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63), family=st.sampled_from(FAMILIES))
def test_sampled_parameters_satisfy_the_constraints(seed, family):
    env = CadEnvironment(f"cad/{family.name}-edit-v1", family, "edit")
    p = env.sample(random.Random(seed))
    assert family.violations(p) == []
    for edit in family.valid_edits(p):
        assert family.violations(edit.params) == [] and edit.params != p


@pytest.mark.parametrize("family", FAMILIES, ids=NAMES)
def test_first_draw_is_valid_for_most_seeds(family):
    """The sampler builds valid parts by construction: the retry loop is a guard, not the method."""
    valid = sum(not family.violations(family.sample(random.Random(s))) for s in range(200))
    assert valid >= 190, f"{family.name}: only {valid}/200 first draws are valid"


def test_constraints_reject_broken_parts():
    from rlhub_cad.families.gears import SpurGear
    from rlhub_cad.families.plates import HolePlate

    plate = HolePlate().sample(random.Random(1))
    assert HolePlate().violations({**plate, "pitch_x": plate["length"]})  # holes through the edge
    gear = SpurGear().sample(random.Random(1))
    assert SpurGear().violations({**gear, "teeth": 5})
    assert SpurGear().violations({**gear, "bore_d": gear["module"] * gear["teeth"]})  # bore eats the teeth


def test_constraints_reject_broken_parts_of_the_newer_families():
    from rlhub_cad.families.enclosures import Enclosure
    from rlhub_cad.families.hardware import Clamp, HingeLeaf
    from rlhub_cad.families.revolved import Bottle, Knob
    from rlhub_cad.families.shafts import KeyedShaft

    box = Enclosure().sample(random.Random(1))
    assert Enclosure().violations({**box, "corner_r": box["wall"]})  # inside corners would lose their rounding
    assert Enclosure().violations({**box, "standoff_pitch_x": box["length"]})  # standoffs through the walls
    shaft = KeyedShaft().sample(random.Random(1))
    assert KeyedShaft().violations({**shaft, "key_len": shaft["top_len"]})  # keyway runs off its section
    knob = Knob().sample(random.Random(1))
    assert Knob().violations({**knob, "top_fillet": knob["height"] - knob["bore_depth"]})  # fillet as thick as the wall
    bottle = Bottle().sample(random.Random(1))
    assert Bottle().violations({**bottle, "neck_d": bottle["body_d"]})
    leaf = HingeLeaf().sample(random.Random(1))
    assert HingeLeaf().violations({**leaf, "hole_y": leaf["leaf_w"]})  # holes through the free edge
    clamp = Clamp().sample(random.Random(1))
    assert Clamp().violations({**clamp, "hole_d": clamp["boss_d"]})  # hole breaks out of its boss
