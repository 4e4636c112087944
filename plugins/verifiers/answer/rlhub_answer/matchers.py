"""One entry point, `match_answer`, that picks the matcher for a gold's answer type, and
`reading`/`agree`, which say what an answer states and whether two answers state the same.

Golds: for every type but "list", `answer` is one gold or a list of acceptable golds; for
"list" it is the list of items (or a list of such lists, each an acceptable answer). What the
question itself allows travels in an `AnswerSpec` (units, a direction word, an order, a
rounding instruction, the number a yes/no rests on).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import text as text_m
from .dates import iso, parse_date
from .lists import list_score, split_items
from .numbers import ParsedNumber, gold_number, numbers_match, parse_number, unit_spellings

ANSWER_TYPES = ("number", "percent", "date", "list", "text", "yesno", "unanswerable")
UNANSWERABLE = "unanswerable"
CURRENCY_CODES = frozenset({"USD", "EUR", "GBP", "JPY", "INR", "CHF", "AUD", "CAD"})


@dataclass(frozen=True)
class AnswerSpec:
    """What the question allows besides the bare value.

    units: the units an answer may name after (or before) its number: currency codes ("USD")
        and unit nouns ("day", "line item"); any other currency or unit is refused, and () allows
        none. None: no rule declared (a dataset that says nothing): any currency is accepted and
        unit words are refused.
    change: the answer is a signed change, so "24.69% increase" / "3.1% decrease" give the sign.
    ordered: a list whose order the question asks for.
    decimals: the question's rounding instruction ("round to 2 decimal places").
    partial: a list earns partial credit (right items less wrong ones); False: all or nothing,
        where a blind pick of one row would earn its share.
    amount: a yes/no or a named answer must also give the number it rests on ("yes; 1,250",
        "Revenue; 812,400"): a bare word or name is a guess among a few (a constant "yes" earns half).
    exact: a whole count (days between two dates): only the count itself is right, never a
        rounding of it (1,460 is not 1,461 days; spans of whole years cluster, so a constant would
        find a rounding).
    """

    units: tuple[str, ...] | None = None
    change: bool = False
    ordered: bool = False
    decimals: int | None = None
    amount: float | None = None
    partial: bool = True
    exact: bool = False


PLAIN = AnswerSpec()
EXACT_DIGITS = 30  # "significant digits a rounding must keep" for an exact count: more than any number has


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


def _says_unanswerable(pred: str, cfg: Any) -> bool:
    return text_m.squad_normalize(pred) == text_m.squad_normalize(cfg.unanswerable_sentinel)


def match_answer(pred: str, answer: Any, answer_type: str, cfg: Any, spec: AnswerSpec = PLAIN) -> Match:
    """Score the extracted answer `pred` against the gold. `cfg` is an AnswerConfig."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer_type {answer_type!r}; expected one of {ANSWER_TYPES}")
    says_unanswerable = _says_unanswerable(pred, cfg)
    if answer_type == "unanswerable":
        return Match(float(says_unanswerable), says_unanswerable, "unanswerable")
    if says_unanswerable:
        return Match(0.0, False, answer_type, {"reason": "answered 'unanswerable' to an answerable question"})
    golds = golds_of(answer, answer_type)
    if answer_type in ("number", "percent", "yesno") or spec.amount is not None:
        pred = unlabel_parts(pred, first=answer_type in ("number", "percent"))
    if answer_type in ("number", "percent"):
        return match_number(pred, golds, answer_type == "percent", cfg, spec)
    if answer_type == "date":
        return match_date(pred, golds, cfg)
    if answer_type == "list":
        return match_list(pred, golds, cfg, spec)
    if answer_type == "yesno":
        return match_yesno(pred, golds, cfg, spec)
    return match_text(pred, golds, cfg, spec)


def unit_problem(got: ParsedNumber, gold_is_percent: bool, spec: AnswerSpec) -> str | None:
    """Why the currency, unit or direction word the answer names is not what the question allows."""
    declared = spec.units or ()
    currencies = [u for u in declared if u in CURRENCY_CODES]
    if got.currency and (gold_is_percent or (spec.units is not None and got.currency not in currencies)):
        asked = "a percentage" if gold_is_percent else (f"an amount in {', '.join(currencies)}" if currencies
                                                         else "a number with no currency")
        return f"the answer is in {got.currency}; the question asks for {asked}"
    if got.unit and got.unit not in {w for u in declared if u not in CURRENCY_CODES for w in unit_spellings(u)}:
        return f"the answer names the unit {got.unit!r}, which is not what the question counts or measures"
    if got.change and not spec.change:
        return "a word for the direction of a change, where the question asks for a value"
    return None


