"""The memorised-gold-per-wording policy (a constant RL could learn per question wording) finds
the leaks the red team found, and earns no more than 0.1 on today's questions; absent items are
named as answerable questions elsewhere name them."""

import datetime as dt
import random
import re

import pytest

from rlhub_docqa.env import printed_rows, unprinted, fixed_tables
from rlhub_docqa.questions import KINDS, absent_items
from rlhub_docqa.wording import absolute, learn, memorised, policies, relative, title_year, wording
from rlhub_docqa.worlds import BUILDERS
from rlhub_docqa.worlds.common import entity_name


def test_wording_drops_what_names_the_document():
    a = ('What is the ratio of "Base fee" to "Service credits cap" (Contract year 2) in the table "Commercial lease '
         'between Acme Inc. and Birch Co.: Annual fee schedule", i.e. the first divided by the second?')
    b = a.replace("Acme Inc. and Birch Co.", "Zed plc and Yew LLC")
    assert wording(a) == wording(b) and "Acme" not in wording(a)
    assert wording("the proof of loss deadline for CLM-48213 in Q3 2019") == wording("the proof of loss deadline for CLM-10007 in Q3 2022")
    assert wording('"Year 2" of 1,2019.5') == '"Year 2" of 1,2019.5'  # a number that only contains a year's digits stays


def test_years_move_with_the_title():
    assert title_year("Acme budget review 2017") == 2017 and title_year("Acme loan summary", "Q1 2020 to Q4 2020") == 2020
    assert relative("2018-01-30", 2017) == "{Y+1}-01-30" and absolute("{Y+1}-01-30", 2021) == "2022-01-30"
    assert absolute("{Y+1}-01-30", None) is None and absolute("6.667", None) == "6.667"


def _budget_deadlines(rule, seeds):
    """(question, title, gold) of real budget worlds, the deadline recomputed by `rule`."""
    q = "On what date does the reforecast submission deadline fall? Answer with a calendar date (YYYY-MM-DD)."
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        world = BUILDERS["budget"](rng, entity_name(seed))
        out.append((q, world.title, (dict(world.dates)["fiscal year end"] + dt.timedelta(days=rule(rng))).isoformat()))
    return out


def _earned(memo, samples):
    return sum(policies(memo, q, t)["the gold of this wording elsewhere, years moved"] == [f"\\boxed{{{g}}}"]
               for q, t, g in samples) / len(samples)


def test_the_policy_finds_a_deadline_a_fixed_period_after_the_year_end():
    old = lambda rng: rng.choice([15, 20, 30])  # the rule the red team farmed ({Y+1}-01-30)
    assert _earned(learn(_budget_deadlines(old, range(100))), _budget_deadlines(old, range(100, 200))) > 0.2
    new = lambda rng: rng.randint(10, 70)
    assert _earned(learn(_budget_deadlines(new, range(100))), _budget_deadlines(new, range(100, 200))) < 0.1


def _held_out(world, kind, n=150):
    memo, hits = memorised(world, kind), 0
    for i in range(n):
        rng = random.Random(f"held-out/{world}/{kind}/{i}")
        w = BUILDERS[world](rng, entity_name(rng.randrange(10_000)))
        w.unprinted, w.fixed_tables = unprinted(world, w), fixed_tables(world)
        q = next(q for q in (KINDS[kind](rng, w) for _ in range(200)) if q is not None)
        hits += any(r == f"\\boxed{{{q.shown}}}" for r in sum(policies(memo, q.text, w.title).values(), []))
    return hits / n


@pytest.mark.parametrize("world,kind", [("budget", "date"), ("contract", "ratio"), ("loan", "cagr"), ("loan", "ratio"),
                                        ("loan", "percent-change"), ("sla", "date"), ("financials", "date")])
def test_no_gold_is_a_constant_per_wording(world, kind):
    """The red team's three (0.23, 0.17, 0.14 before) and their neighbours: a memorised gold
    per wording (or its years moved) matches under one time in ten."""
    assert _held_out(world, kind) < 0.1


@pytest.mark.parametrize("world", sorted(BUILDERS))
def test_absent_items_are_rows_other_documents_print(world):
    """No absent item's name gives the answer away: each (ids aside) is a row other documents of
    the kind print in the table it is asked of ("Balloon payment" was asked only when absent)."""
    printed = printed_rows(world)
    for seed in range(20):
        w = BUILDERS[world](random.Random(seed), entity_name(seed))
        w.unprinted = unprinted(world, w)
        items = absent_items(w)
        assert items
        for name, where in items:
            if re.search(r"\d{3,}", name):
                continue  # an invoice, claim or container number past the register's
            assert name in (printed[where] if where is not None else set().union(*printed.values())), name
