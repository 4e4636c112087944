"""The `__unit__` view: the tasks tagged `+__unit__` (priority __min_priority__ or more), in __sort__ order, at most __limit__.

`__pkg__ __unit__` prints them as a table (`--limit N` for more or fewer, `--relative` for due dates as
'in 3 days'); `--digest` prints them as Markdown checklists under a heading for when they are due
(overdue, today, this week, later, no date, done), and `--why ID` says why a task is in the view
or not. `command_line()` is the `list` command that shows the same tasks.
"""

from __future__ import annotations

from ..commands import task_ids
from ..exchange import digest as markdown
from ..filters import limit, sort_tasks
from ..formatting import plural, render_tasks
from ..model import priority_name
from ..report import DUE_GROUPS, due_group

NAME = "__unit__"
TAG = "__unit__"
SORT = "__sort__"
LIMIT = __limit__
MIN_PRIORITY = __min_priority__
SHOW_DONE = __show_done__
COLUMNS = ("id", "pri", "due", "title")


def reasons(task, today=None) -> list[str]:
    """Why `task` is not in this view, one reason each (none: it is)."""
    found = []
    if task.done and not SHOW_DONE:
        found.append("it is done (the view shows open tasks)")
    if not task.has_tag(TAG):
        found.append(f"it is not tagged +{TAG}")
    if task.priority < MIN_PRIORITY:
        found.append(f"its priority, {priority_name(task.priority)}, is below {priority_name(MIN_PRIORITY)}")
    return found


def matches(task, today=None) -> bool:
    """Whether `task` belongs in this view."""
    return not reasons(task, today)


def why(task, today=None) -> str:
    """'#3 is in __unit__', or '#3 is not in __unit__: ' and every reason."""
    found = reasons(task, today)
    return f"#{task.id} is in {NAME}" if not found else f"#{task.id} is not in {NAME}: " + "; ".join(found)


def filter_words() -> list[str]:
    """The filter words of `list` that choose this view's tasks."""
    words = ["+" + TAG]
    if MIN_PRIORITY:
        words.append("pri>=" + priority_name(MIN_PRIORITY))
    if not SHOW_DONE:
        words.append("is:open")
    return words


def command_line() -> str:
    """The `list` command that shows what this view shows, in its order and length."""
    words = ["list", *filter_words(), "--sort", SORT, "--limit", str(LIMIT), "--columns", ",".join(COLUMNS)]
    return " ".join(words + (["--all"] if SHOW_DONE else []))


def select(tasks, today=None, count: int | None = LIMIT) -> list:
    """The tasks of this view in its order, at most `count` (all with 0 or None)."""
    return limit(sort_tasks([task for task in tasks if matches(task, today)], SORT), count)


def overdue(tasks, today) -> list:
    return [task for task in tasks if matches(task, today) and task.is_overdue(today)]


def due_groups(tasks, today) -> dict[str, list]:
    """All of the view's tasks, in its order, by when they are due (report.DUE_GROUPS, in that
    order; empty groups left out)."""
    groups: dict[str, list] = {}
    for task in select(tasks, today, None):
        groups.setdefault(due_group(task, today), []).append(task)
    return {name: groups[name] for name in DUE_GROUPS if name in groups}


def digest(tasks, today) -> str:
    """The view as Markdown: a checklist under a heading per due group (what `--digest` prints)."""
    groups = due_groups(tasks, today)
    return markdown(f"{NAME}: {plural(sum(len(found) for found in groups.values()), 'task')}", groups)


def describe() -> str:
    which = "all" if SHOW_DONE else "open"
    floor = f", {priority_name(MIN_PRIORITY)} or above" if MIN_PRIORITY else ""
    return f"{which} tasks tagged +{TAG}{floor}, by {SORT}, at most {LIMIT}"


def summary(tasks, today) -> dict:
    tasks = list(tasks)
    found = select(tasks, today, None)
    return {"view": NAME, "matching": len(found), "shown": len(found[:LIMIT]), "overdue": len(overdue(tasks, today))}


def add_arguments(parser) -> None:
    parser.add_argument("--limit", "-n", type=int, metavar="N", help=f"at most N tasks (default {LIMIT}; 0: all)")
    parser.add_argument("--relative", action="store_true", help="due dates as 'in 3 days'")
    parser.add_argument("--digest", action="store_true", help="Markdown checklists, by when the tasks are due")
    parser.add_argument("--why", metavar="ID", help="say why task ID is in this view or not")


def run(args, ctx) -> int:
    if args.why is not None:
        ctx.out(why(ctx.store.__find__(task_ids([args.why])[0]), ctx.today))
        return 0
    if args.digest:
        ctx.out(digest(ctx.store.tasks, ctx.today))
        return 0
    count = LIMIT if args.limit is None else args.limit
    every = select(ctx.store.tasks, ctx.today, None)
    shown = limit(every, count)
    if not shown:
        ctx.out(f"Nothing in {NAME}.")
        return 0
    ctx.out(render_tasks(shown, COLUMNS, ctx.today, relative=args.relative, title_width=ctx.settings["title_width"]))
    if len(shown) < len(every):
        ctx.out(f"({plural(len(every) - len(shown), 'more task')} in {NAME}; --limit 0 shows all)")
    return 0