_LABEL = re.compile(r"^[A-Za-z][\w .()/-]{0,40}?\s*=\s*(?=[-+(]?[\d.$€£¥₹~≈])")  # "CAGR = 1.446%"
_PART_LABEL = re.compile(r"(;\s*)[A-Za-z][\w .()/-]{0,40}?\s*=\s*(?=[-+(]?[\d.$€£¥₹~≈])")  # "6; total = 4,399"


def unlabel_parts(pred: str, first: bool) -> str:
    """A compound answer without the labels of its numbers after a ';' ("no; difference = -27",
    "count = 6; total = 4,399" -> "no; -27", "6; 4,399"); the first part's too where it is a
    number (`first`), never where it names the answer ("Revenue = 1,234")."""
    if ";" in pred:
        pred = _PART_LABEL.sub(r"\1", pred)
    return _LABEL.sub("", pred) if first else pred


def match_number(pred: str, golds: list[Any], gold_is_percent: bool, cfg: Any, spec: AnswerSpec = PLAIN) -> Match:
    if spec.amount is not None:  # "7; 12,345": a count and the total it rests on, all or nothing
        parts = split_number(pred)
        problem = _amount_problem(parts[1] if parts else None, cfg, spec)
        if problem:
            return Match(0.0, False, "number", {"reason": problem})
        pred = parts[0]
    pred = _LABEL.sub("", pred)
    got = parse_number(pred, spec.units or ())
    if got is None:
        return Match(0.0, False, "number", {"reason": "not a number"})
    wants = [w for w in (gold_number(g) for g in golds) if w is not None]
    if not wants:
        raise ValueError(f"gold {golds!r} holds no number")
    problem = unit_problem(got, gold_is_percent, spec)
    if problem:
        return Match(0.0, False, "number", {"parsed": got.value, "reason": problem})
    candidates = [got]
    if gold_is_percent and not got.percent and cfg.percent_fraction:
        candidates.append(_scaled(got, 100))  # 0.125 for 12.5%
    if not gold_is_percent and got.percent:
        # "12.5%" for a plain-number gold only counts as the fraction 0.125, and only if allowed.
        candidates = [_scaled(got, 0.01)] if cfg.percent_fraction else []
    digits = EXACT_DIGITS if spec.exact else cfg.min_sig_digits
    ok = any(numbers_match(c, w, cfg.rel_tol, cfg.abs_tol, digits, spec.decimals)
             for c in candidates for w in wants)
    return Match(float(ok), ok, "number", {"parsed": got.value})


def _scaled(n: ParsedNumber, factor: float) -> ParsedNumber:
    return ParsedNumber(n.value * factor, n.ulp * factor, n.sig_digits, False, n.currency, n.unit, n.change)


def match_date(pred: str, golds: list[Any], cfg: Any) -> Match:
    got = parse_date(pred, dayfirst=cfg.dayfirst)
    if got is None:
        return Match(0.0, False, "date", {"reason": "not a full date"})
    wants = {w for w in (iso(g) for g in golds) if w}
    if not wants:
        raise ValueError(f"gold {golds!r} holds no date")
    ok = got.isoformat() in wants
    return Match(float(ok), ok, "date", {"parsed": got.isoformat()})


_WITH_NUMBER = re.compile(r"^(.*?)\s*(?:[;:=]|\s[-–—]\s)\s*([^;:=]+?)\s*$", re.DOTALL)
_IN_PARENS = re.compile(r"^(.*?\S)\s*\(([^()]+)\)\s*$", re.DOTALL)


def split_number(pred: str) -> tuple[str, str] | None:
    """(the answer, the number given with it) of "Revenue; 1,234", "Revenue: 1,234",
    "Revenue = 1,234", "Revenue – 1,234" (the last separator splits, so a name may hold commas)
    or "Revenue (1,234)"; None when nothing follows a separator."""
    text = pred.strip()
    m = _WITH_NUMBER.match(text)
    if m and m.group(1):
        return m.group(1), m.group(2)
    m = _IN_PARENS.match(text)
    if m and parse_number(m.group(2)) is not None:
        return m.group(1), m.group(2)
    return None


_YES_NO = re.compile(r"^\s*(yes|no)\b\s*[,;:.\u2013\u2014]?\s*(.*?)\s*$", re.IGNORECASE | re.DOTALL)


def _yes_no(pred: str) -> tuple[str | None, str]:
    """('yes' or 'no', the rest) of an answer that starts with the word ("no; -350" -> ('no',
    '-350')); (None, pred) otherwise."""
    m = _YES_NO.match(pred)
    if not m:
        return None, pred
    rest = m.group(2)
    if rest.startswith("(") and rest.endswith(")") and rest.count("(") == 1:
        rest = rest[1:-1].strip()  # "yes (2,700.40)": delimiters, not an accounting negative
    return m.group(1).lower(), rest


