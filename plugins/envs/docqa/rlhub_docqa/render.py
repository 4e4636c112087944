"""Rendering worlds as documents: Markdown, HTML or plain-text tables, with "in thousands"
headers and negatives in parentheses for money, dates written the way the document's style says."""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass

from .model import Table, World

STYLES = ("markdown", "html", "text")
DATE_FORMATS = ("%B %d, %Y", "%d %B %Y", "%Y-%m-%d")


@dataclass
class Section:
    title: str
    body: str
    evidence: bool = False  # part of the world the question is about

    def text(self, style: str) -> str:
        if style == "markdown":
            return f"## {self.title}\n\n{self.body}\n"
        if style == "html":
            return f"<h2>{html.escape(self.title)}</h2>\n{self.body}\n"
        return f"{self.title.upper()}\n{'=' * min(len(self.title), 80)}\n{self.body}\n"


def fmt_number(value: float | None, decimals: int, money: bool) -> str:
    if value is None:
        return "—"
    text = f"{abs(value):,.{decimals}f}"
    if value < 0:
        return f"({text})" if money else f"-{text}"
    return text


def fmt_date(day: dt.date, date_format: str) -> str:
    return day.strftime(date_format).replace(" 0", " ").lstrip("0")


def unit_note(table: Table) -> str:
    if table.column_units:
        return ""
    return {"usd_k": "(in thousands of US dollars, except where stated)", "usd": "(in US dollars)", "": ""}.get(
        table.unit, f"(unit: {table.unit})")


def table_cells(table: Table) -> tuple[list[str], list[list[str]]]:
    header = [table.row_header] + [
        f"{c} ({table.unit_of(c)})" if table.column_units and table.unit_of(c) not in ("usd",) and
        f"({table.unit_of(c)})" not in c else c for c in table.columns]
    body = []
    for label, values in table.rows:
        cells = [fmt_number(v, table.decimals_of(c), table.unit_of(c) in ("usd", "usd_k"))
                 for c, v in zip(table.columns, values)]
        body.append([label, *cells])
    return header, body


def render_table(table: Table, style: str) -> str:
    header, body = table_cells(table)
    note = unit_note(table)
    if style == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return (f"*{note}*\n\n" if note else "") + "\n".join(lines)
    if style == "html":
        esc = html.escape
        head = "".join(f"<th>{esc(h)}</th>" for h in header)
        rows = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>\n" for row in body)
        caption = f"<caption>{esc(note)}</caption>" if note else ""
        return f"<table>{caption}\n<tr>{head}</tr>\n{rows}</table>"
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    fmt = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
    lines = [fmt(header), "  ".join("-" * w for w in widths), *map(fmt, body)]
    return (note + "\n" if note else "") + "\n".join(lines)


def paragraph(text: str, style: str) -> str:
    return f"<p>{html.escape(text)}</p>" if style == "html" else text


def world_sections(world: World, style: str, date_format: str, evidence: bool) -> list[Section]:
    """The world as sections: an overview with its dates, terms and facts, then one per table."""
    lines = [f"This document sets out the {world.title}."]
    for what, day in world.dates:
        lines.append(f"The {what} is {fmt_date(day, date_format)}.")
    for what, days, anchor in world.durations:
        lines.append(f"The {what.strip()} falls {abs(days)} days {'after' if days > 0 else 'before'} the {anchor}.")
    for key, value in world.facts:
        lines.append(f"{key}: {value}.")
    sections = [Section(f"{world.title}: overview", "\n".join(paragraph(l, style) for l in lines), evidence)]
    for table in world.tables:
        intro = paragraph(f"The following table is part of the {world.title}.", style)
        sections.append(Section(table.title, intro + "\n\n" + render_table(table, style), evidence))
    return sections
