import json
import pytest
from datetime import date
from __pkg__.errors import ImportFormatError, UsageError
from __pkg__.exchange import export_tasks, guess_format, import_tasks
from __pkg__.model import __Task__
def two(): return [__Task__(1, "Buy milk", 2, ["errands", "shop"], date(2024, 3, 16)), __Task__(2, "Call, Mom", 1, [], None, done=True, note='say "hi"')]
#@test visible
def test_export_csv():
    assert export_tasks(two(), "csv").splitlines() == [
        "id,title,priority,due,tags,done,note", "1,Buy milk,high,2024-03-16,errands shop,no,",
        '2,"Call, Mom",normal,,,yes,"say ""hi"""']
#@test visible
def test_export_markdown():
    assert export_tasks(two(), "md") == "- [ ] Buy milk !high due:2024-03-16 +errands +shop\n- [x] Call, Mom\n"
#@test visible
def test_export_json():
    data = json.loads(export_tasks(two(), "json"))
    assert [d["title"] for d in data] == ["Buy milk", "Call, Mom"]
    assert data[0]["due"] == "2024-03-16"
#@test catches=import_due
def test_csv_round_trip():
    items = import_tasks(export_tasks(two(), "csv"), "csv")
    assert [(i["title"], i["priority"], i["tags"], i["due"], i["done"], i["note"]) for i in items] == [
        ("Buy milk", 2, ["errands", "shop"], date(2024, 3, 16), False, ""), ("Call, Mom", 1, [], None, True, 'say "hi"')]
#@test catches=import_due
def test_csv_from_another_tool():
    items = import_tasks("title,due,priority\nFile taxes,2024-04-15,urgent\nRead book,,\n", "csv")
    assert [(i["title"], i["due"], i["priority"]) for i in items] == [("File taxes", date(2024, 4, 15), 3), ("Read book", None, 1)]
#@test
def test_csv_without_due_column():
    items = import_tasks("title,tags\nRead book,home fun\n", "csv")
    assert (items[0]["title"], items[0]["tags"], items[0]["due"]) == ("Read book", ["home", "fun"], None)
#@test
def test_markdown_and_json_round_trips():
    for fmt in ("md", "json"):
        items = import_tasks(export_tasks(two(), fmt), fmt)
        assert [(i["title"], i["priority"], i["tags"], i["due"], i["done"]) for i in items] == [
            ("Buy milk", 2, ["errands", "shop"], date(2024, 3, 16), False), ("Call, Mom", 1, [], None, True)]
#@test
def test_markdown_skips_prose():
    items = import_tasks("# Groceries\n\nSome words.\n* [X] Eggs +shop\n- [ ] Bread !low\n-[ ] not a task\n", "md")
    assert [(i["title"], i["done"], i["priority"], i["tags"]) for i in items] == [("Eggs", True, 1, ["shop"]), ("Bread", False, 0, [])]
#@test
def test_import_errors_say_where():
    cases = [("json", '[{"title": "a"}, {"name": "b"}]', "item 2"), ("json", "{oops", "line 1"),
             ("csv", "name,due\nx,\n", "'title'"), ("csv", "title,priority\na,high\nb,extreme\n", "line 3"),
             ("csv", "title,done\na,maybe\n", "line 2"), ("md", "- [ ] a\n- [ ] b due:someday\n", "line 2")]
    for fmt, text, where in cases:
        with pytest.raises(ImportFormatError) as info:
            import_tasks(text, fmt, where="in.txt")
        assert where in str(info.value) and "in.txt" in str(info.value)
#@test
def test_guess_format():
    assert [guess_format(p) for p in ("a.json", "b.CSV", "c.md", "d.markdown")] == ["json", "csv", "md", "md"]
    assert guess_format("x.txt", "csv") == "csv"
    for path, given in (("x.txt", None), ("x.csv", "xml")):
        with pytest.raises(UsageError):
            guess_format(path, given)
    with pytest.raises(UsageError):
        export_tasks(two(), "xml")

