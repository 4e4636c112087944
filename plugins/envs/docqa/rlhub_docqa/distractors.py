"""Filler that makes a document long the way real ones are: the same kind of document for other
entities (close distractors: same tables, other numbers) and boilerplate notes (far distractors)."""

from __future__ import annotations

import random
from typing import Callable

from .model import World
from .render import Section, paragraph, world_sections
from .worlds.common import LAWS, NAMES_TOTAL, entity_name

_NOTES = [
    ("Basis of preparation", "These statements of {e} have been prepared under the historical cost convention, "
     "except for financial instruments measured at fair value. Management reviewed {n} significant estimates, "
     "none of which changed by more than {p} percent during the period."),
    ("Risk factors", "{e} depends on {n} key suppliers. A disruption lasting more than {d} days could delay "
     "deliveries; the company maintains safety stock covering approximately {d2} days of demand."),
    ("Glossary", "In this document, 'Business Day' means a day other than a Saturday, Sunday or public holiday in "
     "{law}. 'Affiliate' means any entity controlling, controlled by or under common control with {e}."),
    ("Data retention", "{e} retains operational records for {n} years and audit logs for {d} months, after which "
     "they are destroyed in accordance with the retention schedule approved by the board."),
    ("Management commentary", "During the period, {e} opened {n} new sites and closed {n2}. Headcount changed by "
     "{p} percent, mainly in operations. Management expects conditions to remain broadly similar."),
    ("Quality and compliance", "{e} completed {n} internal audits and {n2} external inspections. All {d} "
     "corrective actions raised were closed within the target window, and no major findings remain open."),
    ("Confidentiality", "Each party shall keep confidential all information disclosed by the other party and "
     "marked as confidential, for {n} years after disclosure, under the laws of {law}."),
]


def boilerplate(rng: random.Random, entity: str, style: str) -> Section:
    title, template = rng.choice(_NOTES)
    paras = []
    for _ in range(rng.randint(2, 5)):
        paras.append(paragraph(template.format(
            e=entity, n=rng.randint(2, 40), n2=rng.randint(1, 20), p=rng.randint(1, 30), d=rng.randint(5, 90),
            d2=rng.randint(10, 120), law=rng.choice(LAWS)), style))
    return Section(f"{entity}: {title}", "\n\n".join(paras))


def fill(rng: random.Random, build: Callable[[random.Random, str], World], target_index: int, chars: int,
         style: str, date_format: str, similar: float) -> list[Section]:
    """Sections of about `chars` characters in all, none about the target entity.

    `similar` is the share of filler that is the same kind of document for another entity.
    """
    out: list[Section] = []
    used = 0
    while used < chars:
        other = rng.randrange(NAMES_TOTAL - 1)
        other += other >= target_index  # never the target entity
        name = entity_name(other)
        if rng.random() < similar:
            sections = world_sections(build(rng, name), style, date_format, evidence=False)
        else:
            sections = [boilerplate(rng, name, style)]
        out += sections
        used += sum(len(s.title) + len(s.body) + 8 for s in sections)
    return out


def place(rng: random.Random, evidence: list[Section], filler: list[Section]) -> list[Section]:
    """Scatter the evidence sections anywhere in the filler, keeping their own order."""
    slots = sorted(rng.choices(range(len(filler) + 1), k=len(evidence)))
    out, prev = [], 0
    for slot, section in zip(slots, evidence):
        out += filler[prev:slot]
        out.append(section)
        prev = slot
    return out + filler[prev:]
