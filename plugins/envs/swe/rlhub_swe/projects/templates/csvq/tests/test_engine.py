import pytest
from __pkg__ import __Database__, __run_query__
from __pkg__.errors import UnknownTable
from __pkg__.errors import UnknownColumn, UnknownFunction
from __pkg__.functions import FUNCTIONS
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,__null_word__\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_run_query_over_csv_text():
    assert __run_query__("SELECT item FROM anything WHERE price > 3 ORDER BY item", SALES) == [{"item": "fig"},
                                                                                             {"item": "plum"}]
#@test visible
def test_database_of_several_tables():
    db = __Database__()
    db.load("sales", SALES)
    db.load("Regions", "region,manager\nnorth,Ann\nsouth,Bo\neast,Cy\n")
    assert db.query("SELECT manager FROM regions WHERE region != 'south' ORDER BY manager DESC") == [
        {"manager": "Cy"}, {"manager": "Ann"}]
    assert db.query("SELECT COUNT(*) AS n FROM SALES") == [{"n": 6}]
#@test catches=shared_tables
def test_databases_do_not_share_tables():
    first = __Database__()
    first.load("a", "x\n1\n")
    second = __Database__()
    assert second.names() == []
    with pytest.raises(UnknownTable, match="'a'"):
        second.query("SELECT x FROM a")
    assert first.names() == ["a"]
#@test
def test_unknown_table():
    with pytest.raises(UnknownTable, match="no table 'missing'"):
        __Database__().query("SELECT a FROM missing")
#@test
def test_result_as_csv():
    db = __Database__()
    db.load("s", SALES)
    text = db.to_csv("SELECT region, SUM(price) AS total FROM s GROUP BY region ORDER BY total DESC")
    assert text == "region,total\nnorth,8.0\neast,3.75\nsouth,3.5\n"
#@test
def test_empty_result_keeps_its_columns():
    db = __Database__()
    db.load("s", SALES)
    result = db.run("SELECT item, price AS p FROM s WHERE price < 0")
    assert (result.columns, result.rows) == (["item", "p"], [])
    assert db.explain("SELECT item FROM s WHERE price < 0") == ["scan s (6 rows)", "filter price < 0", "project item"]
#@test
def test_types_given_when_loading():
    db = __Database__()
    db.load("codes", "code,n\n007,1\n", types={"code": "str"})
    assert db.query("SELECT code, n + 1 AS m FROM codes") == [{"code": "007", "m": 2}]
#@test
def test_database_converts_a_column():
    name = __unit_names__[0]
    module = FUNCTIONS[name]
    db = __Database__()
    db.load("s", SALES)
    values, summary = db.convert("S", "QTY", name.upper(), policy="skip")
    expected = [module.convert(q) for q in (3, None, 5, 2, 4, 1)]
    assert values == expected
    done = [v for v in expected if v is not None]
    assert summary == {"function": name, "policy": "skip", "values": 6, "converted": 5, "nulls": 1, "rejected": 0,
                       "low": min(done), "high": max(done), "total": round(sum(done), module.DIGITS)}
    assert db.convert("s", "qty", name)[1]["policy"] == module.POLICY
    with pytest.raises(UnknownTable):
        db.convert("nope", "qty", name)
    with pytest.raises(UnknownColumn):
        db.convert("s", "nope", name)
    with pytest.raises(UnknownFunction):
        db.convert("s", "qty", "nope")

