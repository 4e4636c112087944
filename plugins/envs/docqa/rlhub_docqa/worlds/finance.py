"""Financial worlds: company statements that tie out, a loan with its schedule, budget vs actual."""

from __future__ import annotations

import datetime as dt
import random

from ..model import Table, World
from .common import add_months, date_between, series


def financials(rng: random.Random, entity: str) -> World:
    """Income statement, balance sheet and cash flow over four years, tied by construction:
    PP&E rolls forward with capex and depreciation, equity with net income and dividends, and the
    cash-flow statement's net change equals the change in balance-sheet cash."""
    y0 = rng.randint(2015, 2021)
    years = [f"FY{y0 + i}" for i in range(4)]
    n = len(years)
    revenue = series(rng, n, rng.uniform(20_000, 900_000), (0.02, 0.25))
    seg_names = rng.sample(["Industrial", "Consumer", "Healthcare", "Energy", "Software", "Services"], 3)
    shares = [rng.uniform(0.2, 0.45), rng.uniform(0.2, 0.45)]
    seg_a = [int(r * shares[0]) for r in revenue]
    seg_b = [int(r * shares[1]) for r in revenue]
    seg_c = [r - a - b for r, a, b in zip(revenue, seg_a, seg_b)]
    cogs = [int(r * rng.uniform(0.45, 0.65)) for r in revenue]
    gross = [r - c for r, c in zip(revenue, cogs)]
    sga = [int(r * rng.uniform(0.12, 0.2)) for r in revenue]
    rnd = [int(r * rng.uniform(0.03, 0.09)) for r in revenue]
    dep = [int(r * rng.uniform(0.02, 0.05)) for r in revenue]
    op = [g - s - d - e for g, s, d, e in zip(gross, sga, rnd, dep)]
    interest = [int(r * rng.uniform(0.005, 0.02)) for r in revenue]
    pretax = [o - i for o, i in zip(op, interest)]
    tax = [int(p * rng.uniform(0.19, 0.27)) if p > 0 else 0 for p in pretax]
    net = [p - t for p, t in zip(pretax, tax)]
    income = Table(f"{entity}: Consolidated statement of operations", "Line item", years, [
        ("Revenue", revenue), ("Cost of revenue", cogs), ("Gross profit", gross),
        ("Selling, general and administrative", sga), ("Research and development", rnd),
        ("Depreciation and amortization", dep), ("Operating income", op), ("Interest expense", interest),
        ("Income before income taxes", pretax), ("Income tax expense", tax), ("Net income", net)],
        periods="year", totals=("Gross profit", "Operating income", "Income before income taxes", "Net income"))
    segments = Table(f"{entity}: Revenue by segment", "Segment", years,
                     [(seg_names[0], seg_a), (seg_names[1], seg_b), (seg_names[2], seg_c), ("Total revenue", revenue)],
                     periods="year", totals=("Total revenue",))
    # Balance sheet: receivables, inventory, payables track revenue; PP&E and equity roll forward.
    ar = [int(r * rng.uniform(0.1, 0.18)) for r in revenue]
    inv = [int(c * rng.uniform(0.1, 0.2)) for c in cogs]
    ap = [int(c * rng.uniform(0.08, 0.15)) for c in cogs]
    capex = [int(r * rng.uniform(0.03, 0.07)) for r in revenue]
    div = [max(0, int(x * rng.uniform(0.1, 0.4))) for x in net]
    debt = series(rng, n, revenue[0] * rng.uniform(0.2, 0.6), (-0.1, 0.1))
    ppe, equity = [int(revenue[0] * rng.uniform(0.3, 0.6))], [int(revenue[0] * rng.uniform(0.4, 0.8))]
    for t in range(1, n):
        ppe.append(ppe[-1] + capex[t] - dep[t])
        equity.append(equity[-1] + net[t] - div[t])
    cash = [ap[t] + debt[t] + equity[t] - ar[t] - inv[t] - ppe[t] for t in range(n)]
    if min(cash) < 1000:  # keep cash positive by funding with more opening equity
        lift = 1000 - min(cash)
        equity = [e + lift for e in equity]
        cash = [c + lift for c in cash]
    assets = [c + a + i + p for c, a, i, p in zip(cash, ar, inv, ppe)]
    balance = Table(f"{entity}: Consolidated balance sheet (as of fiscal year end)", "Line item", years, [
        ("Cash and cash equivalents", cash), ("Accounts receivable", ar), ("Inventories", inv),
        ("Property, plant and equipment, net", ppe), ("Total assets", assets), ("Accounts payable", ap),
        ("Long-term debt", debt), ("Total stockholders' equity", equity),
        ("Total liabilities and equity", [a + d + e for a, d, e in zip(ap, debt, equity)])],
        periods="year", totals=("Total assets", "Total liabilities and equity"))
    # Cash flow (from the second year: each needs the prior balance sheet).
    cf_years = years[1:]
    wc = [-(ar[t] - ar[t - 1]) - (inv[t] - inv[t - 1]) + (ap[t] - ap[t - 1]) for t in range(1, n)]
    cfo = [net[t] + dep[t] + wc[t - 1] for t in range(1, n)]
    cfi = [-capex[t] for t in range(1, n)]
    cff = [debt[t] - debt[t - 1] - div[t] for t in range(1, n)]
    cashflow = Table(f"{entity}: Consolidated statement of cash flows", "Line item", cf_years, [
        ("Net income", net[1:]), ("Depreciation and amortization", dep[1:]), ("Changes in working capital", wc),
        ("Net cash from operating activities", cfo), ("Capital expenditures", cfi),
        ("Net cash used in investing activities", cfi), ("Net change in long-term debt", [debt[t] - debt[t - 1] for t in range(1, n)]),
        ("Dividends paid", [-d for d in div[1:]]), ("Net cash from financing activities", cff),
        ("Net change in cash", [a + b + c for a, b, c in zip(cfo, cfi, cff)])],
        periods="year", totals=("Net cash from operating activities", "Net cash used in investing activities",
                                "Net cash from financing activities", "Net change in cash"))
    fye = dt.date(y0 + 3, 12, 31)
    signed = fye + dt.timedelta(days=rng.randint(40, 80))
    return World("financials", entity, f"{entity} annual report {years[-1]}", [income, segments, balance, cashflow],
                 dates=[("fiscal year end", fye), ("date the auditor's report was signed", signed),
                        ("annual general meeting", signed + dt.timedelta(days=rng.randint(30, 70)))],
                 durations=[("final dividend payment", rng.choice([14, 21, 30, 45]), "annual general meeting")],
                 facts=[("auditor", rng.choice(["Hale & Morrow LLP", "Brightline Audit LLP", "Kestrel Assurance"]))])


