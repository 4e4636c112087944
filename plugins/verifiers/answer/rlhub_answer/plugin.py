"""The verifiers rlhub-answer registers.

`answer_match` picks the matcher from `task.hidden["answer_type"]`; the others force one matcher
(for datasets whose golds all have one type). All share the extraction settings and the rule for
a response with several answer markers (see `final_answer`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from hub import Task, Verdict, Verifier, VerifierConfig, VerifyContext, hookimpl
from hub.core.verifier import HiddenData

from hub.core.response import Answer, read

from .extract import DEFAULT_MODES, Mode, strip_latex
from .matchers import ANSWER_TYPES, UNANSWERABLE, AnswerSpec, agree, match_answer, reading
from .numbers import _SCALES


class AnswerConfig(VerifierConfig):
    # extraction
    extract: tuple[Mode, ...] = Field(DEFAULT_MODES, min_length=1, description="answer markers, last one wins")
    max_response_chars: int = Field(50_000, gt=0)
    max_answer_chars: int = Field(500, gt=0)
    # numbers
    rel_tol: float = Field(1e-4, ge=0, lt=1, description="relative tolerance for numbers")
    abs_tol: float = Field(1e-9, ge=0)
    min_sig_digits: int = Field(3, ge=1, description="a rounded answer must keep this many significant digits")
    percent_fraction: bool = Field(False, description="accept 0.125 for 12.5% (and 12.5% for 0.125)")
    # dates
    dayfirst: bool = Field(False, description="read 03/04/2024 as 3 April")
    # text and lists
    text_metric: Literal["em", "f1", "anls"] = "em"
    anls_threshold: float = Field(0.5, gt=0, le=1)
    pass_threshold: float = Field(1.0, gt=0, le=1, description="text score at which a response counts as passed")
    list_item_metric: Literal["em", "f1"] = "em"
    max_list_items: int = Field(200, gt=0)
    unanswerable_sentinel: str = Field(UNANSWERABLE, min_length=1)


class AnswerHidden(HiddenData):
    """The gold: a string, number or list (a list of acceptable golds for text), its type, and
    what the question allows besides the bare value (`matchers.AnswerSpec` says each field)."""

    answer: Any
    answer_type: Literal[ANSWER_TYPES] = "text"  # type: ignore[valid-type]
    units: tuple[str, ...] | None = None
    change: bool = False
    ordered: bool = False
    decimals: int | None = Field(None, ge=0, le=12)
    amount: float | None = None
    partial: bool = True
    exact: bool = False

    def spec(self) -> AnswerSpec:
        return AnswerSpec(self.units, self.change, self.ordered, self.decimals, self.amount, self.partial, self.exact)


# Where a response holds several answer markers, the clearest is the answer: a \boxed{} before an
# <answer> tag before a "Final answer:" line (the last of its kind where a kind repeats).
CLARITY = {"boxed": 0, "answer_tag": 1, "final_line": 2}
# Constant answers a policy could give without reading anything: every answer-graded environment
# is checked to pay them (almost) nothing (`cheap_policies`).
_SCALE_WORDS = ("thousand", "k", "million", "m", "mn", "billion", "bn", "trillion", "tn")
CONSTANTS = ("0", "1", *(f"{n} {w}" for w in _SCALE_WORDS for n in (0, 1)), "0k", "0.0 bn", "2", "3", "5", "7", "10",
             "2.5%", "yes", "no", UNANSWERABLE, "none", "N/A")
assert all(w in _SCALES for w in _SCALE_WORDS)


def final_answer(answers: list[Answer], answer_type: str, cfg: "AnswerConfig", spec: AnswerSpec
                 ) -> tuple[Answer, Any, list[Answer]]:
    """(the answer graded, what it states, the markers that state something else).

    The graded answer is the clearest marker that states an answer of the gold's type. Markers
    that state none (a sentence around the number: "**Answer:** it rose by 24.69%.") are
    ignored; any other that states a different answer is a second answer at once, a hedge,
    which makes the response wrong whichever of the two is right."""
    written = [a for a in answers if a.text is not None]
    if len(written) <= 1:  # one marker (the usual case): nothing to disagree with
        return (written or answers)[-1], None, []
    read_as = [(a, reading(strip_latex(a.text), answer_type, cfg, spec)) for a in written]
    stating = [(a, r) for a, r in read_as if r is not None]
    pool = stating or read_as
    if not pool:
        return answers[-1], None, []
    clearest = min(CLARITY[a.how] for a, _ in pool)
    best, best_reading = [ar for ar in pool if CLARITY[ar[0].how] == clearest][-1]
    if best_reading is None:
        return best, None, []
    others = [a for a, r in stating if a is not best and not agree(best_reading, r, answer_type, cfg, strip_latex(best.text),
                                                                    strip_latex(a.text), spec.ordered)]
    return best, best_reading, others


class AnswerMatch(Verifier):
    """Extract the final answer and match it by `task.hidden["answer_type"]` (default "text")."""

    name = "answer_match"
    Config = AnswerConfig
    Hidden = AnswerHidden
    forced_type: ClassVar[str | None] = None  # subclasses pin one matcher
    default_text_metric: ClassVar[str | None] = None

    def answer_type(self, hidden: AnswerHidden) -> str:
        declared = hidden.answer_type
        if self.forced_type is None or declared in ("unanswerable",) or (
                self.forced_type == "number" and declared == "percent"):
            return declared
        return self.forced_type

    def verify(self, task: Task, response: str, ctx: VerifyContext) -> Verdict:
        hidden = self.hidden(task)
        cfg = self.config
        if self.default_text_metric and cfg.text_metric == "em":
            cfg = cfg.model_copy(update={"text_metric": self.default_text_metric})
        if not isinstance(response, str):
            return Verdict(0.0, False, components={"extracted": 0.0},
                           details={"reason": f"response is {type(response).__name__}, not text"})
        kind, spec = self.answer_type(hidden), hidden.spec()
        got, _, others = final_answer(read(response).answers(cfg.extract, cfg.max_response_chars, cfg.max_answer_chars),
                                      kind, cfg, spec)
        if got.text is None:
            return Verdict(0.0, False, components={"extracted": 0.0}, details={"reason": got.how})
        seen = {"extracted": got.text[:200], "how": got.how, "answer_type": kind}
        if others:
            return Verdict(0.0, False, components={"extracted": 1.0, "one_answer": 0.0},
                           details={**seen, "reason": "the response gives two different answers (a hedge): "
                                    + "; ".join(f"{a.how} {a.text[:80]!r}" for a in others[:3])})
        m = match_answer(strip_latex(got.text), hidden.answer, kind, cfg, spec)
        return Verdict(min(1.0, max(0.0, m.score)), m.passed, components={"extracted": 1.0, m.matcher: m.score},
                       details={**seen, **m.details})

    def cheap_policies(self, task: Task) -> dict[str, list[str]]:
        """Answers that need no reading: each constant, boxed (`rlhub check` requires every
        one to earn at most 0.1 on average over its seeds)."""
        return {f"constant {c!r}": [f"\\boxed{{{c}}}"] for c in CONSTANTS}


class NumericMatch(AnswerMatch):
    """Numbers only (percent golds keep their percent handling)."""

    name = "numeric_match"
    forced_type = "number"


class ExactMatchNorm(AnswerMatch):
    """SQuAD exact match after normalisation."""

    name = "exact_match_norm"
    forced_type = "text"


class TokenF1(AnswerMatch):
    """SQuAD token F1 (reward is the F1; passed only at 1.0 unless pass_threshold says so)."""

    name = "token_f1"
    forced_type = "text"
    default_text_metric = "f1"


class Anls(AnswerMatch):
    """ANLS as DocVQA defines it (threshold 0.5, best over golds)."""

    name = "anls"
    forced_type = "text"
    default_text_metric = "anls"


class DateMatch(AnswerMatch):
    name = "date_match"
    forced_type = "date"


class ListF1(AnswerMatch):
    name = "list_f1"
    forced_type = "list"


VERIFIERS = (AnswerMatch, NumericMatch, ExactMatchNorm, TokenF1, Anls, DateMatch, ListF1)
assert set(ANSWER_TYPES) >= {"number", "text", "date", "list"}


@hookimpl
def rlhub_register_verifiers(register):
    for cls in VERIFIERS:
        register(cls)
