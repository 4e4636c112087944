"""Saved views: each module of this package is a ready-made listing with its own tag, order and
length, run as its own subcommand (`__pkg__ <view>`). `views` shows them all; `views --check` finds
fault with their settings, `views --commands` prints the `list` command of each, `views --digest`
prints each as Markdown, and `views --why ID` says which views hold a task."""

from __future__ import annotations

from ..commands import task_ids
from ..errors import UsageError
from ..filters import SORT_KEYS
from ..formatting import COLUMNS, Column, plural, table
from ..model import PRIORITIES, clean_tag
__unit_imports__

VIEWS = {
__unit_table__
}


def view(name: str):
    try:
        return VIEWS[name]
    except KeyError:
        raise UsageError(f"no view {name!r} (views: {', '.join(sorted(VIEWS))})") from None


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check(module) -> list[str]:
    """What is wrong with a view module's settings, one message each (none: they are fine)."""
    name, found = module.NAME, []
    try:
        tag = clean_tag(module.TAG)
    except UsageError as exc:
        found.append(f"{name}: TAG: {exc}")
    else:
        if tag != module.TAG:
            found.append(f"{name}: TAG must be written as tags are stored, {tag!r}, not {module.TAG!r}")
    if module.SORT not in SORT_KEYS:
        found.append(f"{name}: SORT must be one of {', '.join(SORT_KEYS)}, got {module.SORT!r}")
    if not _whole(module.LIMIT) or module.LIMIT < 1:
        found.append(f"{name}: LIMIT must be a whole number, 1 or more, got {module.LIMIT!r}")
    if not _whole(module.MIN_PRIORITY) or not 0 <= module.MIN_PRIORITY < len(PRIORITIES):
        found.append(f"{name}: MIN_PRIORITY must be from 0 to {len(PRIORITIES) - 1}, got {module.MIN_PRIORITY!r}")
    if not isinstance(module.SHOW_DONE, bool):
        found.append(f"{name}: SHOW_DONE must be True or False, got {module.SHOW_DONE!r}")
    if not module.COLUMNS or any(column not in COLUMNS for column in module.COLUMNS):
        found.append(f"{name}: COLUMNS must name one or more of {', '.join(COLUMNS)}, got {module.COLUMNS!r}")
    return found


def problems() -> dict[str, list[str]]:
    """Every view's problems (views without any left out)."""
    found = {}
    for name in sorted(VIEWS):
        issues = check(VIEWS[name])
        if issues:
            found[name] = issues
    return found


def which(task, today) -> list[str]:
    """The names of the views that hold `task`."""
    return [name for name in sorted(VIEWS) if VIEWS[name].matches(task, today)]


def overview(tasks, today) -> list[dict]:
    """Every view's summary, by name."""
    tasks = list(tasks)
    return [VIEWS[name].summary(tasks, today) for name in sorted(VIEWS)]


def run_views(args, ctx) -> int:
    if args.check:
        found = problems()
        for issues in found.values():
            for issue in issues:
                ctx.out(issue)
        count = sum(len(issues) for issues in found.values())
        ctx.out(f"{plural(len(VIEWS), 'view')} checked: {plural(count, 'problem') if count else 'no problems'}")
        return 1 if found else 0
    if args.commands:
        for name in sorted(VIEWS):
            ctx.out(f"{name}: {VIEWS[name].command_line()}")
        return 0
    if args.why is not None:
        task = ctx.store.__find__(task_ids([args.why])[0])
        for name in sorted(VIEWS):
            ctx.out(VIEWS[name].why(task, ctx.today))
        return 0
    if args.digest:
        ctx.out("\n\n".join(VIEWS[name].digest(ctx.store.tasks, ctx.today) for name in sorted(VIEWS)))
        return 0
    rows = [[s["view"], str(s["matching"]), str(s["overdue"]), VIEWS[s["view"]].describe()]
            for s in overview(ctx.store.tasks, ctx.today)]
    columns = [Column("view", "View"), Column("matching", "Tasks", "right"), Column("overdue", "Late", "right"),
               Column("what", "Shows")]
    ctx.out(table(rows, columns))
    return 0


def register(subparsers) -> None:
    """A subcommand for every view, and `views` to list them."""
    p = subparsers.add_parser("views", help="the saved views: what each shows and how many tasks it holds",
                              description="The saved views: what each shows, how many tasks it holds and how many "
                                          "are late. example: views --why 3")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="find fault with every view's settings (exit 1 if any)")
    what.add_argument("--commands", action="store_true", help="the `list` command that shows each view's tasks")
    what.add_argument("--digest", action="store_true", help="every view as Markdown checklists")
    what.add_argument("--why", metavar="ID", help="say which views hold task ID, and why the others do not")
    p.set_defaults(run=run_views)
    for name in sorted(VIEWS):
        module = VIEWS[name]
        p = subparsers.add_parser(name, help=f"view: {module.describe()}", description=f"The {name} view: {module.describe()}.")
        module.add_arguments(p)
        p.set_defaults(run=module.run)
