"""Question kinds: each a program over the world, so every answer is computed, not written.

A kind returns a `Question` or None when the world offers nothing it can ask (the caller then
draws again). Answers are exact; the reference shows them rounded to at least four significant
digits, which the answer verifier accepts as a correct rounding. Each question also declares what
a careful grader accepts beside the bare value (its units, a direction word for a change, the
number a yes/no rests on) and the other ways its answer may be written (`forms`), and the table
it is about, which the cheap-policy checks read (a random number of it, every label of it).
"""

from __future__ import annotations

import datetime as dt
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from rlhub_answer.plugin import AnswerHidden

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
    units: tuple[str, ...] = ()  # what an answer may name beside its number (AnswerSpec.units); () names none
    change: bool = False  # a signed change: "increase"/"decrease" may give the sign
    amount: float | None = None  # a yes/no or a count also gives this number
    ordered: bool = False  # a list whose order the question asks for
    partial: bool = True  # a list earns partial credit (False: all or nothing)
    forms: list[str] = field(default_factory=list)  # other right ways to write the answer
    table: Table | None = None  # the table the question is about (what cheap policies read)
    column: str | None = None  # the column a ranking or list reads (positional cheap answers use it)
    exact: bool = False  # a whole count: no rounding of it is right

    def hidden(self) -> AnswerHidden:
        return AnswerHidden(answer=self.answer, answer_type=self.answer_type, units=self.units, change=self.change,
                            amount=self.amount, ordered=self.ordered, partial=self.partial, exact=self.exact)


def fmt_answer(v: float) -> str:
    if float(v).is_integer():
        return f"{int(v):,}"
    d = max(2, 3 - math.floor(math.log10(abs(v))))
    return f"{v:,.{d}f}"


def row_unit(table: Table, row: str | None) -> str:
    """The unit a table without one writes in a row's label ("Supply voltage (V)"), else ""."""
    if table.unit or row is None:
        return ""
    found = re.search(r"\(([^()]{1,6})\)$", row)
    return found.group(1) if found else ""


def answer_units(table: Table, col: str, row: str | None = None) -> tuple[str, ...]:
    """What an answer about this cell may name: US dollars for money, the column's unit word, or
    the unit its row's label gives (a datasheet's "(kHz)")."""
    unit = table.unit_of(col) or row_unit(table, row)
    if unit in ("usd", "usd_k"):
        return ("USD",)
    return () if unit in ("", "%") else (unit,)


def unit_phrase(table: Table, col: str, row: str | None = None) -> str:
    unit = table.unit_of(col) or row_unit(table, row)
    return {"usd_k": "Answer in US dollars (the full amount, not thousands).", "usd": "Answer in US dollars.",
            "": "Answer in the unit the table uses for that item.", "%": "Answer in percent."}.get(
        unit, f"Answer in {unit}.")


def number_forms(value: float, shown: str, units: tuple[str, ...], percent: bool, change: bool) -> list[str]:
    """The other ways a careful grader accepts this number, as the question invites them: without
    separators, with the % the question asks for, in the currency it names (symbol, code and
    words), in millions, in scientific notation, with the unit it counts."""
    forms = [shown.replace(",", "")] if "," in shown else []
    sign, magnitude = ("-" if value < 0 else ""), fmt_answer(abs(value))
    if percent:
        forms += [f"{shown}%", f"{shown}\\%", f"\\approx {shown}\\%", f"{shown} percent"]
        if change and value:
            forms.append(f"{magnitude}% {'increase' if value > 0 else 'decrease'}")
    if "USD" in units:
        forms += [f"{shown} US dollars", f"{sign}${magnitude}", f"USD {shown}", f"\\${shown}"]
    if abs(value) >= 1e6:
        forms.append(f"{value / 1e6:.4g} million" + (" US dollars" if "USD" in units else ""))
    if abs(value) >= 1e4:
        exponent = math.floor(math.log10(abs(value)))
        forms.append(f"{value / 10 ** exponent:.4f} \\times 10^{{{exponent}}}")
    forms += [f"{shown} {u}" for u in units if u != "USD"]  # as the table writes it: kg, m3, hours, uA
    return forms