def match_yesno(pred: str, golds: list[Any], cfg: Any = None, spec: AnswerSpec = PLAIN) -> Match:
    word, rest = _yes_no(pred)
    if word is None or (spec.amount is None and text_m.squad_normalize(rest)):
        return Match(0.0, False, "yesno", {"reason": "answer is not yes or no"})
    ok = word in {text_m.squad_normalize(str(g)) for g in golds}
    if spec.amount is not None:  # all or nothing: half credit for the word alone would pay a coin toss
        problem = _amount_problem(rest, cfg, spec)
        if problem:
            return Match(0.0, False, "yesno", {"reason": problem})
    return Match(float(ok), ok, "yesno")


@functools.lru_cache(maxsize=4096)
def _gold_item(g: str | float) -> tuple[str, Any, Any]:
    """A gold list item read once: ("number", value), ("pair", label, value) or ("text", text)."""
    number = gold_number(g)
    if number is not None:
        return ("number", number, None)
    pair = split_number(str(g))
    if pair and gold_number(pair[1]) is not None:
        return ("pair", pair[0], gold_number(pair[1]))
    return ("text", str(g), None)


def _item_similarity(cfg: Any, units: tuple[str, ...] = ()):
    """Item similarity: numbers as numbers, "Label: value" items by both label and value, text by
    the configured metric."""
    def number_like(p: str, want: float) -> float:
        pn = parse_number(p, units)
        return float(pn is not None and numbers_match(pn, want, cfg.rel_tol, cfg.abs_tol, cfg.min_sig_digits))

    def similarity(p: str, g: Any) -> float:
        kind, a, b = _gold_item(g)
        if kind == "number":
            return number_like(p, a)
        if kind == "pair":
            got = split_number(p)
            return float(got is not None and text_m.exact_match(got[0], a) == 1.0 and number_like(got[1], b) == 1.0)
        return text_m.exact_match(p, a) if cfg.list_item_metric == "em" else text_m.token_f1(p, a)

    return similarity


def match_list(pred: str, golds: list[list[Any]], cfg: Any, spec: AnswerSpec = PLAIN) -> Match:
    items = split_items(pred, cfg.max_list_items)
    if items is None:
        return Match(0.0, False, "list", {"reason": f"more than {cfg.max_list_items} items"})
    sim = _item_similarity(cfg, spec.units or ())
    best = max((list_score(items, [str(g) if not isinstance(g, (int, float)) else g for g in gold], sim, spec.ordered)
                for gold in golds), key=lambda r: (r[1], r[0]))
    score, passed, details = best
    if not spec.partial and not passed:
        score = 0.0
    return Match(score, passed, "list", {"items": items[:20], **details})


def _amount_problem(number_text: str | None, cfg: Any, spec: AnswerSpec) -> str | None:
    """Why the number given with a named or yes/no answer is not spec.amount (None: it is)."""
    amount = parse_number(number_text, spec.units or ()) if number_text else None
    if amount is None:
        return "the answer must give the number it rests on after a ';'"
    problem = unit_problem(amount, False, spec)
    if problem:
        return problem
    if not numbers_match(amount, spec.amount, cfg.rel_tol, cfg.abs_tol, cfg.min_sig_digits, spec.decimals):
        return f"the number given, {amount.value:g}, is not the one the answer rests on"
    return None


def match_text(pred: str, golds: list[Any], cfg: Any, spec: AnswerSpec = PLAIN) -> Match:
    if spec.amount is not None:  # "Revenue; 1,234": the name and the value it was chosen by, all or nothing
        parts = split_number(pred)
        problem = _amount_problem(parts[1] if parts else None, cfg, spec)
        if problem:
            return Match(0.0, False, cfg.text_metric, {"reason": problem})
        pred = parts[0]
    golds = [str(g) for g in golds]
    metric = cfg.text_metric
    if metric == "anls":
        score = text_m.best_over(golds, pred, lambda p, g: text_m.anls_one(p, g, cfg.anls_threshold))
    elif metric == "f1":
        score = text_m.best_over(golds, pred, text_m.token_f1)
    else:
        score = text_m.best_over(golds, pred, text_m.exact_match)
    return Match(score, score >= cfg.pass_threshold, metric)


# -- what an answer states, and whether two answers state the same --------------------------------
class WithNumber(NamedTuple):
    """A reading of a word, name or count with the number it rests on ("yes; 1,250")."""

    head: Any  # the word or name (normalised text), or the count (a ParsedNumber)
    number: ParsedNumber | None  # None: the marker gave none
