"""One entry point, `match_answer`, that picks the matcher for a gold's answer type.

Golds: for every type but "list", `answer` is one gold or a list of acceptable golds; for
"list" it is the list of items (or a list of such lists, each an acceptable answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import text as text_m
from .dates import iso, parse_date
from .lists import aligned_f1, split_items
from .numbers import gold_number, numbers_match, parse_number

ANSWER_TYPES = ("number", "percent", "date", "list", "text", "yesno", "unanswerable")
UNANSWERABLE = "unanswerable"


@dataclass
class Match:
    score: float  # in [0, 1]
    passed: bool
    matcher: str
    details: dict[str, Any] = field(default_factory=dict)


def golds_of(answer: Any, answer_type: str) -> list[Any]:
    if answer_type == "list":
        if isinstance(answer, (list, tuple)) and answer and all(isinstance(a, (list, tuple)) for a in answer):
            return [list(a) for a in answer]
        return [list(answer) if isinstance(answer, (list, tuple)) else [answer]]
    return list(answer) if isinstance(answer, (list, tuple)) else [answer]


def match_answer(pred: str, answer: Any, answer_type: str, cfg: Any) -> Match:
    """Score the extracted answer `pred` against the gold. `cfg` is an AnswerConfig."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer_type {answer_type!r}; expected one of {ANSWER_TYPES}")
    sentinel = text_m.squad_normalize(cfg.unanswerable_sentinel)
    says_unanswerable = text_m.squad_normalize(pred) == sentinel
    if answer_type == "unanswerable":
        return Match(float(says_unanswerable), says_unanswerable, "unanswerable")
    if says_unanswerable:
        return Match(0.0, False, answer_type, {"reason": "answered 'unanswerable' to an answerable question"})
    golds = golds_of(answer, answer_type)
    if answer_type in ("number", "percent"):
        return match_number(pred, golds, answer_type == "percent", cfg)
    if answer_type == "date":
        return match_date(pred, golds, cfg)
    if answer_type == "list":
        return match_list(pred, golds, cfg)
    if answer_type == "yesno":
        return match_yesno(pred, golds)
    return match_text(pred, golds, cfg)


def match_number(pred: str, golds: list[Any], gold_is_percent: bool, cfg: Any) -> Match:
    got = parse_number(pred)
    if got is None:
        return Match(0.0, False, "number", {"reason": "not a number"})
    wants = [w for w in (gold_number(g) for g in golds) if w is not None]
    if not wants:
        raise ValueError(f"gold {golds!r} holds no number")
    candidates = [got]
    if gold_is_percent and not got.percent and cfg.percent_fraction:
        candidates.append(_scaled(got, 100))  # 0.125 for 12.5%
    if not gold_is_percent and got.percent:
        # "12.5%" for a plain-number gold only counts as the fraction 0.125, and only if allowed.
        candidates = [_scaled(got, 0.01)] if cfg.percent_fraction else []
    ok = any(numbers_match(c, w, cfg.rel_tol, cfg.abs_tol, cfg.min_sig_digits) for c in candidates for w in wants)
    return Match(float(ok), ok, "number", {"parsed": got.value})


def _scaled(n, factor: float):
    from .numbers import ParsedNumber

    return ParsedNumber(n.value * factor, n.ulp * factor, n.sig_digits, False)


def match_date(pred: str, golds: list[Any], cfg: Any) -> Match:
    got = parse_date(pred, dayfirst=cfg.dayfirst)
    if got is None:
        return Match(0.0, False, "date", {"reason": "not a full date"})
    wants = {w for w in (iso(g) for g in golds) if w}
    if not wants:
        raise ValueError(f"gold {golds!r} holds no date")
    ok = got.isoformat() in wants
    return Match(float(ok), ok, "date", {"parsed": got.isoformat()})


def match_yesno(pred: str, golds: list[Any]) -> Match:
    word = text_m.squad_normalize(pred)
    if word not in ("yes", "no"):
        return Match(0.0, False, "yesno", {"reason": "answer is not yes or no"})
    ok = word in {text_m.squad_normalize(str(g)) for g in golds}
    return Match(float(ok), ok, "yesno")


def _item_similarity(cfg: Any):
    def similarity(p: str, g: Any) -> float:
        gn = gold_number(g)
        if gn is not None:
            pn = parse_number(p)
            return float(pn is not None and numbers_match(pn, gn, cfg.rel_tol, cfg.abs_tol, cfg.min_sig_digits))
        return text_m.exact_match(p, str(g)) if cfg.list_item_metric == "em" else text_m.token_f1(p, str(g))

    return similarity


def match_list(pred: str, golds: list[list[Any]], cfg: Any) -> Match:
    items = split_items(pred, cfg.max_list_items)
    if items is None:
        return Match(0.0, False, "list", {"reason": f"more than {cfg.max_list_items} items"})
    sim = _item_similarity(cfg)
    score = max(aligned_f1(items, [str(g) if not isinstance(g, (int, float)) else g for g in gold], sim)
                for gold in golds)
    return Match(score, score >= 1.0 - 1e-9, "list", {"items": items[:20]})


def match_text(pred: str, golds: list[Any], cfg: Any) -> Match:
    golds = [str(g) for g in golds]
    metric = cfg.text_metric
    if metric == "anls":
        score = text_m.best_over(golds, pred, lambda p, g: text_m.anls_one(p, g, cfg.anls_threshold))
    elif metric == "f1":
        score = text_m.best_over(golds, pred, text_m.token_f1)
    else:
        score = text_m.best_over(golds, pred, text_m.exact_match)
    return Match(score, score >= cfg.pass_threshold, metric)