def number_question(text: str, value: float, computed: bool, hops: int, scale: int = 1,
                    answer_type: str = "number", units: tuple[str, ...] = (), change: bool = False,
                    table: Table | None = None) -> Question:
    shown = fmt_answer(value)
    off = value * 1.07 if abs(value) > 1e-9 else 1.0
    wrong = [("value 7% off", fmt_answer(round(off, 6))), ("scaled x1000", fmt_answer(value * 1000))]
    if value:
        wrong.append(("sign flipped", fmt_answer(-value)))
        if change:
            wrong.append(("direction word flipped", f"{fmt_answer(abs(value))}% {'decrease' if value > 0 else 'increase'}"))
    if scale == 1000:
        wrong.append(("not scaled from thousands", fmt_answer(value / 1000)))
    wrong.append(("a unit the question does not ask for",
                  f"€{shown}" if "USD" in units else f"{shown} {'days' if 'hours' in units else 'hours'}"))
    secrets = [shown, shown.replace(",", "")] if computed else []
    return Question(text, value, answer_type, shown, wrong, computed, hops, secrets, units, change,
                    forms=number_forms(value, shown, units, answer_type == "percent", change), table=table)


def _cell_question(table: Table, col: str, value: float, text: str, computed: bool, hops: int,
                   row: str | None = None) -> Question:
    percent = (table.unit_of(col) or row_unit(table, row)) == "%"
    return number_question(text, value, computed, hops, table.scale_of(col), "percent" if percent else "number",
                           answer_units(table, col, row), table=table)


def totals_note(table: Table) -> str:
    """The rows a ranking or count leaves out, named, so that the question says what it asks."""
    totals = [r for r, _ in table.rows if r in table.totals]
    if not totals:
        return ""
    names = ", ".join(f'"{t}"' for t in totals)
    return f" (not counting the total{'s' if len(totals) > 1 else ''} {names})"


def _cell(rng: random.Random, world: World, table: Table | None = None):
    """A random non-zero cell: a zero would let a constant "0" farm the lookups of a sparse table."""
    table = table or rng.choice(world.tables)
    row, values = rng.choice(table.items() or table.rows)
    options = [c for c, v in zip(table.columns, values) if v]
    if not options:
        return table, row, table.columns[0], None
    col = rng.choice(options)
    return table, row, col, table.value(row, col)


def _ref(table: Table, row: str, col: str) -> str:
    return f'"{row}" ({col}) in the table "{table.title}"'


def absent_items(world: World) -> list[tuple[str, int | None]]:
    """Items the document never states, each with the table it would belong to: rows other
    documents of this kind print but this one does not (a department another budget has), and
    the world's own (an invoice number beyond the register's), so that no item name alone gives
    the answer away (names no document prints did: "Balloon payment" was only ever unanswerable)."""
    return list(zip(world.absent_rows, world.absent_in or [None] * len(world.absent_rows))) + list(world.unprinted)


def abstention(rng: random.Random, world: World, table: Table, arithmetic: bool = False,
               tables: list[Table] | None = None) -> Question | None:
    """A lookup (or, for the arithmetic kind, a sum or difference) asked of an item the document
    never states, phrased as its answerable questions are: the answer is to say so. `tables`: the
    tables the kind's answerable questions ask of (a lookup's), so that an absent item's table
    is never one only unanswerable questions name."""
    items = [(name, where) for name, where in absent_items(world)
             if where is None or not tables or any(world.tables[where] is t for t in tables)]
    if not items:
        return None
    absent, where = rng.choice(items)
    if where is not None:
        table = world.tables[where]  # an invoice number asked of the invoice register, not the vendors
    col = rng.choice(table.columns)
    _, row2, col2, v = _cell(rng, world, table)
    if v is None:
        return None
    if arithmetic:
        refs = [_ref(table, absent, col), _ref(table, row2, col2)]
        rng.shuffle(refs)
        q = (f"What is the sum of {refs[0]} and {refs[1]}?" if rng.random() < 0.5 else
             f"What is {refs[0]} minus {refs[1]}?") + f" {unit_phrase(table, col)}"
    else:
        q = f'What is the value of "{absent}" ({col}) in the table "{table.title}"? {unit_phrase(table, col)}'
    return Question(q, UNANSWERABLE, "unanswerable", UNANSWERABLE,
                    [("another cell's value", fmt_answer(v * table.scale_of(col2))), ("a made-up zero", "0")],
                    False, 1, table=table, forms=["Unanswerable", "unanswerable."])


LOOKUP_MIN_VALUES = 10  # a random number of a smaller table would find the answer more than one time in ten


