"""Multi-span answers: split a list, align predicted items to gold items one-to-one, and score
what the list claims.

Every item claims to belong. A right item earns 1/len(gold); a wrong (or duplicated) item costs
as much: score = max(0, right - wrong) / len(gold), so a superset as long as the gold scores 0
and listing a whole table earns nothing. A pass needs exactly the gold's items. Where the
question asks for an order, the right items are those in the longest run in gold order (the
longest common subsequence); elsewhere the alignment maximises total item similarity
(Hungarian algorithm, scipy), so the order of the items does not matter.
"""

from __future__ import annotations

import re
from typing import Callable


# Items are separated by ";", new lines / bullets, "and", or a comma followed by a space (so
# "1,234" stays one number).
_SPLIT = re.compile(r"\s*(?:;|\n\s*(?:[-*•]|\d+[.)])?\s*|,\s+(?:and\s+)?|\s+and\s+|\s*&\s*)\s*")
# A writer who separates with semicolons or lines may have commas inside items ("Housing, steel").
_SPLIT_STRONG = re.compile(r"\s*(?:;|\n\s*(?:[-*•]|\d+[.)])?\s*)\s*")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def split_items(text: str, max_items: int = 200) -> list[str] | None:
    """The items of a written list, or None when there are more than `max_items`."""
    text = text.strip().strip("[]").strip()
    if not text:
        return []
    splitter = _SPLIT_STRONG if (";" in text or "\n" in text) else _SPLIT
    items = [_BULLET.sub("", part).strip().strip("'\"").strip() for part in splitter.split(_BULLET.sub("", text))]
    items = [item for item in items if item]
    return items if len(items) <= max_items else None


def aligned_matches(pred: list[str], gold: list, similarity: Callable[[str, object], float]) -> float:
    """The total similarity of the best one-to-one alignment of `pred` to `gold` items."""
    if not pred or not gold:
        return 0.0
    import numpy as np  # imported on use, as scipy: registering the verifier stays cheap

    sim = np.array([[similarity(p, g) for g in gold] for p in pred], dtype=float)
    from scipy.optimize import linear_sum_assignment  # imported on use: costs ~0.3 s

    rows, cols = linear_sum_assignment(sim, maximize=True)
    return float(sim[rows, cols].sum())


def ordered_matches(pred: list[str], gold: list, similarity: Callable[[str, object], float]) -> float:
    """The length of the longest common subsequence, items equal where similarity is 1."""
    best = [0] * (len(gold) + 1)
    for p in pred:
        prev_diag = 0
        for j, g in enumerate(gold, 1):
            here = best[j]
            best[j] = prev_diag + 1 if similarity(p, g) >= 1.0 else max(best[j], best[j - 1])
            prev_diag = here
    return float(best[-1])


def list_score(pred: list[str], gold: list, similarity: Callable[[str, object], float],
               ordered: bool = False) -> tuple[float, bool, dict]:
    """(score, passed, details): right items earn, wrong ones cost as much (see the module)."""
    if not gold:
        return float(not pred), not pred, {"right": 0, "wrong": len(pred)}
    right = (ordered_matches if ordered else aligned_matches)(pred, gold, similarity)
    wrong = len(pred) - right
    score = max(0.0, right - wrong) / len(gold)
    passed = abs(right - len(gold)) < 1e-9 and wrong < 1e-9
    return score, passed, {"right": round(right, 4), "wrong": round(wrong, 4), "gold_items": len(gold)}
