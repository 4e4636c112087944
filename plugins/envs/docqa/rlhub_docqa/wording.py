"""A question's wording (what stays the same from one document to the next) and the blind policy
that answers what other tasks of the same wording had: a memorised constant per wording, or one
whose years move with the document's (a deadline "fiscal year end + 30 days" is {Y+1}-01-30).

The wording drops what names this document (the entity in a table's title, an invoice or claim
id, the years), so that a policy sees what RL could learn from the prompt alone.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import lru_cache

_TITLE = re.compile(r'"([^"]*): ([^"]*)"')  # "<entity or parties>: <what the table is>"
_YEAR = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d.,])")
_ID = re.compile(r"\b([A-Z]{2,})-?\d{3,}\b")
MEMO_DRAWS = 300  # question draws (no document) the check's memorised policy learns from (~3 s for every family)


def wording(question: str) -> str:
    q = _TITLE.sub(lambda m: f'"T: {m.group(2)}"', question)
    return _YEAR.sub("Y", _ID.sub(r"\1-ID", q))


def title_year(title: str, question: str = "") -> int | None:
    """The year a blind policy reads off the prompt: the document title's, else the question's."""
    found = _YEAR.search(title) or _YEAR.search(question)
    return int(found.group(0)) if found else None


def relative(gold: str, year: int | None) -> str:
    """The gold with each year written relative to `year` ({Y+1}-01-30)."""
    return gold if year is None else _YEAR.sub(lambda m: "{Y%+d}" % (int(m.group(0)) - year), gold)


def absolute(pattern: str, year: int | None) -> str | None:
    if "{Y" not in pattern:
        return pattern
    if year is None:
        return None
    return re.sub(r"\{Y([+-]\d+)\}", lambda m: str(year + int(m.group(1))), pattern)


def learn(samples) -> dict[str, tuple[str, str]]:
    """samples: (question text, title, gold as shown) -> per wording the most common gold and
    the most common year-relative gold."""
    plain: dict[str, Counter] = {}
    moved: dict[str, Counter] = {}
    for question, title, gold in samples:
        w = wording(question)
        plain.setdefault(w, Counter())[gold] += 1
        moved.setdefault(w, Counter())[relative(gold, title_year(title, question))] += 1
    return {w: (plain[w].most_common(1)[0][0], moved[w].most_common(1)[0][0]) for w in plain}


def policies(memo: dict[str, tuple[str, str]], question: str, title: str) -> dict[str, list[str]]:
    """The memorised answers for this task (none where its wording was never seen)."""
    found = memo.get(wording(question))
    if found is None:
        return {"the gold of this wording elsewhere": [], "the gold of this wording elsewhere, years moved": []}
    moved = absolute(found[1], title_year(title, question))
    return {"the gold of this wording elsewhere": [f"\\boxed{{{found[0]}}}"],
            "the gold of this wording elsewhere, years moved": [f"\\boxed{{{moved}}}"] if moved else []}


@lru_cache(maxsize=None)
def memorised(world: str, qkind: str, draws: int = MEMO_DRAWS) -> dict[str, tuple[str, str]]:
    """What the memorised policy learns for a family: questions drawn (worlds without their
    documents, cheap) from seeds no environment uses, abstaining one in ten as the family does."""
    from .env import fixed_tables, unprinted
    from .questions import ABSTAIN_EVERY, ABSTAINING, KINDS
    from .worlds import BUILDERS
    from .worlds.common import NAMES_TOTAL, entity_name

    program, samples = KINDS[qkind], []
    for i in range(draws):
        rng = random.Random(f"docqa-memorised/{world}/{qkind}/{i}")
        abstain = qkind in ABSTAINING and i % ABSTAIN_EVERY == 1
        for _ in range(10):
            w = BUILDERS[world](rng, entity_name(rng.randrange(NAMES_TOTAL)))
            w.unprinted, w.fixed_tables = unprinted(world, w), fixed_tables(world)
            q = next((q for q in (program(rng, w, abstain=True) if abstain else program(rng, w) for _ in range(30))
                      if q is not None), None)
            if q is not None:
                samples.append((q.text, w.title, q.shown))
                break
    return learn(samples)
