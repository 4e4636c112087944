import json
from __pkg__.cli import __build_parser__, main
def run(tmp_path, *argv, environ=None): return main(["--file", str(tmp_path / "tasks.json"), "--config", str(tmp_path / "rc.ini"), "--today", "2024-03-15", *argv], environ=environ or {})
#@test visible
def test_add_then_list(tmp_path, capsys):
    assert run(tmp_path, "add", "Buy", "milk", "+errands", "--due", "tomorrow", "--pri", "high") == 0
    assert run(tmp_path, "add", "Call Mom") == 0
    assert capsys.readouterr().out == "Added #1: Buy milk (due 2024-03-16)\nAdded #2: Call Mom\n"
    assert run(tmp_path, "list") == 0
    assert capsys.readouterr().out.splitlines() == [
        "#  Pri     Due         Title     Tags",
        "1  high    2024-03-16  Buy milk  +errands",
        "2  normal  -           Call Mom",
    ]
#@test visible
def test_help_teaches(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert [word for word in ("add", "list", "done", "export", "import", "config", "examples:") if word not in out] == []
    assert main(["add", "--help"]) == 0
    assert "--due" in capsys.readouterr().out
#@test
def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == "__pkg__ 0.__minor__.0"
#@test
def test_usage_errors_exit_2(tmp_path, capsys):
    assert run(tmp_path, "fly") == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "fly" in err
    assert main([], environ={}) == 2
    assert "required" in capsys.readouterr().err
    assert run(tmp_path, "add", "x", "--due", "someday") == 2
    err = capsys.readouterr().err
    assert err.startswith("__pkg__: error: ") and "someday" in err and "Traceback" not in err
#@test
def test_done_hides_tasks_from_list(tmp_path, capsys):
    run(tmp_path, "add", "a")
    run(tmp_path, "add", "b")
    assert run(tmp_path, "done", "1") == 0
    assert run(tmp_path, "done", "#1") == 0
    assert capsys.readouterr().out == "Added #1: a\nAdded #2: b\nCompleted #1: a\n#1 was already done\n"
    run(tmp_path, "list", "--columns", "id,title")
    assert capsys.readouterr().out == "#  Title\n2  b\n"
    run(tmp_path, "list", "--all", "--columns", "id,state")
    assert capsys.readouterr().out == "#  State\n1  done\n2  open\n"
    run(tmp_path, "ls", "is:done", "--columns", "id")
    assert capsys.readouterr().out == "#\n1\n"
#@test
def test_unknown_id_changes_nothing(tmp_path, capsys):
    run(tmp_path, "add", "a")
    assert run(tmp_path, "done", "1", "7") == 1
    assert "no task #7" in capsys.readouterr().err
    run(tmp_path, "list", "is:open", "--columns", "id")
    assert capsys.readouterr().out == "#\n1\n"
    assert run(tmp_path, "done", "x") == 2
#@test
def test_undo_rm_edit_show(tmp_path, capsys):
    run(tmp_path, "add", "Pay rent", "+home", "--due", "tomorrow")
    run(tmp_path, "add", "Old thing")
    run(tmp_path, "done", "1")
    capsys.readouterr()
    assert run(tmp_path, "undo", "1") == 0
    assert run(tmp_path, "undo", "1") == 0
    assert run(tmp_path, "rm", "2") == 0
    assert run(tmp_path, "edit", "1", "--pri", "urgent", "--untag", "home", "--tag", "bills", "--note", "by transfer") == 0
    assert capsys.readouterr().out.splitlines() == [
        "Reopened #1: Pay rent", "#1 is not done", "Removed #2: Old thing", "Updated #1: priority, tags, note"]
    assert run(tmp_path, "show", "1") == 0
    assert capsys.readouterr().out.splitlines() == [
        "#1  Pay rent", "priority: urgent", "due:      2024-03-16 (tomorrow)", "tags:     +bills", "state:    open",
        "created:  2024-03-15", "note:     by transfer"]
    assert run(tmp_path, "show", "2") == 1
    assert run(tmp_path, "edit", "1") == 2
#@test
def test_edit_due_and_title(tmp_path, capsys):
    run(tmp_path, "add", "Pay rent", "--due", "+3d")
    assert run(tmp_path, "edit", "1", "--due", "none", "--title", "Pay", "the", "rent", "+home") == 0
    capsys.readouterr()
    run(tmp_path, "list", "--columns", "id,due,title,tags")
    assert capsys.readouterr().out.splitlines() == ["#  Due  Title         Tags", "1  -    Pay the rent  +home"]
#@test
def test_list_filters_sorts_and_limits(tmp_path, capsys):
    for argv in (["Buy milk", "+errands"], ["Fix bike", "+errands", "+home", "--pri", "low"],
                 ["Write report", "+work", "--pri", "urgent", "--due", "+5d"], ["Book trip", "--due", "yesterday"]):
        run(tmp_path, "add", *argv)
    capsys.readouterr()
    run(tmp_path, "list", "+errands", "--sort", "priority", "--columns", "id,title")
    assert capsys.readouterr().out == "#  Title\n1  Buy milk\n2  Fix bike\n"
    run(tmp_path, "list", "--sort", "due", "--columns", "id", "--limit", "2")
    assert capsys.readouterr().out == "#\n4\n3\n(2 of 4 shown; --limit 0 shows all)\n"
    run(tmp_path, "list", "due<today", "--columns", "id,state")
    assert capsys.readouterr().out == "#  State\n4  late\n"
    run(tmp_path, "list", "-r", "--columns", "id")
    assert capsys.readouterr().out == "#\n4\n3\n2\n1\n"
#@test catches=empty_table
def test_list_with_nothing_to_show(tmp_path, capsys):
    assert run(tmp_path, "list") == 0
    assert capsys.readouterr().out == "No tasks.\n"
    run(tmp_path, "add", "a")
    assert run(tmp_path, "list", "+nothing") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "No tasks."
#@test catches=truncate
def test_long_titles_fit_the_column(tmp_path, capsys):
    run(tmp_path, "add", "A title that is much too long for the column")
    capsys.readouterr()
    run(tmp_path, "-o", "title_width=12", "list", "--columns", "title,id")
    assert capsys.readouterr().out.splitlines() == ["Title         #", "A title tha__ellipsis__  1"]
#@test catches=relative
def test_relative_due_dates(tmp_path, capsys):
    run(tmp_path, "add", "Soon", "--due", "+3d")
    assert run(tmp_path, "add", "Late", "--due=-4d") == 0
    capsys.readouterr()
    run(tmp_path, "list", "--relative", "--columns", "id,due")
    assert capsys.readouterr().out.splitlines() == ["#  Due", "1  in 3 days", "2  4 days ago"]
    run(tmp_path, "show", "2")
    assert "due:      2024-03-11 (4 days ago)" in capsys.readouterr().out.splitlines()
#@test visible
def test_export_json_to_stdout(tmp_path, capsys):
    run(tmp_path, "add", "a", "+x")
    run(tmp_path, "add", "b")
    capsys.readouterr()
    assert run(tmp_path, "export", "+x") == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["id"], d["title"], d["tags"]) for d in data] == [(1, "a", ["x"])]
