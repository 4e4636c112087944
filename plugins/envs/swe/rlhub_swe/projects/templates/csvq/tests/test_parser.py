import pytest
from __pkg__.errors import QuerySyntaxError
from __pkg__.nodes import to_sql
from __pkg__.parser import normalized, parse_expression, __parse_query__
#@test visible
def test_query_round_trip():
    text = "select region as r, count(*) from sales where price > 1 group by region order by r desc limit 5 offset 2"
    assert normalized(text) == ("SELECT region AS r, COUNT(*) FROM sales WHERE price > 1 GROUP BY region "
                                "ORDER BY r DESC LIMIT 5 OFFSET 2")
#@test visible
def test_precedence():
    assert to_sql(parse_expression("1 + 2 * 3")) == "1 + (2 * 3)"
    assert to_sql(parse_expression("a OR b AND c")) == "a OR (b AND c)"
    assert to_sql(parse_expression("NOT a = 1 AND b")) == "(NOT (a = 1)) AND b"
#@test
def test_left_associative():
    assert to_sql(parse_expression("10 - 4 - 3")) == "(10 - 4) - 3"
    assert to_sql(parse_expression("a / b * c % d")) == "((a / b) * c) % d"
    assert to_sql(parse_expression("x || 'y' || z")) == "(x || 'y') || z"
#@test
def test_predicates():
    for text in ("a IS NOT NULL", "a IS NULL", "a NOT IN (1, 2)", "name NOT LIKE 'x%'", "a BETWEEN 1 AND 5",
                 "a NOT BETWEEN b AND (c + 1)", "a IN ('x')"):
        assert to_sql(parse_expression(text)) == text
    assert to_sql(parse_expression("not a in (1)")) == "NOT (a IN (1))"
#@test
def test_select_star_and_aliases():
    assert normalized("select * from t") == "SELECT * FROM t"
    assert normalized("select price*qty total, -price from t") == "SELECT price * qty AS total, -price FROM t"
    assert normalized('select "unit price" from "my table" order by 1 asc') == 'SELECT "unit price" FROM "my table" ORDER BY 1'
#@test
def test_literals_round_trip():
    for text, back in (("'it''s'", "'it''s'"), ("TRUE", "TRUE"), ("false", "FALSE"), ("null", "NULL"),
                       ("-2.5", "-2.5"), ("1e3", "1000.0"), ("- -4", "4")):
        assert to_sql(parse_expression(text)) == back
#@test
def test_function_calls():
    assert to_sql(parse_expression("round(price, 1)")) == "ROUND(price, 1)"
    assert to_sql(parse_expression("count(*)")) == "COUNT(*)"
    assert to_sql(parse_expression("now()")) == "NOW()"
#@test
def test_syntax_error_positions():
    with pytest.raises(QuerySyntaxError, match="column 8: expected an expression, got 'FROM'"):
        __parse_query__("SELECT FROM t")
    with pytest.raises(QuerySyntaxError, match="column 14: expected a table name, got the end of the query"):
        __parse_query__("SELECT a FROM")
    with pytest.raises(QuerySyntaxError, match="column 11: expected [)]"):
        __parse_query__("SELECT (a FROM t")
#@test
def test_limit_needs_a_whole_number():
    with pytest.raises(QuerySyntaxError, match="LIMIT needs a whole number, got '2.5'"):
        __parse_query__("SELECT a FROM t LIMIT 2.5")
    with pytest.raises(QuerySyntaxError, match="LIMIT needs a whole number"):
        __parse_query__("SELECT a FROM t LIMIT -1")
    with pytest.raises(QuerySyntaxError, match="OFFSET needs a whole number"):
        __parse_query__("SELECT a FROM t LIMIT 1 OFFSET x")
#@test
def test_trailing_text_is_an_error():
    with pytest.raises(QuerySyntaxError, match="column 17: expected the end of the query, got 'extra'"):
        __parse_query__("SELECT a FROM t extra")
    with pytest.raises(QuerySyntaxError, match="got the end of the query"):
        __parse_query__("SELECT a FROM t WHERE")
    with pytest.raises(QuerySyntaxError, match="NULL after IS"):
        parse_expression("a IS 1")
#@test needs=distinct
def test_distinct_is_parsed():
    assert normalized("select distinct region from t") == "SELECT DISTINCT region FROM t"
    assert normalized("select region from t") == "SELECT region FROM t"

