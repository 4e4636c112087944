"""The subcommands: `register` adds their parsers (with the help `--help` prints), and each
`cmd_*` does one thing to the task file and says what it did. A command returns its exit code."""

from __future__ import annotations

import argparse
import os
from datetime import date

from . import config
from .dates import __parse_date__
#@if:without.recur
#@else
from .dates import parse_interval
#@end
from .errors import UsageError
from .exchange import FORMATS, export_tasks, guess_format, import_tasks
from .files import read_text, write_text
from .filters import SORT_KEYS, limit, parse_query, sort_tasks
from .formatting import detail, parse_columns, plural, render_tasks
from .model import check_title, parse_priority, split_title
from .report import GROUPINGS, render_stats
from .store import __TaskStore__


class Context:
    """What a command works with: the settings, today's date, the config file's path, and the
    task file (opened on first use, so `config` works even when the task file is broken)."""

    def __init__(self, settings: config.Settings, today: date, config_path: str, task_path: str) -> None:
        self.settings, self.today, self.config_path, self.task_path = settings, today, config_path, task_path
        self._store: __TaskStore__ | None = None

    @property
    def store(self) -> __TaskStore__:
        if self._store is None:
            self._store = __TaskStore__.open(self.task_path)
        return self._store

    def out(self, text: str = "") -> None:
        print(text)


def task_ids(words) -> list[int]:
    """'3', '#3' -> 3; UsageError for anything else."""
    ids = []
    for word in words:
        text = word.lstrip("#")
        if not text.isdigit():
            raise UsageError(f"not a task id: {word!r}")
        ids.append(int(text))
    return ids


# -- the commands ----------------------------------------------------------------------------------------
def cmd_add(args, ctx: Context) -> int:
    title, tags = split_title(" ".join(args.title))
    due = __parse_date__(args.due, ctx.today) if args.due else None
    priority = args.priority if args.priority is not None else ctx.settings["priority"]
#@if:without.recur
#@else
    every = parse_interval(args.every) if args.every else None
#@end
    task = ctx.store.add(title, priority=priority, tags=[*tags, *args.tag], due=due, note=args.note or "",
                         created=ctx.today)
#@if:without.recur
#@else
    task.every = every
#@end
    ctx.store.save()
    ctx.out(f"Added #{task.id}: {task.title}" + (f" (due {task.due.isoformat()})" if task.due else ""))
    return 0


def cmd_list(args, ctx: Context) -> int:
    query = parse_query(args.terms, ctx.today)
    settings = ctx.settings
    show_done = args.all or settings["show_done"] or query.mentions_state()
    found = sort_tasks(query.apply(t for t in ctx.store.tasks if show_done or not t.done),
                       args.sort or settings["sort"], args.reverse)
    shown = limit(found, settings["limit"] if args.limit is None else args.limit)
    columns = parse_columns(args.columns) if args.columns else parse_columns(settings["columns"])
    ctx.out(render_tasks(shown, columns, ctx.today, relative=args.relative or settings["relative"],
                         title_width=settings["title_width"]))
    if len(shown) < len(found):
        ctx.out(f"({len(shown)} of {len(found)} shown; --limit 0 shows all)")
    return 0


def cmd_done(args, ctx: Context) -> int:
    tasks = [ctx.store.__find__(i) for i in task_ids(args.ids)]  # every id checked before anything changes
    for task in tasks:
        if task.done:
            ctx.out(f"#{task.id} was already done")
            continue
        ctx.store.complete(task.id, ctx.today)
        ctx.out(f"Completed #{task.id}: {task.title}")
#@if:without.recur
#@else
        following = ctx.store.renew(task, ctx.today)
        if following is not None:
            ctx.out(f"Next: #{following.id} due {following.due.isoformat()}")
#@end
    ctx.store.save()
    return 0


def cmd_undo(args, ctx: Context) -> int:
    tasks = [ctx.store.__find__(i) for i in task_ids(args.ids)]
    for task in tasks:
        if not task.done:
            ctx.out(f"#{task.id} is not done")
            continue
        ctx.store.reopen(task.id)
        ctx.out(f"Reopened #{task.id}: {task.title}")
    ctx.store.save()
    return 0


def cmd_remove(args, ctx: Context) -> int:
    tasks = [ctx.store.__find__(i) for i in task_ids(args.ids)]
    for task in tasks:
        ctx.store.remove(task.id)
        ctx.out(f"Removed #{task.id}: {task.title}")
    ctx.store.save()
    return 0


