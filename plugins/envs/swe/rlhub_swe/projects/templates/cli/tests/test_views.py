import pytest
from datetime import date
from __pkg__.cli import main
from __pkg__.errors import UsageError
from __pkg__.exchange import import_tasks
from __pkg__.filters import parse_query
from __pkg__.model import PRIORITIES, __Task__
from __pkg__.views import VIEWS, check, overview, problems, view, which
TODAY = date(2024, 3, 15)
def run(tmp_path, *argv, environ=None): return main(["--file", str(tmp_path / "tasks.json"), "--config", str(tmp_path / "rc.ini"), "--today", "2024-03-15", *argv], environ=environ or {})
#@test visible
def test_every_view_is_listed():
    assert sorted(VIEWS) == sorted(__unit_names__)
#@test visible
def test_a_view_shows_its_tag():
    name = __unit_names__[0]
    module = view(name)
    tasks = [__Task__(1, "mine", 3, [name]), __Task__(2, "other", 3, ["zzz"]), __Task__(3, "done", 3, [name], done=True)]
    assert sorted(t.id for t in module.select(tasks, TODAY)) == ([1, 3] if module.SHOW_DONE else [1])
#@test
def test_views_respect_priority_and_limit():
    for name in __unit_names__[:4]:
        module = view(name)
        tasks = [__Task__(i, f"t{i}", i % 4, [name], date(2024, 3, 1 + i)) for i in range(1, 13)]
        wanted = [t.id for t in tasks if t.priority >= module.MIN_PRIORITY]
        chosen = [t.id for t in module.select(tasks, TODAY)]
        assert len(chosen) == min(module.LIMIT, len(wanted))
        assert set(chosen) <= set(wanted)
        assert sorted(t.id for t in module.select(tasks, TODAY, 0)) == wanted
#@test
def test_unknown_view():
    with pytest.raises(UsageError):
        view("no-such-view")
#@test
def test_view_command(tmp_path, capsys):
    name = __unit_names__[-1]
    module = view(name)
    run(tmp_path, "add", "Tagged task", "+" + name, "--pri", "urgent")
    capsys.readouterr()
    assert run(tmp_path, name) == 0
    assert capsys.readouterr().out.splitlines() == ["#  Pri     Due  Title", "1  urgent  -    Tagged task"]
    assert run(tmp_path, "done", "1") == 0
    capsys.readouterr()
    run(tmp_path, name)
    out = capsys.readouterr().out
    assert ("Tagged task" in out) == module.SHOW_DONE
    assert (f"Nothing in {name}." in out) == (not module.SHOW_DONE)
#@test
def test_view_limit_and_more_line(tmp_path, capsys):
    name = __unit_names__[1]
    module = view(name)
    for i in range(module.LIMIT + 2):
        run(tmp_path, "add", f"task {i}", "+" + name, "--pri", "urgent")
    capsys.readouterr()
    run(tmp_path, name)
    lines = capsys.readouterr().out.splitlines()
    assert (len(lines), lines[-1]) == (module.LIMIT + 2, f"(2 more tasks in {name}; --limit 0 shows all)")
    run(tmp_path, name, "--limit", "0")
    assert len(capsys.readouterr().out.splitlines()) == module.LIMIT + 3
#@test
def test_views_command(tmp_path, capsys):
    run(tmp_path, "add", "late", "+" + __unit_names__[0], "--pri", "urgent", "--due", "yesterday")
    capsys.readouterr()
    assert run(tmp_path, "views") == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + len(__unit_names__)
    assert lines[1].split()[:3] == [__unit_names__[0], "1", "1"]
#@test
def test_overview_and_describe():
    name = __unit_names__[2]
    rows = overview([__Task__(1, "a", 3, [name], date(2024, 3, 1))], TODAY)
    assert [r["view"] for r in rows] == sorted(__unit_names__)
    mine = [r for r in rows if r["view"] == name][0]
    assert (mine["matching"], mine["overdue"]) == (1, 1)
    assert "+" + name in view(name).describe()
