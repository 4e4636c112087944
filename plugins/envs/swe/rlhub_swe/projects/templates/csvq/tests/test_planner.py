import pytest
from __pkg__.csvio import read_csv
from __pkg__.engine import __run_query__
from __pkg__.errors import TypeMismatch, UnknownColumn
from __pkg__.parser import __parse_query__
from __pkg__.planner import explain
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,__null_word__\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_select_where_order():
    rows = __run_query__("SELECT item, price FROM __table__ WHERE region = 'north' ORDER BY price DESC", SALES)
    assert rows == [{"item": "fig", "price": 4.5}, {"item": "pear", "price": 2.0}, {"item": "apple", "price": 1.5}]
#@test visible
def test_star_and_expressions():
    first = __run_query__("SELECT * FROM __table__ LIMIT 1", SALES)
    assert [list(row) for row in first] == [["region", "item", "qty", "price", "day", "paid"]]
    rows = __run_query__("SELECT item, price * 2 AS twice FROM __table__ WHERE day >= '2024-01-06' ORDER BY item", SALES)
    assert rows == [{"item": "apple", "twice": 2.5}, {"item": "fig", "twice": 9.0}]
#@test visible
def test_group_by_with_aggregates():
    rows = __run_query__("SELECT region, COUNT(*) AS n, SUM(price) AS total FROM __table__ GROUP BY region ORDER BY region",
                      SALES)
    assert rows == [{"region": "east", "n": 1, "total": 3.75}, {"region": "north", "n": 3, "total": 8.0},
                    {"region": "south", "n": 2, "total": 3.5}]
#@test
def test_count_column_skips_nulls():
    rows = __run_query__("SELECT COUNT(*) AS n, COUNT(qty) AS known, SUM(qty) AS qty, MAX(day) AS last FROM __table__", SALES)
    assert [(r["n"], r["known"], r["qty"], str(r["last"])) for r in rows] == [(6, 5, 15, "2024-01-07")]
#@test catches=avg_key
def test_group_average_skips_missing_quantities():
    rows = __run_query__("SELECT region, AVG(qty) AS q FROM __table__ GROUP BY region ORDER BY region", SALES)
    assert rows == [{"region": "east", "q": 2.0}, {"region": "north", "q": 3.0}, {"region": "south", "q": 4.0}]
#@test
def test_order_by_nulls_and_positions():
    rows = __run_query__("SELECT item, qty FROM __table__ ORDER BY qty", SALES)
    assert [(r["item"], r["qty"]) for r in rows] == [("pear", None), ("fig", 1), ("plum", 2), ("apple", 3), ("apple", 4),
                                                     ("pear", 5)]
    rows = __run_query__("SELECT item, qty FROM __table__ ORDER BY 2 DESC", SALES)
    assert [r["qty"] for r in rows] == [5, 4, 3, 2, 1, None]
#@test
def test_order_by_several_keys():
    rows = __run_query__("SELECT region, item FROM __table__ ORDER BY region DESC, price", SALES)
    assert [(r["region"], r["item"]) for r in rows] == [("south", "apple"), ("south", "pear"), ("north", "apple"),
                                                        ("north", "pear"), ("north", "fig"), ("east", "plum")]
#@test
def test_limit_and_offset():
    rows = __run_query__("SELECT item, price FROM __table__ ORDER BY price LIMIT 2 OFFSET 1", SALES)
    assert rows == [{"item": "apple", "price": 1.5}, {"item": "pear", "price": 2.0}]
    assert __run_query__("SELECT item FROM __table__ ORDER BY price LIMIT 10 OFFSET 5", SALES) == [{"item": "fig"}]
#@test catches=limit_zero
def test_limit_zero_returns_no_rows():
    assert __run_query__("SELECT item FROM __table__ LIMIT 0", SALES) == []
    assert __run_query__("SELECT item FROM __table__ ORDER BY item LIMIT 0 OFFSET 2", SALES) == []
#@test
def test_aggregate_over_no_rows():
    rows = __run_query__("SELECT COUNT(*) AS n, MAX(price) AS top FROM __table__ WHERE price > 100", SALES)
    assert rows == [{"n": 0, "top": None}]
    assert __run_query__("SELECT region, COUNT(*) AS n FROM __table__ WHERE price > 100 GROUP BY region", SALES) == []
#@test
def test_bare_column_needs_group_by():
    with pytest.raises(TypeMismatch, match="item must be in GROUP BY"):
        __run_query__("SELECT item, COUNT(*) FROM __table__", SALES)
#@test
def test_unknown_columns_are_reported():
    for sql in ("SELECT colour FROM __table__", "SELECT item FROM __table__ WHERE colour = 1",
                "SELECT item FROM __table__ ORDER BY colour"):
        with pytest.raises(UnknownColumn, match="colour"):
            __run_query__(sql, SALES)
#@test
def test_explain():
    sql = "SELECT region, COUNT(*) AS n FROM __table__ WHERE price > 2 GROUP BY region ORDER BY n DESC LIMIT 2 OFFSET 1"
    assert explain(__parse_query__(sql), read_csv(SALES)) == [
        "scan __table__ (6 rows)", "filter price > 2", "aggregate COUNT(*) by region", "project region, n",
        "order by n DESC", "skip 1", "limit 2"]
#@test catches=and_null
def test_where_not_with_missing_values():
    rows = __run_query__("SELECT item FROM __table__ WHERE NOT (qty > 2 AND paid) ORDER BY item", SALES)
    assert rows == [{"item": "fig"}, {"item": "pear"}, {"item": "plum"}]
#@test catches=like_args
def test_like_in_where():
    rows = __run_query__("SELECT item FROM __table__ WHERE item LIKE 'p%' ORDER BY item", SALES)
    assert rows == [{"item": "pear"}, {"item": "pear"}, {"item": "plum"}]
    assert __run_query__("SELECT item FROM __table__ WHERE item NOT LIKE '%e%'", SALES) == [{"item": "plum"}, {"item": "fig"}]
#@test needs=distinct
def test_select_distinct():
    rows = __run_query__("SELECT DISTINCT region FROM __table__ ORDER BY region", SALES)
    assert rows == [{"region": "east"}, {"region": "north"}, {"region": "south"}]
    rows = __run_query__("SELECT DISTINCT item, region = 'north' AS n FROM __table__ ORDER BY item, n", SALES)
    assert [(r["item"], r["n"]) for r in rows] == [("apple", False), ("apple", True), ("fig", True), ("pear", False),
                                                   ("pear", True), ("plum", False)]
#@test needs=distinct
def test_distinct_comes_before_limit():
    rows = __run_query__("SELECT DISTINCT item FROM __table__ ORDER BY item LIMIT 3", SALES)
    assert rows == [{"item": "apple"}, {"item": "fig"}, {"item": "pear"}]
    steps = explain(__parse_query__("SELECT DISTINCT item FROM __table__ LIMIT 3"), read_csv(SALES))
    assert steps == ["scan __table__ (6 rows)", "project item", "distinct", "limit 3"]

