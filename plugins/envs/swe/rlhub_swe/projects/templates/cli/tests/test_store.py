import json
import pytest
from datetime import date
from __pkg__.errors import NotFound, StoreError, UsageError
from __pkg__.files import read_text, write_text
from __pkg__.model import __Task__
from __pkg__.store import FORMAT_VERSION, __TaskStore__
TODAY = date(2024, 3, 15)
#@test visible
def test_add_and_find():
    store = __TaskStore__()
    store.add("Buy milk", tags=["errands"])
    store.add("Pay rent", priority="urgent", due=date(2024, 4, 1))
    assert [t.id for t in store.tasks] == [1, 2]
    assert (store.__find__(2).title, store.__find__(2).priority) == ("Pay rent", 3)
    assert store.__find__(1).tags == ["errands"]
    assert len(store) == 2
#@test
def test_find_unknown_id():
    store = __TaskStore__()
    store.add("a")
    with pytest.raises(NotFound) as info:
        store.__find__(9)
    assert "no task #9" in str(info.value)
    with pytest.raises(NotFound):
        store.remove(9)
#@test visible
def test_save_and_open(tmp_path):
    path = str(tmp_path / "tasks.json")
    store = __TaskStore__(path)
    store.add("Buy milk", tags=["errands"], due=date(2024, 3, 16), created=TODAY)
    store.save()
    again = __TaskStore__.open(path)
    assert [t.to_dict() for t in again.tasks] == [t.to_dict() for t in store.tasks]
    with open(path) as f:
        assert json.load(f)["version"] == FORMAT_VERSION
#@test
def test_missing_file_is_an_empty_list(tmp_path):
    store = __TaskStore__.open(str(tmp_path / "none.json"))
    assert (len(store), store.next_id) == (0, 1)
#@test
def test_ids_are_never_reused(tmp_path):
    path = str(tmp_path / "tasks.json")
    store = __TaskStore__(path)
    for title in ("a", "b", "c"):
        store.add(title)
    store.remove(3)
    store.save()
    again = __TaskStore__.open(path)
    assert again.add("d").id == 4
    assert [t.title for t in again.tasks] == ["a", "b", "d"]
#@test
def test_unreadable_task_files(tmp_path):
    cases = {"garbage": "{not json", "shape": '{"tasks": 3}', "version": '{"version": 9, "tasks": []}',
             "title": '{"tasks": [{"id": 1, "title": "a"}, {"id": 2}]}',
             "dupes": '{"tasks": [{"id": 1, "title": "a"}, {"id": 1, "title": "b"}]}'}
    messages = {}
    for name, text in cases.items():
        path = tmp_path / (name + ".json")
        path.write_text(text)
        with pytest.raises(StoreError) as info:
            __TaskStore__.open(str(path))
        messages[name] = str(info.value)
    assert [m.startswith(str(tmp_path)) for m in messages.values()] == [True] * len(cases)
    assert "line 1" in messages["garbage"]
    assert "task 2 has no 'title'" in messages["title"]
    assert "format 9" in messages["version"]
#@test
def test_files_are_replaced_whole(tmp_path):
    path = str(tmp_path / "deep" / "notes.txt")
    write_text(path, "one\n")
    write_text(path, "two\n")
    assert read_text(path) == "two\n"
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["notes.txt"]
    assert read_text(str(tmp_path / "none.txt"), missing_ok=True) is None
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9")
    failing = (lambda: read_text(str(tmp_path / "none.txt"), "task file"), lambda: read_text(str(tmp_path / "latin1.txt")),
               lambda: write_text(str(tmp_path / "latin1.txt" / "x"), "y"))
    for call in failing:
        with pytest.raises(StoreError):
            call()
#@test
def test_complete_reopen_and_tags():
    store = __TaskStore__()
    store.add("a", tags=["y", "x"])
    store.add("b", tags=["y"])
    store.complete(1, TODAY)
    assert [t.id for t in store.open_tasks()] == [2]
    assert store.__find__(1).completed == TODAY
    store.reopen(1)
    assert [t.id for t in store.open_tasks()] == [1, 2]
    assert store.tags() == ["x", "y"]
#@test
def test_import_items_get_new_ids():
    store = __TaskStore__()
    store.add("first")
    added = store.import_items([{"title": "a", "priority": 2, "tags": ["t"], "due": date(2024, 4, 1)},
                                {"title": "b", "done": True}], TODAY)
    assert [t.id for t in added] == [2, 3]
    assert (added[0].priority, added[0].tags, added[0].due) == (2, ["t"], date(2024, 4, 1))
    assert (added[1].done, added[1].completed) == (True, TODAY)
#@test
def test_add_checks_its_input():
    store = __TaskStore__()
    for kwargs in ({"priority": "extreme"}, {"tags": ["a b"]}):
        with pytest.raises(UsageError):
            store.add("x", **kwargs)
    with pytest.raises(UsageError):
        store.add("   ")
    assert (len(store), store.next_id) == (0, 1)
#@test needs=recur
def test_renew_adds_the_next_occurrence():
    store = __TaskStore__()
    task = store.insert(__Task__(1, "Water plants", due=date(2024, 3, 15), every=2))
    store.add("other")
    store.complete(1, TODAY)
    following = store.renew(task, TODAY)
    assert (following.id, following.due, following.title, following.done) == (3, date(2024, 3, 17), "Water plants", False)
    assert store.renew(store.__find__(2), TODAY) is None
    assert len(store) == 3

