"""The repository session's tool front end (rlhub_swe.tool_session), SWE-agent's editing style, on
the real sandbox: the reference played to 1.0 as replace calls; view, search and replace answering
what the model got wrong (a piece that occurs twice, or not at all) with tool errors; the
reference's replace calls reproduce the target tree exactly (pure, no sandbox)."""

from __future__ import annotations

import pytest
from rlhub_swe.projects.kinds import NAMES, kind
from rlhub_swe.tasks import build
from rlhub_swe.tool_session import edits, reference_calls

from hub.tools import ToolCall


def tool_env(name: str) -> str:
    return f"swe/{name}-bug-{kind(name).bugs[0].cls.replace('_', '-')}-session-tools-v1"


def call(name, **arguments):
    return ToolCall(name, arguments)


def applied(base: dict[str, str], calls: list[ToolCall]) -> dict[str, str]:
    """The tree after the calls, as the tools would leave it (replace: its one occurrence)."""
    tree = dict(base)
    for c in calls:
        a = c.arguments
        if c.name == "replace":
            assert tree[a["path"]].count(a["old"]) == 1, a
            tree[a["path"]] = tree[a["path"]].replace(a["old"], a["new"])
        elif c.name == "create":
            tree[a["path"]] = a["content"]
        else:
            assert c.name == "run" and a["command"].startswith("rm -f -- ")
            tree.pop(a["command"].removeprefix("rm -f -- ").strip("'"))
    return tree


def test_edits_are_unique_pieces_even_among_repeated_lines():
    old = "a\nx = 1\nb\nx = 1\nc\nx = 1\n"
    new = "a\nx = 1\nb\nx = 2\nc\nx = 1\ny\n"
    calls = edits(old, new, "m.py")
    assert all(c.name == "replace" for c in calls)
    assert applied({"m.py": old}, calls) == {"m.py": new}


@pytest.mark.parametrize("env", [f"swe/{n}-{t}-session-tools-v1" for n in NAMES[:2] for t in ("feature", "rename", "tests")]
                         + [tool_env(n) for n in NAMES[:2]])
def test_the_reference_calls_make_the_target_tree(catalog, env):
    try:
        renv = catalog.get(env)
    except Exception:  # noqa: BLE001 - a project kind without that task
        pytest.skip(f"{env} is not registered")
    b = build(renv.env.params(0))
    calls = reference_calls(b.base.files, b.target_files)
    assert applied(b.base.files, calls) == b.target_files
    assert catalog.task({"env": env, "seed": 0}).hidden == catalog.task({"env": renv.env.text_twin, "seed": 0}).hidden


def test_explore_with_view_and_search_fix_with_replace_and_earn_one(catalog):
    env = tool_env(NAMES[0])
    label = {"env": env, "seed": 1}
    ep = catalog.episode(label)
    ep.reset()
    turns = catalog.get(env).env.tool_turns(catalog.task(label))
    fix = turns[0][0]
    assert fix.name == "replace"
    path, old = fix.arguments["path"], fix.arguments["old"]
    first_line = old.strip().splitlines()[0].strip()
    step = ep.step([call("view", path="."), call("search", pattern=first_line, path="."),
                    call("view", path=path, start_line=1, end_line=5), call("run_tests")])
    listing, found, shown, tests = step.tool_results
    assert not any(r.is_error for r in step.tool_results), [r.content[:200] for r in step.tool_results]
    assert "is a directory" in listing.content and path in listing.content and "__pycache__" not in listing.content
    assert f"{path}:" in found.content
    assert shown.content.startswith("[lines 1-5 of ") and "    1  " in shown.content
    assert "$ python -m pytest -x -q" in tests.content
    step = ep.step(turns[0])
    assert step.done and step.verdict.passed and step.verdict.reward == 1.0, step.verdict.details
    assert step.verdict.details["tools"]["errors"] == {}


def test_replace_says_how_many_times_old_occurs_and_changes_nothing(catalog):
    env = tool_env(NAMES[0])
    label = {"env": env, "seed": 0}
    ep = catalog.episode(label)
    ep.reset()
    path = catalog.get(env).env.tool_turns(catalog.task(label))[0][0].arguments["path"]
    step = ep.step([call("replace", path=path, old="\n", new="\r\n"),
                    call("replace", path=path, old="no such text anywhere", new="x"),
                    call("replace", path=path, old="", new="x"),
                    call("replace", path="missing/mod.py", old="a", new="b"),
                    call("search", pattern="two\nlines"),
                    call("view", path=path, start_line=100000),
                    call("run", command="mkdir -p d && mkfifo d/p.py && ln -s /etc/passwd d/l.py"),
                    call("view", path="d/p.py")])
    many, none, empty, missing, search, past, made, fifo = step.tool_results
    assert many.is_error and "occurs" in many.content and "times in" in many.content and "nothing was changed" in many.content
    assert none.is_error and "old occurs 0 times" in none.content
    assert empty.is_error and "old is empty" in empty.content
    assert missing.is_error and "it does not exist" in missing.content
    assert search.is_error and past.is_error and "past the end" in past.content
    assert not made.is_error and fifo.is_error and "is a fifo" in fifo.content
    step = ep.step([call("view", path="d/l.py"), call("submit")])
    assert step.tool_results[0].is_error and "root:" not in step.tool_results[0].content
    assert step.done and step.verdict.reward == 0.0 and step.verdict.error is None  # nothing was changed


def test_search_does_not_follow_a_link_named_as_its_path(catalog):
    """Found by the red team: grep -r follows a link on its command line (to /etc/passwd, or `..`
    to the whole sandbox); search now refuses a path through a link, as view and replace do."""
    ep = catalog.episode({"env": tool_env(NAMES[0]), "seed": 0})
    ep.reset()
    step = ep.step([call("run", command="ln -s /etc/passwd pw && ln -s .. up"),
                    call("search", pattern="root", path="pw"), call("search", pattern="root", path="up/etc"),
                    call("search", pattern="def ", path=".")])
    _, direct, through, tree = step.tool_results
    assert direct.is_error and through.is_error and "symbolic link" in direct.content and "root:" not in through.content
    assert not tree.is_error and "def " in tree.content and "root:" not in tree.content
    ep.close()
