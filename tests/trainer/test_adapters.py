"""TRL and verl adapters give the verifiers' verdicts, in those trainers' calling conventions."""

from __future__ import annotations

import importlib.util

from openrlhf_harness import REPO

from hub.config.catalog import Catalog
from hub.trainers.adapters import trl_reward

LABELS = ['{"env": "arith/add-v1", "seed": 1}', '{"env": "arith/sub-v1", "seed": 2}']


def test_trl_reward_text_and_conversational():
    cat = Catalog.load(REPO / "registry.yaml")
    refs = [cat.reference(l) for l in LABELS]
    wrong = cat.get("arith/sub-v1").env.wrong_responses(cat.task(LABELS[1]))[0]
    assert trl_reward(["p", "p"], [refs[0], wrong], label=LABELS) == [1.0, cat.verify(LABELS[1], wrong).reward]
    chat = [[{"role": "assistant", "content": refs[0]}], [{"role": "assistant", "content": refs[1]}]]
    assert trl_reward(["p", "p"], chat, label=LABELS, completion_ids=None) == [1.0, 1.0]


def test_verl_file_compute_score():
    spec = importlib.util.spec_from_file_location("verl_reward", REPO / "trainer" / "verl_compute_score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cat = Catalog.load(REPO / "registry.yaml")
    good = module.compute_score("rlhub", cat.reference(LABELS[0]), LABELS[0], extra_info={"index": 0})
    bad = module.compute_score("rlhub", "nonsense", LABELS[0])
    broken = module.compute_score("rlhub", "1", "not a label")
    assert good["score"] == 1.0 and good["passed"] == 1.0
    assert bad["score"] == cat.verify(LABELS[0], "nonsense").reward == 0.0
    assert broken["score"] == 0.0 and broken["bad_label"] == 1.0
