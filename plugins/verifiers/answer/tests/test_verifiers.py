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
    assert not v.passed and v.reward == pytest.approx(0.5)  # the wrong item costs what a right one earns
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


def spec_score(answer, kind, response, **hidden):
    v = AnswerMatch(AnswerConfig())
    return v.verify(Task(prompt="q", hidden={"answer": answer, "answer_type": kind, **hidden}), response, CTX)


@pytest.mark.parametrize("gold", [5, 3, 12, 0.5, -2, 999, 1104, 24.69])
@pytest.mark.parametrize("constant", ["0 trillion", "0k", "0.0 bn", "0 million", "0", "1 billion", "zero"])
def test_a_scale_word_does_not_make_zero_a_rounding_of_anything(gold, constant):
    """Zero with a scale word is zero: its precision (10^12 for 'trillion') is far coarser than
    any gold allows, so it is not a rounding of 5 (it earned 1.0 on every count task)."""
    assert not score(gold, "number", rf"\boxed{{{constant}}}").passed


def test_zero_is_still_zero_and_signs_are_always_checked():
    assert score(0, "number", r"\boxed{0 trillion}").passed
    assert not score(0.0004, "number", r"\boxed{-0.0004}").passed
    assert not score(-7, "number", r"\boxed{7}").passed


@pytest.mark.parametrize("answer, kind, hidden, response", [
    (99.901, "percent", {}, r"\boxed{99.901%}"),                                    # the question says "in percent"
    (-6_746_000, "number", {"units": ["USD"]}, r"\boxed{-6,746,000 US dollars}"),    # the question's own wording
    (-6_746_000, "number", {"units": ["USD"]}, r"\boxed{-6.746 \times 10^{6}}"),
    (-6_746_000, "number", {"units": ["USD"]}, r"\boxed{USD -6.746 million}"),
    (-6_746_000, "number", {"units": ["USD"]}, r"\boxed{-\$6,746,000}"),
    (1104, "number", {"units": ["day"]}, r"\boxed{1104 days}"),
    (5, "number", {"units": ["line item", "entry"]}, r"\boxed{5 line items}"),
    (24.6912, "percent", {}, r"\boxed{\approx 24.69\%}"),
    (24.6912, "percent", {"change": True}, r"\boxed{24.69% increase}"),
    (-3.1, "percent", {"change": True}, r"\boxed{3.1% decrease}"),
    (24.6912, "percent", {}, "\\boxed{24.69\\%}\n\n**Answer:** it rose by 24.69%."),   # a sentence after the box
    (24.6912, "percent", {}, "\\boxed{24.69\\%}\n\nFinal answer: 24.69%"),             # two markers that agree
    ("yes", "yesno", {"amount": 1250.0, "units": ["USD"]}, r"\boxed{Yes; 1,250 US dollars}"),
    ("Acme", "text", {"amount": 812.4}, r"\boxed{Acme; 812.4}"),
    ("Acme", "text", {}, "\\boxed{Acme}\n\n**Answer:** Acme has the highest revenue."),
])
def test_right_answers_in_the_forms_the_question_invites(answer, kind, hidden, response):
    v = spec_score(answer, kind, response, **hidden)
    assert v.passed and v.reward == 1.0, v.details