LOAN_EXTRAS = ("Servicing fees", "Escrow deposits", "Insurance premiums")  # rows some schedules print


def loan(rng: random.Random, entity: str) -> World:
    """A fixed-rate amortising loan; the yearly schedule is summed from the monthly one. The rate
    is any of hundreds (a few rates made the schedule's ratios and growth rates a handful of
    constants per term: the principal cancels out), and some schedules print fees the borrower
    pays beside the instalments (so that an absent row is one other loans print)."""
    principal = rng.randrange(500, 20_000) * 1000
    rate = round(rng.uniform(2.5, 9.5), 2)
    years = rng.choice([5, 6, 7])
    r, months = rate / 1200, years * 12
    payment = principal * r / (1 - (1 + r) ** -months)
    start = date_between(rng, dt.date(2016, 1, 1), 2000)
    first_payment = add_months(start.replace(day=1), 1)
    balance, by_year, opening = float(principal), [], []
    for y in range(years):
        opening.append(balance)
        paid_i = paid_p = 0.0
        for _ in range(12):
            i = balance * r
            p = min(payment - i, balance)
            balance -= p
            paid_i, paid_p = paid_i + i, paid_p + p
        by_year.append((round(paid_i), round(paid_p), round(max(balance, 0))))
    labels = [f"Year {y + 1}" for y in range(years)]
    extras = {"Servicing fees": [round(b * rng.uniform(0.001, 0.005)) for b in opening],
              "Escrow deposits": series(rng, years, principal * rng.uniform(0.004, 0.012), (0.0, 0.06)),
              "Insurance premiums": series(rng, years, principal * rng.uniform(0.002, 0.008), (0.01, 0.08))}
    printed = [name for name in LOAN_EXTRAS if rng.random() < 0.5]
    schedule = Table(f"{entity}: Term loan amortization schedule (annual totals)", "Item", labels, [
        ("Scheduled payments", [a + b for a, b, _ in by_year]), ("Interest paid", [a for a, _, _ in by_year]),
        ("Principal repaid", [b for _, b, _ in by_year]), ("Ending balance", [c for _, _, c in by_year])]
        + [(name, extras[name]) for name in printed],
        unit="usd", periods="year", totals=("Scheduled payments",))
    lenders = rng.sample(["First Harbor Bank", "Summit Credit Union", "Atlas Capital", "Meridian Trust"], 3)
    shares = [rng.randint(20, 45), rng.randint(20, 35)]
    shares.append(100 - sum(shares))
    syndicate = Table(f"{entity}: Lender commitments", "Lender", ["Commitment"],
                      [(name, [principal * s // 100]) for name, s in zip(lenders, shares)], unit="usd")
    maturity = add_months(first_payment, months - 1)
    # No world-level absent rows: the absent items are the fee rows and the lender other loans print.
    return World("loan", entity, f"{entity} term loan agreement summary", [schedule, syndicate],
                 dates=[("loan origination date", start), ("first payment date", first_payment),
                        ("maturity date", maturity)],
                 durations=[("late payment grace period end", rng.choice([10, 15, 30]), "first payment date")],
                 facts=[("interest rate", f"{rate}% per year, fixed"), ("monthly payment", f"{payment:,.2f}")])


def budget(rng: random.Random, entity: str) -> World:
    depts = rng.sample(["Engineering", "Marketing", "Sales", "Operations", "Finance", "Legal", "Facilities",
                        "Customer Support", "Human Resources"], 6)
    year = rng.randint(2017, 2024)
    quarters = [f"Q{q} {year}" for q in range(1, 5)]
    actual = {d: series(rng, 4, rng.uniform(300, 5000), (-0.08, 0.15)) for d in depts}
    bud = {d: int(sum(actual[d]) * rng.uniform(0.85, 1.15)) for d in depts}
    by_q = Table(f"{entity}: Actual spending by quarter", "Department", quarters,
                 [(d, actual[d]) for d in depts] + [("Total", [sum(actual[d][q] for d in depts) for q in range(4)])],
                 periods="quarter", totals=("Total",))
    vs = Table(f"{entity}: Budget versus actual, fiscal {year}", "Department", ["Budget", "Actual", "Variance"],
               [(d, [bud[d], sum(actual[d]), sum(actual[d]) - bud[d]]) for d in depts])
    approved = dt.date(year - 1, rng.randint(10, 12), rng.randint(1, 28))
    return World("budget", entity, f"{entity} budget review {year}", [by_q, vs],
                 dates=[("budget approval date", approved), ("fiscal year end", dt.date(year, 12, 31))],
                 # any day over two months: the fiscal year end is December 31 of the title's year, so
                 # a few fixed periods made the deadline {Y+1}-01-30 one time in three
                 durations=[("reforecast submission deadline", rng.randint(10, 70), "fiscal year end")])
