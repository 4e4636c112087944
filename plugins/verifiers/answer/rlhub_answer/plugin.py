"""The verifiers rlhub-answer registers.

`answer_match` picks the matcher from `task.hidden["answer_type"]`; the others force one matcher
(for datasets whose golds all have one type). All share the extraction settings.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from hub import Task, Verdict, Verifier, VerifierConfig, VerifyContext, hookimpl
from hub.core.verifier import HiddenData

from .extract import DEFAULT_MODES, Mode, extract_answer, strip_latex
from .matchers import ANSWER_TYPES, UNANSWERABLE, match_answer


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
    """The gold: a string, number or list (a list of acceptable golds for text), and its type."""

    answer: Any
    answer_type: Literal[ANSWER_TYPES] = "text"  # type: ignore[valid-type]


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
        got = extract_answer(response, cfg.extract, cfg.max_response_chars, cfg.max_answer_chars)
        if got.text is None:
            return Verdict(0.0, False, components={"extracted": 0.0}, details={"reason": got.how})
        kind = self.answer_type(hidden)
        m = match_answer(strip_latex(got.text), hidden.answer, kind, cfg)
        return Verdict(min(1.0, max(0.0, m.score)), m.passed, components={"extracted": 1.0, m.matcher: m.score},
                       details={"extracted": got.text[:200], "how": got.how, "answer_type": kind, **m.details})


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
