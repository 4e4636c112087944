"""Operational worlds: invoices and purchase orders, payroll, insurance claims, BOMs, shipping."""

from __future__ import annotations

import datetime as dt
import random

from ..model import Table, World
from .common import PEOPLE, series

_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _months(rng: random.Random, n: int) -> tuple[list[str], int]:
    year, start = rng.randint(2016, 2024), rng.randint(0, 12 - n)
    return [f"{_MONTHS[start + i]} {year}" for i in range(n)], year


def invoices(rng: random.Random, entity: str) -> World:
    vendors = rng.sample(["Apex Supply", "Brightway Freight", "Corelink IT", "Dunmore Paper", "Eastgate Metals",
                          "Fulton Electric", "Greystone Services"], 5)
    months, year = _months(rng, 5)
    spend = Table(f"{entity}: Accounts payable spend by vendor", "Vendor", months,
                  [(v, series(rng, 5, rng.uniform(2_000, 90_000), (-0.1, 0.2), 2)) for v in vendors],
                  unit="usd", decimals=2, periods="month")
    start = rng.randint(1000, 9000)
    rows = []
    for k in range(7):
        po = round(rng.uniform(1_000, 60_000), 2)
        billed = round(po * rng.choice([1, 1, 1, rng.uniform(0.9, 1.12)]), 2)
        rows.append((f"INV-{start + k}", [po, billed, round(billed - po, 2)]))
    register = Table(f"{entity}: Invoice register against purchase orders", "Invoice",
                     ["PO amount", "Invoiced amount", "Difference"], rows, unit="usd", decimals=2)
    inv_date = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    return World("invoices", entity, f"{entity} accounts payable review", [spend, register],
                 dates=[("invoice INV-%d date" % start, inv_date),
                        ("goods received date", inv_date - dt.timedelta(days=rng.randint(2, 20)))],
                 durations=[("payment due date of INV-%d (net terms)" % start, rng.choice([30, 45, 60]),
                             "invoice INV-%d date" % start)],
                 absent_rows=[f"INV-{start + 50}", f"INV-{start - 40}"], absent_in=(1, 1))


def payroll(rng: random.Random, entity: str) -> World:
    people = rng.sample(PEOPLE, 7)
    rows = []
    for name in people:
        base = round(rng.uniform(3_000, 12_000), 2)
        ot = round(rng.choice([0, 0, rng.uniform(100, 1500)]), 2)
        gross = round(base + ot, 2)
        deductions = round(gross * rng.uniform(0.18, 0.34), 2)
        rows.append((name, [base, ot, gross, deductions, round(gross - deductions, 2)]))
    register = Table(f"{entity}: Payroll register (monthly)", "Employee",
                     ["Base pay", "Overtime", "Gross pay", "Deductions", "Net pay"], rows, unit="usd", decimals=2)
    months, year = _months(rng, 6)
    depts = rng.sample(["Assembly", "Warehouse", "Office", "Field Service", "Quality"], 4)
    trend = Table(f"{entity}: Gross payroll by department", "Department", months,
                  [(d, series(rng, 6, rng.uniform(20_000, 200_000), (-0.05, 0.1), 2)) for d in depts],
                  unit="usd", decimals=2, periods="month")
    end = dt.date(year, rng.randint(1, 12), 28)
    return World("payroll", entity, f"{entity} payroll summary", [register, trend],
                 dates=[("pay period end", end), ("pay date", end + dt.timedelta(days=rng.randint(2, 21)))],
                 durations=[("next pay date", rng.choice([14, 28, 30]), "pay date")],
)