def lookup(rng: random.Random, world: World, abstain: bool = False) -> Question | None:
    tables = [t for t in world.tables if len({v for _, vs in t.rows for v in vs if v}) >= LOOKUP_MIN_VALUES]
    table, row, col, v = _cell(rng, world, rng.choice(tables) if tables else None)
    if abstain:
        return abstention(rng, world, table, tables=tables)
    if v is None or sum(x == v for _, values in table.rows for x in values) > 1:
        return None  # a value printed many times (equal payments) would be found by a random pick
    q = f"What is the value of {_ref(table, row, col)}? {unit_phrase(table, col, row)}"
    return _cell_question(table, col, v * table.scale_of(col), q, False, 1, row)


def arithmetic(rng: random.Random, world: World, abstain: bool = False) -> Question | None:
    t1, r1, c1, v1 = _cell(rng, world)
    same_unit = [t for t in world.tables if t.unit_of(t.columns[0]) == t1.unit_of(c1) and not t.column_units]
    t2 = rng.choice(same_unit) if same_unit and rng.random() < 0.5 else t1  # evidence across tables
    t2, r2, c2, v2 = _cell(rng, world, t2)
    if abstain:
        return abstention(rng, world, t2, arithmetic=True)
    if v1 is None or v2 is None or (t1, r1, c1) == (t2, r2, c2) or t2.unit_of(c2) != t1.unit_of(c1):
        return None
    if row_unit(t1, r1) != row_unit(t2, r2):
        return None  # volts plus kilohertz (a datasheet's rows each have their unit)
    a, b = v1 * t1.scale_of(c1), v2 * t2.scale_of(c2)
    if rng.random() < 0.5:
        q, value = f"What is the sum of {_ref(t1, r1, c1)} and {_ref(t2, r2, c2)}?", a + b
    else:
        q, value = f"What is {_ref(t1, r1, c1)} minus {_ref(t2, r2, c2)}?", a - b
    if round(value, 6) == 0:
        return None
    return _cell_question(t1, c1, round(value, 6), f"{q} {unit_phrase(t1, c1, r1)}", True, 2, r1)


def percent_change(rng: random.Random, world: World) -> Question | None:
    table = world.periods_table()
    if table is None:
        return None
    row, values = rng.choice(table.items())
    i, j = sorted(rng.sample(range(len(table.columns)), 2))
    if not values[i] or not values[j] or values[j] == values[i]:
        return None  # a change to zero is -100% whatever the row: a constant would find it
    value = (values[j] - values[i]) / abs(values[i]) * 100
    q = (f'By what percentage did "{row}" change from {table.columns[i]} to {table.columns[j]} in the table '
         f'"{table.title}"? Answer in percent (negative for a decrease).')
    return number_question(q, value, True, 2, answer_type="percent", change=True, table=table)


def cagr(rng: random.Random, world: World) -> Question | None:
    table = world.periods_table()
    if table is None or table.periods not in GROWTH_PERIODS:
        return None
    rows = [(r, v) for r, v in table.items() if v[0] and v[-1] and v[0] > 0 and v[-1] > 0 and v[0] != v[-1]]
    if not rows:
        return None
    row, values = rng.choice(rows)
    n = len(values) - 1
    value = ((values[-1] / values[0]) ** (1 / n) - 1) * 100
    q = (f'What is the compound {GROWTH_PERIODS[table.periods]} growth rate of "{row}" from {table.columns[0]} to '
         f'{table.columns[-1]} ({n} {table.periods}s) in the table "{table.title}"? Answer in percent.')
    per = table.periods
    growth = number_question(q, value, True, len(values), answer_type="percent", table=table,
                             units=(f"per {per}", f"a {per}", "cagr", "compound growth", GROWTH_PERIODS[per],
                                    f"{per}-over-{per}", f"{GROWTH_PERIODS[per]} cagr", f"compound {GROWTH_PERIODS[per]}")
                             + (("per annum", "annually", "p.a.", "pa") if per == "year" else ()))
    growth.forms += [f"{growth.shown}% per {per}", f"CAGR = {growth.shown}%", f"{growth.shown}% {GROWTH_PERIODS[per]}",
                     f"{growth.shown}% {per}-over-{per}"] + ([f"{growth.shown}% p.a."] if per == "year" else [])
    return growth


