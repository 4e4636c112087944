"""Worlds are consistent by construction, documents scale, answers are computable from the text."""

import random
import re

import pytest

from hub.core.family import FamilyEnvironment
from rlhub_docqa.env import DocQAFamily, appears
from rlhub_docqa.plugin import SKIP, env_ids
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
        if task.hidden["answer_type"] == "unanswerable":
            continue
        shown = f"{abs(task.hidden['answer']):,.2f}".removesuffix(".00")
        assert shown.split(".")[0] in task.prompt


def test_computed_answers_never_in_prompt_and_wrong_answers_fail():
    for world in ("financials", "sla", "contract"):
        env = DocQA(f"docqa/{world}-arithmetic-v1", world, "arithmetic")
        for seed in (0, 2, 3, 4, 5):  # seed 1 asks about an absent item (one in ten)
            task = env.make_task(seed)
            secrets = env.secrets(task)
            assert secrets and not any(appears(s, task.prompt) for s in secrets if len(s) >= 4)
            assert {v.kind for v in env.wrong_answers(task)} >= {"value_7_off", "hedge", "hedge_markers", "unanswerable",
                                                                   "a_unit_the_question_does_not_ask_for"}


@pytest.mark.parametrize("kind", ["lookup", "arithmetic"])
def test_one_task_in_ten_asks_about_an_absent_item(kind):
    """Abstention is mixed into answerable questions, exactly one task in every ten, so a constant
    'unanswerable' earns a tenth at most; its reference says so and a made-up number fails."""
    from hub.core.verifier import VerifyContext
    from hub.sandbox.profile import DEFAULT_PROFILES
    from rlhub_answer.plugin import AnswerMatch

    env = DocQA(f"docqa/budget-{kind}-v1", "budget", kind)
    verifier, ctx = AnswerMatch(), VerifyContext(profile=next(iter(DEFAULT_PROFILES.values())))
    types = [env.make_task(seed).hidden["answer_type"] for seed in range(30)]
    assert [i for i, t in enumerate(types) if t == "unanswerable"] == [1, 11, 21]
    task = env.make_task(11)
    assert verifier.verify(task, task.reference, ctx).passed
    assert all(not verifier.verify(task, v.response, ctx).passed for v in env.wrong_answers(task))


def test_answers_carry_what_the_question_allows():
    """Money answers may name US dollars, counts their noun, day counts 'days', changes a
    direction word; a yes/no or a name comes with the number it rests on."""
    hidden = lambda world, kind, seed=0: DocQA(f"docqa/{world}-{kind}-v1", world, kind).make_task(seed).hidden
    assert hidden("financials", "lookup")["units"] == ["USD"]
    assert hidden("financials", "percent-change")["change"] is True
    day_counts = [h for h in (hidden("contract", "date", seed) for seed in range(10)) if h["answer_type"] == "number"]
    assert day_counts and all(h["units"] == ["day", "calendar day"] for h in day_counts)
    yes_no = hidden("budget", "yesno")
    assert yes_no["answer"] in ("yes", "no") and yes_no["amount"] not in (None, 0)
    argmax = hidden("payroll", "argmax")  # the two highest or lowest, in order, with their values
    assert argmax["answer_type"] == "list" and argmax["ordered"] and not argmax["partial"] and len(argmax["answer"]) == 2
    count = hidden("budget", "count")  # the count with the total of what was counted
    assert count["answer_type"] == "number" and count["amount"] is not None


@pytest.mark.parametrize("world", sorted(w for w in BUILDERS if (w, "list") not in SKIP))
def test_lists_never_hold_more_than_half_the_table(world):
    env = DocQA(f"docqa/{world}-list-v1", world, "list")
    for seed in range(8):
        p = env.params(seed)
        q, table = p.question, p.question.table
        assert 2 <= len(q.answer) <= len(table.items()) - len(q.answer)


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


def test_abstention_is_phrased_as_the_kind_asks_and_its_items_vary():
    """An absent item is asked the way the kind asks (a sum or difference for arithmetic: 'What is
    the value of' would give it away), and its name is not a fixed list: budget departments other
    documents print are asked of one that does not print them."""
    from rlhub_docqa.env import printed_rows

    env = DocQA("docqa/budget-arithmetic-v1", "budget", "arithmetic")
    seeds = [1 + 10 * k for k in range(12)]
    prompts = [env.params(s).question for s in seeds]
    assert all(q.answer_type == "unanswerable" for q in prompts)
    assert all(re.match(r"What is (the sum of )?\"", q.text) and ("minus" in q.text or "sum of" in q.text) for q in prompts)
    names = {re.findall(r'"([^"]+)" \(', q.text)[0] for q in prompts} | {re.findall(r'"([^"]+)" \(', q.text)[-1] for q in prompts}
    departments = printed_rows("budget")[0]
    assert len(names & departments) >= 3  # names other documents print, asked where they are absent


@pytest.mark.parametrize("world", ["loan", "financials", "budget"])
def test_percent_changes_never_end_at_zero(world):
    """A change to zero is -100% whatever the row (a loan's ending balance): a constant found it."""
    env = DocQA(f"docqa/{world}-percent-change-v1", world, "percent-change")
    assert all(round(env.params(s).question.answer, 6) != -100 for s in range(30))


@pytest.mark.parametrize("world", sorted(w for w in BUILDERS if (w, "argmax") not in SKIP))
def test_rankings_are_over_rows_that_vary_and_never_at_an_end(world):
    """Never over a table every document prints alike (a statement's lines) nor a row's periods,
    never the first or last two rows as printed."""
    from rlhub_docqa.env import fixed_tables

    env = DocQA(f"docqa/{world}-argmax-v1", world, "argmax")
    for s in range(10):
        p = env.params(s)
        q, table = p.question, p.question.table
        assert q.column in table.columns and len(table.items()) >= 5
        names = [g.split(": ")[0] for g in q.answer]
        rows = [r for r, _ in table.items()]
        assert set(names) not in ({*rows[:2]}, {*rows[-2:]})
    assert fixed_tables("financials") == {0, 2, 3} and not fixed_tables("budget")


@pytest.mark.parametrize("world", ["contract", "loan", "payroll"])
def test_day_counts_are_never_a_whole_term_and_graded_exactly(world):
    """4 years less a day is 1,460 days whatever the dates: spans of whole years or months are not
    asked, and a day count is exact (1,460 is no rounding of 1,461)."""
    from rlhub_docqa.questions import whole_term

    env = DocQA(f"docqa/{world}-date-v1", world, "date")
    days = [q.answer for q in (env.params(s).question for s in range(30)) if q.answer_type == "number"]
    assert days and not any(whole_term(d) for d in days)
    assert all(env.params(s).question.hidden().exact for s in range(30) if env.params(s).question.answer_type == "number")
    assert whole_term(1460) and whole_term(1826) and whole_term(1796) and not whole_term(1700) and not whole_term(45)


def test_ratios_of_near_equal_values_are_not_asked():
    """Two uptimes (99.90% / 99.95%) give 0.9995: a constant 1.00 or 0.999 found those."""
    env = DocQA("docqa/sla-ratio-v1", "sla", "ratio")
    assert all(abs(env.params(s).question.answer - 1) >= 0.01 for s in range(40))
