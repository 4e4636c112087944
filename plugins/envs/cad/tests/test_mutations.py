"""Every family's wrong parts (mutations) and right forms: declared, sized, and buildable.

Whether the verifier rejects them is the `wrong_fails` / `right_forms_pass` checks' job
(`pytest registry.yaml`); here: that they exist in the shape those checks need and that each
script builds one valid solid (real CadQuery, one child process for all).
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from rlhub_cad import mutations, stated
from rlhub_cad.env import CadEnvironment
from rlhub_cad.families import FAMILIES
from rlhub_cad.kinds import GRADING, KINDS

NAMES = [f.name for f in FAMILIES]


def _env(fam, kind):
    return CadEnvironment(f"cad/{fam.name}-{kind}-v1", fam, kind)


def _code(response: str) -> str:
    return re.search(r"```python\n(.*?)```", response, re.S).group(1)


@pytest.fixture(scope="module")
def built_variants():
    from rlhub_cad.build import build_all

    jobs = []
    for fam in FAMILIES:
        for kind in ("dimensioned", "abstract", "edit"):
            env = _env(fam, kind)
            task = env.make_task(0)
            jobs += [(fam.name, kind, v.kind, v.size, _code(v.response)) for v in env.wrong_answers(task)]
            jobs += [(fam.name, kind, "right form", 0.0, _code(r)) for r in env.right_answers(task)]
    return list(zip(jobs, build_all([j[-1] for j in jobs])))


@pytest.mark.parametrize("fam", FAMILIES, ids=NAMES)
def test_wrong_answers_are_sized_capped_and_named(fam):
    for kind in KINDS:
        if kind == "image":
            continue  # same parameters as the text kinds; rendering it here would only cost time
        env = _env(fam, kind)
        for seed in (0, 1):
            task = env.make_task(seed)
            variants = env.wrong_answers(task)
            by_kind = defaultdict(list)
            for v in variants:
                by_kind[v.kind].append(v.size)
                assert v.note and v.max_reward is not None and v.max_reward <= mutations.WRONG_CAP
                assert v.response != task.reference
            assert by_kind["bare body"] == [1.0]
            assert next(v for v in variants if v.kind == "bare body").max_reward == mutations.BARE_CAP
            # monotonicity is only tested where a kind comes in two or more sizes
            assert any(len(set(sizes)) >= 2 for sizes in by_kind.values()), f"{fam.name}-{kind}: {dict(by_kind)}"
            assert env.wrong_responses(task)[0] == variants[0].response  # shared with the determinism check


@pytest.mark.parametrize("fam", FAMILIES, ids=NAMES)
def test_every_variant_builds_one_valid_solid(built_variants, fam):
    rows = [(job, res) for job, res in built_variants if job[0] == fam.name]
    assert rows
    for (name, kind, vkind, size, script), res in rows:
        assert res["ok"] and res["valid"] and res["solids"] == 1, f"{name}-{kind} {vkind} {size}: {res}\n{script}"


def test_tasks_tell_the_verifier_their_tolerance():
    for kind in KINDS:
        if kind == "image":
            continue
        task = _env(FAMILIES[2], kind).make_task(0)
        assert {k: v for k, v in task.hidden["grading"].items() if k in GRADING[kind]} == GRADING[kind]
    assert GRADING["dimensioned"]["mode"] == "absolute" and GRADING["abstract"]["mode"] == "normalised"


def test_what_a_prompt_states_is_required_by_its_grading():
    """The measured kinds of every stated property join `require` where proportions are graded:
    a heat sink's fins (planes), an enclosure's standoffs (bosses), a nut's chamfers (cones)."""
    by = {f.name: f for f in FAMILIES}
    for name, kind, needed in (("heat-sink", "abstract", "plane"), ("enclosure", "abstract", "boss"),
                               ("hex-nut", "abstract", "cone"), ("pulley", "image", "cone"), ("shaft-keyed", "abstract", "boss")):
        grading = _env(by[name], kind).make_task(0).hidden["grading"] if kind != "image" else \
            stated.grading(by[name], kind, by[name].sample(__import__("random").Random(0)))
        assert needed in grading["require"], (name, kind, grading["require"])
    # nothing beyond the defaults where a prompt names no such property
    assert tuple(_env(by["washer"], "abstract").make_task(0).hidden["grading"]["require"]) == stated.DEFAULT_REQUIRE


