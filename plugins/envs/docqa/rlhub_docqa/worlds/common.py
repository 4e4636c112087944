"""Shared sampling helpers: entity names, growing series, dates."""

from __future__ import annotations

import datetime as dt
import random

_PREFIX = ["North", "Blue", "Silver", "Granite", "Harbor", "Summit", "Cedar", "Iron", "Crescent", "Pioneer",
           "Atlas", "Beacon", "Copper", "Delta", "Evergreen", "Falcon", "Golden", "Horizon", "Juniper", "Keystone",
           "Lakeside", "Meridian", "Oakridge", "Pacific", "Quarry", "Redwood", "Sterling", "Tidewater", "Union",
           "Vanguard", "Westbrook", "Alder", "Birch", "Coastal", "Driftwood", "Ember", "Fairview", "Glacier"]
_CORE = ["wind", "field", "stone", "point", "bridge", "gate", "crest", "haven", "ridge", "brook", "vale", "works",
         "line", "port", "mark", "well", "wood", "light", "view", "side"]
_SUFFIX = ["Holdings Inc.", "Industries Ltd.", "Logistics Corp.", "Systems GmbH", "Partners LLC", "Manufacturing Co.",
           "Technologies plc", "Group S.A."]
PEOPLE = ["Avery Chen", "Jordan Patel", "Morgan Okafor", "Riley Novak", "Casey Moreau", "Quinn Delgado",
          "Jamie Kowalski", "Taylor Haddad", "Drew Lindqvist", "Skyler Ibarra", "Reese Tanaka", "Rowan Adeyemi",
          "Sasha Petrov", "Elliot Brennan", "Harper Nguyen", "Kai Olsen", "Parker Silva", "Emerson Walsh"]
LAWS = ["the State of New York", "the State of Delaware", "England and Wales", "the State of California",
        "the Province of Ontario", "Singapore", "the State of Texas", "Ireland"]
NAMES_TOTAL = len(_PREFIX) * len(_CORE) * len(_SUFFIX)


def entity_name(i: int) -> str:
    """The i-th company name (distinct for distinct i < NAMES_TOTAL)."""
    a, rest = divmod(i % NAMES_TOTAL, len(_CORE) * len(_SUFFIX))
    b, c = divmod(rest, len(_SUFFIX))
    return f"{_PREFIX[a]}{_CORE[b]} {_SUFFIX[c]}"


def series(rng: random.Random, n: int, start: float, growth: tuple[float, float] = (-0.05, 0.2),
           decimals: int = 0) -> list[float]:
    """A positive series that grows by a random rate each period, rounded as it will be shown."""
    out, x = [], start
    for _ in range(n):
        out.append(round(x, decimals) if decimals else int(round(x)))
        x *= 1 + rng.uniform(*growth)
    return out


def date_between(rng: random.Random, start: dt.date, days: int) -> dt.date:
    return start + dt.timedelta(days=rng.randrange(days))


def add_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    return dt.date(day.year + y, m + 1, min(day.day, 28))


def pick(rng: random.Random, pool: list[str], k: int) -> list[str]:
    return rng.sample(pool, k)