def ratio(rng: random.Random, world: World) -> Question | None:
    table = rng.choice(world.tables)
    if len(table.items()) < 2:
        return None
    (r1, _), (r2, _) = rng.sample(table.items(), 2)
    col = rng.choice(table.columns)
    a, b = table.value(r1, col), table.value(r2, col)
    if not a or not b or a == b or (table.unit_of(col) != table.unit_of(table.columns[0]) and table.column_units):
        return None
    if len(f"{abs(a / b):.12g}".replace(".", "").strip("0")) <= 2 or abs(abs(a / b) - 1) < 0.01:
        return None  # a round ratio (1.5, 10), or one of near-equal values (two uptimes: 0.999), is one a constant guesses
    q = (f'What is the ratio of "{r1}" to "{r2}" ({col}) in the table "{table.title}", i.e. the first divided by '
         f"the second? Answer with a decimal number.")
    ratio = number_question(q, a / b, True, 2, table=table, units=("x", "times"))
    ratio.forms += [f"{ratio.shown}x", f"{ratio.shown} times"]
    return ratio


def _ranked(rng: random.Random, world: World):
    table = rng.choice(world.ranked_tables() or [None])
    if table is None:
        return None, None, []
    col = rng.choice(table.columns)
    items = [(r, v[table.columns.index(col)]) for r, v in table.items() if v[table.columns.index(col)] is not None]
    return table, col, sorted(items, key=lambda x: x[1])


def printed(table: Table, col: str, value: float) -> str:
    """A value as the table prints it (no sign parentheses: a minus sign)."""
    return f"{value:,.{table.decimals_of(col)}f}"


def at_an_end(names: set[str], items: list) -> bool:
    """Whether `names` are the first or the last len(names) items as printed: a statement lists
    its largest first, a schedule grows down the page, so a positional guess would find them."""
    k = len(names)
    return names in ({r for r, _ in items[:k]}, {r for r, _ in items[-k:]})


# A random guess earns 1 / (the answers left): an ordered pair of 5 rows less the 4 at an end is 1 in
# 16; a set of at most half of 6 rows less the ends, 1 in 30 or fewer (of 4 rows it was 1 in 4).
ARGMAX_MIN_ROWS = 5
LIST_MIN_ROWS = 6


def argmax(rng: random.Random, world: World) -> Question | None:
    """The two highest (or lowest) rows, in order, each with its value, all or nothing, over a
    table with ARGMAX_MIN_ROWS or more. A single best item would be a guess among a few; an ordered pair is
    one guess in sixteen or more, and never the first or last two rows as printed. (Not over a
    row's periods: a growing series' top two are its last two periods, whatever the document.)"""
    table = rng.choice(world.ranked_tables() or [None])
    if table is None:
        return None
    col = rng.choice(table.columns)
    items = [(r, v[table.columns.index(col)]) for r, v in table.items() if v[table.columns.index(col)] is not None]
    if len(items) < ARGMAX_MIN_ROWS:
        return None
    what = f'which two {table.row_header.lower()} entries{totals_note(table)} have the {{}} {col}'
    printed_as = lambda v: printed(table, col, v)
    highest = rng.random() < 0.6
    ranked = sorted(items, key=lambda x: x[1], reverse=highest)
    if len({v for _, v in ranked[:3]}) < 3:
        return None  # ties would leave the order open
    if at_an_end({r for r, _ in ranked[:2]}, items):
        return None
    pair = lambda rv: f"{rv[0]}: {printed_as(rv[1])}"
    gold = [pair(rv) for rv in ranked[:2]]
    q = (f'In the table "{table.title}", ' + what.format("highest" if highest else "lowest") + ", from the "
         f'{"highest" if highest else "lowest"}? Write each as name: value (the value as the table prints it), '
         "separated by a semicolon.")
    wrong = [("the order swapped", f"{gold[1]}; {gold[0]}"), ("only the first", gold[0]),
             ("the second and third", f"{gold[1]}; {pair(ranked[2])}"), ("the first and third", f"{gold[0]}; {pair(ranked[2])}"),
             ("names without values", "; ".join(r for r, _ in ranked[:2]))]
    forms = ["\n".join(f"- {g}" for g in gold), "; ".join(f"{r} ({printed_as(v)})" for r, v in ranked[:2]),
             "; ".join(f"{r} = {printed_as(v)}" for r, v in ranked[:2])]
    return Question(q, gold, "list", "; ".join(gold), wrong, False, len(items), units=answer_units(table, col),
                    ordered=True, partial=False, forms=forms, table=table, column=col)


def _threshold(table: Table, col: str, values: list[float], k: int):
    """A threshold between the k-th and (k+1)-th smallest distinct values, written as the table
    writes that column, or None when no such value exists."""
    lo, hi = values[k - 1], values[k]
    d = table.decimals_of(col)
    thr = round((lo + hi) / 2, d + 1)
    if not lo < thr < hi:
        return None
    return thr, f"{thr:,.{d + 1}f}" + {"usd_k": " thousand US dollars", "usd": " US dollars"}.get(table.unit_of(col), "")


