import pytest
from datetime import date
from __pkg__.errors import UsageError
from __pkg__.formatting import COLUMNS, ELLIPSIS, NO_ROWS, Column, cell, detail, pad, parse_columns, plural, progress_bar, render_tasks, table, truncate
from __pkg__.model import __Task__
TODAY = date(2024, 3, 15)
#@test visible
def test_truncate_leaves_short_text():
    assert truncate("abc", 5) == "abc"
    assert truncate("abcde", 5) == "abcde"
    assert truncate("", 3) == ""
    assert truncate("abc", 0) == ""
#@test catches=truncate
def test_truncate_cuts_to_the_width():
    assert truncate("abcdefgh", 5) == "abcd" + ELLIPSIS
    assert truncate("abcdef", 5) == "abcd" + ELLIPSIS
    assert truncate("abcdef", 1) == ELLIPSIS
    assert [len(truncate("x" * n, 4)) for n in range(8)] == [0, 1, 2, 3, 4, 4, 4, 4]
#@test visible
def test_pad():
    assert pad("ab", 4) == "ab  "
    assert pad("ab", 4, "right") == "  ab"
    assert pad("ab", 6, "center") == "  ab  "
    assert pad("abcdef", 3) == "abcdef"
#@test visible
def test_table_aligns_columns():
    columns = [Column("id", "#", "right"), Column("title", "Title")]
    assert table([["1", "Buy milk"], ["12", "Go"]], columns).splitlines() == [" #  Title", " 1  Buy milk", "12  Go"]
#@test catches=truncate
def test_table_cuts_wide_cells():
    columns = [Column("title", "Title", width=6), Column("n", "N", "right")]
    text = table([["Short", "1"], ["Much longer title", "22"]], columns)
    assert text.splitlines() == ["Title    N", "Short    1", "Much " + ELLIPSIS + "  22"]
#@test catches=empty_table
def test_table_without_rows():
    assert table([], [Column("id", "#")]) == NO_ROWS
    assert render_tasks([], today=TODAY) == NO_ROWS
#@test visible
def test_render_tasks():
    tasks = [__Task__(1, "Buy milk", 2, ["errands"], date(2024, 3, 16)), __Task__(12, "Call Mom", 1)]
    assert render_tasks(tasks, today=TODAY).splitlines() == [
        " #  Pri     Due         Title     Tags",
        " 1  high    2024-03-16  Buy milk  +errands",
        "12  normal  -           Call Mom",
    ]
#@test
def test_render_columns_and_relative_dates():
    tasks = [__Task__(3, "Pay rent", 3, [], date(2024, 3, 16)), __Task__(4, "Old", 0, [], date(2024, 3, 14), done=True)]
    assert render_tasks(tasks, ("id", "due", "state"), TODAY, relative=True).splitlines() == [
        "#  Due        State", "3  tomorrow   open", "4  yesterday  done"]
    assert render_tasks(tasks, ("title", "pri"), TODAY).splitlines() == ["Title     Pri", "Pay rent  urgent", "Old       low"]
    with pytest.raises(UsageError):
        render_tasks(tasks, ("id", "colour"), TODAY)
#@test
def test_title_width_cuts_titles_only_when_needed():
    tasks = [__Task__(1, "A fairly long title here", 1)]
    assert render_tasks(tasks, ("id", "title"), TODAY, title_width=24).splitlines()[1] == "1  A fairly long title here"
    wide = [__Task__(2, "x" * 45, 1)]
    assert render_tasks(wide, ("pri", "title"), TODAY, title_width=50).splitlines()[1] == "normal  " + "x" * 45
#@test catches=truncate
def test_titles_are_cut_at_their_width():
    width = COLUMNS["title"].width
    exact = render_tasks([__Task__(1, "y" * width, 1)], ("title",), TODAY).splitlines()[1]
    long = render_tasks([__Task__(1, "z" * (width + 5), 1)], ("title",), TODAY).splitlines()[1]
    assert (exact, long) == ("y" * width, "z" * (width - 1) + ELLIPSIS)
    narrow = render_tasks([__Task__(1, "Pay rent", 1)], ("pri", "title"), TODAY, title_width=5).splitlines()
    assert narrow == ["Pri     Title", "normal  Pay " + ELLIPSIS]
#@test
def test_cells():
    task = __Task__(7, "Plan trip", 0, ["travel", "fun"], date(2024, 3, 10))
    assert [cell(task, c, TODAY) for c in ("id", "pri", "title", "due", "tags", "state")] == [
        "7", "low", "Plan trip", "2024-03-10", "+travel +fun", "late"]
    task.complete(TODAY)
    assert cell(task, "state", TODAY) == "done"
    assert cell(__Task__(8, "x", due=TODAY), "state", TODAY) == "open"
    assert cell(__Task__(8, "x"), "due", TODAY, relative=True) == "-"
    assert cell(__Task__(8, "x", due=TODAY), "due", TODAY, relative=True) == "today"
    with pytest.raises(UsageError):
        cell(task, "colour", TODAY)
#@test visible
def test_parse_columns():
    assert parse_columns("id, title") == ("id", "title")
    assert parse_columns("due,state,tags") == ("due", "state", "tags")
#@test
def test_parse_columns_rejects():
    for text in ("", " , ", "id,colour"):
        with pytest.raises(UsageError):
            parse_columns(text)
    with pytest.raises(UsageError) as info:
        parse_columns("id,colour,size")
    assert "'colour'" in str(info.value)
#@test
def test_detail():
    task = __Task__(4, "Pay rent", 3, ["home"], date(2024, 3, 16), created=date(2024, 3, 1), note="by transfer")
    assert detail(task, TODAY).splitlines() == [
        "#4  Pay rent", "priority: urgent", "due:      2024-03-16 (tomorrow)", "tags:     +home",
        "state:    open", "created:  2024-03-01", "note:     by transfer"]
    task.complete(date(2024, 3, 15))
    assert "state:    done on 2024-03-15" in detail(task, TODAY).splitlines()
    late = __Task__(5, "Late", due=date(2024, 3, 14))
    assert detail(late, TODAY).splitlines()[1:] == ["priority: normal", "due:      2024-03-14 (yesterday)", "state:    overdue"]
#@test visible
def test_progress_bar():
    assert progress_bar(0, 0) == "[--------------------]   0%"
    assert progress_bar(1, 4, 8) == "[##------]  25%"
#@test
def test_progress_bar_rounding():
    assert progress_bar(3, 3, 4) == "[####] 100%"
    assert progress_bar(1, 3, 6) == "[##----]  33%"
    assert progress_bar(2, 3, 10) == "[#######---]  67%"
    assert progress_bar(0, 5) == "[--------------------]   0%"
#@test
def test_plural():
    assert plural(1, "task") == "1 task"
    assert plural(0, "task") == "0 tasks"
    assert plural(2, "box", "boxes") == "2 boxes"
    assert plural(1, "box", "boxes") == "1 box"

