import pytest
from datetime import date
from __pkg__.errors import UsageError
from __pkg__.filters import limit, parse_query, parse_term, sort_tasks
from __pkg__.model import __Task__
TODAY = date(2024, 3, 15)
def four(): return [__Task__(1, "Buy milk", 1, ["errands"], date(2024, 3, 14)), __Task__(2, "Write report", 3, ["work"], date(2024, 3, 20), created=date(2024, 3, 2)), __Task__(3, "Call Mom", 2, [], None, done=True, created=date(2024, 3, 1)), __Task__(4, "Fix bike", 0, ["home", "errands"], date(2024, 3, 15))]
def matching(words): return [t.id for t in parse_query(words.split(), TODAY).apply(four())]
#@test visible
def test_tags():
    assert matching("+errands") == [1, 4]
    assert matching("tag:home") == [4]
    assert matching("notag:errands") == [2, 3]
#@test visible
def test_words_of_the_title():
    assert matching("bi") == [4]
    assert matching("MILK buy") == [1]
    assert matching("") == [1, 2, 3, 4]
#@test
def test_every_term_must_match():
    assert matching("+errands fix") == [4]
    assert matching("+errands is:overdue") == [1]
    assert matching("+work +errands") == []
    assert matching("+") == []
    assert matching("+home") == [4]
    assert (parse_term("+a", TODAY).field, parse_term("+a", TODAY).value) == ("tag", "a")
#@test
def test_priority_comparisons():
    assert matching("pri>=high") == [2, 3]
    assert matching("pri>high") == [2]
    assert matching("pri=2") == [3]
    assert matching("pri:urgent") == [2]
    assert matching("pri!=normal") == [2, 3, 4]
    assert matching("pri<normal") == [4]
    assert matching("pri<=1") == [1, 4]
#@test
def test_due_comparisons():
    assert matching("due<today") == [1]
    assert matching("due:today") == [4]
    assert matching("due<=today") == [1, 4]
    assert matching("due>today") == [2]
    assert matching("due>=today") == [2, 4]
    assert matching("due<=+5d") == [1, 2, 4]
    assert matching("due<+5d") == [1, 4]
    assert matching("due!=today") == [1, 2, 3]
#@test
def test_due_none():
    assert matching("due:none") == [3]
    assert matching("due=None") == [3]
    assert matching("due!=none") == [1, 2, 4]
#@test
def test_states():
    assert matching("is:done") == [3]
    assert matching("is:open") == [1, 2, 4]
    assert matching("is:overdue") == [1]
    assert parse_query(["is:done"], TODAY).mentions_state() is True
    assert parse_query(["+work", "fix"], TODAY).mentions_state() is False
#@test
def test_ids():
    assert matching("id>2") == [3, 4]
    assert matching("id<=2") == [1, 2]
    assert matching("id=3") == [3]
    assert matching("id>=4") == [4]
    assert matching("id<2") == [1]
    assert matching("id!=1") == [2, 3, 4]
#@test
def test_bad_terms():
    for word in ("pri>=extreme", "due<someday", "is:sleeping", "colour:red", "tag:", "id>x", "due>none", "tag>=a", "is<done"):
        with pytest.raises(UsageError):
            parse_term(word, TODAY)
#@test visible
def test_sort_by_priority_and_due():
    tasks = four()
    assert [t.id for t in sort_tasks(tasks, "priority")] == [2, 3, 1, 4]
    assert [t.id for t in sort_tasks(tasks, "due")] == [1, 4, 2, 3]
#@test
def test_sort_other_keys():
    tasks = four()
    assert [t.id for t in sort_tasks(tasks, "title")] == [1, 3, 4, 2]
    assert [t.id for t in sort_tasks(tasks, "id", reverse=True)] == [4, 3, 2, 1]
    assert [t.id for t in sort_tasks(tasks, "created")] == [1, 4, 3, 2]
    assert [t.id for t in sort_tasks(tasks)] == [1, 2, 3, 4]
    with pytest.raises(UsageError):
        sort_tasks(tasks, "colour")
#@test
def test_sort_ties_keep_id_order():
    tasks = [__Task__(5, "b", 2), __Task__(2, "a", 2), __Task__(9, "B", 2)]
    assert [t.id for t in sort_tasks(tasks, "priority")] == [2, 5, 9]
    assert [t.id for t in sort_tasks(tasks, "title")] == [2, 5, 9]
    assert [t.id for t in sort_tasks(tasks, "due")] == [2, 5, 9]
#@test visible
def test_limit():
    assert limit([1, 2, 3], 2) == [1, 2]
    assert limit([1, 2, 3], 0) == [1, 2, 3]
    assert limit([1, 2, 3], None) == [1, 2, 3]
    assert limit([1, 2, 3], 5) == [1, 2, 3]
    with pytest.raises(UsageError):
        limit([1], -1)