def count(rng: random.Random, world: World) -> Question | None:
    """How many values of a table exceed a threshold: over every period of a table of periods (so
    the count ranges widely and no constant farms it), else over one column; never fewer than 2."""
    table = rng.choice(world.tables)
    cols = table.columns if table.periods and not table.column_units else [rng.choice(table.columns)]
    cells = [v[table.columns.index(c)] for _, v in table.items() for c in cols if v[table.columns.index(c)] is not None]
    values = sorted(set(cells))
    if len(cells) < 5 or len(values) < 5:
        return None
    found = _threshold(table, cols[0], values, rng.randrange(1, len(values) - 1))
    if not found:
        return None
    thr, shown = found
    n = sum(v > thr for v in cells)
    if n < 2:
        return None
    noun = table.row_header.lower()
    if len(cols) > 1:
        what = (f"how many of the values for the {table.columns[0]} to {table.columns[-1]} columns, over every "
                f"{noun}{totals_note(table)}, are greater than {shown}")
        nouns = ("value", "cell", "entry")
    else:
        what = f"how many {noun} entries{totals_note(table)} have a {cols[0]} greater than {shown}"
        nouns = (noun, f"{noun} entry", "entry", "item")
    # A count alone is one small number: a constant "2" or "3" would earn a share of every count
    # family. With the total of what was counted, only reading finds it.
    total = sum(v for v in cells if v > thr)
    shown_total = printed(table, cols[0], total)
    q = (f'In the table "{table.title}", {what}, and what do those values add up to? Answer with the count, then '
         "their total as the table prints its values, separated by a semicolon.")
    shown_answer = f"{n}; {shown_total}"
    wrong = [("one too many", f"{n + 1}; {shown_total}"), ("one too few", f"{n - 1}; {shown_total}"),
             ("the count alone", str(n)), ("the total 7% off", f"{n}; {printed(table, cols[0], total * 1.07)}"),
             ("a unit the question does not ask for", f"{n} days; {shown_total}")]
    return Question(q, n, "number", shown_answer, wrong, True, len(cells), [shown_total, shown_total.replace(",", "")],
                    units=nouns + answer_units(table, cols[0]), amount=total,
                    forms=[f"{n} {nouns[0]}s; {shown_total}", f"{_WORD_NUMBERS.get(n, n)}; {shown_total}",
                           f"{n}: {shown_total}", f"{n}; total = {shown_total}", f"count = {n}; total = {shown_total}"],
                    table=table)


