"""Question kinds: each a program over the world, so every answer is computed, not written.

A kind returns a `Question` or None when the world offers nothing it can ask (the caller then
draws again). Answers are exact; the reference shows them rounded to at least four significant
digits, which the answer verifier accepts as a correct rounding.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from .model import Table, World
from .render import fmt_date

UNANSWERABLE = "unanswerable"
GROWTH_PERIODS = {"year": "annual", "quarter": "quarterly", "month": "monthly"}


@dataclass
class Question:
    text: str
    answer: Any
    answer_type: str  # rlhub-answer's answer types
    shown: str  # the answer as the reference writes it
    wrong: list[tuple[str, str]]  # (what is wrong, the answer as written): a wrong number, scale, sign, item, day...
    computed: bool  # the answer is derived, so it must not appear in the prompt
    hops: int = 1  # cells or facts the answer needs
    secrets: list[str] = field(default_factory=list)


def fmt_answer(v: float) -> str:
    if float(v).is_integer():
        return f"{int(v):,}"
    d = max(2, 3 - math.floor(math.log10(abs(v))))
    return f"{v:,.{d}f}"


def unit_phrase(table: Table, col: str) -> str:
    unit = table.unit_of(col)
    return {"usd_k": "Answer in US dollars (the full amount, not thousands).", "usd": "Answer in US dollars.",
            "": "Answer in the unit the table uses for that item.", "%": "Answer in percent."}.get(
        unit, f"Answer in {unit}.")


def number_question(text: str, value: float, computed: bool, hops: int, scale: int = 1,
                    answer_type: str = "number") -> Question:
    shown = fmt_answer(value)
    off = value * 1.07 if abs(value) > 1e-9 else 1.0
    wrong = [("value 7% off", fmt_answer(round(off, 6))), ("scaled x1000", fmt_answer(value * 1000))]
    if value:
        wrong.append(("sign flipped", fmt_answer(-value)))
    if scale == 1000:
        wrong.append(("not scaled from thousands", fmt_answer(value / 1000)))
    secrets = [shown, shown.replace(",", "")] if computed else []
    return Question(text, value, answer_type, shown, wrong, computed, hops, secrets)


def _cell(rng: random.Random, world: World, table: Table | None = None):
    table = table or rng.choice(world.tables)
    row, values = rng.choice(table.items() or table.rows)
    options = [c for c, v in zip(table.columns, values) if v is not None]
    col = rng.choice(options)
    return table, row, col, table.value(row, col)


def _ref(table: Table, row: str, col: str) -> str:
    return f'"{row}" ({col}) in the table "{table.title}"'


def lookup(rng: random.Random, world: World) -> Question | None:
    table, row, col, v = _cell(rng, world)
    q = f"What is the value of {_ref(table, row, col)}? {unit_phrase(table, col)}"
    return number_question(q, v * table.scale_of(col), False, 1, table.scale_of(col))


def arithmetic(rng: random.Random, world: World) -> Question | None:
    t1, r1, c1, v1 = _cell(rng, world)
    same_unit = [t for t in world.tables if t.unit_of(t.columns[0]) == t1.unit_of(c1) and not t.column_units]
    t2 = rng.choice(same_unit) if same_unit and rng.random() < 0.5 else t1  # evidence across tables
    t2, r2, c2, v2 = _cell(rng, world, t2)
    if (t1, r1, c1) == (t2, r2, c2) or t2.unit_of(c2) != t1.unit_of(c1):
        return None
    a, b = v1 * t1.scale_of(c1), v2 * t2.scale_of(c2)
    if rng.random() < 0.5:
        q, value = f"What is the sum of {_ref(t1, r1, c1)} and {_ref(t2, r2, c2)}?", a + b
    else:
        q, value = f"What is {_ref(t1, r1, c1)} minus {_ref(t2, r2, c2)}?", a - b
    return number_question(f"{q} {unit_phrase(t1, c1)}", round(value, 6), True, 2, t1.scale_of(c1))


def percent_change(rng: random.Random, world: World) -> Question | None:
    table = world.periods_table()
    if table is None:
        return None
    row, values = rng.choice(table.items())
    i, j = sorted(rng.sample(range(len(table.columns)), 2))
    if not values[i]:
        return None
    value = (values[j] - values[i]) / abs(values[i]) * 100
    q = (f'By what percentage did "{row}" change from {table.columns[i]} to {table.columns[j]} in the table '
         f'"{table.title}"? Answer in percent (negative for a decrease).')
    return number_question(q, value, True, 2, answer_type="percent")


def cagr(rng: random.Random, world: World) -> Question | None:
    table = world.periods_table()
    if table is None or table.periods not in GROWTH_PERIODS:
        return None
    rows = [(r, v) for r, v in table.items() if v[0] and v[-1] and v[0] > 0 and v[-1] > 0]
    if not rows:
        return None
    row, values = rng.choice(rows)
    n = len(values) - 1
    value = ((values[-1] / values[0]) ** (1 / n) - 1) * 100
    q = (f'What is the compound {GROWTH_PERIODS[table.periods]} growth rate of "{row}" from {table.columns[0]} to '
         f'{table.columns[-1]} ({n} {table.periods}s) in the table "{table.title}"? Answer in percent.')
    return number_question(q, value, True, len(values), answer_type="percent")


def ratio(rng: random.Random, world: World) -> Question | None:
    table = rng.choice(world.tables)
    if len(table.items()) < 2:
        return None
    (r1, _), (r2, _) = rng.sample(table.items(), 2)
    col = rng.choice(table.columns)
    a, b = table.value(r1, col), table.value(r2, col)
    if a is None or not b:
        return None
    q = (f'What is the ratio of "{r1}" to "{r2}" ({col}) in the table "{table.title}", i.e. the first divided by '
         f"the second? Answer with a decimal number.")
    return number_question(q, a / b, True, 2)


def _ranked(rng: random.Random, world: World):
    table = rng.choice(world.tables)
    col = rng.choice(table.columns)
    items = [(r, v[table.columns.index(col)]) for r, v in table.items() if v[table.columns.index(col)] is not None]
    return table, col, sorted(items, key=lambda x: x[1])


def argmax(rng: random.Random, world: World) -> Question | None:
    table, col, items = _ranked(rng, world)
    if len(items) < 3:
        return None
    highest = rng.random() < 0.6
    best, runner = (items[-1], items[-2]) if highest else (items[0], items[1])
    if best[1] == runner[1]:
        return None
    q = (f'In the table "{table.title}", which {table.row_header.lower()} has the '
         f'{"highest" if highest else "lowest"} {col}? Answer with its name as written in the table.')
    return Question(q, best[0], "text", best[0], [("the runner-up", runner[0]), ("a middle item", items[len(items) // 2][0])],
                    False, len(items))


def _threshold(rng: random.Random, table: Table, col: str, items):
    values = sorted({v for _, v in items})
    if len(values) < 3:
        return None
    k = rng.randrange(1, len(values))
    lo, hi = values[k - 1], values[k]
    d = table.decimals_of(col)
    thr = round((lo + hi) / 2, d + 1)
    if not lo < thr < hi:
        return None
    return thr, f"{thr:,.{d + 1}f}" + {"usd_k": " thousand US dollars", "usd": " US dollars"}.get(table.unit_of(col), "")


def count(rng: random.Random, world: World) -> Question | None:
    table, col, items = _ranked(rng, world)
    found = _threshold(rng, table, col, items)
    if not found:
        return None
    thr, shown = found
    n = sum(v > thr for _, v in items)
    q = f'In the table "{table.title}", how many {table.row_header.lower()} entries have a {col} greater than {shown}?'
    return Question(q, n, "number", str(n), [("one too many", str(n + 1)), ("one too few", str(n - 1)) if n else ("two too many", "2")],
                    True, len(items))


def spans(rng: random.Random, world: World) -> Question | None:
    table, col, items = _ranked(rng, world)
    found = _threshold(rng, table, col, items)
    if not found:
        return None
    thr, shown = found
    names = [r for r, v in items if v > thr]
    others = [r for r, v in items if v <= thr]
    if len(names) < 2 or not others:
        return None
    q = (f'In the table "{table.title}", list every {table.row_header.lower()} with a {col} greater than {shown}. '
         "Write the names as in the table, separated by semicolons.")
    wrong = [("an item missing", "; ".join(names[:-1])), ("an extra item", "; ".join(names + others[:1]))]
    return Question(q, names, "list", "; ".join(names), wrong, False, len(items))


def date_arithmetic(rng: random.Random, world: World) -> Question | None:
    dates = dict(world.dates)
    if world.durations and rng.random() < 0.5:
        what, days, anchor = rng.choice(world.durations)
        day = dates[anchor] + dt.timedelta(days=days)
        q = f"On what date does the {what.strip()} fall? Answer with a calendar date (YYYY-MM-DD)."
        wrong = [("a day late", (day + dt.timedelta(days=1)).isoformat()),
                 ("counted from the wrong end", (day - dt.timedelta(days=days)).isoformat())]
        secrets = [day.isoformat()] + [fmt_date(day, f) for f in ("%B %d, %Y", "%d %B %Y")]
        return Question(q, day.isoformat(), "date", day.isoformat(), wrong, True, 2, secrets)
    (n1, d1), (n2, d2) = sorted(rng.sample(world.dates, 2), key=lambda x: x[1])
    if d1 == d2:
        return None
    days = (d2 - d1).days
    q = f"How many calendar days are there from the {n1} to the {n2}? Answer with a whole number of days."
    return Question(q, days, "number", str(days), [("off by one day", str(days + 1)), ("sign flipped", str(-days))], True, 2,
                    [str(days)])


def yes_no(rng: random.Random, world: World) -> Question | None:
    t1, r1, c1, v1 = _cell(rng, world)
    t2, r2, c2, v2 = _cell(rng, world, t1)
    if v1 == v2 or (r1, c1) == (r2, c2):
        return None
    q = f"Is {_ref(t1, r1, c1)} greater than {_ref(t2, r2, c2)}? Answer yes or no."
    yes = v1 > v2
    return Question(q, "yes" if yes else "no", "yesno", "yes" if yes else "no", [("the opposite", "no" if yes else "yes")], False, 2)


def unanswerable(rng: random.Random, world: World) -> Question | None:
    if not world.absent_rows:
        return None
    table = rng.choice(world.tables)
    col = rng.choice(table.columns)
    absent = rng.choice(world.absent_rows)
    q = f'What is the value of "{absent}" ({col}) in the table "{table.title}"? {unit_phrase(table, col)}'
    _, row, col2, v = _cell(rng, world, table)
    return Question(q, UNANSWERABLE, "unanswerable", UNANSWERABLE,
                    [("another cell's value", fmt_answer(v * table.scale_of(col2))), ("a made-up zero", "0")], False, 1)


KINDS: dict[str, Callable[[random.Random, World], Question | None]] = {
    "lookup": lookup, "arithmetic": arithmetic, "percent-change": percent_change, "cagr": cagr, "ratio": ratio,
    "argmax": argmax, "count": count, "list": spans, "date": date_arithmetic, "yesno": yes_no,
    "unanswerable": unanswerable,
}
