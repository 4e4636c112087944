import datetime
import pytest
from __pkg__ import coltypes
from __pkg__.errors import TypeMismatch
#@test visible
def test_kind_of_cells():
    cells = ("12", "-3", "1.5", ".5", "2e3", "true", "No", "2024-02-29", "2023-02-29", "abc", "", "__null_word__", " 7 ")
    assert [coltypes.kind_of(c) for c in cells] == ["int", "int", "float", "float", "float", "bool", "bool", "date",
                                                    "str", "str", None, None, "int"]
#@test visible
def test_infer_type():
    assert coltypes.infer_type(["1", "2", ""]) == "int"
    assert coltypes.infer_type(["1", "2.5"]) == "float"
    assert coltypes.infer_type(["yes", "no", "__null_word__"]) == "bool"
    assert coltypes.infer_type(["2024-01-01", ""]) == "date"
    assert coltypes.infer_type(["1", "x"]) == "str"
    assert coltypes.infer_type(["true", "1"]) == "str"
    assert coltypes.infer_type([]) == "str"
    assert coltypes.infer_type(["", "__null_word__"]) == "str"
#@test
def test_convert():
    assert coltypes.convert(" 42 ", "int") == 42
    assert coltypes.convert("2.5", "float") == 2.5
    assert coltypes.convert("YES", "bool") is True
    assert coltypes.convert("no", "bool") is False
    assert coltypes.convert("2024-03-01", "date") == datetime.date(2024, 3, 1)
    assert coltypes.convert("", "int") is None
    assert coltypes.convert("__null_word__".lower(), "date") is None
    assert coltypes.convert(" a ", "str") == " a "
#@test
def test_convert_rejects():
    for cell, kind in (("x", "int"), ("1.5", "int"), ("maybe", "bool"), ("2024-13-01", "date"), ("one", "float")):
        with pytest.raises(TypeMismatch, match="is not a"):
            coltypes.convert(cell, kind)
    with pytest.raises(TypeMismatch, match="unknown type"):
        coltypes.convert("1", "complex")
#@test
def test_format_value():
    assert coltypes.format_value(None) == ""
    assert coltypes.format_value(True) == "true"
    assert coltypes.format_value(False) == "false"
    assert coltypes.format_value(3) == "3"
    assert coltypes.format_value(2.5) == "2.5"
    assert coltypes.format_value(3.0) == "3.0"
    assert coltypes.format_value(1 / 3) == "0." + "3" * __float_digits__
    assert coltypes.format_value(datetime.date(2024, 1, 2)) == "2024-01-02"
    assert coltypes.format_value("x") == "x"
#@test
def test_type_of_value():
    values = (None, True, 1, 1.0, datetime.date(2024, 1, 1), "s")
    assert [coltypes.type_of_value(v) for v in values] == ["null", "bool", "int", "float", "date", "str"]
#@test
def test_coerce_pair():
    day = datetime.date(2024, 1, 2)
    assert coltypes.coerce_pair(1, 2.5) == (1, 2.5)
    assert coltypes.coerce_pair(day, "2024-01-03") == (day, datetime.date(2024, 1, 3))
    assert coltypes.coerce_pair("2024-01-03", day) == (datetime.date(2024, 1, 3), day)
    assert coltypes.coerce_pair("a", "b") == ("a", "b")
    for left, right in (("a", 1), (True, 1), (day, 3)):
        with pytest.raises(TypeMismatch, match="cannot compare"):
            coltypes.coerce_pair(left, right)
#@test
def test_is_null():
    assert coltypes.is_null("  ") is True
    assert coltypes.is_null("__null_word__".lower()) is True
    assert coltypes.is_null("0") is False

