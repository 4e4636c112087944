"""Worlds are consistent by construction, documents scale, answers are computable from the text."""

import random
import re

import pytest

from hub.core.family import FamilyEnvironment
from rlhub_docqa.env import DocQAFamily, appears
from rlhub_docqa.plugin import env_ids
from rlhub_docqa.render import render_table
from rlhub_docqa.worlds import BUILDERS
from rlhub_docqa.worlds.finance import financials


@pytest.mark.parametrize("seed", range(20))
def test_financial_statements_tie_out(seed):
    w = financials(random.Random(seed), "Acme Inc.")
    inc, seg, bal, cf = w.tables
    rows = lambda t: dict(t.rows)
    i, s, b, c = rows(inc), rows(seg), rows(bal), rows(cf)
    for t in range(4):
        assert i["Gross profit"][t] == i["Revenue"][t] - i["Cost of revenue"][t]
        assert sum(s[name][t] for name, _ in seg.items()) == s["Total revenue"][t] == i["Revenue"][t]
        assert b["Total assets"][t] == b["Total liabilities and equity"][t]
        assert b["Cash and cash equivalents"][t] > 0
    for t in range(1, 4):  # the cash-flow statement explains the change in balance-sheet cash
        assert c["Net change in cash"][t - 1] == b["Cash and cash equivalents"][t] - b["Cash and cash equivalents"][t - 1]


def DocQA(env_id, world, kind, target_tokens=3000, vision=False):
    return FamilyEnvironment(env_id, DocQAFamily(world, kind, target_tokens), "vision" if vision else "text")


def test_over_100_environments_and_every_world_and_kind():
    ids = env_ids()
    assert len(ids) >= 100 and len(set(ids)) == len(ids)
    assert {i.split("/")[1].split("-")[0] for i in ids} == set(BUILDERS)


def test_money_negatives_in_parentheses_and_thousands_header():
    w = financials(random.Random(3), "Acme Inc.")
    text = render_table(w.tables[3], "markdown")  # cash flows: capex is negative
    assert "in thousands" in text and re.search(r"\(\d[\d,]*\)", text)


@pytest.mark.parametrize("tokens", [3000, 128_000])
def test_length_knob_and_evidence_kept(tokens):
    env = DocQA("docqa/financials-lookup-v1", "financials", "lookup", target_tokens=tokens)
    task = env.make_task(5)
    assert 0.9 * tokens <= task.metadata["approx_tokens"] <= 1.3 * tokens
    title = env.make_task(5).prompt.split("Question:")[1]
    table = re.search(r'in the table "([^"]+)"', title).group(1)
    assert table in task.prompt.split("</document>")[0]  # the evidence is in the document


def test_lookup_answer_read_back_from_the_rendered_document():
    env = DocQA("docqa/loan-lookup-v1", "loan", "lookup")
    for seed in range(10):
        task = env.make_task(seed)
        shown = f"{abs(task.hidden['answer']):,.2f}".removesuffix(".00")
        assert shown.split(".")[0] in task.prompt


def test_computed_answers_never_in_prompt_and_wrong_answers_fail():
    for world in ("financials", "sla", "contract"):
        env = DocQA(f"docqa/{world}-arithmetic-v1", world, "arithmetic")
        for seed in range(5):
            task = env.make_task(seed)
            secrets = env.secrets(task)
            assert secrets and not any(appears(s, task.prompt) for s in secrets if len(s) >= 4)
            assert {v.kind for v in env.wrong_answers(task)} >= {"value_7_off", "hedge", "unanswerable"}


def test_vision_pages_are_pngs_and_prompt_has_no_document():
    env = DocQA("docqa/bom-lookup-vision-v1", "bom", "lookup", vision=True)
    task = env.make_task(0)
    assert task.images and all(img.startswith(b"\x89PNG") for img in task.images)
    assert "<document>" not in task.prompt_text()


def test_bad_parameters_are_clear_errors():
    with pytest.raises(ValueError, match="unknown world"):
        DocQA("docqa/x-lookup-v1", "spaceship", "lookup")
    with pytest.raises(ValueError, match="target_tokens"):
        DocQA("docqa/x-lookup-v1", "loan", "lookup", target_tokens=10)