#@test catches=import_due
def test_export_then_import_csv(tmp_path, capsys):
    run(tmp_path, "add", "Pay rent", "+home", "--due", "+3d", "--pri", "high")
    run(tmp_path, "add", "Read")
    out_path = str(tmp_path / "out.csv")
    assert run(tmp_path, "export", "--output", out_path) == 0
    assert run(tmp_path / "other", "import", out_path) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [f"Exported 2 tasks to {out_path}", f"Imported 2 tasks from {out_path} (#1-#2)"]
    run(tmp_path / "other", "list", "--columns", "id,pri,due,title,tags")
    assert capsys.readouterr().out.splitlines() == [
        "#  Pri     Due         Title     Tags", "1  high    2024-03-18  Pay rent  +home", "2  normal  -           Read"]
#@test
def test_import_markdown_and_bad_files(tmp_path, capsys):
    md = tmp_path / "list.md"
    md.write_text("# Shop\n- [ ] Eggs +shop\n- [x] Bread\n")
    assert run(tmp_path, "import", str(md)) == 0
    run(tmp_path, "list", "--all", "--columns", "id,state,title,tags")
    assert capsys.readouterr().out.splitlines()[-3:] == ["#  State  Title  Tags", "1  open   Eggs   +shop", "2  done   Bread"]
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert run(tmp_path, "import", str(bad)) == 1
    assert str(bad) in capsys.readouterr().err
    assert run(tmp_path, "import", str(tmp_path / "list.txt")) == 2
    assert run(tmp_path, "import", str(tmp_path / "missing.csv")) == 1