@pytest.mark.parametrize("answer, kind, hidden, response", [
    (1104, "number", {"units": ["day"]}, r"\boxed{1104 hours}"),                     # a unit not asked for
    (5, "number", {"units": ["line item"]}, r"\boxed{5 days}"),
    (-6_746_000, "number", {"units": ["USD"]}, r"\boxed{-€6,746,000}"),              # another currency
    (5, "number", {"units": []}, r"\boxed{\$5}"),                                    # a currency on a count
    (24.6912, "percent", {"change": True}, r"\boxed{24.69% decrease}"),              # the direction flipped
    (24.6912, "percent", {}, r"\boxed{24.69% increase}"),                            # a direction word not invited
    (12.5, "percent", {}, r"\boxed{12.5 US dollars}"),
    (5, "number", {}, "\\boxed{5}\n\nFinal answer: 6"),                               # two answers: a hedge
    (5, "number", {}, "<answer>6</answer> and \\boxed{5}"),
    (5.0, "number", {}, "\\boxed{5}\n\nFinal answer: 5.35"),                          # 5 is no rounding of 5.35 here
    (24.6912, "percent", {}, "\\boxed{24.69\\%}\n\n**Answer:** about 25%"),             # too coarse to agree
    ("yes", "yesno", {"amount": 1250.0}, r"\boxed{yes}"),                            # the word alone: a coin toss
    ("yes", "yesno", {"amount": 1250.0}, r"\boxed{yes; -1,250}"),
    ("yes", "yesno", {"amount": 1250.0}, r"\boxed{no; 1,250}"),
    ("Acme", "text", {"amount": 812.4}, r"\boxed{Acme}"),                            # a name alone: a guess
    ("Acme", "text", {"amount": 812.4}, r"\boxed{Acme; 790.0}"),
    ("Acme", "text", {}, "\\boxed{Acme}\n\nFinal answer: Beta"),
    ("unanswerable", "unanswerable", {}, "\\boxed{unanswerable}\n\nFinal answer: 0"),
])
def test_wrong_units_directions_and_hedges_fail(answer, kind, hidden, response):
    v = spec_score(answer, kind, response, **hidden)
    assert not v.passed and v.reward == 0.0, v.details


def test_lists_graded_for_what_they_claim():
    gold = ["North: 12", "South: 30"]
    table = ["North: 12", "South: 30", "East: 7", "West: 5"]
    whole = spec_score(gold, "list", r"\boxed{" + "; ".join(table) + "}")
    assert whole.reward == 0.0 and not whole.passed  # the whole table: each wrong item cancels a right one
    assert spec_score(gold, "list", r"\boxed{South: 30; North: 12}").passed  # order is free...
    assert not spec_score(gold, "list", r"\boxed{South: 30; North: 12}", ordered=True).passed  # ...unless asked
    assert spec_score(gold, "list", r"\boxed{North; South}").reward == 0.0  # names without their values
    assert spec_score(gold, "list", r"\boxed{North: 12}").reward == 0.5


@pytest.mark.parametrize("answer, kind, hidden, response", [   # right answers the red team found rejected
    (2, "number", {"units": ["service", "service entry", "entry"]}, r"\boxed{2 service entries}"),
    (2163, "number", {"units": ["tonnes"]}, "Answer: 2,163 t"),
    (2163, "number", {"units": ["tonnes"]}, r"\boxed{2,163 metric tons}"),
    (86.3, "number", {"units": ["uA"]}, r"\boxed{86.30 µA}"),
    (86.3, "number", {"units": ["uA"]}, r"\boxed{86.30\,\mu\text{A}}"),
    (8.3, "number", {"units": ["hours"]}, "Answer: 8.3 h"),
    (1.446, "percent", {"units": ["per quarter", "cagr"]}, "Answer: 1.446% per quarter"),
    (1.446, "percent", {"units": ["per quarter", "cagr"]}, "Answer: CAGR = 1.446%"),
    (6.402, "percent", {"change": True}, "Answer: an increase of 6.402%"),
    (6.402, "percent", {"change": True}, "Answer: increased by 6.402%"),
    (6.402, "percent", {"change": True}, "Answer: a 6.402% increase"),
    (["Display module 7 in: 7.90"], "list", {}, "Final answer:\nDisplay module 7 in: 7.90"),
    (["A: 118.19", "B: 119.47"], "list", {}, "Final answer:\n- A: 118.19\n- B: 119.47"),
    (5_594_000, "number", {"units": ["USD"]}, r"\boxed{5 594 000}"),
    (4_640_000, "number", {"units": ["USD"]}, "Answer: US $4,640,000"),
    (4_640_000, "number", {"units": ["USD"]}, "Answer: 4,640,000 (USD)"),
    ("yes", "yesno", {"amount": 2700.4}, r"\boxed{yes (2,700.40)}"),
    (["Cable harness: 1"], "list", {}, r"\boxed{Cable harness (1)}"),
    (["Cable harness: 1"], "list", {}, r"\boxed{Cable harness = 1}"),
    ("2022-11-10", "date", {}, r"\boxed{2022-11-10 (Thursday)}"),
    (-2_371_000, "number", {"units": ["USD"]}, r"\boxed{-2,370,000}"),          # trailing zeros: 3 digits written
    (7, "number", {"units": ["entry"], "amount": 12_345.0}, r"\boxed{7; 12,345}"),  # a count with its total
    # round 2: units in a datasheet row's label, labels inside a compound, growth and ratio words
    (0.21, "number", {"units": ["%/V"]}, r"\boxed{0.2100 %/V}"),
    (0.21, "number", {"units": ["%/V"]}, r"\boxed{0.21 percent per volt}"),
    (31.5, "number", {"units": ["C/W"]}, r"\boxed{31.5 °C/W}"),
    (2.9, "number", {"units": ["V"]}, r"\boxed{2.900 V}"),
    (7, "number", {"units": ["entry"], "amount": 12_345.0}, r"\boxed{7; total = 12,345}"),
    (7, "number", {"units": ["entry"], "amount": 12_345.0}, r"\boxed{count = 7; total = 12,345}"),
    ("no", "yesno", {"amount": -27.04}, r"\boxed{no; difference = -27.04}"),
    (2.991, "percent", {"units": ["per year", "annual", "p.a."]}, r"\boxed{2.991% p.a.}"),
    (2.991, "percent", {"units": ["per year", "annual", "p.a."]}, r"\boxed{2.991% annual}"),
    (0.8438, "number", {"units": ["x", "times"]}, r"\boxed{0.8438x}"),
    (0.8438, "number", {"units": ["x", "times"]}, r"\boxed{0.8438 times}"),
    (["Fastener kit: 900.90", "Housing: 2,047.08"], "list", {"partial": False},
     r"\boxed{Fastener kit = 900.90; Housing = 2,047.08}"),                           # round 3: name = value items
    (1461, "number", {"units": ["day"], "exact": True}, r"\boxed{1,461 days}"),
])
def test_right_answers_the_red_team_found(answer, kind, hidden, response):
    v = spec_score(answer, kind, response, **hidden)
    assert v.passed and v.reward == 1.0, v.details


