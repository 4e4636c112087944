"""Technical worlds: a datasheet (min/typ/max), a test report, a service-level report."""

from __future__ import annotations

import datetime as dt
import random

from ..model import Table, World
from .common import series


def datasheet(rng: random.Random, entity: str) -> World:
    part = f"{rng.choice(['LT', 'TPS', 'AD', 'MAX'])}{rng.randint(1000, 9999)}"
    specs = [("Supply voltage", 2.7, 5.5, "V"), ("Quiescent current", 20, 400, "uA"), ("Output current", 0.5, 3, "A"),
             ("Switching frequency", 200, 2200, "kHz"), ("Efficiency at 1 A", 80, 96, "%"),
             ("Line regulation", 0.01, 0.2, "%/V"), ("Thermal resistance", 25, 60, "C/W"),
             ("Soft-start time", 0.5, 8, "ms"), ("Output voltage ripple", 5, 40, "mV")]
    # seven of the nine, in datasheet order: the two a datasheet leaves out are its absent items, and
    # other datasheets print them (an absent item that no datasheet has would give itself away)
    kept = set(rng.sample(range(len(specs)), 7))
    specs = [s for i, s in enumerate(specs) if i in kept]
    units_ = {name: u for name, _, _, u in specs}
    rows = []
    for name, lo, hi, _ in specs:
        typ = round(rng.uniform(lo, hi), 2)
        rows.append((f"{name} ({units_[name]})", [round(typ * rng.uniform(0.7, 0.95), 2), typ, round(typ * rng.uniform(1.05, 1.4), 2)]))
    elec = Table(f"{entity} {part}: Electrical characteristics (TA = 25 C)", "Parameter", ["Min", "Typ", "Max"],
                 rows, unit="", decimals=2)
    temps = ["-40 C", "0 C", "25 C", "85 C", "125 C"]
    drift = Table(f"{entity} {part}: Typical quiescent current over temperature", "Supply voltage", temps,
                  [(f"VIN = {v} V", series(rng, 5, rng.uniform(30, 120), (0.02, 0.15), 1)) for v in (3.3, 5.0, 12.0)],
                  unit="uA", decimals=1, periods="temperature")
    release = dt.date(rng.randint(2012, 2023), rng.randint(1, 12), rng.randint(1, 28))
    world = World("datasheet", entity, f"{part} synchronous buck converter datasheet", [elec, drift],
                  dates=[("initial release date", release), ("revision B date", release + dt.timedelta(days=rng.randint(100, 700)))],
                  durations=[("last-time-buy deadline after the end-of-life notice", rng.choice([180, 270, 365]), "revision B date")])
    return world


def testreport(rng: random.Random, entity: str) -> World:
    tests = rng.sample(["Insulation resistance", "Leakage current", "Output ripple", "Hold-up time", "Inrush current",
                        "Load regulation", "Startup delay", "Standby power", "Power factor"], 7)
    rows = []
    for name in tests:
        lo, hi = round(rng.uniform(1, 50), 1), 0.0
        hi = round(lo * rng.uniform(1.5, 3), 1)
        measured = round(rng.uniform(lo * 0.85, hi * 1.1), 1)
        rows.append((name, [lo, measured, hi, round(min(measured - lo, hi - measured), 1)]))
    results = Table(f"{entity}: Test results, unit under test", "Test", ["Lower limit", "Measured", "Upper limit", "Margin"],
                    rows, unit="", decimals=1)
    runs = [f"Run {i}" for i in range(1, 6)]
    trend = Table(f"{entity}: Measured efficiency by test run (%)", "Load point", runs,
                  [(f"{p}% load", series(rng, 5, rng.uniform(80, 88), (0.0, 0.01), 1)) for p in (25, 50, 75, 100)],
                  unit="%", decimals=1, periods="run")
    start = dt.date(rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(1, 28))
    return World("testreport", entity, f"{entity} product qualification test report", [results, trend],
                 dates=[("test start date", start), ("test completion date", start + dt.timedelta(days=rng.randint(3, 30)))],
                 durations=[("retest deadline for failed items", rng.choice([14, 30]), "test completion date")])


def sla(rng: random.Random, entity: str) -> World:
    services = rng.sample(["Payments API", "Customer portal", "Data warehouse", "Email relay", "Identity service",
                           "Search cluster"], 5)
    year = rng.randint(2018, 2024)
    months = [f"{m} {year}" for m in ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]]
    # tens to hundreds a month: the growth of a few incidents is a ratio of small whole numbers, a few
    # of which (5/3, 2) made the same CAGR and percent change again and again
    incidents = Table(f"{entity}: Incidents by service", "Service", months,
                      [(s, series(rng, 6, rng.uniform(20, 200), (-0.2, 0.3))) for s in services], unit="incidents",
                      periods="month")
    rows = []
    for s in services:
        uptime = round(rng.uniform(99.0, 99.999), 3)
        target = rng.choice([99.5, 99.9, 99.95])
        rows.append((s, [target, uptime, round(rng.uniform(0.2, 9), 2)]))
    summary = Table(f"{entity}: Service level summary, H1 {year}", "Service", ["Target uptime (%)", "Actual uptime (%)", "MTTR (hours)"],
                    rows, unit="%", column_units=("%", "%", "hours"), column_decimals=(2, 3, 2))
    end = dt.date(year, 6, 30)
    return World("sla", entity, f"{entity} service level report H1 {year}", [incidents, summary],
                 dates=[("reporting period end", end), ("report issue date", end + dt.timedelta(days=rng.randint(5, 25)))],
                 durations=[("service credit claim deadline", rng.choice([30, 45, 60]), "report issue date")])