_WORD_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def spans(rng: random.Random, world: World) -> Question | None:
    """Every item above a threshold, each with its value: the items never make up more than half
    the table (listing the whole table scores nothing), and a name without its value earns
    nothing (a guess at the first rows would)."""
    table, col, items = _ranked(rng, world)
    values = sorted({v for _, v in items})
    if len(items) < LIST_MIN_ROWS or len(values) < 4:
        return None
    found = _threshold(table, col, values, rng.randrange((len(values) + 1) // 2, len(values) - 1))
    if not found:
        return None
    thr, shown = found
    names = [(r, v) for r, v in items if v > thr]
    others = [(r, v) for r, v in items if v <= thr]
    if len(names) < 2 or len(names) > len(others):
        return None
    in_print = [(r, v) for r, v in table.items() if r in dict(items)]  # _ranked sorts by value
    if at_an_end({r for r, _ in names}, in_print):
        return None
    q = (f'In the table "{table.title}", list every {table.row_header.lower()}{totals_note(table)} with a {col} '
         f"greater than {shown}, each with that {col} as the table prints it. Write each as name: value, "
         "separated by semicolons.")
    pair = lambda rv: f"{rv[0]}: {printed(table, col, rv[1])}"
    gold = [pair(rv) for rv in names]
    wrong = [("an item missing", "; ".join(gold[:-1])), ("an extra item", "; ".join(gold + [pair(others[-1])])),
             ("the whole table", "; ".join(pair(rv) for rv in items)), ("names without values", "; ".join(r for r, _ in names))]
    forms = ["; ".join(reversed(gold)), "\n".join(f"- {g}" for g in gold),
             "; ".join(f"{r} = {printed(table, col, v)}" for r, v in names)]
    return Question(q, gold, "list", "; ".join(gold), wrong, False, len(items), units=answer_units(table, col),
                    partial=False, forms=forms, table=table, column=col)


def date_arithmetic(rng: random.Random, world: World) -> Question | None:
    dates = dict(world.dates)
    if world.durations and rng.random() < 0.5:
        what, days, anchor = rng.choice(world.durations)
        day = dates[anchor] + dt.timedelta(days=days)
        q = f"On what date does the {what.strip()} fall? Answer with a calendar date (YYYY-MM-DD)."
        wrong = [("a day late", (day + dt.timedelta(days=1)).isoformat()),
                 ("counted from the wrong end", (day - dt.timedelta(days=days)).isoformat())]
        secrets = [day.isoformat()] + [fmt_date(day, f) for f in ("%B %d, %Y", "%d %B %Y")]
        forms = [fmt_date(day, "%B %d, %Y"), fmt_date(day, "%d %B %Y")]
        return Question(q, day.isoformat(), "date", day.isoformat(), wrong, True, 2, secrets, forms=forms)
    (n1, d1), (n2, d2) = sorted(rng.sample(world.dates, 2), key=lambda x: x[1])
    if d1 == d2:
        return None
    days = (d2 - d1).days
    if whole_term(days):
        return None
    q = f"How many calendar days are there from the {n1} to the {n2}? Answer with a whole number of days."
    return Question(q, days, "number", str(days), [("off by one day", str(days + 1)), ("sign flipped", str(-days)),
                                                  ("a unit the question does not ask for", f"{days} weeks"),
                                                  ("rounded to the ten", str(round(days, -1) if days % 10 else days + 10))],
                    True, 2, [str(days)], units=("day", "calendar day"), forms=[f"{days} days", f"{days:,} calendar days"],
                    exact=True)


def whole_term(days: int) -> bool:
    """Whether a span is within a few days of whole years or (over half a year) whole months: a
    contract's initial term or a loan's tenor, whose day count a constant per term finds (4 years
    less a day is 1,460 days whatever the dates)."""
    near = lambda period, slack: abs(days - round(days / period) * period) <= slack and days >= period * 0.9
    return near(365.2425, 3) or (days >= 180 and near(30.436875, 2))


def yes_no(rng: random.Random, world: World) -> Question | None:
    """A comparison answered yes or no together with the difference it rests on: a yes/no alone
    would pay a coin toss (a constant "yes" earns half)."""
    t1, r1, c1, v1 = _cell(rng, world)
    t2, r2, c2, v2 = _cell(rng, world, t1)
    if v1 is None or v2 is None or v1 == v2 or (r1, c1) == (r2, c2) or t1.unit_of(c1) != t1.unit_of(c2):
        return None
    diff = round((v1 - v2) * t1.scale_of(c1), 6)
    units = answer_units(t1, c1)
    q = (f"Is {_ref(t1, r1, c1)} greater than {_ref(t2, r2, c2)}? Answer yes or no, then the difference (the first "
         f"minus the second), for example \\boxed{{no; -1,250}}. {unit_phrase(t1, c1).replace('Answer', 'Give the difference')}")
    word, shown = ("yes" if diff > 0 else "no"), fmt_answer(diff)
    other = "no" if word == "yes" else "yes"
    wrong = [("the opposite", f"{other}; {shown}"), ("the difference's sign flipped", f"{word}; {fmt_answer(-diff)}"),
             ("yes or no alone", word), ("the difference 7% off", f"{word}; {fmt_answer(diff * 1.07)}")]
    forms = [f"{word.capitalize()}, {shown}", f"{word}: {shown}", f"{word}; difference = {shown}"] + ([f"{word}; {shown} US dollars"] if "USD" in units else [])
    return Question(q, word, "yesno", f"{word}; {shown}", wrong, True, 2, [shown, shown.replace(",", "")],
                    units=units, amount=diff, forms=forms, table=t1)


KINDS: dict[str, Callable[..., Question | None]] = {
    "lookup": lookup, "arithmetic": arithmetic, "percent-change": percent_change, "cagr": cagr, "ratio": ratio,
    "argmax": argmax, "count": count, "list": spans, "date": date_arithmetic, "yesno": yes_no,
}
# Question kinds that ask, one task in ten, about an item the document never states (the answer is
# "unanswerable"): abstention is trained where it is needed, mixed into answerable questions, so a
# constant "unanswerable" earns a tenth at most (a family of only unanswerable questions paid it 1.0).
ABSTAINING = {"lookup", "arithmetic"}
ABSTAIN_EVERY = 10
