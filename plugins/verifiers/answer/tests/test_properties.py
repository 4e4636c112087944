"""Property tests: a correct answer in any accepted format scores full; a wrong number, scale or
sign does not."""

import datetime as dt

from hypothesis import given, settings, strategies as st

from hub import Task
from hub.sandbox.profile import DEFAULT_PROFILES
from hub.core.verifier import VerifyContext
from rlhub_answer.plugin import AnswerConfig, AnswerMatch

CTX = VerifyContext(profile=next(iter(DEFAULT_PROFILES.values())))
V = AnswerMatch(AnswerConfig())


def passed(answer, kind, text, wrap="boxed"):
    response = {"boxed": f"Working... \\boxed{{{text}}}", "tag": f"<answer>{text}</answer>",
                "line": f"Reasoning.\nFinal answer: {text}"}[wrap]
    return V.verify(Task(prompt="q", hidden={"answer": answer, "answer_type": kind}), response, CTX).passed


def formats(value: int) -> list[str]:
    """Ways people write an integer amount of dollars."""
    a, neg = abs(value), value < 0
    plain, commas = str(a), f"{a:,}"
    out = [f"-{commas}", f"({commas})", f"-${commas}", f"$({commas})", f"−{plain}", f"USD -{commas}"] if neg \
        else [plain, commas, f"${commas}", f"USD {commas}", f"{commas} dollars"]
    for exp, words in ((3, ("thousand", "k")), (6, ("million", "m")), (9, ("billion", "bn"))):
        if a >= 10 ** exp:
            scaled = f"{a / 10 ** exp:.{exp}f}".rstrip("0").rstrip(".")  # exact: every digit kept
            out += [("-" if neg else "") + f"${scaled} {w}" for w in words]
    return out


amounts = st.integers(-10 ** 12, 10 ** 12).filter(lambda v: v != 0)


@settings(max_examples=150, deadline=None)
@given(value=amounts, pick=st.integers(0, 99), wrap=st.sampled_from(["boxed", "tag", "line"]))
def test_any_accepted_format_scores_full(value, pick, wrap):
    fmts = formats(value)
    assert passed(value, "number", fmts[pick % len(fmts)], wrap)


@settings(max_examples=150, deadline=None)
@given(value=amounts, exp=st.sampled_from([-9, -6, -3, 3, 6]))
def test_wrong_scale_fails(value, exp):
    assert not passed(value, "number", f"{value * 10 ** exp:,.6f}".rstrip("0").rstrip("."))


@settings(max_examples=150, deadline=None)
@given(value=amounts)
def test_wrong_sign_fails(value):
    assert not passed(value, "number", f"{-value:,}")
    assert not passed(value, "number", f"({value:,})" if value > 0 else f"{-value:,}")


@settings(max_examples=150, deadline=None)
@given(value=amounts, rel=st.floats(0.001, 0.5))
def test_wrong_number_fails(value, rel):
    wrong = round(value * (1 + rel))
    # a different number at integer precision, and not one whose trailing zeros make it a
    # rounding of the value that keeps 3 digits (-1,270 is -1,272 rounded to the ten)
    while abs(wrong - value) < 2 or wrong % 10 == 0:
        wrong += 1
    assert not passed(value, "number", f"{wrong:,}")


@settings(max_examples=150, deadline=None)
@given(pct=st.floats(-500, 500, allow_nan=False).filter(lambda x: abs(x) > 1e-3), dp=st.integers(2, 6))
def test_percent_correctly_rounded_passes(pct, dp):
    shown = f"{pct:.{dp}f}"
    if float(shown) == 0:
        return
    assert passed(pct, "percent", shown + "%") or len(shown.replace("-", "").replace(".", "").lstrip("0")) < 3
    assert not passed(pct, "percent", f"{-pct:.{dp}f}%")


@settings(max_examples=100, deadline=None)
@given(day=st.dates(dt.date(1900, 1, 1), dt.date(2200, 12, 31)),
       fmt=st.sampled_from(["%Y-%m-%d", "%B %d, %Y", "%d %B %Y", "%b %d %Y", "%m/%d/%Y"]),
       shift=st.integers(1, 400))
def test_dates_any_format_and_wrong_day(day, fmt, shift):
    assert passed(day.isoformat(), "date", day.strftime(fmt))
    other = day + dt.timedelta(days=shift) if day.year < 2200 else day - dt.timedelta(days=shift)
    assert not passed(day.isoformat(), "date", other.strftime(fmt))


@settings(max_examples=100, deadline=None)
@given(items=st.lists(st.sampled_from(["North", "South", "East", "West", "Central", "Pacific"]), min_size=1,
                      max_size=6, unique=True), data=st.data())
def test_lists_any_order_full_and_missing_item_not(items, data):
    shuffled = data.draw(st.permutations(items))
    sep = data.draw(st.sampled_from([", ", "; ", "\n- "]))
    assert passed(items, "list", sep.join(shuffled))
    if len(items) > 1:
        assert not passed(items, "list", sep.join(shuffled[1:]))
