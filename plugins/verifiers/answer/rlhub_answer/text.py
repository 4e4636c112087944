"""Text matchers: SQuAD's exact match and token F1, and DocVQA's ANLS.

Normalisation follows the SQuAD v1.1 evaluation script: lower case, drop punctuation, drop the
articles a/an/the, collapse whitespace. ANLS follows Biten et al. (2019), as used by DocVQA:
per gold, s = 1 - NL(pred, gold) when NL < tau (0.5), else 0; a question scores the best s over
its golds, where NL is the Levenshtein distance divided by the longer string's length after
lower-casing and collapsing whitespace.
"""

from __future__ import annotations

import re
import string
from collections import Counter

from rapidfuzz.distance import Levenshtein

_PUNCT = set(string.punctuation) | set("‘’“”–—…")
_DROP_PUNCT = str.maketrans("", "", "".join(_PUNCT))
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def squad_normalize(text: str) -> str:
    text = text.lower()
    text = text.translate(_DROP_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def exact_match(pred: str, gold: str) -> float:
    return float(squad_normalize(pred) == squad_normalize(gold))


def token_f1(pred: str, gold: str) -> float:
    p, g = squad_normalize(pred).split(), squad_normalize(gold).split()
    if not p or not g:  # SQuAD: both empty is a match, one empty is not
        return float(p == g)
    common = sum((Counter(p) & Counter(g)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def _anls_normalize(text: str) -> str:
    return " ".join(text.lower().split())


def anls_one(pred: str, gold: str, tau: float = 0.5) -> float:
    """Similarity of one prediction to one gold: 1 - NL if NL < tau, else 0 (exact match = 1)."""
    p, g = _anls_normalize(pred), _anls_normalize(gold)
    longest = max(len(p), len(g))
    if longest == 0:
        return 1.0
    nl = Levenshtein.distance(p, g) / longest
    return 1.0 - nl if nl < tau else 0.0


def best_over(golds: list[str], pred: str, metric) -> float:
    return max((metric(pred, g) for g in golds), default=0.0)
