import pytest
from datetime import date
from __pkg__.errors import UsageError
from __pkg__.model import MAX_TITLE, PRIORITIES, __Task__, check_title, clean_tag, parse_priority, priority_name, split_title
TODAY = date(2024, 3, 15)
#@test visible
def test_parse_priority():
    assert [parse_priority(x) for x in ("low", "Normal", "h", "URG", "2", 3, " high ")] == [0, 1, 2, 3, 2, 3, 2]
    assert [priority_name(n) for n in range(4)] == list(PRIORITIES)
#@test
def test_parse_priority_rejects():
    for bad in ("4", "-1", "", "x", 7, "very"):
        with pytest.raises(UsageError):
            parse_priority(bad)
#@test visible
def test_split_title():
    assert split_title("Buy milk +errands +Home") == ("Buy milk", ["errands", "home"])
    assert split_title("C + D +x +x") == ("C + D", ["x"])
#@test
def test_tags_are_checked():
    assert clean_tag("+Work") == "work"
    for bad in ("", "+", "a b", "a/b"):
        with pytest.raises(UsageError):
            clean_tag(bad)
#@test
def test_titles_are_checked():
    assert check_title("  Buy   milk ") == "Buy milk"
    assert len(check_title("x" * MAX_TITLE)) == MAX_TITLE
    for bad in ("", "   ", "x" * (MAX_TITLE + 1)):
        with pytest.raises(UsageError):
            check_title(bad)
#@test visible
def test_dict_round_trip():
    task = __Task__(3, "Pay rent", 3, ["home"], date(2024, 4, 1), created=date(2024, 3, 1), note="by transfer")
    data = task.to_dict()
    assert data == {"id": 3, "title": "Pay rent", "priority": 3, "tags": ["home"], "due": "2024-04-01", "done": False,
                    "created": "2024-03-01", "completed": None, "note": "by transfer"}
    assert __Task__.from_dict(data) == task
#@test
def test_from_dict_rejects_bad_data():
    bad = ({"title": "x"}, {"id": 1}, {"id": 1, "title": "x", "due": "soon"}, {"id": 1, "title": "x", "tags": "a"},
           {"id": "one", "title": "x"}, {"id": 1, "title": "x", "priority": 9}, ["x"])
    for data in bad:
        with pytest.raises((KeyError, TypeError, ValueError, UsageError)):
            __Task__.from_dict(data)
#@test
def test_overdue_and_due_within():
    tasks = [__Task__(1, "a", due=date(2024, 3, 14)), __Task__(2, "b", due=TODAY), __Task__(3, "c", due=date(2024, 3, 18)), __Task__(4, "d")]
    assert [t.is_overdue(TODAY) for t in tasks] == [True, False, False, False]
    assert [t.is_due_within(TODAY, 3) for t in tasks] == [True, True, True, False]
    assert [t.is_due_within(TODAY, 2) for t in tasks] == [True, True, False, False]
    tasks[0].complete(TODAY)
    assert tasks[0].is_overdue(TODAY) is False and tasks[0].completed == TODAY
    assert tasks[0].is_due_within(TODAY, 3) is False
#@test
def test_tags_on_a_task():
    task = __Task__(1, "a", tags=["x"])
    task.add_tags(["+Y", "x", "z"])
    assert task.tags == ["x", "y", "z"]
    task.remove_tags(["x", "+Z"])
    assert task.tags == ["y"]
    assert task.has_tag("+Y") is True and task.has_tag("x") is False
    task.complete(TODAY)
    task.reopen()
    assert task.done is False and task.completed is None
#@test needs=recur
def test_next_occurrence():
    task = __Task__(1, "Water plants", 2, ["home"], date(2024, 3, 10), every=3, note="balcony")
    following = task.next_occurrence(7, TODAY)
    assert (following.id, following.due, following.every, following.tags, following.note, following.done) == (
        7, date(2024, 3, 16), 3, ["home"], "balcony", False)
    assert __Task__(2, "x", every=7).next_occurrence(3, TODAY).due == date(2024, 3, 22)
    assert __Task__(2, "x", due=date(2024, 3, 12), every=3).next_occurrence(3, TODAY).due == date(2024, 3, 15)
#@test needs=recur
def test_recurring_round_trip():
    task = __Task__(1, "Water plants", every=3)
    assert task.to_dict()["every"] == 3
    assert __Task__.from_dict(task.to_dict()).every == 3
    assert "every" not in __Task__(2, "x").to_dict()
    with pytest.raises(ValueError):
        __Task__.from_dict({"id": 1, "title": "x", "every": -2})