@pytest.mark.parametrize("fam", FAMILIES, ids=NAMES)
def test_every_stated_property_has_a_wrong_part_in_every_kind(fam):
    """Each stated property of each kind (stated.py) gets at least one wrong part, for several
    parameter draws; `derived` raises Uncovered otherwise (and the wrong_fails check with it)."""
    import random

    for kind in KINDS:
        for seed in range(6):  # the tasks' own parameters (an edit's are the edited part's); image ones drawn alike
            p = fam.sample(random.Random(seed)) if kind == "image" else _env(fam, kind).params(seed).params
            if fam.violations(p):
                continue
            grading = stated.grading(fam, kind, p)
            wrongs = mutations.derived(fam, p, kind, grading)
            covered = {w.stated for w in wrongs}
            assert covered == {s.label for s in stated.for_kind(fam, p, kind)}, (fam.name, kind, seed)


def test_a_stated_property_without_a_wrong_part_is_an_error():
    from rlhub_cad.families.extrusions import HeatSink

    class Sealed(HeatSink):  # states a count its constraints never let change
        stated = HeatSink.stated + (stated.count("fins", "fins again"),)

        def violations(self, p):
            return ["fixed"] if p["fins"] != 5 else []

    fam = Sealed()
    p = {**fam.sample(__import__("random").Random(0)), "fins": 5}
    with pytest.raises(mutations.Uncovered, match="count: fins"):
        mutations.derived(fam, p, "abstract", stated.grading(fam, "abstract", p))


def test_proportion_graded_kinds_only_get_what_their_prompt_states():
    """An abstract prompt states the overall size and the features' kinds, not their places:
    a feature moved 2 mm is no wrong answer there, a wrong overall size is."""
    fam = next(f for f in FAMILIES if f.name == "plate-counterbore")
    dimensioned = {v.kind for v in _env(fam, "dimensioned").wrong_answers(_env(fam, "dimensioned").make_task(0))}
    abstract = {v.kind for v in _env(fam, "abstract").wrong_answers(_env(fam, "abstract").make_task(0))}
    assert {"moved", "face", "plain holes", "bare body"} <= dimensioned
    assert "moved" not in abstract and "face" not in abstract
    assert {"plain holes", "bare body"} <= abstract and any(k.endswith(" changed") for k in abstract)


def test_shared_helpers_refuse_parts_that_would_not_build():
    from rlhub_cad.families.turned import Flange

    fam = Flange()
    p = fam.sample(__import__("random").Random(4))
    for wrong in mutations.Move("bolt_circle_d", "bolts", per_mm=2.0, sizes=(2.0, 500.0)).make(fam, p):
        assert not fam.violations(wrong.params)
    assert len(mutations.Move("bolt_circle_d", "bolts", per_mm=2.0, sizes=(500.0,)).make(fam, p)) == 0


def test_a_pitch_that_shapes_nothing_gets_no_wrong_part():
    """A plate with one row of holes: its `pitch_y` places nothing (rarray puts the row on the
    centre line), so a pitch_y "changed" by 6 % is the reference itself and must not be offered
    as a wrong part (CI's plate-holes-edit seed 0 did: it earned 1.0, rightly). The pitch of the
    axis with several holes is still probed."""
    import random

    from rlhub_cad.build import build_all

    fam = next(f for f in FAMILIES if f.name == "plate-holes")
    p = {**fam.sample(random.Random(0)), "nx": 3, "ny": 1, "pitch_x": 13.0, "pitch_y": 6.0, "hole_d": 6.6,
         "length": 60.0, "width": 40.0, "corner_r": 0.0}
    assert not fam.violations(p)
    assert fam.inert(p) == {"pitch_y"}
    ref, other = build_all([fam.script(p), fam.script({**p, "pitch_y": 6.36})])
    assert other["volume"] == pytest.approx(ref["volume"], rel=1e-9) and other["bbox"] == pytest.approx(ref["bbox"], abs=1e-9)
    for kind in ("dimensioned", "edit", "repair"):
        probed = {w.stated for w in mutations.derived(fam, p, kind, stated.grading(fam, kind, p))}
        assert "size: pitch x" in probed and "size: pitch y" not in probed, (kind, sorted(probed))
    p2 = {**p, "ny": 2, "pitch_y": 12.0}
    assert fam.inert(p2) == set() and "size: pitch y" in {
        w.stated for w in mutations.derived(fam, p2, "edit", stated.grading(fam, "edit", p2))}