def claims(rng: random.Random, entity: str) -> World:
    lines = rng.sample(["Property", "Auto", "General liability", "Workers' compensation", "Marine cargo"], 4)
    y0 = rng.randint(2014, 2020)
    years = [str(y0 + i) for i in range(5)]
    paid = Table(f"{entity}: Claims paid by line of business", "Line of business", years,
                 [(ln, series(rng, 5, rng.uniform(200, 20_000), (-0.1, 0.25))) for ln in lines],
                 periods="year")
    rows = []
    start = rng.randint(10_000, 90_000)
    for k in range(6):
        claimed = round(rng.uniform(2_000, 250_000), 2)
        deductible = rng.choice([1_000, 2_500, 5_000, 10_000])
        limit = rng.choice([100_000, 150_000, 200_000])
        rows.append((f"CLM-{start + k}", [claimed, deductible, round(min(max(claimed - deductible, 0), limit), 2)]))
    register = Table(f"{entity}: Claim register (settled claims)", "Claim", ["Amount claimed", "Deductible", "Amount paid"],
                     rows, unit="usd", decimals=2)
    loss = dt.date(y0 + 4, rng.randint(1, 12), rng.randint(1, 28))
    return World("claims", entity, f"{entity} insurance claims report", [paid, register],
                 dates=[(f"date of loss for CLM-{start}", loss),
                        (f"date CLM-{start} was reported", loss + dt.timedelta(days=rng.randint(1, 40)))],
                 durations=[(f"proof of loss deadline for CLM-{start}", rng.choice([60, 90]), f"date of loss for CLM-{start}")],
                 absent_rows=[f"CLM-{start + 99}"], absent_in=(1,))


def bom(rng: random.Random, entity: str) -> World:
    parts = rng.sample(["Housing, aluminium", "Main PCB assembly", "Power supply 24 V", "Cooling fan 80 mm",
                        "Display module 7 in", "Cable harness", "Fastener kit", "Gasket set", "Sensor board",
                        "Battery pack 4S"], 7)
    rows = []
    for p in parts:
        qty, unit = rng.randint(1, 12), round(rng.uniform(0.4, 180), 2)
        rows.append((p, [qty, unit, round(qty * unit, 2)]))
    rows.append(("Total", [sum(r[1][0] for r in rows), None, round(sum(r[1][2] for r in rows), 2)]))
    table = Table(f"{entity}: Bill of materials, model X-{rng.randint(100, 999)}", "Part",
                  ["Quantity", "Unit cost", "Extended cost"], rows, unit="usd", totals=("Total",),
                  column_units=("units", "usd", "usd"), column_decimals=(0, 2, 2))
    year = rng.randint(2018, 2023)
    quarters = [f"Q{q} {year}" for q in range(1, 5)]
    cost = Table(f"{entity}: Unit cost history of key parts", "Part", quarters,
                 [(p, series(rng, 4, rng.uniform(5, 150), (-0.08, 0.12), 2)) for p in parts[:4]],
                 unit="usd", decimals=2, periods="quarter")
    rel = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    return World("bom", entity, f"{entity} bill of materials", [table, cost],
                 dates=[("engineering release date", rel), ("production start date", rel + dt.timedelta(days=rng.randint(20, 90)))],
                 durations=[("first article inspection due", rng.choice([10, 14, 21]), "production start date")])


def shipping(rng: random.Random, entity: str) -> World:
    start = rng.randint(100_000, 900_000)
    rows = []
    for k in range(7):
        pieces = rng.randint(10, 400)
        weight = round(pieces * rng.uniform(5, 60), 1)
        rows.append((f"MSKU{start + k}", [pieces, weight, round(weight * rng.uniform(0.002, 0.006), 2)]))
    manifest = Table(f"{entity}: Shipping manifest, containers", "Container", ["Pieces", "Gross weight (kg)", "Volume (m3)"],
                     rows, unit="kg", column_units=("pieces", "kg", "m3"), column_decimals=(0, 1, 2))
    months, year = _months(rng, 6)
    lanes = rng.sample(["Rotterdam-Shanghai", "Hamburg-Newark", "Singapore-Los Angeles", "Antwerp-Santos", "Busan-Vancouver"], 4)
    tonnage = Table(f"{entity}: Monthly tonnage by trade lane", "Trade lane", months,
                    [(ln, series(rng, 6, rng.uniform(500, 9000), (-0.1, 0.15))) for ln in lanes],
                    unit="tonnes", periods="month")
    depart = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    return World("shipping", entity, f"{entity} shipping manifest and lane report", [manifest, tonnage],
                 dates=[("departure date", depart), ("arrival date", depart + dt.timedelta(days=rng.randint(12, 45)))],
                 durations=[("free time (demurrage starts) ", rng.choice([5, 7, 10]), "arrival date")],
                 absent_rows=[f"MSKU{start + 77}", f"MSKU{start - 12}"], absent_in=(0, 0))
