import datetime
import pytest
from __pkg__.errors import TypeMismatch, UnknownColumn, UnknownFunction
from __pkg__.evaluate import evaluate_text
#@test visible
def test_arithmetic():
    assert evaluate_text("1 + 2 * 3") == 7
    assert evaluate_text("7 / 2") == 3.5
    assert evaluate_text("7 % 3") == 1
    assert evaluate_text("-(2 - 5)") == 3
    assert evaluate_text("'a' || 'b' || 1") == "ab1"
#@test visible
def test_columns_from_a_row():
    assert evaluate_text("price * qty", {"Price": 2.5, "qty": 4}) == 10.0
    assert evaluate_text("name = 'x'", {"name": "x"}) is True
#@test
def test_null_propagates():
    assert evaluate_text("NULL + 1") is None
    assert evaluate_text("x > 1", {"x": None}) is None
    assert evaluate_text("1 / 0") is None
    assert evaluate_text("5 % 0") is None
    assert evaluate_text("NULL || 'a'") is None
    assert evaluate_text("-x", {"x": None}) is None
#@test
def test_three_valued_or_and_not():
    assert evaluate_text("NULL OR TRUE") is True
    assert evaluate_text("NULL OR FALSE") is None
    assert evaluate_text("FALSE OR FALSE") is False
    assert evaluate_text("NOT NULL") is None
    assert evaluate_text("NOT 0") is True
    assert evaluate_text("TRUE AND NULL") is None
    assert evaluate_text("TRUE AND 2") is True
    assert evaluate_text("FALSE AND FALSE") is False
#@test catches=and_null
def test_false_and_null_is_false():
    assert evaluate_text("NULL AND FALSE") is False
    assert evaluate_text("FALSE AND NULL") is False
    assert evaluate_text("NOT (x AND y)", {"x": None, "y": False}) is True
#@test
def test_comparisons():
    assert evaluate_text("2 >= 2") is True
    assert evaluate_text("2 > 2") is False
    assert evaluate_text("2 <= 1") is False
    assert evaluate_text("1 < 2") is True
    assert evaluate_text("'b' < 'a'") is False
    assert evaluate_text("1 = 1.0") is True
    assert evaluate_text("1 != 2") is True
    assert evaluate_text("d = '2024-01-02'", {"d": datetime.date(2024, 1, 2)}) is True
#@test
def test_type_errors():
    for text in ("'a' + 1", "'a' < 1", "TRUE + 1", "'a' AND TRUE"):
        with pytest.raises(TypeMismatch):
            evaluate_text(text)
#@test
def test_unknown_column():
    with pytest.raises(UnknownColumn, match="nope"):
        evaluate_text("nope + 1", {"x": 1})
#@test
def test_in_and_between():
    assert evaluate_text("3 IN (1, 2, 3)") is True
    assert evaluate_text("3 NOT IN (1, 2)") is True
    assert evaluate_text("NULL IN (1)") is None
    assert evaluate_text("4 IN (1, NULL)") is None
    assert evaluate_text("2 BETWEEN 1 AND 3") is True
    assert evaluate_text("0 BETWEEN 1 AND 3") is False
    assert evaluate_text("5 NOT BETWEEN 1 AND 3") is True
    assert evaluate_text("x IS NULL", {"x": None}) is True
    assert evaluate_text("x IS NOT NULL", {"x": 0}) is True
#@test catches=like_args
def test_like_patterns():
    assert evaluate_text("'Alice' LIKE 'A%'") is True
    assert evaluate_text("'Bob' LIKE 'A%'") is False
    assert evaluate_text("'cat' LIKE 'c_t'") is True
    assert evaluate_text("'ct' LIKE 'c_t'") is False
    assert evaluate_text("name NOT LIKE '%e'", {"name": "Alice"}) is False
    assert evaluate_text("name LIKE '%'", {"name": None}) is None
#@test
def test_builtin_functions():
    assert evaluate_text("ROUND(2.567, 2)") == 2.57
    assert evaluate_text("round(3.7)") == 4
    assert evaluate_text("UPPER('ab') || lower('CD') || TRIM('  x ')") == "ABcdx"
    assert evaluate_text("LENGTH('abc')") == 3
    assert evaluate_text("SUBSTR('abcdef', 2, 3)") == "bcd"
    assert evaluate_text("SUBSTR('abcdef', 4)") == "def"
    assert evaluate_text("COALESCE(NULL, 2)") == 2
    assert evaluate_text("CONCAT('a', NULL, 1)") == "a1"
    assert evaluate_text("ABS(-3)") == 3
#@test
def test_function_errors():
    with pytest.raises(TypeMismatch, match="ABS takes 1 arguments, got 2"):
        evaluate_text("ABS(1, 2)")
    with pytest.raises(TypeMismatch, match="SUBSTR takes 2 to 3 arguments"):
        evaluate_text("SUBSTR('abc')")
    with pytest.raises(TypeMismatch, match="needs a number"):
        evaluate_text("ABS('x')")
    with pytest.raises(UnknownFunction, match="no function .NOSUCH."):
        evaluate_text("nosuch(1)")

