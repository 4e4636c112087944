"""Issue 25's classes of wrong parts that earned 1.0 in abstract and image tasks before (a count
off by one or two, a feature left off or on the other face, a sealed void, walls too thick, a
shaft with a step too many) must now fail and stay under the cap; each is made from the task's
own parameters, through `rlhub verify`'s path (hub.load().verify)."""

from __future__ import annotations

import pytest

from rlhub_cad.families import FAMILIES
from rlhub_cad.fmt import fence

BY = {f.name: f for f in FAMILIES}


def _with(**changes):
    return lambda fam, p: fam.script({**p, **{k: (v(p) if callable(v) else v) for k, v in changes.items()}})


# (family, what is wrong, how to make it from the task's parameters, kinds it is wrong in)
CASES = [
    ("heat-sink", "one fin more", _with(fins=lambda p: p["fins"] + 1), ("abstract", "image")),
    ("heat-sink", "two fins more", _with(fins=lambda p: p["fins"] + 2), ("abstract", "image")),
    ("enclosure", "one vent more", _with(vents=lambda p: p["vents"] + 1), ("abstract", "image")),
    ("enclosure", "one vent fewer", _with(vents=lambda p: p["vents"] - 1), ("abstract", "image")),
    ("enclosure", "no vents", lambda fam, p: fam.script(p, omit=True), ("abstract", "image")),
    ("enclosure", "vents in the back wall", _with(vent_wall="back"), ("abstract", "image")),
    ("enclosure", "no lid lip", _with(no_lip=True), ("abstract", "image")),
    ("enclosure", "no standoffs", _with(no_standoffs=True), ("abstract", "image")),
    ("enclosure", "walls twice as thick", lambda fam, p: fam.script(fam.adjusted(p, "wall", 2 * p["wall"])), ("image",)),
    ("enclosure", "a sealed void", lambda fam, p: fam.voided(p), ("abstract", "image")),
    ("hex-nut", "no chamfers", _with(no_chamfer=True), ("abstract", "image")),
    ("pulley", "no V groove", lambda fam, p: fam.script(p, omit=True), ("abstract", "image")),
    ("tslot", "no T-slots", _with(no_slots=True), ("abstract", "image")),
    ("shaft-keyed", "keyway on the other side", _with(keyway_side="-X"), ("abstract", "image")),
    ("shaft-keyed", "four diameters", _with(steps=1), ("abstract", "image")),
    ("shaft-keyed", "two diameters", _with(steps=-1), ("abstract", "image")),
    ("flange", "no hub", _with(no_hub=True), ("abstract",)),
    ("washer", "a sealed void", lambda fam, p: fam.voided(p), ("abstract", "image")),
]



@pytest.mark.parametrize("name, what, make, kinds", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_the_wrong_part_fails_where_it_passed(catalog, name, what, make, kinds):
    fam = BY[name]
    for kind in kinds:
        renv = catalog.get(f"cad/{name}-{kind}-v1")
        label = renv.label(0)
        task = catalog.task(label)
        v = catalog.verify(label, fence(make(fam, task.metadata["params"])), task=task)
        assert not v.passed and v.reward <= 0.5, (kind, what, v.reward, v.details.get("mismatches", [])[:3])


def test_a_flange_turned_about_its_axis_passes_where_the_start_is_free(catalog):
    """The abstract prompt does not say where the bolt circle starts: turned by half the bolt
    pitch (every hole where none was) it is the same answer; the dimensioned prompt states
    "the first on the +X axis", so there it fails."""
    for kind, passes in (("abstract", True), ("dimensioned", False)):
        label = catalog.get(f"cad/flange-{kind}-v1").label(0)
        task = catalog.task(label)
        p = task.metadata["params"]
        turned = BY["flange"].script(p) + f"\nresult = result.rotate((0, 0, 0), (0, 0, 1), {180 / p['bolts']})\n"
        v = catalog.verify(label, fence(turned), task=task)
        assert v.passed is passes and (v.reward == 1.0) is passes, (kind, v.reward, v.details.get("mismatches", [])[:3])
