"""Counting tasks: how many are open, done, overdue and due soon, and how they fall into groups
(by tag, priority, state or due date): what `stats` prints."""

from __future__ import annotations

from datetime import date

from .dates import week_bounds
from .formatting import Column, plural, progress_bar, table
from .model import PRIORITIES, priority_name

GROUPINGS = ("tag", "priority", "state", "due")
NO_TAG = "(untagged)"
DUE_GROUPS = ("overdue", "today", "this week", "later", "no date", "done")


def group(tasks, key, into: dict | None = None) -> dict:  #@if:bug.group_default: def group(tasks, key, into: dict | None = {}) -> dict:
    """Tasks by the names `key(task)` gives (a task may fall into several groups), groups in the
    order first met; `into`: groups to add to."""
    groups = {} if into is None else into  #@if:bug.group_default: groups = into
    for task in tasks:
        for name in key(task):
            groups.setdefault(name, []).append(task)
    return groups


def due_group(task, today: date) -> str:
    """When a task is due, as one of DUE_GROUPS: 'done' for a finished task; 'this week' up to
    Sunday of today's week, 'later' after it."""
    if task.done:
        return "done"
    if task.due is None:
        return "no date"
    if task.due < today:
        return "overdue"
    if task.due == today:
        return "today"
    return "this week" if task.due <= week_bounds(today)[1] else "later"


def grouping(by: str, today: date):
    """The key function of a grouping: a task -> the names of its groups."""
    if by == "tag":
        return lambda task: task.tags or [NO_TAG]
    if by == "priority":
        return lambda task: [priority_name(task.priority)]
    if by == "state":
        return lambda task: ["done" if task.done else "overdue" if task.is_overdue(today) else "open"]
    if by == "due":
        return lambda task: [due_group(task, today)]
    raise ValueError(f"unknown grouping {by!r} (use one of: {', '.join(GROUPINGS)})")


def counts(tasks, by: str, today: date) -> dict[str, int]:
    """{group: number of tasks}; priorities from urgent down, due dates soonest first (DUE_GROUPS),
    other groups largest first (then by name)."""
    groups = group(tasks, grouping(by, today))
    if by in ("priority", "due"):
        order = reversed(PRIORITIES) if by == "priority" else DUE_GROUPS
        return {name: len(groups[name]) for name in order if name in groups}
    return {name: len(items) for name, items in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))}


def summary(tasks, today: date) -> dict[str, int]:
    tasks = list(tasks)
    monday, sunday = week_bounds(today)
    open_tasks = [t for t in tasks if not t.done]
    return {"total": len(tasks), "open": len(open_tasks), "done": len(tasks) - len(open_tasks),
            "overdue": sum(t.is_overdue(today) for t in open_tasks),
            "due_today": sum(t.due == today for t in open_tasks),
            "due_this_week": sum(t.due is not None and monday <= t.due <= sunday for t in open_tasks)}


def render_stats(tasks, today: date, by: str | None = None) -> str:
    tasks = list(tasks)
    s = summary(tasks, today)
    lines = [f"{plural(s['total'], 'task')}: {s['open']} open, {s['done']} done",
             progress_bar(s["done"], s["total"]),
             f"overdue: {s['overdue']}, due today: {s['due_today']}, due this week: {s['due_this_week']}"]
    if by is not None:
        rows = [[name, str(count)] for name, count in counts(tasks, by, today).items()]
        lines += ["", table(rows, [Column(by, by.capitalize()), Column("count", "Tasks", "right")])]
    return "\n".join(lines)
