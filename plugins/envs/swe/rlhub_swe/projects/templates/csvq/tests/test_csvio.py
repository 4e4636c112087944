import datetime
import pytest
from __pkg__.csvio import read_csv, write_csv
from __pkg__.errors import CsvFormatError
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,__null_word__\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_read_infers_types():
    assert read_csv(SALES).schema() == [("region", "str"), ("item", "str"), ("qty", "int"), ("price", "float"),
                                        ("day", "date"), ("paid", "bool")]
#@test visible
def test_rows_hold_typed_values():
    rows = read_csv(SALES).row_dicts()
    assert len(rows) == 6
    assert rows[1] == {"region": "south", "item": "pear", "qty": None, "price": 2.25,
                       "day": datetime.date(2024, 1, 3), "paid": False}
    assert rows[3]["paid"] is None
#@test
def test_given_types_override():
    assert read_csv("code,n\n007,1\n", types={"CODE": "str"}).row_dicts() == [{"code": "007", "n": 1}]
    with pytest.raises(CsvFormatError, match="'x' is not a int"):
        read_csv("n\n1\nx\n", types={"n": "int"})
#@test
def test_quoted_fields():
    text = 'name,note\n"Smith, J","said ""hi"""\nplain,"two\nlines"\n'
    assert read_csv(text).row_dicts() == [{"name": "Smith, J", "note": 'said "hi"'},
                                          {"name": "plain", "note": "two\nlines"}]
#@test catches=line_number
def test_errors_name_the_line():
    with pytest.raises(CsvFormatError, match="line 3: 1 fields, but the header names 2 columns"):
        read_csv("a,b\n1,2\n3\n")
    with pytest.raises(CsvFormatError, match="line 4:"):
        read_csv("a\n1\n2\nx\n", types={"a": "int"})
#@test
def test_header_problems():
    with pytest.raises(CsvFormatError, match="line 1: the text is empty"):
        read_csv("")
    with pytest.raises(CsvFormatError, match="appears twice"):
        read_csv("a,A\n1,2\n")
    with pytest.raises(CsvFormatError, match="column 2 of the header has no name"):
        read_csv("a,,b\n")
    with pytest.raises(CsvFormatError):
        read_csv('a\n"x"y\n')
#@test
def test_blank_lines_are_skipped():
    assert read_csv("a\n1\n\n2\n").column("a") == [1, 2]
    assert read_csv("a;b\n1;x\n", delimiter=";").row_dicts() == [{"a": 1, "b": "x"}]
#@test visible
def test_write_round_trip():
    text = write_csv(["a", "b"], [(1, "x,y"), (None, 'q"')])
    assert text == 'a,b\n1,"x,y"\n,"q"""\n'
    assert read_csv(text).row_dicts() == [{"a": 1, "b": "x,y"}, {"a": None, "b": 'q"'}]
#@test
def test_write_then_read_keeps_the_table():
    table = read_csv(SALES)
    again = read_csv(write_csv(table.columns, table.rows))
    assert again.schema() == table.schema()
    assert again.row_dicts() == table.row_dicts()

