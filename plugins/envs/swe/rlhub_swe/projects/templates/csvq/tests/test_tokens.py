import pytest
from __pkg__.errors import QuerySyntaxError
from __pkg__.tokens import token_pairs, token_table, token_values
#@test visible
def test_keywords_names_and_operators():
    assert token_pairs("select a, b FROM t where a <= 3") == [
        ("keyword", "SELECT"), ("name", "a"), ("op", ","), ("name", "b"), ("keyword", "FROM"), ("name", "t"),
        ("keyword", "WHERE"), ("name", "a"), ("op", "<="), ("number", "3"), ("end", "")]
#@test visible
def test_numbers():
    values = token_values("1 2.5 .5 1e3 7. 2E-2 3e+1")
    assert values == [1, 2.5, 0.5, 1000.0, 7.0, 0.02, 30.0]
    assert [type(v).__name__ for v in values] == ["int", "float", "float", "float", "float", "float", "float"]
#@test
def test_exponent_needs_digits():
    assert token_pairs("4e x1") == [("number", "4"), ("name", "e"), ("name", "x1"), ("end", "")]
    assert token_pairs("5e+") == [("number", "5"), ("name", "e"), ("op", "+"), ("end", "")]
    assert token_values("12.5.1") == [12.5, 0.1]
#@test
def test_strings_with_doubled_quotes():
    assert token_values("'it''s' '' 'a b'") == ["it's", "", "a b"]
    assert token_table("x = 'q'")[2] == ("string", "'q'", 5)
#@test
def test_quoted_names():
    assert token_pairs('"unit price" "select" _x') == [("name", "unit price"), ("name", "select"), ("name", "_x"),
                                                          ("end", "")]
#@test
def test_operators_longest_first():
    assert token_pairs("a>=b||c<d>e<>f!=g") == [
        ("name", "a"), ("op", ">="), ("name", "b"), ("op", "||"), ("name", "c"), ("op", "<"), ("name", "d"),
        ("op", ">"), ("name", "e"), ("op", "!="), ("name", "f"), ("op", "!="), ("name", "g"), ("end", "")]
    assert [kind for kind, _ in token_pairs("(a+b)*c/d%e-f")] == ["op", "name", "op", "name", "op", "op", "name", "op",
                                                                 "name", "op", "name", "op", "name", "end"]
#@test
def test_columns_are_one_based():
    assert token_table("  ab  1 'x'") == [("name", "ab", 3), ("number", "1", 7), ("string", "'x'", 9), ("end", "", 12)]
    assert token_table("") == [("end", "", 1)]
    assert token_table('a >= "b c"') == [("name", "a", 1), ("op", ">=", 3), ("name", "b c", 6), ("end", "", 11)]
#@test
def test_tokenizer_errors():
    with pytest.raises(QuerySyntaxError, match="column 3: unexpected character '@'"):
        token_pairs("a @ b")
    with pytest.raises(QuerySyntaxError, match="column 5: a string is not closed"):
        token_pairs("a = 'abc")
    with pytest.raises(QuerySyntaxError, match="column 1: a quoted name is not closed"):
        token_pairs('"abc')
    with pytest.raises(QuerySyntaxError, match="empty"):
        token_pairs('a ""')