#@test catches=config_set
def test_config_set_get_and_use(tmp_path, capsys):
    assert run(tmp_path, "config", "set", "limit", "2") == 0
    assert capsys.readouterr().out == f"limit = 2 (in {tmp_path / 'rc.ini'})\n"
    assert run(tmp_path, "config", "get", "limit") == 0
    assert capsys.readouterr().out == "2\n"
    for title in "abc":
        run(tmp_path, "add", title)
    capsys.readouterr()
    run(tmp_path, "list", "--columns", "id")
    assert capsys.readouterr().out == "#\n1\n2\n(2 of 3 shown; --limit 0 shows all)\n"
#@test catches=config_set
def test_config_set_checks_the_value(tmp_path, capsys):
    assert run(tmp_path, "config", "set", "limit", "lots") == 1
    assert "limit must be a whole number" in capsys.readouterr().err
    assert run(tmp_path, "config", "set", "relative", "yes") == 0
    assert capsys.readouterr().out == f"relative = yes (in {tmp_path / 'rc.ini'})\n"
#@test
def test_config_unset_and_path(tmp_path, capsys):
    (tmp_path / "rc.ini").write_text("[__pkg__]\nsort = due\n")
    assert run(tmp_path, "config", "unset", "sort") == 0
    assert run(tmp_path, "config", "unset", "sort") == 0
    assert run(tmp_path, "config", "path") == 0
    assert capsys.readouterr().out.splitlines() == [
        "sort is back to its default", f"sort was not set in {tmp_path / 'rc.ini'}", str(tmp_path / "rc.ini")]
    assert run(tmp_path, "config", "get", "colour") == 1
    assert "unknown setting 'colour'" in capsys.readouterr().err
#@test visible
def test_config_list_shows_sources(tmp_path, capsys):
    assert run(tmp_path, "-o", "sort=due", "config", "list", environ={"__env_prefix___LIMIT": "4"}) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "limit = 4  ($__env_prefix___LIMIT)" in lines
    assert "sort = due  (-o)" in lines
    assert "relative = no  (default)" in lines
#@test
def test_settings_from_the_environment(tmp_path, capsys):
    for title in "abc":
        run(tmp_path, "add", title)
    capsys.readouterr()
    run(tmp_path, "list", "--columns", "id", environ={"__env_prefix___LIMIT": "1", "__env_prefix___SORT": "title"})
    assert capsys.readouterr().out == "#\n1\n(1 of 3 shown; --limit 0 shows all)\n"
    run(tmp_path, "-o", "limit=0", "list", "--columns", "id", environ={"__env_prefix___LIMIT": "1"})
    assert capsys.readouterr().out == "#\n1\n2\n3\n"
    assert run(tmp_path, "list", environ={"__env_prefix___LIMIT": "x"}) == 1
    assert "__env_prefix___LIMIT" in capsys.readouterr().err