def cmd_edit(args, ctx: Context) -> int:
    task = ctx.store.__find__(task_ids([args.id])[0])
    changed = []
    if args.title:
        title, tags = split_title(" ".join(args.title))
        task.title = check_title(title)
        task.add_tags(tags)
        changed.append("title")
    if args.priority is not None:
        task.priority = parse_priority(args.priority)
        changed.append("priority")
    if args.due is not None:
        task.due = None if args.due.lower() == "none" else __parse_date__(args.due, ctx.today)
        changed.append("due")
    if args.tag or args.untag:
        task.add_tags(args.tag)
        task.remove_tags(args.untag)
        changed.append("tags")
    if args.note is not None:
        task.note = args.note
        changed.append("note")
    if not changed:
        raise UsageError("edit: nothing to change (give --title, --pri, --due, --tag, --untag or --note)")
    ctx.store.save()
    ctx.out(f"Updated #{task.id}: {', '.join(changed)}")
    return 0


def cmd_show(args, ctx: Context) -> int:
    for number, task_id in enumerate(task_ids(args.ids)):
        if number:
            ctx.out()
        ctx.out(detail(ctx.store.__find__(task_id), ctx.today))
    return 0


def cmd_export(args, ctx: Context) -> int:
    fmt = guess_format(args.output, args.format) if args.output else (args.format or "json")
    query = parse_query(args.terms, ctx.today)
    tasks = sort_tasks(query.apply(ctx.store.tasks), "id")
    text = export_tasks(tasks, fmt)
    if not args.output:
        print(text, end="")
        return 0
    write_text(args.output, text, "export file")
    ctx.out(f"Exported {plural(len(tasks), 'task')} to {args.output}")
    return 0


def cmd_import(args, ctx: Context) -> int:
    fmt = guess_format(args.path, args.format)
    items = import_tasks(read_text(args.path, "file to import"), fmt, where=args.path)
    added = ctx.store.import_items(items, ctx.today)
    ctx.store.save()
    first = f" (#{added[0].id}-#{added[-1].id})" if added else ""
    ctx.out(f"Imported {plural(len(added), 'task')} from {args.path}{first}")
    return 0


def cmd_config(args, ctx: Context) -> int:
    path = ctx.config_path
    if args.action == "path":
        ctx.out(path)
    elif args.action == "get":
        ctx.out(config.format_value(ctx.settings.get(args.key)))
    elif args.action == "set":
        value = config.set_value(path, args.key, args.value)  #@if:bug.config_set: value = config.set_value(path, args.value, args.key)
        ctx.out(f"{args.key} = {config.format_value(value)} (in {path})")
    elif args.action == "unset":
        if config.unset_value(path, args.key):
            ctx.out(f"{args.key} is back to its default")
        else:
            ctx.out(f"{args.key} was not set in {path}")
    else:
        for name, value, source in ctx.settings.items():
            ctx.out(f"{name} = {config.format_value(value)}  ({source})")
    return 0


def cmd_stats(args, ctx: Context) -> int:
    tasks = parse_query(args.terms, ctx.today).apply(ctx.store.tasks)
    ctx.out(render_stats(tasks, ctx.today, by=args.by))
    return 0


def cmd_tags(args, ctx: Context) -> int:
    tags = ctx.store.tags()
    for tag in tags:
        count = sum(task.has_tag(tag) and not task.done for task in ctx.store.tasks)
        ctx.out(f"+{tag}  {plural(count, 'open task')}")
    if not tags:
        ctx.out("No tags yet.")
    return 0


# -- the parsers -------------------------------------------------------------------------------------------
def _filters(parser) -> None:
    parser.add_argument("terms", nargs="*", metavar="FILTER",
                        help="+tag, notag:tag, pri>=high, due<=+7d, due:none, is:done, id>3, or a word of the title")


def register(subparsers) -> None:
    """Add the core commands to `subparsers` (argparse's `add_subparsers()`)."""
    formatter = argparse.RawDescriptionHelpFormatter

    p = subparsers.add_parser("add", help="add a task", formatter_class=formatter, description=(
        "Add a task. Words starting with '+' in the title are tags.\n\n"
        "example: add Buy milk +errands --due tomorrow --pri high"))
    p.add_argument("title", nargs="+", help="the title (words; +word adds a tag)")
    p.add_argument("--due", metavar="DATE", help="YYYY-MM-DD, today, tomorrow, fri, +3d, +2w, +1m (past: --due=-2d)")
    p.add_argument("--pri", "--priority", dest="priority", metavar="P", help="low, normal, high, urgent or 0-3")
    p.add_argument("--tag", "-t", action="append", default=[], metavar="TAG", help="a tag (repeat for more)")
    p.add_argument("--note", metavar="TEXT", help="a note kept with the task")
