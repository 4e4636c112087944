"""Multi-span answers: split a list, align predicted items to gold items one-to-one, score F1.

The alignment maximises total item similarity (Hungarian algorithm, scipy), so the order of the
items does not matter and a duplicated item cannot be credited twice.
"""

from __future__ import annotations

import re
from typing import Callable

import numpy as np

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


def aligned_f1(pred: list[str], gold: list[str], similarity: Callable[[str, str], float]) -> float:
    """F1 of the best one-to-one alignment: precision = matched/len(pred), recall = matched/len(gold)."""
    if not pred or not gold:
        return float(not pred and not gold)
    sim = np.array([[similarity(p, g) for g in gold] for p in pred], dtype=float)
    from scipy.optimize import linear_sum_assignment  # imported on use: costs ~0.3 s

    rows, cols = linear_sum_assignment(sim, maximize=True)
    matched = float(sim[rows, cols].sum())
    if matched == 0:
        return 0.0
    precision, recall = matched / len(pred), matched / len(gold)
    return 2 * precision * recall / (precision + recall)
