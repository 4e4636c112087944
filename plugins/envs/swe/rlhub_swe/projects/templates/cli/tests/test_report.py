from datetime import date
from __pkg__.model import __Task__
from __pkg__.report import counts, due_group, group, render_stats, summary
TODAY = date(2024, 3, 15)
def five(): return [__Task__(1, "a", 2, ["work"], date(2024, 3, 14)), __Task__(2, "b", 1, ["work", "home"], TODAY), __Task__(3, "c", 1, [], date(2024, 3, 17)), __Task__(4, "d", 3, ["home"], date(2024, 3, 11), done=True), __Task__(5, "e", 0, ["work"], date(2024, 3, 18))]
#@test visible
def test_summary():
    assert summary(five(), TODAY) == {"total": 5, "open": 4, "done": 1, "overdue": 1, "due_today": 1, "due_this_week": 3}
#@test visible
def test_render_stats_without_groups():
    assert render_stats(five(), TODAY).splitlines() == [
        "5 tasks: 4 open, 1 done", "[####----------------]  20%", "overdue: 1, due today: 1, due this week: 3"]
#@test catches=group_default
def test_counts_by_tag_priority_and_state():
    assert list(counts(five(), "tag", TODAY).items()) == [("work", 3), ("home", 2), ("(untagged)", 1)]
    assert list(counts(five(), "priority", TODAY).items()) == [("urgent", 1), ("high", 1), ("normal", 2), ("low", 1)]
    assert list(counts(five(), "state", TODAY).items()) == [("open", 3), ("done", 1), ("overdue", 1)]
#@test catches=group_default
def test_group_starts_empty_each_time():
    first = group(five(), lambda t: t.tags)
    second = group(five()[:1], lambda t: t.tags)
    assert {k: [t.id for t in v] for k, v in second.items()} == {"work": [1]}
    assert {k: [t.id for t in v] for k, v in first.items()} == {"work": [1, 2, 5], "home": [2, 4]}
#@test catches=group_default
def test_render_stats_by_tag():
    text = render_stats(five(), TODAY, by="tag")
    assert render_stats(five(), TODAY, by="tag") == text
    assert text.splitlines()[3:] == ["", "Tag         Tasks", "work            3", "home            2", "(untagged)      1"]
#@test catches=group_default
def test_counts_by_due_date():
    for _ in range(2):
        assert list(counts(five(), "due", TODAY).items()) == [("overdue", 1), ("today", 1), ("this week", 1), ("later", 1), ("done", 1)]
    assert list(counts(five()[:2] + [__Task__(6, "f")], "due", TODAY)) == ["overdue", "today", "no date"]
#@test
def test_due_groups():
    tasks = five() + [__Task__(6, "f"), __Task__(7, "g", due=date(2024, 3, 11))]
    assert [due_group(t, TODAY) for t in tasks] == ["overdue", "today", "this week", "done", "later", "no date", "overdue"]
    assert due_group(__Task__(8, "h", due=date(2024, 3, 10)), date(2024, 3, 10)) == "today"
    assert due_group(__Task__(9, "i", due=date(2024, 3, 11)), date(2024, 3, 10)) == "later"