#@if:without.recur
#@else
    p.add_argument("--every", metavar="INTERVAL", help="repeat: once done, the task comes back (3d, 2w, daily, weekly)")
#@end
    p.set_defaults(run=cmd_add)

    p = subparsers.add_parser("list", aliases=["ls"], help="list tasks (open ones unless asked)", formatter_class=formatter,
                              description="List tasks that match every FILTER.\n\n"
                                          "example: list +work pri>=high due<=+7d --sort due")
    _filters(p)
    p.add_argument("--all", "-a", action="store_true", help="done tasks too")
    p.add_argument("--sort", choices=SORT_KEYS, help="the order (default: the sort setting)")
    p.add_argument("--reverse", "-r", action="store_true", help="the other way round")
    p.add_argument("--limit", "-n", type=int, metavar="N", help="at most N tasks (0: all)")
    p.add_argument("--columns", metavar="A,B", help="the columns: id, pri, due, title, tags, state")
    p.add_argument("--relative", action="store_true", help="due dates as 'in 3 days'")
    p.set_defaults(run=cmd_list)

    for name, run, text in (("done", cmd_done, "mark tasks done"), ("undo", cmd_undo, "mark done tasks open again"),
                            ("rm", cmd_remove, "remove tasks for good"), ("show", cmd_show, "show tasks in full")):
        p = subparsers.add_parser(name, help=text, description=text[0].upper() + text[1:] + ". example: " + name + " 3 5")
        p.add_argument("ids", nargs="+", metavar="ID", help="task ids (as `list` shows them)")
        p.set_defaults(run=run)

    p = subparsers.add_parser("edit", help="change a task", description="Change a task. example: edit 3 --due +2d --tag home")
    p.add_argument("id", metavar="ID")
    p.add_argument("--title", nargs="+", metavar="WORD", help="a new title (+word adds a tag)")
    p.add_argument("--pri", "--priority", dest="priority", metavar="P")
    p.add_argument("--due", metavar="DATE", help="a new due date, or 'none'")
    p.add_argument("--tag", action="append", default=[], metavar="TAG", help="add a tag")
    p.add_argument("--untag", action="append", default=[], metavar="TAG", help="remove a tag")
    p.add_argument("--note", metavar="TEXT")
    p.set_defaults(run=cmd_edit)

    p = subparsers.add_parser("export", help="write tasks as JSON, CSV or Markdown",
                              description="Write the tasks that match every FILTER. example: export --output tasks.csv +work")
    _filters(p)
    p.add_argument("--format", "-f", choices=FORMATS, help="default: from the output's extension, else json")
    p.add_argument("--output", "-O", metavar="PATH", help="a file (default: standard output)")
    p.set_defaults(run=cmd_export)

    p = subparsers.add_parser("import", help="add tasks from a JSON, CSV or Markdown file",
                              description="Add the tasks of a file (they get new ids). example: import old.csv")
    p.add_argument("path", metavar="PATH")
    p.add_argument("--format", "-f", choices=FORMATS, help="default: from the file's extension")
    p.set_defaults(run=cmd_import)

    p = subparsers.add_parser("config", help="show or change settings", formatter_class=formatter, description=(
        "Settings: defaults < config file < environment (" + config.ENV_PREFIX + "_LIMIT=5) < -o limit=5.\n\n"
        "settings:\n" + "\n".join(f"  {o.name:<12} {o.help} (default: {config.format_value(o.default)})"
                                  for o in config.OPTIONS.values())))
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser("list", help="every setting, its value and where it comes from")
    actions.add_parser("path", help="where the config file is")
    get = actions.add_parser("get", help="one setting's value")
    get.add_argument("key", metavar="KEY")
    put = actions.add_parser("set", help="write a setting into the config file")
    put.add_argument("key", metavar="KEY")
    put.add_argument("value", metavar="VALUE")
    unset = actions.add_parser("unset", help="remove a setting from the config file")
    unset.add_argument("key", metavar="KEY")
    p.set_defaults(run=cmd_config, action="list")

    p = subparsers.add_parser("stats", help="counts: open, done, overdue; by tag, priority, state or due date",
                              description="Count the tasks that match every FILTER. example: stats --by due +work")
    _filters(p)
    p.add_argument("--by", choices=GROUPINGS, help="also count by tag, priority, state or due date")
    p.set_defaults(run=cmd_stats)

    p = subparsers.add_parser("tags", help="every tag in use and its open tasks")
    p.set_defaults(run=cmd_tags)


def task_file(args_file: str | None, settings: config.Settings) -> str:
    return os.path.expanduser(args_file or settings["file"])