#@test
def test_task_file_from_settings(tmp_path, capsys):
    path = str(tmp_path / "lists" / "mine.json")
    environ = {"__env_prefix___FILE": path, "__env_prefix___CONFIG": str(tmp_path / "rc.ini")}
    assert main(["--today", "2024-03-15", "add", "a"], environ=environ) == 0
    with open(path) as f:
        assert [t["title"] for t in json.load(f)["tasks"]] == ["a"]
#@test
def test_broken_task_file(tmp_path, capsys):
    (tmp_path / "tasks.json").write_text("[1, 2")
    assert run(tmp_path, "list") == 1
    err = capsys.readouterr().err
    assert str(tmp_path / "tasks.json") in err and "Traceback" not in err
    assert run(tmp_path, "config", "path") == 0
#@test visible
def test_stats_summary(tmp_path, capsys):
    run(tmp_path, "add", "a", "--due", "yesterday")
    run(tmp_path, "add", "b")
    run(tmp_path, "done", "2")
    capsys.readouterr()
    assert run(tmp_path, "stats") == 0
    assert capsys.readouterr().out.splitlines() == [
        "2 tasks: 1 open, 1 done", "[##########----------]  50%", "overdue: 1, due today: 0, due this week: 1"]
#@test catches=group_default
def test_stats_by_tag_twice(tmp_path, capsys):
    run(tmp_path, "add", "a", "+x")
    run(tmp_path, "add", "b", "+x", "+y")
    capsys.readouterr()
    for _ in range(2):
        assert run(tmp_path, "stats", "--by", "tag") == 0
        assert capsys.readouterr().out.splitlines()[-3:] == ["Tag  Tasks", "x        2", "y        1"]
#@test catches=group_default
def test_stats_by_due_date(tmp_path, capsys):
    (tmp_path / "list.md").write_text("- [ ] late due:2024-03-14\n- [ ] next week due:2024-03-22\n- [ ] undated\n")
    run(tmp_path, "import", str(tmp_path / "list.md"))
    capsys.readouterr()
    for _ in range(2):
        assert run(tmp_path, "stats", "--by", "due") == 0
        assert capsys.readouterr().out.splitlines()[3:] == ["", "Due      Tasks", "overdue      1", "later        1", "no date      1"]
#@test
def test_tags_command(tmp_path, capsys):
    run(tmp_path, "add", "a", "+x", "+y")
    run(tmp_path, "add", "b", "+x")
    run(tmp_path, "done", "1")
    capsys.readouterr()
    run(tmp_path, "tags")
    assert capsys.readouterr().out == "+x  1 open task\n+y  0 open tasks\n"
#@test
def test_parser():
    parser = __build_parser__()
    args = parser.parse_args(["--file", "t.json", "add", "Buy", "milk", "--pri", "high", "-t", "a", "-t", "b"])
    assert (args.file, args.command, args.title, args.priority, args.tag) == ("t.json", "add", ["Buy", "milk"], "high", ["a", "b"])
    assert parser.parse_args(["ls", "+x"]).terms == ["+x"]
#@test needs=recur
def test_done_brings_a_recurring_task_back(tmp_path, capsys):
    assert run(tmp_path, "add", "Water plants", "+home", "--every", "3d", "--due", "today") == 0
    assert run(tmp_path, "done", "1") == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["Completed #1: Water plants", "Next: #2 due 2024-03-18"]
    run(tmp_path, "list", "--columns", "id,due,title,tags")
    assert capsys.readouterr().out.splitlines() == ["#  Due         Title         Tags", "2  2024-03-18  Water plants  +home"]
    run(tmp_path, "show", "2")
    assert "repeats:  every 3 days" in capsys.readouterr().out.splitlines()
#@test needs=recur
def test_add_every_is_checked(tmp_path, capsys):
    assert run(tmp_path, "add", "x", "--every", "0d") == 2
    assert "interval" in capsys.readouterr().err
    assert run(tmp_path, "add", "y", "--every", "weekly") == 0
    capsys.readouterr()
    run(tmp_path, "export")
    assert [d.get("every") for d in json.loads(capsys.readouterr().out)] == [7]