#@test visible
def test_a_view_says_why():
    name = __unit_names__[0]
    module = view(name)
    assert module.why(__Task__(1, "mine", 3, [name]), TODAY) == f"#1 is in {name}"
    assert module.why(__Task__(2, "other", 3, ["zzz"]), TODAY) == f"#2 is not in {name}: it is not tagged +{name}"
#@test
def test_reasons_name_every_miss():
    for name in __unit_names__[:2] + __unit_names__[-2:]:
        module = view(name)
        low = __Task__(3, "low", 0, ["zzz"], done=True)
        found = module.reasons(low, TODAY)
        assert len(found) == (not module.SHOW_DONE) + 1 + (module.MIN_PRIORITY > 0), (name, found)
        assert f"it is not tagged +{name}" in found
        assert (f"its priority, low, is below {PRIORITIES[module.MIN_PRIORITY]}" in found) == (module.MIN_PRIORITY > 0)
        assert ("it is done (the view shows open tasks)" in found) == (not module.SHOW_DONE)
        assert module.matches(low, TODAY) is False and module.reasons(__Task__(4, "mine", 3, [name]), TODAY) == []
        assert which(__Task__(4, "mine", 3, [name]), TODAY) == [name]
#@test
def test_filter_words_choose_the_same_tasks():
    for name in __unit_names__[:2] + __unit_names__[-2:]:
        module = view(name)
        made = [(i, i % 4, [name] if i % 3 else ["zzz"], i % 5 == 0) for i in range(1, 11)]
        tasks = [__Task__(i, f"t{i}", pri, tags, done=done) for i, pri, tags, done in made]
        chosen = [t.id for t in parse_query(module.filter_words(), TODAY).apply(tasks)]
        assert chosen == [i for (i, *_), t in zip(made, tasks) if module.matches(t, TODAY)], name
#@test
def test_the_list_command_of_a_view_shows_the_same(tmp_path, capsys):
    name = __unit_names__[0]
    module = view(name)
    lines = [f"- [{mark}] {title} !{pri} due:2024-03-17 +{name}" for mark, title, pri in (
        (" ", "first", "urgent"), ("x", "second", "low"), (" ", "third", "high"), ("x", "fourth", "normal"))]
    (tmp_path / "list.md").write_text("\n".join([*lines, "- [ ] other !urgent +zzz"]) + "\n")
    run(tmp_path, "import", str(tmp_path / "list.md"))
    capsys.readouterr()
    run(tmp_path, name)
    shown = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("(")]
    assert run(tmp_path, *module.command_line().split()) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if not line.startswith("(")] == shown
    assert len(shown) >= 2 and any(line.endswith("first") for line in shown) and not any(line.endswith("other") for line in shown)
#@test visible
def test_digest_groups_by_due_date():
    name = __unit_names__[0]
    module = view(name)
    tasks = [__Task__(1, "late", 3, [name], date(2024, 3, 10)), __Task__(2, "soon", 3, [name], date(2024, 3, 16)), __Task__(3, "whenever", 3, [name])]
    assert module.digest(tasks, TODAY).splitlines() == [
        f"# {name}: 3 tasks", "", "## Overdue (1)", f"- [ ] late !urgent due:2024-03-10 +{name}", "",
        "## This week (1)", f"- [ ] soon !urgent due:2024-03-16 +{name}", "", "## No date (1)", f"- [ ] whenever !urgent +{name}"]
#@test
def test_due_groups_follow_the_view():
    for name in __unit_names__[:3]:
        module = view(name)
        tasks = [__Task__(1, "a", 3, [name], date(2024, 3, 20)), __Task__(2, "b", 3, [name], TODAY),
                 __Task__(3, "c", 3, [name], date(2024, 3, 1), done=True), __Task__(4, "d", 3, ["zzz"], TODAY), __Task__(5, "e", 3, [name], date(2024, 3, 17))]
        groups = {group: [t.id for t in found] for group, found in module.due_groups(tasks, TODAY).items()}
        expected = {"today": [2], "this week": [5], "later": [1], **({"done": [3]} if module.SHOW_DONE else {})}
        assert groups == expected and list(groups) == [g for g in ("today", "this week", "later", "done") if g in expected]
        assert module.digest(tasks[3:4], TODAY).splitlines() == [f"# {name}: 0 tasks", "", "Nothing here."]
