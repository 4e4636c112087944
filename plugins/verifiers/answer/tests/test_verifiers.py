"""The registered verifiers end to end: rounding, scale, sign, percent, dates, lists, sentinel."""

import pytest

from hub import Task
from hub.sandbox.profile import DEFAULT_PROFILES
from hub.core.verifier import VerifyContext
from rlhub_answer.plugin import AnswerConfig, AnswerMatch, Anls, NumericMatch, TokenF1

CTX = VerifyContext(profile=next(iter(DEFAULT_PROFILES.values())))


def score(answer, kind, response, verifier=AnswerMatch, **cfg):
    v = verifier(AnswerConfig(**cfg))
    return v.verify(Task(prompt="q", hidden={"answer": answer, "answer_type": kind}), response, CTX)


@pytest.mark.parametrize("response, ok", [
    (r"\boxed{1,234,567}", True), (r"\boxed{\$1.23 million}", True),  # rounded, 3 significant digits kept
    (r"\boxed{1.2 million}", False),                                   # too coarse to count as rounding
    (r"\boxed{1,234.567 thousand}", True), (r"\boxed{1,234,567.4}", True),
    (r"\boxed{1,234}", False), (r"\boxed{-1,234,567}", False), (r"\boxed{(1,234,567)}", False),
    (r"\boxed{1,235,567}", False),
])
def test_number_rounding_scale_sign(response, ok):
    assert score(1_234_567, "number", response).passed is ok


@pytest.mark.parametrize("response, ok", [("12.3", True), ("12.35", True), ("12.4", False), ("12", False)])
def test_rounding_must_be_correct(response, ok):
    # 12.3456 correctly rounded: 12.3 (1 dp), 12.35 (2 dp); 12.4 is not a rounding of it.
    assert score(12.3456, "percent", rf"\boxed{{{response}}}").passed is ok


def test_percent_and_fraction_only_when_configured():
    assert score(12.5, "percent", r"\boxed{12.5\%}".replace("\\%", "%")).passed
    assert not score(12.5, "percent", r"\boxed{0.125}").passed
    assert score(12.5, "percent", r"\boxed{0.125}", percent_fraction=True).passed
    assert not score(0.125, "number", r"\boxed{12.5%}").passed
    assert score(0.125, "number", r"\boxed{12.5%}", percent_fraction=True).passed


def test_dates_iso_normalised():
    assert score("2024-03-05", "date", r"\boxed{March 5, 2024}").passed
    assert score("2024-03-05", "date", r"\boxed{5 Mar 2024}").passed
    assert not score("2024-03-05", "date", r"\boxed{March 2024}").passed
    assert not score("2024-03-05", "date", r"\boxed{2024-05-03}").passed
    assert score("2024-03-05", "date", r"\boxed{05/03/2024}", dayfirst=True).passed


def test_lists_yesno_unanswerable():
    v = score(["North", "South"], "list", r"\boxed{South; North}")
    assert v.passed and v.reward == 1.0
    v = score(["North", "South"], "list", r"\boxed{South, North, East}")
    assert not v.passed and v.reward == pytest.approx(0.8)
    assert score("yes", "yesno", "Final answer: Yes.").passed
    assert not score("yes", "yesno", "Final answer: yes and no").passed
    assert score("unanswerable", "unanswerable", r"\boxed{Unanswerable}").passed
    assert not score("unanswerable", "unanswerable", r"\boxed{0}").passed
    assert not score(42, "number", r"\boxed{unanswerable}").passed


def test_text_metrics_and_alternative_golds():
    assert score(["Acme Corp", "Acme Corporation"], "text", r"\boxed{acme corporation}").passed
    v = score("Acme Corporation", "text", r"\boxed{Acme Corporatoin}", verifier=Anls)
    assert 0.85 < v.reward < 1.0 and not v.passed
    v = score("the cat sat on the mat", "text", r"\boxed{cat sat}", verifier=TokenF1)
    assert v.reward == pytest.approx(2 / 3)


def test_numeric_match_verifier_and_hostile_input():
    assert NumericMatch(NumericMatch.Config()).verify(
        Task(prompt="q", hidden={"answer": "1,000"}), r"\boxed{1000}", CTX).passed
    for hostile in ["\x00" * 100, "\\boxed{" * 5000, "<answer>" * 3000, "Answer: " + "9" * 400, "\ud800"]:
        v = score(7, "number", hostile)
        assert v.reward == 0.0 and not v.passed


def test_bad_config_is_a_clear_error():
    with pytest.raises(Exception, match="text_metric"):
        AnswerConfig(text_metric="bleu")
    with pytest.raises(Exception, match="extra"):
        AnswerConfig(tolerance=0.1)