def reading(pred: str, answer_type: str, cfg: Any, spec: AnswerSpec = PLAIN) -> Any:
    """What `pred` states as an answer of this type (a number, a date, a yes/no, a set of
    items, normalised text, or UNANSWERABLE), or None when it states no such answer: a sentence
    around a number ("it rose by 24.69%") is not a number."""
    if _says_unanswerable(pred, cfg):
        return UNANSWERABLE
    if spec.amount is not None and answer_type in ("number", "percent", "text"):
        # "Revenue; 1,234" -> ("revenue", 1234); "Revenue" alone -> ("revenue", None): it still names one
        parts = split_number(pred)
        number = parse_number(parts[1], spec.units or ()) if parts else None
        head = parts[0] if parts and number is not None else pred
        if answer_type != "text":
            head_number = parse_number(_LABEL.sub("", head), spec.units or ())
            return WithNumber(head_number, number) if head_number is not None else None
        return WithNumber(text_m.squad_normalize(head), number) if text_m.squad_normalize(head) else None
    if answer_type in ("number", "percent"):
        return parse_number(_LABEL.sub("", pred), spec.units or ())
    if answer_type == "date":
        return parse_date(pred, dayfirst=cfg.dayfirst)
    if answer_type == "yesno":
        word, rest = _yes_no(pred)
        if word is None:
            return None
        return WithNumber(word, parse_number(rest, spec.units or ()) if rest else None)
    if answer_type == "list":
        items = split_items(pred, cfg.max_list_items)
        return tuple(text_m.squad_normalize(i) for i in items) if items else None
    normalized = text_m.squad_normalize(pred)
    return normalized or None


def _same_number(a: ParsedNumber | None, b: ParsedNumber | None, min_sig_digits: int = 3) -> bool:
    """Two written numbers agree when they are equal, or when the coarser is a correct rounding of
    the finer that keeps `min_sig_digits` significant digits (24.69% and 24.7%, not 5 and 5.35)."""
    if a is None or b is None:
        return a is b
    if (a.value < 0) != (b.value < 0) or a.percent != b.percent:
        return False
    diff = abs(a.value - b.value)
    if diff <= 1e-9 * max(abs(a.value), abs(b.value), 1e-300):
        return True
    coarse = a if a.ulp >= b.ulp else b
    return coarse.sig_digits >= min_sig_digits and diff <= coarse.ulp / 2 * (1 + 1e-9)


def _restates(clearest_text: str, other_text: str, items: tuple[str, ...] = (), ordered: bool = False) -> bool:
    """A sentence that contains the clearest answer (each of its items, for a list, and in their
    order where order matters) restates it ("**Answer:** Acme has the highest revenue.")."""
    other = f" {text_m.squad_normalize(other_text)} "
    parts = items or (text_m.squad_normalize(clearest_text),)
    at = [other.find(f" {part} ") if part else -1 for part in parts]
    return all(i >= 0 for i in at) and (not ordered or at == sorted(at))


def agree(clearest: Any, other: Any, answer_type: str, cfg: Any, clearest_text: str = "", other_text: str = "",
          ordered: bool = False) -> bool:
    """Whether `other` (a reading, and the text it was read from) states the same answer as
    `clearest`. Numbers and dates compare as values; words, names and lists also agree when the
    other marker is a sentence that restates the clearest answer."""
    if clearest is UNANSWERABLE or other is UNANSWERABLE:
        return clearest is other or (clearest is UNANSWERABLE and _restates(clearest_text, other_text))
    if isinstance(clearest, WithNumber) or isinstance(other, WithNumber):  # with the number it rests on
        if not (isinstance(clearest, WithNumber) and isinstance(other, WithNumber)):
            return False
        if isinstance(clearest.head, ParsedNumber):
            same_head = _same_number(clearest.head, other.head, cfg.min_sig_digits)
        else:
            same_head = clearest.head == other.head or (answer_type == "text" and _restates(
                clearest_text, other_text, (clearest.head,)))
        return same_head and (other.number is None or _same_number(clearest.number, other.number, cfg.min_sig_digits))
    if answer_type in ("number", "percent"):
        return _same_number(clearest, other, cfg.min_sig_digits)
    if answer_type == "date":
        return isinstance(clearest, dt.date) and clearest == other
    if answer_type == "list":
        if sorted(clearest) == sorted(other):  # the same items: a list, in the same order where it matters
            return not ordered or clearest == other
        return _restates(clearest_text, other_text, clearest, ordered)
    return clearest == other or _restates(clearest_text, other_text)
