import pytest
from __pkg__.errors import VersionError
from __pkg__.ranges import Range, caret_upper, satisfies, tilde_upper
from __pkg__.versions import parse_version
#@test visible
def test_bounds():
    r = Range(">=1.2,<2")
    assert [r.contains(v) for v in ("1.1.9", "1.2.0", "1.9.9", "2.1.0")] == [False, True, True, False]
    assert Range("<=2.0").contains("2.0.0") is True
    assert Range("<=2.0").contains("2.0.1") is False
#@test visible
def test_normalized_text():
    assert str(Range("^1.2.3")) == ">=1.2.3,<2.0.0"
    assert str(Range("~1.2")) == ">=1.2.0,<1.3.0"
    assert str(Range("*")) == "*"
    assert str(Range("==1.4")) == "==1.4.0"
    assert str(Range("1.4")) == "==1.4.0"
    assert str(Range(">1.0, !=1.3.0")) == ">1.0.0,!=1.3.0"
#@test visible
def test_any_version():
    assert Range("").contains("0.0.1") is True
    assert Range("*").contains("99.0.0") is True
    assert str(Range("  ")) == "*"
#@test visible
def test_bad_ranges():
    for bad in (">=", "1.2,,2", "=>1.0", "^x", ">=1.0 <2.0"):
        with pytest.raises(VersionError):
            Range(bad)
#@test catches=upper_bound
def test_upper_bound_is_exclusive():
    assert Range("<2.0").contains("2.0.0") is False
    assert Range(">=1.0,<1.5").contains("1.5.0") is False
    assert Range(">=1.0,<1.5").contains("1.4.99") is True
#@test catches=upper_bound
def test_caret_and_tilde_ranges():
    assert [Range("^1.2.3").contains(v) for v in ("1.2.2", "1.2.3", "1.9.0", "2.0.0")] == [False, True, True, False]
    assert [Range("^0.2.3").contains(v) for v in ("0.2.9", "0.3.0")] == [True, False]
    assert [Range("^0.0.3").contains(v) for v in ("0.0.3", "0.0.4")] == [True, False]
    assert [Range("~1.2.3").contains(v) for v in ("1.2.9", "1.3.0")] == [True, False]
    assert [Range("~1").contains(v) for v in ("1.9.0", "2.0.0")] == [True, False]
#@test
def test_upper_helpers():
    assert str(caret_upper(parse_version("1.2.3"))) == "2.0.0"
    assert str(caret_upper(parse_version("0.2.3"))) == "0.3.0"
    assert str(caret_upper(parse_version("0.0.3"))) == "0.0.4"
    assert str(tilde_upper(parse_version("1.2.3"), 3)) == "1.3.0"
    assert str(tilde_upper(parse_version("1.2.3"), 2)) == "1.3.0"
    assert str(tilde_upper(parse_version("1.2.3"), 1)) == "2.0.0"
#@test
def test_exclusions_and_exact_versions():
    assert [Range("!=1.3.0").contains(v) for v in ("1.3.0", "1.3.1", "0.1.0")] == [False, True, True]
    assert [Range("==1.4.0").contains(v) for v in ("1.4.0", "1.4.1", "1.3.9")] == [True, False, False]
    assert [Range(">1.0").contains(v) for v in ("1.0.0", "1.0.1")] == [False, True]
    assert [Range("=2.1").contains(v) for v in ("2.1.0", "2.1.1")] == [True, False]
#@test
def test_empty_ranges():
    assert Range(">=2,<1").is_empty() is True
    assert Range(">=1,<1").is_empty() is True
    assert Range(">1,<=1").is_empty() is True
    assert Range(">=1,<=1").is_empty() is False
    assert Range("==1.0,!=1.0").is_empty() is True
    assert Range(">=1").is_empty() is False
    assert Range("<1").is_empty() is False
    assert Range(">=1,<1.0.1").is_empty() is False
#@test
def test_intersect():
    assert str(Range(">=1.0").intersect(Range("<2.0"))) == ">=1.0.0,<2.0.0"
    assert str(Range("^1.2").intersect(Range("~1.4"))) == ">=1.4.0,<1.5.0"
    assert str(Range("*").intersect(Range("*"))) == "*"
    assert Range(">=2").intersect(Range("<1")).is_empty() is True
#@test catches=upper_bound
def test_filter_and_best():
    assert Range("^1.0").filter(["2.0.0", "0.9.0", "1.5.2", "1.0.0"]) == ["1.0.0", "1.5.2"]
    assert Range("<2").best(["1.5.0", "2.0.0", "1.9.1"]) == "1.9.1"
    assert Range(">=3").best(["1.5.0", "2.0.0"]) is None
#@test
def test_satisfies():
    assert satisfies("1.4.0", ">=1.0,<2") is True
    assert satisfies("2.5.0", "<2") is False
    assert satisfies(parse_version("1.0.0"), "*") is True
#@test
def test_tightest_bounds_win():
    assert str(Range(">=1.0,>=1.2,<3,<2.5")) == ">=1.2.0,<2.5.0"
    assert str(Range(">=1.2,>1.2")) == ">1.2.0"
    assert str(Range(">1.2,>=1.2")) == ">1.2.0"
    assert str(Range("<2,<=2")) == "<2.0.0"
    assert str(Range("<=2,<2")) == "<2.0.0"
    assert str(Range("<=2,<=3")) == "<=2.0.0"
    assert str(Range("~1-rc.1")) == ">=1.0.0-rc.1,<2.0.0"
    assert str(Range("~1.4.2-rc.1")) == ">=1.4.2-rc.1,<1.5.0"
    assert repr(Range("^2")) == "Range('>=2.0.0,<3.0.0')"

