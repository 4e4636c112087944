"""Contracts: a services agreement with parties, dates, notice period, fee schedule and rate card."""

from __future__ import annotations

import datetime as dt
import random

from ..model import Table, World
from .common import LAWS, add_months, date_between, entity_name


def contract(rng: random.Random, entity: str) -> World:
    kind = rng.choice(["Master services agreement", "Commercial lease", "Software licence and support agreement"])
    counterparty = entity_name(rng.randrange(10_000))
    effective = date_between(rng, dt.date(2014, 1, 1), 3000)
    term_years = rng.choice([3, 4, 5])
    fee0 = rng.randint(50, 900) * 1000
    escalation = rng.choice([2.0, 2.5, 3.0, 3.5, 4.0])
    # the credits cap is a share of the fee drawn from a continuous spread: of three round shares, the
    # fee-to-cap ratio was one of 5, 6.667 and 10 (a constant per wording passed half the ratios)
    credits = rng.uniform(0.08, 0.22)
    fees = [round(fee0 * (1 + escalation / 100) ** y) for y in range(term_years)]
    schedule = Table(f"{kind} between {entity} and {counterparty}: Annual fee schedule", "Fee", 
                     [f"Contract year {y + 1}" for y in range(term_years)],
                     [("Base fee", fees), ("Service credits cap", [round(f * credits) for f in fees])],
                     unit="usd", periods="year")
    roles = rng.sample(["Project manager", "Senior engineer", "Engineer", "Analyst", "Architect", "Support technician"], 5)
    rates = Table(f"{kind} between {entity} and {counterparty}: Rate card (hourly, USD)", "Role", ["Standard rate", "Overtime rate"],
                  [(r, [h := rng.randint(60, 320), round(h * 1.5)]) for r in roles], unit="usd")
    notice = rng.choice([30, 60, 90, 120])
    expiry = add_months(effective, 12 * term_years) - dt.timedelta(days=1)
    cap = rng.randint(5, 40) * 100_000
    return World("contract", entity, f"{kind}: {entity} and {counterparty}", [schedule, rates],
                 dates=[("effective date", effective), ("expiry date of the initial term", expiry),
                        ("signature date", effective - dt.timedelta(days=rng.randint(1, 30)))],
                 durations=[("latest date to give notice of non-renewal (notice period before expiry)", -notice,
                             "expiry date of the initial term")],
                 facts=[("Customer", entity), ("Provider", counterparty), ("Governing law", f"the laws of {rng.choice(LAWS)}"),
                        ("Limitation of liability", f"aggregate liability capped at USD {cap:,}"),
                        ("Notice period", f"{notice} days' written notice before expiry"),
                        ("Annual fee escalation", f"{escalation}% per contract year")])