#@test
def test_a_digest_imports_back():
    name = __unit_names__[1]
    module = view(name)
    tasks = [__Task__(i, f"task {i}", 3, [name, "x"], date(2024, 3, 10 + i)) for i in range(1, 6)]
    items = import_tasks(module.digest(tasks, TODAY), "md")
    assert sorted(item["title"] for item in items) == [f"task {i}" for i in range(1, 6)]
    assert all(item["tags"] == [name, "x"] and item["priority"] == 3 and not item["done"] for item in items)
    assert sorted(item["due"] for item in items) == [t.due for t in tasks]
#@test
def test_view_digest_and_why_commands(tmp_path, capsys):
    name = __unit_names__[-1]
    (tmp_path / "list.md").write_text(f"- [ ] Pay rent !urgent due:2024-03-14 +{name}\n- [ ] Other !urgent +zzz\n")
    run(tmp_path, "import", str(tmp_path / "list.md"))
    capsys.readouterr()
    assert run(tmp_path, name, "--digest") == 0
    assert capsys.readouterr().out.splitlines() == [f"# {name}: 1 task", "", "## Overdue (1)", f"- [ ] Pay rent !urgent due:2024-03-14 +{name}"]
    assert run(tmp_path, name, "--why", "2") == 0
    assert capsys.readouterr().out == f"#2 is not in {name}: it is not tagged +{name}\n"
    assert run(tmp_path, name, "--why", "#1") == 0
    assert capsys.readouterr().out == f"#1 is in {name}\n"
    assert run(tmp_path, name, "--why", "9") == 1
    assert "no task #9" in capsys.readouterr().err
#@test
def test_view_settings_are_checked(monkeypatch):
    assert problems() == {}
    module = view(__unit_names__[0])
    assert check(module) == []
    for setting, value, words in (("SORT", "colour", "SORT must be one of id, priority"), ("LIMIT", 0, "LIMIT must be a whole number"),
                                  ("LIMIT", True, "LIMIT must be"), ("TAG", "Work Stuff", "TAG: not a tag"),
                                  ("TAG", "+Work", "TAG must be written as tags are stored, 'work'"),
                                  ("MIN_PRIORITY", 4, "MIN_PRIORITY must be from 0 to 3"), ("SHOW_DONE", "yes", "SHOW_DONE must be"),
                                  ("COLUMNS", ("id", "colour"), "COLUMNS must name"), ("COLUMNS", (), "COLUMNS must name")):
        with monkeypatch.context() as patched:
            patched.setattr(module, setting, value)
            found = check(module)
            assert len(found) == 1 and found[0].startswith(module.NAME + ": ") and words in found[0], (setting, found)
            assert problems() == {module.NAME: found}
#@test
def test_views_check_commands_digest_and_why(tmp_path, capsys, monkeypatch):
    first, count = __unit_names__[0], len(__unit_names__)
    assert run(tmp_path, "views", "--check") == 0
    assert capsys.readouterr().out == f"{count} views checked: no problems\n"
    with monkeypatch.context() as patched:
        patched.setattr(view(first), "SORT", "colour")
        assert run(tmp_path, "views", "--check") == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{first}: SORT must be one of") and lines[1:] == [f"{count} views checked: 1 problem"]
    assert run(tmp_path, "views", "--commands") == 0
    lines, last = capsys.readouterr().out.splitlines(), max(__unit_names__)
    assert len(lines) == count and lines[-1] == f"{last}: {view(last).command_line()}"
    run(tmp_path, "add", "Mine", "+" + first, "--pri", "urgent")
    capsys.readouterr()
    assert run(tmp_path, "views", "--why", "1") == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if " is in " in line] == [f"#1 is in {first}"] and len(lines) == count
    assert run(tmp_path, "views", "--digest") == 0
    out = capsys.readouterr().out
    assert out.count("# ") - out.count("## ") == count and f"- [ ] Mine !urgent +{first}" in out
    assert run(tmp_path, "views", "--check", "--digest") == 2