@pytest.mark.parametrize("answer, kind, hidden, response", [
    (["Engineering: 5,722", "Sales: 4,100"], "list", {"ordered": True, "partial": False},
     "\\boxed{Engineering: 5,722; Sales: 4,100}\nAnswer: Marketing"),                # a second marker naming another row
    (["Engineering: 5,722", "Sales: 4,100"], "list", {"ordered": True, "partial": False},
     "\\boxed{Engineering: 5,722; Sales: 4,100}\nFinal answer: Sales: 4,100; Engineering: 5,722"),  # the order swapped
    (["Data warehouse: 39", "Payments: 12"], "list", {"partial": False}, r"\boxed{Data warehouse: 39}"),  # one row of two
    (7, "number", {"units": ["entry"], "amount": 12_345.0}, r"\boxed{7}"),             # the count without its total
    (7, "number", {"units": ["entry"], "amount": 12_345.0}, r"\boxed{7; 13,000}"),
    (100, "number", {}, r"\boxed{1 hundred}"),
    (5_000, "number", {}, r"\boxed{5,432}"),
    (5_432, "number", {}, r"\boxed{5,000}"),                                        # trailing zeros: 1 digit written
    (0.21, "number", {"units": ["%/V"]}, r"\boxed{0.21%}"),                          # a percentage is not %/V
    (31.5, "number", {"units": ["C/W"]}, r"\boxed{31.5 K/W}"),
    (31.5, "number", {"units": ["C/W"]}, r"\boxed{31.5 C/W per hour}"),
    (7, "number", {"units": ["entry"], "amount": 12_345.0}, r"\boxed{7; total = 13,000}"),
    ("no", "yesno", {"amount": -27.04}, r"\boxed{no; difference = 27.04}"),
    (1461, "number", {"units": ["day"], "exact": True}, r"\boxed{1460}"),            # round 3: a count is exact
    (1461, "number", {"units": ["day"], "exact": True}, r"\boxed{1.46 thousand days}"),
])
def test_wrong_answers_the_red_team_found(answer, kind, hidden, response):
    v = spec_score(answer, kind, response, **hidden)
    assert not v.passed and v.reward == 0.0, v.details
