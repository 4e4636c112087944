"""The red team's findings on the CAD tool environments (issue 28; they grade with their text
twins' verifier, so these are findings on the text kinds too; files in red_team/rt_tools_*):

- an "involute spur gear" built as a star (pointed teeth from the tip circle straight to the
  root) or with straight trapezoid teeth earned 1.0 in the abstract kind, which read only the
  tooth count and the tip and root radii: the tooth form is now graded where the prompt names it
  (`tooth_form`), and the family's wrong parts include both forms;
- the knob's abstract prompt said "a tapered grip" of every knob while a third of the references
  were straight: it now says which the part has; plates' prompts likewise say rounded or square
  corners (an unstated choice failed the plates that chose otherwise).

The third finding (a part too costly to measure graded `invalid`, 0.02) is the mesh verifier's:
plugins/verifiers/mesh/tests/test_boundary.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent / "red_team"


@pytest.mark.parametrize("name", ["rt_tools_gear_abs_star", "rt_tools_gear_abs_trapezoid"])
def test_pointed_or_straight_teeth_are_no_involute_gear(grade_saved, name):
    v = grade_saved("gear-spur-abstract-v1", HERE / f"{name}.txt")
    assert not v.passed and v.reward <= 0.5, (name, v.reward, v.details.get("mismatches", [])[:3])
    assert any("tooth form off" in m for m in v.details["mismatches"]), v.details["mismatches"][:5]


@pytest.mark.parametrize("pressure", [14.5, 25.0])
def test_an_involute_of_another_pressure_angle_still_passes(catalog, pressure):
    """The abstract prompt names no pressure angle: the reference's gear drawn at 14.5 or 25
    degrees (another tooth shape, the same count and circles) earns 1.0."""
    from rlhub_cad.families.gears import SpurGear

    label = {"env": "cad/gear-spur-abstract-v1", "seed": 0}
    task = catalog.task(label)
    script = SpurGear().script({**task.metadata["params"], "pressure_deg": pressure})
    v = catalog.verify(label, f"```python\n{script}\n```", task=task)
    assert v.passed and v.reward == 1.0, v.details.get("mismatches", [])[:3]


def test_the_wrong_tooth_forms_are_in_the_abstract_and_image_checks_only():
    from rlhub_cad.env import CadEnvironment
    from rlhub_cad.families.gears import SpurGear
    from rlhub_cad.stated import grading

    fam = SpurGear()
    for kind, want in (("abstract", True), ("dimensioned", False)):
        e = CadEnvironment(f"cad/gear-spur-{kind}-v1", fam, kind)
        task = e.make_task(0)
        kinds = {v.kind for v in e.wrong_answers(task)}
        assert ({"star teeth", "trapezoid teeth"} <= kinds) is want, kinds
        assert (grading(fam, kind, task.metadata["params"]).get("tooth_form") is not None) is want
    assert grading(fam, "image", task.metadata["params"])["tooth_form"] == 0.1


def test_the_knob_and_plate_prompts_say_the_shape_the_part_has():
    """Seeds 0-9 of each kind: "tapered" exactly where the grip tapers (seeds 0, 2 and 5 of the
    abstract knob are straight), "rounded corners" exactly where the plate's are."""
    from rlhub_cad.env import CadEnvironment
    from rlhub_cad.families import FAMILIES

    for fam in [f for f in FAMILIES if f.name in ("knob", "plate-holes", "plate-slots", "plate-counterbore")]:
        for kind in ("abstract", "steps", "dimensioned"):
            e = CadEnvironment(f"cad/{fam.name}-{kind}-v1", fam, kind)
            for i in range(10):
                p = e.sample(__import__("hub").rng_for(e.seed_id, i))
                text = e.make_task(i).prompt
                if fam.name == "knob":
                    tapered = p["top_d"] < p["body_d"]
                    assert ("taper" in text) is tapered and ("straight cylind" in text or "a cylinder" in text) is not tapered, (kind, i)
                elif kind != "dimensioned":
                    assert ("rounded corners" in text) is (p["corner_r"] > 0) and ("square corners" in text) is (p["corner_r"] == 0)
