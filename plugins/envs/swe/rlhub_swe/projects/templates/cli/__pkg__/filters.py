"""The filter language of `list`, `export` and `stats`: words that narrow a list of tasks.

    +work  tag:work       tagged `work`            notag:work        not tagged `work`
    pri>=high  pri=2      by priority (a name or 0-3), with = != < <= > >= (or ':' for =)
    due<=+7d  due:today   by due date (any date the dates module reads); due:none, due!=none
    id>10                 by id
    is:open is:done is:overdue
    anything else         a word the title must contain (any case)

Every word must match. `sort_tasks` and `limit` order and cut the result.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from datetime import date

from .dates import __parse_date__
from .errors import UsageError
from .model import clean_tag, parse_priority

OPERATORS = {"=": operator.eq, ":": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge}
FIELDS = ("tag", "notag", "pri", "due", "id", "is")
STATES = ("open", "done", "overdue")
SORT_KEYS = ("id", "priority", "due", "title", "created")
_TERM = re.compile(r"(?P<field>[a-z]+)(?P<op><=|>=|!=|=|<|>|:)(?P<value>.*)")


@dataclass(frozen=True)
class Term:
    field: str      # one of FIELDS, or "text"
    op: str         # one of OPERATORS
    value: object   # str (tag, text, state), int (pri, id), date or None (due)

    def matches(self, task, today: date) -> bool:
        if self.field == "text":
            return self.value in task.title.lower()
        if self.field == "tag":
            return task.has_tag(self.value)
        if self.field == "notag":
            return not task.has_tag(self.value)
        if self.field == "is":
            if self.value == "done":
                return task.done
            if self.value == "open":
                return not task.done
            return task.is_overdue(today)
        if self.field == "due":
            if self.value is None:  # due:none / due!=none
                return (task.due is None) == (self.op != "!=")
            if task.due is None:  # an undated task is only ever "not equal" to a date
                return self.op == "!="
            return OPERATORS[self.op](task.due, self.value)
        actual = task.priority if self.field == "pri" else task.id
        return OPERATORS[self.op](actual, self.value)


@dataclass(frozen=True)
class Query:
    terms: tuple[Term, ...]
    today: date

    def matches(self, task) -> bool:
        return all(term.matches(task, self.today) for term in self.terms)

    def apply(self, tasks) -> list:
        return [task for task in tasks if self.matches(task)]

    def mentions_state(self) -> bool:
        """Whether a term says which tasks (open, done) it wants: then `list` shows done ones too."""
        return any(term.field == "is" for term in self.terms)


def parse_term(word: str, today: date) -> Term:
    if len(word) > 1 and word.startswith("+"):
        return Term("tag", "=", clean_tag(word))
    match = _TERM.fullmatch(word)
    if not match or match.group("field") not in FIELDS:
        if match and match.group("op") == ":":
            raise UsageError(f"unknown filter {match.group('field')!r} in {word!r} (filters: {', '.join(FIELDS)})")
        return Term("text", "=", word.lower())
    name, op, value = match.group("field"), match.group("op"), match.group("value").strip()
    if not value:
        raise UsageError(f"{word!r}: the filter needs a value after {op!r}")
    if name in ("tag", "notag", "is") and op not in ("=", ":"):
        raise UsageError(f"{word!r}: {name} only compares with '=' or ':'")
    if name in ("tag", "notag"):
        return Term(name, "=", clean_tag(value))
    if name == "is":
        if value.lower() not in STATES:
            raise UsageError(f"{word!r}: is: takes one of {', '.join(STATES)}")
        return Term("is", "=", value.lower())
    if name == "pri":
        return Term("pri", op, parse_priority(value))
    if name == "id":
        if not value.isdigit():
            raise UsageError(f"{word!r}: an id is a number")
        return Term("id", op, int(value))
    if value.lower() == "none":
        if op not in ("=", ":", "!="):
            raise UsageError(f"{word!r}: 'none' only compares with '=' or '!='")
        return Term("due", op, None)
    return Term("due", op, __parse_date__(value, today))


def parse_query(words, today: date) -> Query:
    """A query from the words of a command line (an empty list matches every task)."""
    return Query(tuple(parse_term(word, today) for word in words if word.strip()), today)


def sort_tasks(tasks, key: str = "id", reverse: bool = False) -> list:
    """Tasks in `key` order: id; priority (most urgent first); due (soonest first, undated last);
    title (any case); created (oldest first). Ties keep id order."""
    if key == "id":
        order = lambda t: t.id  # noqa: E731
    elif key == "priority":
        order = lambda t: (-t.priority, t.id)  # noqa: E731
    elif key == "due":
        order = lambda t: (t.due is None, t.due or date.min, t.id)  # noqa: E731
    elif key == "title":
        order = lambda t: (t.title.lower(), t.id)  # noqa: E731
    elif key == "created":
        order = lambda t: (t.created or date.min, t.id)  # noqa: E731
    else:
        raise UsageError(f"cannot sort by {key!r} (use one of: {', '.join(SORT_KEYS)})")
    return sorted(tasks, key=order, reverse=reverse)


def limit(items: list, count: int | None) -> list:
    """The first `count` items; all of them when `count` is None or 0."""
    if not count:
        return list(items)
    if count < 0:
        raise UsageError(f"a limit cannot be negative, got {count}")
    return list(items[:count])
