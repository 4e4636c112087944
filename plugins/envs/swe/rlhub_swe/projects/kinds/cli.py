"""Project kind `cli`: a command-line task manager with subcommands (argparse): a task model, a JSON
task file, a filter language, dates as users type them, table formatting, a layered configuration
(defaults, file, environment, command line), import/export (JSON, CSV, Markdown), statistics, and
saved views (the units: one subcommand each). Tested through `main(argv)` and through its modules."""

from ..model import BugSite, Feature, ProjectKind, Rename, Units

INIT = r'''"""$pkg: a command-line task manager: add, list, filter, finish, export and import tasks."""

from .errors import ConfigError, $Error, NotFound, StoreError, UsageError
from .model import $Task
from .store import $TaskStore

__version__ = "0.$minor.0"
__all__ = ["ConfigError", "$Error", "NotFound", "StoreError", "$Task", "$TaskStore", "UsageError"]
'''

MAIN = r'''"""`python -m $pkg ...` runs the command line."""

from .cli import main

raise SystemExit(main())
'''

ERRORS = r'''"""Every error the package raises derives from $Error; `main()` prints its message and exits
with its `exit_code` (2 for a command line that does not make sense, as argparse does)."""


class $Error(Exception):
    """Base class of the package's errors."""

    exit_code = 1


class UsageError($Error):
    """A command line, date, priority or filter that does not make sense."""

    exit_code = 2


class NotFound($Error, KeyError):
    """A task id that the task file does not hold."""

    def __init__(self, task_id: int) -> None:
        super().__init__(task_id)
        self.task_id = task_id

    def __str__(self) -> str:
        return f"no task #{self.task_id}"


class StoreError($Error):
    """A task file that cannot be read or written; the message starts with the file's path."""


class ConfigError($Error, ValueError):
    """An unknown setting, or a setting with a value of the wrong kind; says where it was set."""


class ImportFormatError($Error, ValueError):
    """A file to import that is not in the format it claims; says which line or item."""
'''

DATES = r'''"""Dates as users type them (`2024-05-01`, `today`, `tomorrow`, `fri`, `+3d`, `-2w`, `+1m`) and
as the tool shows them (ISO dates, or `in 3 days` / `2 weeks ago`)."""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from .errors import UsageError

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WORDS = {"today": 0, "tomorrow": 1, "yesterday": -1}
WEEKS_FROM = 14  # from this many days on, `relative` counts whole weeks
_OFFSET = re.compile(r"([+-])(\d+)([dwm]?)")
#@if:without.recur
#@else
_INTERVAL = re.compile(r"(\d+)\s*([dw]?)")
INTERVAL_WORDS = {"daily": 1, "weekly": 7, "fortnightly": 14}
#@end


def $parse_date(text: str, today: date) -> date:
    """The date `text` names, counted from `today`: an ISO date, today/tomorrow/yesterday, a
    weekday (the next one after today: on a Friday, `fri` is a week ahead), or an offset
    `+N`/`-N` in days (`d`, the default), weeks (`w`) or calendar months (`m`)."""
    word = text.strip().lower()
    if not word:
        raise UsageError("a date cannot be empty")
    if word in WORDS:
        return today + timedelta(days=WORDS[word])
    weekday = weekday_index(word)
    if weekday is not None:
        return next_weekday(today, weekday)
    match = _OFFSET.fullmatch(word)
    if match:
        sign = -1 if match.group(1) == "-" else 1
        count = sign * int(match.group(2))
        unit = match.group(3) or "d"
        if unit == "m":
            return add_months(today, count)
        return today + timedelta(days=count * (7 if unit == "w" else 1))
    try:
        return date.fromisoformat(word)
    except ValueError:
        raise UsageError(f"not a date: {text!r} (use YYYY-MM-DD, today, tomorrow, a weekday, or +3d / +2w / +1m)") from None


def weekday_index(word: str) -> int | None:
    """0 for 'mon'/'monday' ... 6 for 'sun'/'sunday'; None for anything else (at least 3 letters)."""
    if len(word) < 3:
        return None
    for index, name in enumerate(WEEKDAYS):
        if name.startswith(word):
            return index
    return None


def next_weekday(today: date, index: int) -> date:
    """The first day after `today` that falls on weekday `index` (1 to 7 days ahead)."""
    ahead = (index - today.weekday()) % 7
    return today + timedelta(days=ahead or 7)


def add_months(day: date, months: int) -> date:
    """`day` moved by whole calendar months, kept within the month: Jan 31 + 1 month is Feb 28 (29)."""
    years, month0 = divmod(day.month - 1 + months, 12)
    year, month = day.year + years, month0 + 1
    last = calendar.monthrange(year, month)[1]
    return day.replace(year=year, month=month, day=min(day.day, last))


def week_bounds(today: date) -> tuple[date, date]:
    """The Monday and the Sunday of `today`'s week."""
    monday = today - timedelta(days=today.weekday())
    return monday, monday + timedelta(days=6)


def days_between(start: date, end: date) -> int:
    """Whole days from `start` to `end` (negative when `end` comes first)."""
    return (end - start).days


def _span(days: int) -> str:
    if days < WEEKS_FROM:
        return f"{days} days"
    return f"{days // 7} weeks"


def relative(day: date, today: date) -> str:
    """`day` said from `today`: 'today', 'tomorrow', 'yesterday', 'in 3 days', '4 days ago',
    'in 2 weeks' (whole weeks, rounded down, from WEEKS_FROM days on)."""
    delta = days_between(today, day)
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    span = _span(abs(delta))
    if delta > 0:  #@if:bug.relative: if delta < 0:
        return f"in {span}"
    return f"{span} ago"


def format_date(day: date | None) -> str:
    """ISO text of a date, '-' for none."""
    return "-" if day is None else day.isoformat()


def from_iso(text: str | None) -> date | None:
    """A date stored as ISO text (None and '' stay None); ValueError for anything else."""
    if text in (None, ""):
        return None
    return date.fromisoformat(text)
#@if:without.recur
#@else


def parse_interval(text: str) -> int:
    """Days between occurrences of a recurring task: '3d' -> 3, '2w' -> 14, '5' -> 5, 'daily',
    'weekly', 'fortnightly'. At least one day."""
    word = text.strip().lower()
    if word in INTERVAL_WORDS:
        return INTERVAL_WORDS[word]
    match = _INTERVAL.fullmatch(word)
    if not match:
        raise UsageError(f"not an interval: {text!r} (use 3d, 2w, daily or weekly)")
    days = int(match.group(1)) * (7 if match.group(2) == "w" else 1)
    if days < 1:
        raise UsageError(f"an interval must be at least one day, got {text!r}")
    return days
#@end
'''

MODEL = r'''"""A task: its title, priority, tags, due date and state, and its plain-data form (the task file's)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from .dates import from_iso
from .errors import UsageError

PRIORITIES = ("low", "normal", "high", "urgent")
MAX_TITLE = $max_title
_TAG = re.compile(r"[\w-]+")


def parse_priority(value: str | int) -> int:
    """0-3 from a priority name ('high'), a prefix of one ('h'), or a number ('2' or 2)."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        word = str(value).strip().lower()
        if word.isdigit():
            number = int(word)
        else:
            found = [i for i, name in enumerate(PRIORITIES) if word and name.startswith(word)]
            if len(found) != 1:
                raise UsageError(f"unknown priority {value!r} (use {', '.join(PRIORITIES)} or 0-{len(PRIORITIES) - 1})")
            number = found[0]
    if not 0 <= number < len(PRIORITIES):
        raise UsageError(f"a priority is from 0 to {len(PRIORITIES) - 1}, got {value!r}")
    return number


def priority_name(number: int) -> str:
    return PRIORITIES[number]


def clean_tag(tag: str) -> str:
    """A tag as stored: lower case, without a leading '+'; letters, digits, '-' and '_' only."""
    word = tag.strip().lstrip("+").lower()
    if not _TAG.fullmatch(word):
        raise UsageError(f"not a tag: {tag!r} (letters, digits, '-' and '_')")
    return word


def split_title(text: str) -> tuple[str, list[str]]:
    """'Buy milk +errands +home' -> ('Buy milk', ['errands', 'home']): a word starting with '+'
    is a tag, wherever it stands."""
    words, tags = [], []
    for word in text.split():
        if len(word) > 1 and word.startswith("+"):
            tag = clean_tag(word)
            if tag not in tags:
                tags.append(tag)
        else:
            words.append(word)
    return " ".join(words), tags


def check_title(title: str) -> str:
    """The title with its spaces tidied; UsageError if it is blank or longer than MAX_TITLE."""
    tidy = " ".join(title.split())
    if not tidy:
        raise UsageError("a task needs a title")
    if len(tidy) > MAX_TITLE:
        raise UsageError(f"a title is at most {MAX_TITLE} characters, this one has {len(tidy)}")
    return tidy


@dataclass
class $Task:
    id: int
    title: str
    priority: int = 1
    tags: list[str] = field(default_factory=list)
    due: date | None = None
    done: bool = False
    created: date | None = None
    completed: date | None = None
    note: str = ""
#@if:without.recur
#@else
    every: int | None = None  # days between occurrences of a recurring task
#@end

    def has_tag(self, tag: str) -> bool:
        return tag.lstrip("+").lower() in self.tags

    def add_tags(self, tags) -> None:
        for tag in tags:
            tag = clean_tag(tag)
            if tag not in self.tags:
                self.tags.append(tag)

    def remove_tags(self, tags) -> None:
        gone = {clean_tag(t) for t in tags}
        self.tags = [t for t in self.tags if t not in gone]

    def is_overdue(self, today: date) -> bool:
        return not self.done and self.due is not None and self.due < today

    def is_due_within(self, today: date, days: int) -> bool:
        """Open and due no later than `days` days after today (overdue tasks included)."""
        return not self.done and self.due is not None and self.due <= today + timedelta(days=days)

    def complete(self, on: date) -> None:
        self.done, self.completed = True, on

    def reopen(self) -> None:
        self.done, self.completed = False, None

    def to_dict(self) -> dict:
        """The task as JSON-ready data (dates as ISO text)."""
        data = {"id": self.id, "title": self.title, "priority": self.priority, "tags": list(self.tags),
                "due": _iso(self.due), "done": self.done, "created": _iso(self.created),
                "completed": _iso(self.completed), "note": self.note}
#@if:without.recur
#@else
        if self.every:
            data["every"] = self.every
#@end
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "$Task":
        """A task from `to_dict`'s data; KeyError, TypeError or ValueError (or UsageError) if it is not."""
        if not isinstance(data, dict):
            raise TypeError(f"expected an object, got {type(data).__name__}")
        tags = data.get("tags", [])
        if not isinstance(tags, list):
            raise TypeError("tags must be a list")
        return cls(id=int(data["id"]), title=check_title(str(data["title"])),
                   priority=parse_priority(data.get("priority", 1)), tags=[clean_tag(str(t)) for t in tags],
                   due=from_iso(data.get("due")), done=bool(data.get("done", False)),
                   created=from_iso(data.get("created")), completed=from_iso(data.get("completed")),
#@if:without.recur
                   note=str(data.get("note", "")))
#@else
                   note=str(data.get("note", "")), every=_every(data.get("every")))
#@end
#@if:without.recur
#@else

    def next_occurrence(self, new_id: int, today: date) -> "$Task":
        """The next task of a recurring one: same title, priority, tags, note and interval, due
        `every` days after this one was due (after today if it had no due date), moved on by
        whole intervals until it is not in the past."""
        due = (self.due or today) + timedelta(days=self.every)
        while due < today:
            due += timedelta(days=self.every)
        return $Task(new_id, self.title, self.priority, list(self.tags), due, created=today, note=self.note,
                     every=self.every)


def _every(value) -> int | None:
    if value in (None, 0):
        return None
    days = int(value)
    if days < 1:
        raise ValueError(f"every must be at least 1 day, got {value!r}")
    return days
#@end


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()
'''

FILES = r'''"""Reading and writing the tool's text files. A failure becomes one of the package's errors naming
the file; a write goes to a temporary file that is then renamed over the old one, so a crash or a
full disk never leaves half a task file behind."""

from __future__ import annotations

import os
import tempfile

from .errors import StoreError


def read_text(path: str, what: str = "file", *, missing_ok: bool = False, error=StoreError) -> str | None:
    """The text of the file at `path` (UTF-8); None for a missing file when `missing_ok`."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        if missing_ok:
            return None
        raise error(f"{path}: there is no such {what}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: the {what} is not UTF-8 text") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror})") from None


def write_text(path: str, text: str, what: str = "file", *, error=StoreError) -> None:
    """Replace the file at `path` with `text` in one step (its folder is made if needed)."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise error(f"{path}: cannot write the {what} ({exc.strerror})") from None
'''

STORE = r'''"""The task file: every task of one list as JSON, read when a command starts and written back
(atomically: a temporary file renamed over the old one) after a change. Ids are never reused."""

from __future__ import annotations

import json
from datetime import date

from .errors import $Error, NotFound, StoreError
from .files import read_text, write_text
from .model import $Task, check_title, parse_priority

FORMAT_VERSION = 1


class $TaskStore:
    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self.tasks: list[$Task] = []
        self.next_id = 1

    @classmethod
    def open(cls, path: str) -> "$TaskStore":
        """The tasks of the file at `path`; an empty list if there is no such file yet."""
        store = cls(path)
        text = read_text(path, "task file", missing_ok=True)
        if text is not None:
            store.loads(text)
        return store

    def loads(self, text: str) -> None:
        """Replace the tasks with those of `text` (the task file's JSON)."""
        where = self.path or "<tasks>"
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StoreError(f"{where}: not a task file (line {exc.lineno}: {exc.msg})") from None
        if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
            raise StoreError(f"{where}: not a task file (expected an object with a list of 'tasks')")
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise StoreError(f"{where}: written in format {version!r}; this version reads format {FORMAT_VERSION}")
        tasks = []
        for number, item in enumerate(data["tasks"], 1):
            try:
                tasks.append($Task.from_dict(item))
            except KeyError as exc:
                raise StoreError(f"{where}: task {number} has no {exc.args[0]!r}") from None
            except (TypeError, ValueError, $Error) as exc:
                raise StoreError(f"{where}: task {number} is not valid: {exc}") from None
        ids = [t.id for t in tasks]
        if len(set(ids)) != len(ids):
            raise StoreError(f"{where}: two tasks have the same id")
        self.tasks = tasks
        self.next_id = max(int(data.get("next_id", 1)), max(ids, default=0) + 1)

    def dumps(self) -> str:
        data = {"version": FORMAT_VERSION, "next_id": self.next_id, "tasks": [t.to_dict() for t in self.tasks]}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    def save(self) -> None:
        if self.path is None:
            raise StoreError("this task list has no file to be saved to")
        write_text(self.path, self.dumps(), "task file")

    # -- changes -------------------------------------------------------------------------------------
    def add(self, title: str, *, priority: str | int = 1, tags=(), due: date | None = None, note: str = "",
            created: date | None = None) -> $Task:
        """A new task with the next id (checked: title, priority, tags)."""
        task = $Task(self.next_id, check_title(title), parse_priority(priority), [], due, created=created, note=note)
        task.add_tags(tags)
        return self.insert(task)

    def insert(self, task: $Task) -> $Task:
        self.next_id = max(self.next_id, task.id) + 1
        self.tasks.append(task)
        return task

    def $find(self, task_id: int) -> $Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise NotFound(task_id)

    def remove(self, task_id: int) -> $Task:
        task = self.$find(task_id)
        self.tasks.remove(task)
        return task

    def complete(self, task_id: int, on: date) -> $Task:
        task = self.$find(task_id)
        task.complete(on)
        return task

    def reopen(self, task_id: int) -> $Task:
        task = self.$find(task_id)
        task.reopen()
        return task
#@if:without.recur
#@else

    def renew(self, task: $Task, today: date) -> $Task | None:
        """After a recurring task is done: its next occurrence, added to the list (None if it does not recur)."""
        if not task.every:
            return None
        return self.insert(task.next_occurrence(self.next_id, today))
#@end

    def import_items(self, items: list[dict], today: date | None = None) -> list[$Task]:
        """Tasks from imported data (exchange.import_tasks), each with a new id."""
        added = []
        for item in items:
            task = self.add(item["title"], priority=item.get("priority", 1), tags=item.get("tags", ()),
                            due=item.get("due"), note=item.get("note", ""), created=today)
            if item.get("done"):
                task.complete(today)
            added.append(task)
        return added

    # -- questions -----------------------------------------------------------------------------------
    def open_tasks(self) -> list[$Task]:
        return [t for t in self.tasks if not t.done]

    def tags(self) -> list[str]:
        """Every tag in use, sorted."""
        return sorted({tag for task in self.tasks for tag in task.tags})

    def __len__(self) -> int:
        return len(self.tasks)
'''

FILTERS = r'''"""The filter language of `list`, `export` and `stats`: words that narrow a list of tasks.

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

from .dates import $parse_date
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
    return Term("due", op, $parse_date(value, today))


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
'''

FORMATTING = r'''"""Text for the terminal: cells cut to a width, aligned columns, task tables, one task in
detail, progress bars and plurals."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from . import dates
from .errors import UsageError
from .model import priority_name

ELLIPSIS = "$ellipsis"
NO_ROWS = "No tasks."
GAP = "  "


def truncate(text: str, width: int) -> str:
    """`text` cut to at most `width` characters; a cut is marked with ELLIPSIS (which counts)."""
    if width <= 0:
        return ""
    if len(text) <= width:
        return text
    return text[: width - len(ELLIPSIS)] + ELLIPSIS  #@if:bug.truncate: return text[:width] + ELLIPSIS


def pad(text: str, width: int, align: str = "left") -> str:
    if align == "right":
        return text.rjust(width)
    if align == "center":
        return text.center(width)
    return text.ljust(width)


@dataclass(frozen=True)
class Column:
    name: str
    header: str
    align: str = "left"
    width: int | None = None  # the most it may take (None: as wide as its widest cell)


COLUMNS = {
    "id": Column("id", "#", "right"),
    "pri": Column("pri", "Pri"),
    "due": Column("due", "Due"),
    "title": Column("title", "Title", width=$title_width),
    "tags": Column("tags", "Tags"),
    "state": Column("state", "State"),
}
DEFAULT_COLUMNS = ("id", "pri", "due", "title", "tags")


def parse_columns(text: str) -> tuple[str, ...]:
    """'id, title' -> ('id', 'title'): names from COLUMNS, in the order given."""
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if not names:
        raise UsageError("no columns given (choose from: " + ", ".join(COLUMNS) + ")")
    unknown = [n for n in names if n not in COLUMNS]
    if unknown:
        raise UsageError(f"unknown column {unknown[0]!r} (choose from: {', '.join(COLUMNS)})")
    return names


def cell(task, column: str, today: date, relative: bool = False) -> str:
    """The text of one task in one column."""
    if column == "id":
        return str(task.id)
    if column == "pri":
        return priority_name(task.priority)
    if column == "title":
        return task.title
    if column == "due":
        if task.due is None:
            return "-"
        return dates.relative(task.due, today) if relative else dates.format_date(task.due)
    if column == "tags":
        return " ".join("+" + tag for tag in task.tags)
    if column == "state":
        return "done" if task.done else "late" if task.is_overdue(today) else "open"
    raise UsageError(f"unknown column {column!r}")


def table(rows: list[list[str]], columns: list[Column]) -> str:
    """Rows under a header line, each column as wide as its widest cell (at most its width, cells
    cut with ELLIPSIS), columns GAP apart, no trailing spaces; NO_ROWS when there are no rows."""
    if not rows:  #@if:bug.empty_table:
        return NO_ROWS  #@if:bug.empty_table:
    widths = []
    for index, column in enumerate(columns):
        widest = max(len(column.header), max(len(row[index]) for row in rows))
        widths.append(widest if column.width is None else min(column.width, widest))
    lines = [[column.header for column in columns], *rows]
    out = []
    for line in lines:
        cells = (pad(truncate(text, width), width, column.align) for text, width, column in zip(line, widths, columns))
        out.append(GAP.join(cells).rstrip())
    return "\n".join(out)


def render_tasks(tasks, columns=DEFAULT_COLUMNS, today: date | None = None, *, relative: bool = False,
                 title_width: int | None = None) -> str:
    """Tasks as a table of `columns` (names from COLUMNS)."""
    today = today or date.today()
    chosen = []
    for name in columns:
        if name not in COLUMNS:
            raise UsageError(f"unknown column {name!r} (choose from: {', '.join(COLUMNS)})")
        column = COLUMNS[name]
        chosen.append(replace(column, width=title_width) if name == "title" and title_width else column)
    rows = [[cell(task, column.name, today, relative) for column in chosen] for task in tasks]
    return table(rows, chosen)


def detail(task, today: date) -> str:
    """One task, a field a line (what `show` prints)."""
    lines = [f"#{task.id}  {task.title}", f"priority: {priority_name(task.priority)}"]
    if task.due is not None:
        lines.append(f"due:      {dates.format_date(task.due)} ({dates.relative(task.due, today)})")
    if task.tags:
        lines.append("tags:     " + " ".join("+" + tag for tag in task.tags))
    if task.done:
        lines.append(f"state:    done on {dates.format_date(task.completed)}")
    else:
        lines.append("state:    overdue" if task.is_overdue(today) else "state:    open")
    if task.created is not None:
        lines.append(f"created:  {dates.format_date(task.created)}")
#@if:without.recur
#@else
    if task.every:
        lines.append(f"repeats:  every {plural(task.every, 'day')}")
#@end
    if task.note:
        lines.append(f"note:     {task.note}")
    return "\n".join(lines)


def progress_bar(done: int, total: int, width: int = 20) -> str:
    """'[########------------]  40%': the share of `total` that is done (0% of nothing)."""
    fraction = done / total if total else 0.0
    filled = round(fraction * width)
    return f"[{'#' * filled}{'-' * (width - filled)}] {round(fraction * 100):3d}%"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 task', '3 tasks', '2 boxes' (with many='boxes')."""
    return f"{count} {word if count == 1 else many or word + 's'}"
'''

CONFIG = r'''"""Settings, in layers: built-in defaults, then the config file (INI, section [$pkg]), then
environment variables (${env_prefix}_LIMIT=5), then `-o limit=5` on the command line; each layer
overrides the ones before it, and every value is checked where it is read (the message says where)."""

from __future__ import annotations

import configparser
import io
import os
from dataclasses import dataclass

from .errors import ConfigError, UsageError
from .files import read_text, write_text
from .filters import SORT_KEYS
from .formatting import parse_columns
from .model import PRIORITIES

ENV_PREFIX = "$env_prefix"
CONFIG_ENV = ENV_PREFIX + "_CONFIG"
CONFIG_NAME = "$config_name"
SECTION = "$pkg"
TRUE = ("1", "yes", "true", "on")
FALSE = ("0", "no", "false", "off")


@dataclass(frozen=True)
class Option:
    name: str
    kind: str          # "int" | "bool" | "str" | "choice" | "columns"
    default: object
    help: str
    choices: tuple = ()
    minimum: int = 0


OPTIONS = {option.name: option for option in (
    Option("file", "str", "$default_file", "the task file"),
    Option("limit", "int", $list_limit, "the most tasks `list` shows (0: all)"),
    Option("sort", "choice", "id", "the order of `list`", choices=SORT_KEYS),
    Option("priority", "choice", "normal", "the priority of new tasks", choices=PRIORITIES),
    Option("title_width", "int", $title_width, "the widest the title column gets", minimum=10),
    Option("relative", "bool", False, "due dates as 'in 3 days' instead of ISO dates"),
    Option("show_done", "bool", False, "`list` shows finished tasks too"),
    Option("columns", "columns", "id,pri,due,title,tags", "the columns of `list`"),
)}


def option(name: str) -> Option:
    try:
        return OPTIONS[name]
    except KeyError:
        raise ConfigError(f"unknown setting {name!r} (settings: {', '.join(OPTIONS)})") from None


def convert(option: Option, text: str, where: str):
    """The value `text` stands for, checked; ConfigError naming `where` and the setting if it is wrong."""
    word = str(text).strip()
    if option.kind == "int":
        try:
            number = int(word)
        except ValueError:
            raise ConfigError(f"{where}: {option.name} must be a whole number, got {text!r}") from None
        if number < option.minimum:
            raise ConfigError(f"{where}: {option.name} must be at least {option.minimum}, got {number}")
        return number
    if option.kind == "bool":
        if word.lower() in TRUE:
            return True
        if word.lower() in FALSE:
            return False
        raise ConfigError(f"{where}: {option.name} must be yes or no, got {text!r}")
    if option.kind == "choice":
        if word not in option.choices:
            raise ConfigError(f"{where}: {option.name} must be one of {', '.join(option.choices)}, got {text!r}")
        return word
    if option.kind == "columns":
        try:
            return ",".join(parse_columns(word))
        except UsageError as exc:
            raise ConfigError(f"{where}: {option.name}: {exc}") from None
    if not word:
        raise ConfigError(f"{where}: {option.name} cannot be empty")
    return word


def format_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def env_name(name: str) -> str:
    """The environment variable of a setting: 'title_width' -> '${env_prefix}_TITLE_WIDTH'."""
    return f"{ENV_PREFIX}_{name.upper()}"


def default_path(environ) -> str:
    """Where the config file is when neither --config nor ${env_prefix}_CONFIG says: CONFIG_NAME in $$HOME."""
    return os.path.join(environ.get("HOME") or ".", CONFIG_NAME)


class Settings:
    """The value of every setting and where it came from ('default', a file, $$VAR, '-o')."""

    def __init__(self) -> None:
        self.values = {name: o.default for name, o in OPTIONS.items()}
        self.sources = {name: "default" for name in OPTIONS}

    def set(self, name: str, text: str, source: str) -> None:
        self.values[name] = convert(option(name), text, source)
        self.sources[name] = source

    def get(self, name: str):
        return self.values[option(name).name]

    __getitem__ = get

    def items(self) -> list[tuple[str, object, str]]:
        return [(name, self.values[name], self.sources[name]) for name in OPTIONS]


def _read_parser(path: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    text = read_text(path, "config file", missing_ok=True, error=ConfigError)
    try:
        parser.read_string(text or "", source=path)
    except configparser.Error as exc:
        raise ConfigError(f"{path}: not a config file: {exc.message.splitlines()[0]}") from None
    return parser


def read_file(path: str) -> dict[str, str]:
    """The settings written in the config file at `path` (none if there is no file)."""
    parser = _read_parser(path)
    if not parser.has_section(SECTION):
        return {}
    values = dict(parser.items(SECTION))
    for name in values:
        if name not in OPTIONS:
            raise ConfigError(f"{path}: unknown setting {name!r} in [{SECTION}] (settings: {', '.join(OPTIONS)})")
    return values


def load(path: str, environ, overrides=()) -> Settings:
    """Defaults < the file at `path` < `environ` < `overrides` ('key=value' strings)."""
    settings = Settings()
    for name, text in read_file(path).items():
        settings.set(name, text, path)
    for name in OPTIONS:
        variable = env_name(name)
        if variable in environ:
            settings.set(name, environ[variable], "$$" + variable)
    for item in overrides:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"-o takes KEY=VALUE, got {item!r}")
        settings.set(name.strip(), text, "-o")
    return settings


def _write(path: str, parser: configparser.ConfigParser) -> None:
    text = io.StringIO()
    parser.write(text)
    write_text(path, text.getvalue(), "config file", error=ConfigError)


def set_value(path: str, name: str, text: str):
    """Write `name = text` into the config file at `path` (created if needed) once the value is
    checked; the value it stands for."""
    value = convert(option(name), text, path)
    parser = _read_parser(path)
    if not parser.has_section(SECTION):
        parser.add_section(SECTION)
    parser.set(SECTION, name, format_value(value))
    _write(path, parser)
    return value


def unset_value(path: str, name: str) -> bool:
    """Remove `name` from the config file; whether it was there."""
    option(name)
    parser = _read_parser(path)
    if not parser.has_section(SECTION) or not parser.remove_option(SECTION, name):
        return False
    _write(path, parser)
    return True
'''

EXCHANGE = r'''"""Tasks in and out of other formats: JSON (a list of task objects), CSV (a row a task, a header
row first) and Markdown checklists (`- [x] Title !high due:2024-05-01 +tag`).

Imported tasks come back as plain data (title, priority, tags, due, done, note); the task file gives
them new ids."""

from __future__ import annotations

import csv
import io
import json
import os
import re

from .dates import from_iso
from .errors import ImportFormatError, UsageError
from .model import PRIORITIES, check_title, clean_tag, parse_priority, priority_name

FORMATS = ("json", "csv", "md")
EXTENSIONS = {".json": "json", ".csv": "csv", ".md": "md", ".markdown": "md"}
CSV_FIELDS = ("id", "title", "priority", "due", "tags", "done", "note")
_CHECKLIST = re.compile(r"\s*[-*]\s+\[(?P<mark>[ xX])\]\s+(?P<rest>.*)")


def guess_format(path: str, given: str | None = None) -> str:
    """`given` if it is a known format, else the one `path`'s extension names."""
    if given:
        if given not in FORMATS:
            raise UsageError(f"unknown format {given!r} (use one of: {', '.join(FORMATS)})")
        return given
    extension = os.path.splitext(path)[1].lower()
    if extension not in EXTENSIONS:
        raise UsageError(f"cannot tell the format of {path!r} from its name: use --format ({', '.join(FORMATS)})")
    return EXTENSIONS[extension]


# -- export --------------------------------------------------------------------------------------------
def export_tasks(tasks, fmt: str) -> str:
    if fmt == "json":
        return json.dumps([task.to_dict() for task in tasks], indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for task in tasks:
            writer.writerow(csv_row(task))
        return out.getvalue()
    if fmt == "md":
        return "".join(checklist_line(task) + "\n" for task in tasks)
    raise UsageError(f"unknown format {fmt!r} (use one of: {', '.join(FORMATS)})")


def csv_row(task) -> dict[str, str]:
    return {"id": str(task.id), "title": task.title, "priority": priority_name(task.priority),
            "due": task.due.isoformat() if task.due else "", "tags": " ".join(task.tags),
            "done": "yes" if task.done else "no", "note": task.note}


def digest(title: str, groups: dict[str, list]) -> str:
    """Markdown: '# title', then for each group that has tasks a '## Name (N)' heading over their
    checklist (`checklist_line`), in the order given. `import` reads the tasks back (it skips the
    headings)."""
    lines = [f"# {title}"]
    for name, tasks in groups.items():
        if tasks:
            lines += ["", f"## {name[:1].upper()}{name[1:]} ({len(tasks)})", *(checklist_line(task) for task in tasks)]
    if len(lines) == 1:
        lines += ["", "Nothing here."]
    return "\n".join(lines)


def checklist_line(task) -> str:
    words = [f"- [{'x' if task.done else ' '}]", task.title]
    if task.priority != 1:
        words.append("!" + priority_name(task.priority))
    if task.due is not None:
        words.append(f"due:{task.due.isoformat()}")
    words += ["+" + tag for tag in task.tags]
    return " ".join(words)


# -- import --------------------------------------------------------------------------------------------
def import_tasks(text: str, fmt: str, where: str = "<input>") -> list[dict]:
    """Plain task data from `text` in `fmt`; ImportFormatError naming `where` and the line or item."""
    if fmt == "json":
        return _from_json(text, where)
    if fmt == "csv":
        return _from_csv(text, where)
    if fmt == "md":
        return _from_markdown(text, where)
    raise UsageError(f"unknown format {fmt!r} (use one of: {', '.join(FORMATS)})")


def _item(where: str, title, priority=1, tags=(), due=None, done=False, note="") -> dict:
    try:
        return {"title": check_title(str(title)), "priority": parse_priority(priority),
                "tags": [clean_tag(t) for t in tags], "due": from_iso(due) if due else None,
                "done": bool(done), "note": str(note or "")}
    except (ValueError, UsageError) as exc:
        raise ImportFormatError(f"{where}: {exc}") from None


def _from_json(text: str, where: str) -> list[dict]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"{where}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if isinstance(data, dict) and isinstance(data.get("tasks"), list):
        data = data["tasks"]  # a whole task file
    if not isinstance(data, list):
        raise ImportFormatError(f"{where}: expected a list of tasks")
    items = []
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, dict) or "title" not in entry:
            raise ImportFormatError(f"{where}: item {number} is not a task (an object with a 'title')")
        items.append(_item(f"{where}: item {number}", entry["title"], entry.get("priority", 1), entry.get("tags") or (),
                           entry.get("due"), entry.get("done", False), entry.get("note", "")))
    return items


def _from_csv(text: str, where: str) -> list[dict]:
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "title" not in reader.fieldnames:
        raise ImportFormatError(f"{where}: a CSV file needs a header row with a 'title' column")
    items = []
    for row in reader:
        line = f"{where}: line {reader.line_num}"
        done = (row.get("done") or "no").strip().lower()
        if done not in ("yes", "no", "true", "false", "1", "0", "x", ""):
            raise ImportFormatError(f"{line}: done must be yes or no, got {row['done']!r}")
        items.append(_item(line, row["title"], row.get("priority") or 1, (row.get("tags") or "").split(),
                           row.get("due"), done in ("yes", "true", "1", "x"), row.get("note")))  #@if:bug.import_due: row.get("due_date"), done in ("yes", "true", "1", "x"), row.get("note")))
    return items


def _from_markdown(text: str, where: str) -> list[dict]:
    items = []
    for number, raw in enumerate(text.splitlines(), 1):
        match = _CHECKLIST.fullmatch(raw)
        if not match:
            continue  # headings, prose and blank lines are not tasks
        title, priority, due, tags = [], 1, None, []
        for word in match.group("rest").split():
            if word.startswith("!") and word[1:].lower() in PRIORITIES:
                priority = word[1:].lower()
            elif word.startswith("due:"):
                due = word[4:]
            elif len(word) > 1 and word.startswith("+"):
                tags.append(word)
            else:
                title.append(word)
        items.append(_item(f"{where}: line {number}", " ".join(title), priority, tags, due, match.group("mark") != " "))
    return items
'''

REPORT = r'''"""Counting tasks: how many are open, done, overdue and due soon, and how they fall into groups
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
'''

COMMANDS = r'''"""The subcommands: `register` adds their parsers (with the help `--help` prints), and each
`cmd_*` does one thing to the task file and says what it did. A command returns its exit code."""

from __future__ import annotations

import argparse
import os
from datetime import date

from . import config
from .dates import $parse_date
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
from .store import $TaskStore


class Context:
    """What a command works with: the settings, today's date, the config file's path, and the
    task file (opened on first use, so `config` works even when the task file is broken)."""

    def __init__(self, settings: config.Settings, today: date, config_path: str, task_path: str) -> None:
        self.settings, self.today, self.config_path, self.task_path = settings, today, config_path, task_path
        self._store: $TaskStore | None = None

    @property
    def store(self) -> $TaskStore:
        if self._store is None:
            self._store = $TaskStore.open(self.task_path)
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
    due = $parse_date(args.due, ctx.today) if args.due else None
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
    tasks = [ctx.store.$find(i) for i in task_ids(args.ids)]  # every id checked before anything changes
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
    tasks = [ctx.store.$find(i) for i in task_ids(args.ids)]
    for task in tasks:
        if not task.done:
            ctx.out(f"#{task.id} is not done")
            continue
        ctx.store.reopen(task.id)
        ctx.out(f"Reopened #{task.id}: {task.title}")
    ctx.store.save()
    return 0


def cmd_remove(args, ctx: Context) -> int:
    tasks = [ctx.store.$find(i) for i in task_ids(args.ids)]
    for task in tasks:
        ctx.store.remove(task.id)
        ctx.out(f"Removed #{task.id}: {task.title}")
    ctx.store.save()
    return 0


def cmd_edit(args, ctx: Context) -> int:
    task = ctx.store.$find(task_ids([args.id])[0])
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
        task.due = None if args.due.lower() == "none" else $parse_date(args.due, ctx.today)
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
        ctx.out(detail(ctx.store.$find(task_id), ctx.today))
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
'''

CLI = r'''"""The command line: `$pkg [--file PATH] [--config PATH] [-o KEY=VALUE] COMMAND ...`.

`main(argv)` runs one command and returns its exit code: 0 when it worked, 1 when it could not
(an unknown task, a broken file), 2 for a command line that does not make sense. Errors are one
line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from datetime import date

from . import __version__, commands, config, views
from .dates import $parse_date
from .errors import $Error, UsageError

PROG = "$pkg"
EXAMPLES = """examples:
  $pkg add Buy milk +errands --due tomorrow
  $pkg list +errands pri>=high
  $pkg done 3
  $pkg export --output tasks.csv
  $pkg config set limit 10
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised as UsageError (main prints them) instead of exiting."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")


def $build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Keep a list of tasks in a JSON file: add, list, finish, export.",
                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", metavar="PATH", help="the task file (default: the 'file' setting)")
    parser.add_argument("--config", metavar="PATH", help=f"the config file (default: $${config.CONFIG_ENV}, else ~/{config.CONFIG_NAME})")
    parser.add_argument("-o", "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting for this command only (see `config --help`)")
    parser.add_argument("--today", metavar="DATE", help="take DATE as today (for scripts and tests)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands.register(subparsers)
    views.register(subparsers)
    return parser


@functools.cache
def parser() -> argparse.ArgumentParser:
    """The command line's parser, built on first use and kept: with a subcommand per view it is the
    costliest part of a short command, and scripts call `main()` many times in one process."""
    return $build_parser()


def main(argv=None, *, environ=None, today: date | None = None) -> int:
    """Run one command. `environ` replaces os.environ and `today` the real date (for tests and scripts)."""
    environ = os.environ if environ is None else environ
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser().parse_args(argv)
        if today is None:
            today = $parse_date(args.today, date.today()) if args.today else date.today()
        config_path = args.config or environ.get(config.CONFIG_ENV) or config.default_path(environ)
        settings = config.load(config_path, environ, args.overrides)
        ctx = commands.Context(settings, today, config_path, commands.task_file(args.file, settings))
        return args.run(args, ctx)
    except $Error as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except SystemExit as exc:  # --help and --version print and exit
        return exc.code if isinstance(exc.code, int) else 0
'''

VIEWS_INDEX = r'''"""Saved views: each module of this package is a ready-made listing with its own tag, order and
length, run as its own subcommand (`$pkg <view>`). `views` shows them all; `views --check` finds
fault with their settings, `views --commands` prints the `list` command of each, `views --digest`
prints each as Markdown, and `views --why ID` says which views hold a task."""

from __future__ import annotations

from ..commands import task_ids
from ..errors import UsageError
from ..filters import SORT_KEYS
from ..formatting import COLUMNS, Column, plural, table
from ..model import PRIORITIES, clean_tag
$unit_imports

VIEWS = {
$unit_table
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
        task = ctx.store.$find(task_ids([args.why])[0])
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
'''

UNIT = r'''"""The `$unit` view: the tasks tagged `+$unit` (priority $min_priority or more), in $sort order, at most $limit.

`$pkg $unit` prints them as a table (`--limit N` for more or fewer, `--relative` for due dates as
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

NAME = "$unit"
TAG = "$unit"
SORT = "$sort"
LIMIT = $limit
MIN_PRIORITY = $min_priority
SHOW_DONE = $show_done
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
    """'#3 is in $unit', or '#3 is not in $unit: ' and every reason."""
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
        ctx.out(why(ctx.store.$find(task_ids([args.why])[0]), ctx.today))
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
'''

README = r'''# $pkg

A command-line task manager. Tasks live in a JSON file; the command line adds, lists, filters,
finishes, exports and imports them, and $unit_count saved views list the tasks of one tag each.

```
$$ $pkg add Buy milk +errands --due tomorrow --pri high
Added #1: Buy milk (due 2024-03-16)
$$ $pkg list +errands
#  Pri   Due         Title     Tags
1  high  2024-03-16  Buy milk  +errands
$$ $pkg done 1
Completed #1: Buy milk
```

## Commands

| command | what it does |
|---|---|
| `add TITLE... [--due D] [--pri P] [--tag T] [--note N]` | add a task; `+word` in the title is a tag |
| `list [FILTER...] [--all] [--sort K] [--limit N] [--columns A,B] [--relative]` | list tasks |
| `done ID...`, `undo ID...`, `rm ID...`, `show ID...` | finish, reopen, remove, show tasks |
| `edit ID [--title ...] [--pri P] [--due D] [--tag T] [--untag T] [--note N]` | change a task |
| `export [FILTER...] [--format json,csv,md] [--output PATH]` | write tasks out |
| `import PATH [--format json,csv,md]` | add the tasks of a file (new ids) |
| `config [list,path,get KEY,set KEY VALUE,unset KEY]` | settings |
| `stats [FILTER...] [--by tag,priority,state,due]`, `tags` | counts |
| `views [--check,--commands,--digest,--why ID]`, `VIEW [--limit N] [--digest] [--why ID]` | saved views |

Every command has `--help`. Exit codes: 0 done, 1 could not (unknown task, unreadable file),
2 a command line that does not make sense.

## Dates and filters

Dates: `2024-05-01`, `today`, `tomorrow`, `yesterday`, a weekday (`fri`: the next Friday),
`+3d`, `-2w`, `+1m` (calendar months). Filters (all must match): `+work` or `tag:work`,
`notag:work`, `pri>=high`, `due<=+7d`, `due:none`, `id>3`, `is:open`/`is:done`/`is:overdue`, and
any other word must appear in the title.

## Views

Each saved view lists the tasks of one tag (`$pkg work`), with its own order, length and least
priority, finished tasks left out or not. `$pkg work --digest` prints the view as Markdown checklists under a heading for when the
tasks are due (overdue, today, this week, later, no date), which `import` reads back;
`$pkg work --why 3` says why task 3 is in the view or not (`#3 is not in work: it is not tagged
+work`). `views` counts every view's tasks, `views --why 3` asks every view about one task,
`views --commands` prints the `list` command that shows what each view shows, and `views --check`
finds fault with the views' settings (exit 1 when there is any).

## Settings

Defaults, then the config file (`--config`, else `$$${env_prefix}_CONFIG`, else `~/$config_name`;
INI, section `[$pkg]`), then environment variables (`${env_prefix}_LIMIT=5`), then `-o limit=5`.
`$pkg config --help` lists them: file, limit, sort, priority, title_width, relative, show_done, columns.

## As a library

```python
from $pkg import $TaskStore
from $pkg.filters import parse_query

store = $TaskStore.open("tasks.json")
task = store.$find(1)
```

The main classes: `$pkg.model.$Task`, `$pkg.store.$TaskStore` (`$find`, `add`, `complete`...),
`$pkg.dates.$parse_date`, `$pkg.cli.$build_parser` and `$pkg.cli.main(argv)`.

Run the tests with `python -m pytest -q`.
'''

PYPROJECT = r'''[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$pkg"
version = "0.$minor.0"
description = "A command-line task manager"
requires-python = ">=3.10"

[project.scripts]
$pkg = "$pkg.cli:main"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

TESTS = r'''#@area dates
import pytest
from datetime import date
from $pkg import dates
from $pkg.dates import $parse_date
from $pkg.errors import UsageError
TODAY = date(2024, 3, 15)
#@test visible
def test_parse_iso_dates_and_words():
    assert $parse_date("2024-04-01", TODAY) == date(2024, 4, 1)
    assert $parse_date(" Today ", TODAY) == TODAY
    assert $parse_date("tomorrow", TODAY) == date(2024, 3, 16)
    assert $parse_date("yesterday", TODAY) == date(2024, 3, 14)
#@test visible
def test_parse_offsets():
    assert $parse_date("+3d", TODAY) == date(2024, 3, 18)
    assert $parse_date("+10", TODAY) == date(2024, 3, 25)
    assert $parse_date("-2w", TODAY) == date(2024, 3, 1)
    assert $parse_date("+1m", TODAY) == date(2024, 4, 15)
#@test
def test_parse_offsets_both_ways():
    assert $parse_date("-3d", TODAY) == date(2024, 3, 12)
    assert $parse_date("+2w", TODAY) == date(2024, 3, 29)
    assert $parse_date("-1m", TODAY) == date(2024, 2, 15)
    assert $parse_date("+0d", TODAY) == TODAY
    assert $parse_date("+12m", TODAY) == date(2025, 3, 15)
#@test
def test_months_stay_in_the_month():
    assert dates.add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert dates.add_months(date(2023, 1, 31), 1) == date(2023, 2, 28)
    assert dates.add_months(date(2024, 11, 30), 3) == date(2025, 2, 28)
    assert dates.add_months(date(2024, 3, 31), -1) == date(2024, 2, 29)
    assert dates.add_months(date(2024, 1, 15), -1) == date(2023, 12, 15)
    assert dates.add_months(date(2024, 12, 1), 1) == date(2025, 1, 1)
#@test visible
def test_weekdays_are_the_next_one():
    assert $parse_date("mon", TODAY) == date(2024, 3, 18)
    assert $parse_date("saturday", TODAY) == date(2024, 3, 16)
#@test
def test_weekday_of_today_is_a_week_ahead():
    assert $parse_date("fri", TODAY) == date(2024, 3, 22)
    assert $parse_date("Thu", TODAY) == date(2024, 3, 21)
    assert $parse_date("sun", TODAY) == date(2024, 3, 17)
    assert dates.weekday_index("mo") is None
    assert dates.weekday_index("wed") == 2
    assert dates.weekday_index("monday") == 0
    assert dates.next_weekday(date(2024, 3, 18), 0) == date(2024, 3, 25)
#@test
def test_parse_rejects_what_is_not_a_date():
    for text in ("", "  ", "soon", "+d", "2024-13-01", "3x", "++3d"):
        with pytest.raises(UsageError):
            $parse_date(text, TODAY)
#@test
def test_parse_error_says_what_was_given():
    with pytest.raises(UsageError) as info:
        $parse_date("someday", TODAY)
    assert "'someday'" in str(info.value)
    assert "YYYY-MM-DD" in str(info.value)
#@test visible
def test_relative_near_days():
    assert dates.relative(TODAY, TODAY) == "today"
    assert dates.relative(date(2024, 3, 16), TODAY) == "tomorrow"
    assert dates.relative(date(2024, 3, 14), TODAY) == "yesterday"
#@test catches=relative
def test_relative_future_and_past():
    assert dates.relative(date(2024, 3, 18), TODAY) == "in 3 days"
    assert dates.relative(date(2024, 3, 13), TODAY) == "2 days ago"
    assert dates.relative(date(2024, 3, 28), TODAY) == "in 13 days"
#@test catches=relative
def test_relative_weeks():
    assert dates.relative(date(2024, 3, 29), TODAY) == "in 2 weeks"
    assert dates.relative(date(2024, 4, 4), TODAY) == "in 2 weeks"
    assert dates.relative(date(2024, 2, 23), TODAY) == "3 weeks ago"
    assert dates.relative(date(2024, 3, 2), TODAY) == "13 days ago"
#@test
def test_week_bounds_and_days_between():
    assert dates.week_bounds(TODAY) == (date(2024, 3, 11), date(2024, 3, 17))
    assert dates.week_bounds(date(2024, 3, 11)) == (date(2024, 3, 11), date(2024, 3, 17))
    assert dates.week_bounds(date(2024, 3, 17)) == (date(2024, 3, 11), date(2024, 3, 17))
    assert dates.days_between(TODAY, date(2024, 3, 20)) == 5
    assert dates.days_between(date(2024, 3, 20), TODAY) == -5
#@test visible
def test_iso_text():
    assert dates.format_date(date(2024, 5, 1)) == "2024-05-01"
    assert dates.format_date(None) == "-"
    assert dates.from_iso("2024-05-01") == date(2024, 5, 1)
    assert dates.from_iso("") is None and dates.from_iso(None) is None
#@test needs=recur
def test_parse_interval():
    assert [dates.parse_interval(t) for t in ("3d", "1d", "2w", "5", "daily", "weekly", "fortnightly")] == [3, 1, 14, 5, 1, 7, 14]
    for bad in ("0d", "0", "x", "3 months", ""):
        with pytest.raises(UsageError):
            dates.parse_interval(bad)

#@area filters
import pytest
from datetime import date
from $pkg.errors import UsageError
from $pkg.filters import limit, parse_query, parse_term, sort_tasks
from $pkg.model import $Task
TODAY = date(2024, 3, 15)
def four(): return [$Task(1, "Buy milk", 1, ["errands"], date(2024, 3, 14)), $Task(2, "Write report", 3, ["work"], date(2024, 3, 20), created=date(2024, 3, 2)), $Task(3, "Call Mom", 2, [], None, done=True, created=date(2024, 3, 1)), $Task(4, "Fix bike", 0, ["home", "errands"], date(2024, 3, 15))]
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
    tasks = [$Task(5, "b", 2), $Task(2, "a", 2), $Task(9, "B", 2)]
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

#@area formatting
import pytest
from datetime import date
from $pkg.errors import UsageError
from $pkg.formatting import COLUMNS, ELLIPSIS, NO_ROWS, Column, cell, detail, pad, parse_columns, plural, progress_bar, render_tasks, table, truncate
from $pkg.model import $Task
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
    tasks = [$Task(1, "Buy milk", 2, ["errands"], date(2024, 3, 16)), $Task(12, "Call Mom", 1)]
    assert render_tasks(tasks, today=TODAY).splitlines() == [
        " #  Pri     Due         Title     Tags",
        " 1  high    2024-03-16  Buy milk  +errands",
        "12  normal  -           Call Mom",
    ]
#@test
def test_render_columns_and_relative_dates():
    tasks = [$Task(3, "Pay rent", 3, [], date(2024, 3, 16)), $Task(4, "Old", 0, [], date(2024, 3, 14), done=True)]
    assert render_tasks(tasks, ("id", "due", "state"), TODAY, relative=True).splitlines() == [
        "#  Due        State", "3  tomorrow   open", "4  yesterday  done"]
    assert render_tasks(tasks, ("title", "pri"), TODAY).splitlines() == ["Title     Pri", "Pay rent  urgent", "Old       low"]
    with pytest.raises(UsageError):
        render_tasks(tasks, ("id", "colour"), TODAY)
#@test
def test_title_width_cuts_titles_only_when_needed():
    tasks = [$Task(1, "A fairly long title here", 1)]
    assert render_tasks(tasks, ("id", "title"), TODAY, title_width=24).splitlines()[1] == "1  A fairly long title here"
    wide = [$Task(2, "x" * 45, 1)]
    assert render_tasks(wide, ("pri", "title"), TODAY, title_width=50).splitlines()[1] == "normal  " + "x" * 45
#@test catches=truncate
def test_titles_are_cut_at_their_width():
    width = COLUMNS["title"].width
    exact = render_tasks([$Task(1, "y" * width, 1)], ("title",), TODAY).splitlines()[1]
    long = render_tasks([$Task(1, "z" * (width + 5), 1)], ("title",), TODAY).splitlines()[1]
    assert (exact, long) == ("y" * width, "z" * (width - 1) + ELLIPSIS)
    narrow = render_tasks([$Task(1, "Pay rent", 1)], ("pri", "title"), TODAY, title_width=5).splitlines()
    assert narrow == ["Pri     Title", "normal  Pay " + ELLIPSIS]
#@test
def test_cells():
    task = $Task(7, "Plan trip", 0, ["travel", "fun"], date(2024, 3, 10))
    assert [cell(task, c, TODAY) for c in ("id", "pri", "title", "due", "tags", "state")] == [
        "7", "low", "Plan trip", "2024-03-10", "+travel +fun", "late"]
    task.complete(TODAY)
    assert cell(task, "state", TODAY) == "done"
    assert cell($Task(8, "x", due=TODAY), "state", TODAY) == "open"
    assert cell($Task(8, "x"), "due", TODAY, relative=True) == "-"
    assert cell($Task(8, "x", due=TODAY), "due", TODAY, relative=True) == "today"
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
    task = $Task(4, "Pay rent", 3, ["home"], date(2024, 3, 16), created=date(2024, 3, 1), note="by transfer")
    assert detail(task, TODAY).splitlines() == [
        "#4  Pay rent", "priority: urgent", "due:      2024-03-16 (tomorrow)", "tags:     +home",
        "state:    open", "created:  2024-03-01", "note:     by transfer"]
    task.complete(date(2024, 3, 15))
    assert "state:    done on 2024-03-15" in detail(task, TODAY).splitlines()
    late = $Task(5, "Late", due=date(2024, 3, 14))
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

#@area model
import pytest
from datetime import date
from $pkg.errors import UsageError
from $pkg.model import MAX_TITLE, PRIORITIES, $Task, check_title, clean_tag, parse_priority, priority_name, split_title
TODAY = date(2024, 3, 15)
#@test visible
def test_parse_priority():
    assert [parse_priority(x) for x in ("low", "Normal", "h", "URG", "2", 3, " high ")] == [0, 1, 2, 3, 2, 3, 2]
    assert [priority_name(n) for n in range(4)] == list(PRIORITIES)
#@test
def test_parse_priority_rejects():
    for bad in ("4", "-1", "", "x", 7, "very"):
        with pytest.raises(UsageError):
            parse_priority(bad)
#@test visible
def test_split_title():
    assert split_title("Buy milk +errands +Home") == ("Buy milk", ["errands", "home"])
    assert split_title("C + D +x +x") == ("C + D", ["x"])
#@test
def test_tags_are_checked():
    assert clean_tag("+Work") == "work"
    for bad in ("", "+", "a b", "a/b"):
        with pytest.raises(UsageError):
            clean_tag(bad)
#@test
def test_titles_are_checked():
    assert check_title("  Buy   milk ") == "Buy milk"
    assert len(check_title("x" * MAX_TITLE)) == MAX_TITLE
    for bad in ("", "   ", "x" * (MAX_TITLE + 1)):
        with pytest.raises(UsageError):
            check_title(bad)
#@test visible
def test_dict_round_trip():
    task = $Task(3, "Pay rent", 3, ["home"], date(2024, 4, 1), created=date(2024, 3, 1), note="by transfer")
    data = task.to_dict()
    assert data == {"id": 3, "title": "Pay rent", "priority": 3, "tags": ["home"], "due": "2024-04-01", "done": False,
                    "created": "2024-03-01", "completed": None, "note": "by transfer"}
    assert $Task.from_dict(data) == task
#@test
def test_from_dict_rejects_bad_data():
    bad = ({"title": "x"}, {"id": 1}, {"id": 1, "title": "x", "due": "soon"}, {"id": 1, "title": "x", "tags": "a"},
           {"id": "one", "title": "x"}, {"id": 1, "title": "x", "priority": 9}, ["x"])
    for data in bad:
        with pytest.raises((KeyError, TypeError, ValueError, UsageError)):
            $Task.from_dict(data)
#@test
def test_overdue_and_due_within():
    tasks = [$Task(1, "a", due=date(2024, 3, 14)), $Task(2, "b", due=TODAY), $Task(3, "c", due=date(2024, 3, 18)), $Task(4, "d")]
    assert [t.is_overdue(TODAY) for t in tasks] == [True, False, False, False]
    assert [t.is_due_within(TODAY, 3) for t in tasks] == [True, True, True, False]
    assert [t.is_due_within(TODAY, 2) for t in tasks] == [True, True, False, False]
    tasks[0].complete(TODAY)
    assert tasks[0].is_overdue(TODAY) is False and tasks[0].completed == TODAY
    assert tasks[0].is_due_within(TODAY, 3) is False
#@test
def test_tags_on_a_task():
    task = $Task(1, "a", tags=["x"])
    task.add_tags(["+Y", "x", "z"])
    assert task.tags == ["x", "y", "z"]
    task.remove_tags(["x", "+Z"])
    assert task.tags == ["y"]
    assert task.has_tag("+Y") is True and task.has_tag("x") is False
    task.complete(TODAY)
    task.reopen()
    assert task.done is False and task.completed is None
#@test needs=recur
def test_next_occurrence():
    task = $Task(1, "Water plants", 2, ["home"], date(2024, 3, 10), every=3, note="balcony")
    following = task.next_occurrence(7, TODAY)
    assert (following.id, following.due, following.every, following.tags, following.note, following.done) == (
        7, date(2024, 3, 16), 3, ["home"], "balcony", False)
    assert $Task(2, "x", every=7).next_occurrence(3, TODAY).due == date(2024, 3, 22)
    assert $Task(2, "x", due=date(2024, 3, 12), every=3).next_occurrence(3, TODAY).due == date(2024, 3, 15)
#@test needs=recur
def test_recurring_round_trip():
    task = $Task(1, "Water plants", every=3)
    assert task.to_dict()["every"] == 3
    assert $Task.from_dict(task.to_dict()).every == 3
    assert "every" not in $Task(2, "x").to_dict()
    with pytest.raises(ValueError):
        $Task.from_dict({"id": 1, "title": "x", "every": -2})

#@area store
import json
import pytest
from datetime import date
from $pkg.errors import NotFound, StoreError, UsageError
from $pkg.files import read_text, write_text
from $pkg.model import $Task
from $pkg.store import FORMAT_VERSION, $TaskStore
TODAY = date(2024, 3, 15)
#@test visible
def test_add_and_find():
    store = $TaskStore()
    store.add("Buy milk", tags=["errands"])
    store.add("Pay rent", priority="urgent", due=date(2024, 4, 1))
    assert [t.id for t in store.tasks] == [1, 2]
    assert (store.$find(2).title, store.$find(2).priority) == ("Pay rent", 3)
    assert store.$find(1).tags == ["errands"]
    assert len(store) == 2
#@test
def test_find_unknown_id():
    store = $TaskStore()
    store.add("a")
    with pytest.raises(NotFound) as info:
        store.$find(9)
    assert "no task #9" in str(info.value)
    with pytest.raises(NotFound):
        store.remove(9)
#@test visible
def test_save_and_open(tmp_path):
    path = str(tmp_path / "tasks.json")
    store = $TaskStore(path)
    store.add("Buy milk", tags=["errands"], due=date(2024, 3, 16), created=TODAY)
    store.save()
    again = $TaskStore.open(path)
    assert [t.to_dict() for t in again.tasks] == [t.to_dict() for t in store.tasks]
    with open(path) as f:
        assert json.load(f)["version"] == FORMAT_VERSION
#@test
def test_missing_file_is_an_empty_list(tmp_path):
    store = $TaskStore.open(str(tmp_path / "none.json"))
    assert (len(store), store.next_id) == (0, 1)
#@test
def test_ids_are_never_reused(tmp_path):
    path = str(tmp_path / "tasks.json")
    store = $TaskStore(path)
    for title in ("a", "b", "c"):
        store.add(title)
    store.remove(3)
    store.save()
    again = $TaskStore.open(path)
    assert again.add("d").id == 4
    assert [t.title for t in again.tasks] == ["a", "b", "d"]
#@test
def test_unreadable_task_files(tmp_path):
    cases = {"garbage": "{not json", "shape": '{"tasks": 3}', "version": '{"version": 9, "tasks": []}',
             "title": '{"tasks": [{"id": 1, "title": "a"}, {"id": 2}]}',
             "dupes": '{"tasks": [{"id": 1, "title": "a"}, {"id": 1, "title": "b"}]}'}
    messages = {}
    for name, text in cases.items():
        path = tmp_path / (name + ".json")
        path.write_text(text)
        with pytest.raises(StoreError) as info:
            $TaskStore.open(str(path))
        messages[name] = str(info.value)
    assert [m.startswith(str(tmp_path)) for m in messages.values()] == [True] * len(cases)
    assert "line 1" in messages["garbage"]
    assert "task 2 has no 'title'" in messages["title"]
    assert "format 9" in messages["version"]
#@test
def test_files_are_replaced_whole(tmp_path):
    path = str(tmp_path / "deep" / "notes.txt")
    write_text(path, "one\n")
    write_text(path, "two\n")
    assert read_text(path) == "two\n"
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["notes.txt"]
    assert read_text(str(tmp_path / "none.txt"), missing_ok=True) is None
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9")
    failing = (lambda: read_text(str(tmp_path / "none.txt"), "task file"), lambda: read_text(str(tmp_path / "latin1.txt")),
               lambda: write_text(str(tmp_path / "latin1.txt" / "x"), "y"))
    for call in failing:
        with pytest.raises(StoreError):
            call()
#@test
def test_complete_reopen_and_tags():
    store = $TaskStore()
    store.add("a", tags=["y", "x"])
    store.add("b", tags=["y"])
    store.complete(1, TODAY)
    assert [t.id for t in store.open_tasks()] == [2]
    assert store.$find(1).completed == TODAY
    store.reopen(1)
    assert [t.id for t in store.open_tasks()] == [1, 2]
    assert store.tags() == ["x", "y"]
#@test
def test_import_items_get_new_ids():
    store = $TaskStore()
    store.add("first")
    added = store.import_items([{"title": "a", "priority": 2, "tags": ["t"], "due": date(2024, 4, 1)},
                                {"title": "b", "done": True}], TODAY)
    assert [t.id for t in added] == [2, 3]
    assert (added[0].priority, added[0].tags, added[0].due) == (2, ["t"], date(2024, 4, 1))
    assert (added[1].done, added[1].completed) == (True, TODAY)
#@test
def test_add_checks_its_input():
    store = $TaskStore()
    for kwargs in ({"priority": "extreme"}, {"tags": ["a b"]}):
        with pytest.raises(UsageError):
            store.add("x", **kwargs)
    with pytest.raises(UsageError):
        store.add("   ")
    assert (len(store), store.next_id) == (0, 1)
#@test needs=recur
def test_renew_adds_the_next_occurrence():
    store = $TaskStore()
    task = store.insert($Task(1, "Water plants", due=date(2024, 3, 15), every=2))
    store.add("other")
    store.complete(1, TODAY)
    following = store.renew(task, TODAY)
    assert (following.id, following.due, following.title, following.done) == (3, date(2024, 3, 17), "Water plants", False)
    assert store.renew(store.$find(2), TODAY) is None
    assert len(store) == 3

#@area config
import pytest
from $pkg import config
from $pkg.errors import ConfigError, UsageError
#@test visible
def test_defaults(tmp_path):
    settings = config.load(str(tmp_path / "none.ini"), {}, [])
    assert (settings.get("limit"), settings.get("sort"), settings.get("relative")) == ($list_limit, "id", False)
    assert {source for _, _, source in settings.items()} == {"default"}
#@test visible
def test_layers_override_each_other(tmp_path):
    path = tmp_path / "rc.ini"
    path.write_text("[$pkg]\nlimit = 7\nsort = due\n")
    assert config.load(str(path), {}, []).get("limit") == 7
    environ = {"${env_prefix}_LIMIT": "9", "${env_prefix}_RELATIVE": "yes"}
    settings = config.load(str(path), environ, [])
    assert (settings.get("limit"), settings.get("sort"), settings.get("relative")) == (9, "due", True)
    settings = config.load(str(path), environ, ["limit=11"])
    assert settings.get("limit") == 11
    sources = [source for name, _, source in settings.items() if name in ("limit", "sort", "relative")]
    assert sources == ["-o", str(path), "$$${env_prefix}_RELATIVE"]
#@test
def test_bad_values_say_where(tmp_path):
    path = tmp_path / "rc.ini"
    path.write_text("[$pkg]\nlimit = many\n")
    with pytest.raises(ConfigError) as info:
        config.load(str(path), {}, [])
    assert str(path) in str(info.value) and "limit must be a whole number" in str(info.value)
    with pytest.raises(ConfigError) as info:
        config.load(str(tmp_path / "none.ini"), {"${env_prefix}_SHOW_DONE": "perhaps"}, [])
    assert "${env_prefix}_SHOW_DONE" in str(info.value)
    for override in (["limit"], ["=3"]):
        with pytest.raises(UsageError):
            config.load(str(tmp_path / "none.ini"), {}, override)
    for override in (["colour=red"], ["sort=size"], ["title_width=3"], ["columns=id,colour"], ["file="], ["limit=-1"]):
        with pytest.raises(ConfigError):
            config.load(str(tmp_path / "none.ini"), {}, override)
#@test
def test_unknown_settings_and_broken_files(tmp_path):
    path = tmp_path / "rc.ini"
    path.write_text("[$pkg]\ncolour = red\n")
    with pytest.raises(ConfigError) as info:
        config.load(str(path), {}, [])
    assert "colour" in str(info.value)
    path.write_text("limit = 3\n")
    with pytest.raises(ConfigError):
        config.load(str(path), {}, [])
    path.write_text("[other]\ncolour = red\n")
    assert config.load(str(path), {}, []).get("limit") == $list_limit
#@test
def test_set_and_unset_value(tmp_path):
    path = str(tmp_path / "sub" / "rc.ini")
    assert config.set_value(path, "sort", "due") == "due"
    assert config.set_value(path, "relative", "on") is True
    settings = config.load(path, {}, [])
    assert (settings.get("sort"), settings.get("relative")) == ("due", True)
    with pytest.raises(ConfigError):
        config.set_value(path, "limit", "-2")
    assert config.load(path, {}, []).get("limit") == $list_limit
    assert config.unset_value(path, "sort") is True
    assert config.unset_value(path, "sort") is False
    assert config.load(path, {}, []).get("sort") == "id"
#@test
def test_env_names_and_values():
    assert config.env_name("title_width") == "${env_prefix}_TITLE_WIDTH"
    assert [config.format_value(v) for v in (True, False, 3, "due")] == ["yes", "no", "3", "due"]
    assert config.default_path({"HOME": "/home/ann"}) == "/home/ann/$config_name"

#@area exchange
import json
import pytest
from datetime import date
from $pkg.errors import ImportFormatError, UsageError
from $pkg.exchange import export_tasks, guess_format, import_tasks
from $pkg.model import $Task
def two(): return [$Task(1, "Buy milk", 2, ["errands", "shop"], date(2024, 3, 16)), $Task(2, "Call, Mom", 1, [], None, done=True, note='say "hi"')]
#@test visible
def test_export_csv():
    assert export_tasks(two(), "csv").splitlines() == [
        "id,title,priority,due,tags,done,note", "1,Buy milk,high,2024-03-16,errands shop,no,",
        '2,"Call, Mom",normal,,,yes,"say ""hi"""']
#@test visible
def test_export_markdown():
    assert export_tasks(two(), "md") == "- [ ] Buy milk !high due:2024-03-16 +errands +shop\n- [x] Call, Mom\n"
#@test visible
def test_export_json():
    data = json.loads(export_tasks(two(), "json"))
    assert [d["title"] for d in data] == ["Buy milk", "Call, Mom"]
    assert data[0]["due"] == "2024-03-16"
#@test catches=import_due
def test_csv_round_trip():
    items = import_tasks(export_tasks(two(), "csv"), "csv")
    assert [(i["title"], i["priority"], i["tags"], i["due"], i["done"], i["note"]) for i in items] == [
        ("Buy milk", 2, ["errands", "shop"], date(2024, 3, 16), False, ""), ("Call, Mom", 1, [], None, True, 'say "hi"')]
#@test catches=import_due
def test_csv_from_another_tool():
    items = import_tasks("title,due,priority\nFile taxes,2024-04-15,urgent\nRead book,,\n", "csv")
    assert [(i["title"], i["due"], i["priority"]) for i in items] == [("File taxes", date(2024, 4, 15), 3), ("Read book", None, 1)]
#@test
def test_csv_without_due_column():
    items = import_tasks("title,tags\nRead book,home fun\n", "csv")
    assert (items[0]["title"], items[0]["tags"], items[0]["due"]) == ("Read book", ["home", "fun"], None)
#@test
def test_markdown_and_json_round_trips():
    for fmt in ("md", "json"):
        items = import_tasks(export_tasks(two(), fmt), fmt)
        assert [(i["title"], i["priority"], i["tags"], i["due"], i["done"]) for i in items] == [
            ("Buy milk", 2, ["errands", "shop"], date(2024, 3, 16), False), ("Call, Mom", 1, [], None, True)]
#@test
def test_markdown_skips_prose():
    items = import_tasks("# Groceries\n\nSome words.\n* [X] Eggs +shop\n- [ ] Bread !low\n-[ ] not a task\n", "md")
    assert [(i["title"], i["done"], i["priority"], i["tags"]) for i in items] == [("Eggs", True, 1, ["shop"]), ("Bread", False, 0, [])]
#@test
def test_import_errors_say_where():
    cases = [("json", '[{"title": "a"}, {"name": "b"}]', "item 2"), ("json", "{oops", "line 1"),
             ("csv", "name,due\nx,\n", "'title'"), ("csv", "title,priority\na,high\nb,extreme\n", "line 3"),
             ("csv", "title,done\na,maybe\n", "line 2"), ("md", "- [ ] a\n- [ ] b due:someday\n", "line 2")]
    for fmt, text, where in cases:
        with pytest.raises(ImportFormatError) as info:
            import_tasks(text, fmt, where="in.txt")
        assert where in str(info.value) and "in.txt" in str(info.value)
#@test
def test_guess_format():
    assert [guess_format(p) for p in ("a.json", "b.CSV", "c.md", "d.markdown")] == ["json", "csv", "md", "md"]
    assert guess_format("x.txt", "csv") == "csv"
    for path, given in (("x.txt", None), ("x.csv", "xml")):
        with pytest.raises(UsageError):
            guess_format(path, given)
    with pytest.raises(UsageError):
        export_tasks(two(), "xml")

#@area report
from datetime import date
from $pkg.model import $Task
from $pkg.report import counts, due_group, group, render_stats, summary
TODAY = date(2024, 3, 15)
def five(): return [$Task(1, "a", 2, ["work"], date(2024, 3, 14)), $Task(2, "b", 1, ["work", "home"], TODAY), $Task(3, "c", 1, [], date(2024, 3, 17)), $Task(4, "d", 3, ["home"], date(2024, 3, 11), done=True), $Task(5, "e", 0, ["work"], date(2024, 3, 18))]
#@test visible
def test_summary():
    assert summary(five(), TODAY) == {"total": 5, "open": 4, "done": 1, "overdue": 1, "due_today": 1, "due_this_week": 3}
#@test visible
def test_render_stats_without_groups():
    assert render_stats(five(), TODAY).splitlines() == [
        "5 tasks: 4 open, 1 done", "[####----------------]  20%", "overdue: 1, due today: 1, due this week: 3"]
#@test catches=group_default
def test_counts_by_tag_priority_and_state():
    assert list(counts(five(), "tag", TODAY).items()) == [("work", 3), ("home", 2), ("(untagged)", 1)]
    assert list(counts(five(), "priority", TODAY).items()) == [("urgent", 1), ("high", 1), ("normal", 2), ("low", 1)]
    assert list(counts(five(), "state", TODAY).items()) == [("open", 3), ("done", 1), ("overdue", 1)]
#@test catches=group_default
def test_group_starts_empty_each_time():
    first = group(five(), lambda t: t.tags)
    second = group(five()[:1], lambda t: t.tags)
    assert {k: [t.id for t in v] for k, v in second.items()} == {"work": [1]}
    assert {k: [t.id for t in v] for k, v in first.items()} == {"work": [1, 2, 5], "home": [2, 4]}
#@test catches=group_default
def test_render_stats_by_tag():
    text = render_stats(five(), TODAY, by="tag")
    assert render_stats(five(), TODAY, by="tag") == text
    assert text.splitlines()[3:] == ["", "Tag         Tasks", "work            3", "home            2", "(untagged)      1"]
#@test catches=group_default
def test_counts_by_due_date():
    for _ in range(2):
        assert list(counts(five(), "due", TODAY).items()) == [("overdue", 1), ("today", 1), ("this week", 1), ("later", 1), ("done", 1)]
    assert list(counts(five()[:2] + [$Task(6, "f")], "due", TODAY)) == ["overdue", "today", "no date"]
#@test
def test_due_groups():
    tasks = five() + [$Task(6, "f"), $Task(7, "g", due=date(2024, 3, 11))]
    assert [due_group(t, TODAY) for t in tasks] == ["overdue", "today", "this week", "done", "later", "no date", "overdue"]
    assert due_group($Task(8, "h", due=date(2024, 3, 10)), date(2024, 3, 10)) == "today"
    assert due_group($Task(9, "i", due=date(2024, 3, 11)), date(2024, 3, 10)) == "later"

#@area cli
import json
from $pkg.cli import $build_parser, main
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
    assert capsys.readouterr().out.strip() == "$pkg 0.$minor.0"
#@test
def test_usage_errors_exit_2(tmp_path, capsys):
    assert run(tmp_path, "fly") == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "fly" in err
    assert main([], environ={}) == 2
    assert "required" in capsys.readouterr().err
    assert run(tmp_path, "add", "x", "--due", "someday") == 2
    err = capsys.readouterr().err
    assert err.startswith("$pkg: error: ") and "someday" in err and "Traceback" not in err
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
    assert capsys.readouterr().out.splitlines() == ["Title         #", "A title tha$ellipsis  1"]
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
    (tmp_path / "rc.ini").write_text("[$pkg]\nsort = due\n")
    assert run(tmp_path, "config", "unset", "sort") == 0
    assert run(tmp_path, "config", "unset", "sort") == 0
    assert run(tmp_path, "config", "path") == 0
    assert capsys.readouterr().out.splitlines() == [
        "sort is back to its default", f"sort was not set in {tmp_path / 'rc.ini'}", str(tmp_path / "rc.ini")]
    assert run(tmp_path, "config", "get", "colour") == 1
    assert "unknown setting 'colour'" in capsys.readouterr().err
#@test visible
def test_config_list_shows_sources(tmp_path, capsys):
    assert run(tmp_path, "-o", "sort=due", "config", "list", environ={"${env_prefix}_LIMIT": "4"}) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "limit = 4  ($$${env_prefix}_LIMIT)" in lines
    assert "sort = due  (-o)" in lines
    assert "relative = no  (default)" in lines
#@test
def test_settings_from_the_environment(tmp_path, capsys):
    for title in "abc":
        run(tmp_path, "add", title)
    capsys.readouterr()
    run(tmp_path, "list", "--columns", "id", environ={"${env_prefix}_LIMIT": "1", "${env_prefix}_SORT": "title"})
    assert capsys.readouterr().out == "#\n1\n(1 of 3 shown; --limit 0 shows all)\n"
    run(tmp_path, "-o", "limit=0", "list", "--columns", "id", environ={"${env_prefix}_LIMIT": "1"})
    assert capsys.readouterr().out == "#\n1\n2\n3\n"
    assert run(tmp_path, "list", environ={"${env_prefix}_LIMIT": "x"}) == 1
    assert "${env_prefix}_LIMIT" in capsys.readouterr().err
#@test
def test_task_file_from_settings(tmp_path, capsys):
    path = str(tmp_path / "lists" / "mine.json")
    environ = {"${env_prefix}_FILE": path, "${env_prefix}_CONFIG": str(tmp_path / "rc.ini")}
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
    parser = $build_parser()
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

#@area views
import pytest
from datetime import date
from $pkg.cli import main
from $pkg.errors import UsageError
from $pkg.exchange import import_tasks
from $pkg.filters import parse_query
from $pkg.model import PRIORITIES, $Task
from $pkg.views import VIEWS, check, overview, problems, view, which
TODAY = date(2024, 3, 15)
def run(tmp_path, *argv, environ=None): return main(["--file", str(tmp_path / "tasks.json"), "--config", str(tmp_path / "rc.ini"), "--today", "2024-03-15", *argv], environ=environ or {})
#@test visible
def test_every_view_is_listed():
    assert sorted(VIEWS) == sorted($unit_names)
#@test visible
def test_a_view_shows_its_tag():
    name = $unit_names[0]
    module = view(name)
    tasks = [$Task(1, "mine", 3, [name]), $Task(2, "other", 3, ["zzz"]), $Task(3, "done", 3, [name], done=True)]
    assert sorted(t.id for t in module.select(tasks, TODAY)) == ([1, 3] if module.SHOW_DONE else [1])
#@test
def test_views_respect_priority_and_limit():
    for name in $unit_names[:4]:
        module = view(name)
        tasks = [$Task(i, f"t{i}", i % 4, [name], date(2024, 3, 1 + i)) for i in range(1, 13)]
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
    name = $unit_names[-1]
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
    name = $unit_names[1]
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
    run(tmp_path, "add", "late", "+" + $unit_names[0], "--pri", "urgent", "--due", "yesterday")
    capsys.readouterr()
    assert run(tmp_path, "views") == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + len($unit_names)
    assert lines[1].split()[:3] == [$unit_names[0], "1", "1"]
#@test
def test_overview_and_describe():
    name = $unit_names[2]
    rows = overview([$Task(1, "a", 3, [name], date(2024, 3, 1))], TODAY)
    assert [r["view"] for r in rows] == sorted($unit_names)
    mine = [r for r in rows if r["view"] == name][0]
    assert (mine["matching"], mine["overdue"]) == (1, 1)
    assert "+" + name in view(name).describe()
#@test visible
def test_a_view_says_why():
    name = $unit_names[0]
    module = view(name)
    assert module.why($Task(1, "mine", 3, [name]), TODAY) == f"#1 is in {name}"
    assert module.why($Task(2, "other", 3, ["zzz"]), TODAY) == f"#2 is not in {name}: it is not tagged +{name}"
#@test
def test_reasons_name_every_miss():
    for name in $unit_names[:2] + $unit_names[-2:]:
        module = view(name)
        low = $Task(3, "low", 0, ["zzz"], done=True)
        found = module.reasons(low, TODAY)
        assert len(found) == (not module.SHOW_DONE) + 1 + (module.MIN_PRIORITY > 0), (name, found)
        assert f"it is not tagged +{name}" in found
        assert (f"its priority, low, is below {PRIORITIES[module.MIN_PRIORITY]}" in found) == (module.MIN_PRIORITY > 0)
        assert ("it is done (the view shows open tasks)" in found) == (not module.SHOW_DONE)
        assert module.matches(low, TODAY) is False and module.reasons($Task(4, "mine", 3, [name]), TODAY) == []
        assert which($Task(4, "mine", 3, [name]), TODAY) == [name]
#@test
def test_filter_words_choose_the_same_tasks():
    for name in $unit_names[:2] + $unit_names[-2:]:
        module = view(name)
        made = [(i, i % 4, [name] if i % 3 else ["zzz"], i % 5 == 0) for i in range(1, 11)]
        tasks = [$Task(i, f"t{i}", pri, tags, done=done) for i, pri, tags, done in made]
        chosen = [t.id for t in parse_query(module.filter_words(), TODAY).apply(tasks)]
        assert chosen == [i for (i, *_), t in zip(made, tasks) if module.matches(t, TODAY)], name
#@test
def test_the_list_command_of_a_view_shows_the_same(tmp_path, capsys):
    name = $unit_names[0]
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
    name = $unit_names[0]
    module = view(name)
    tasks = [$Task(1, "late", 3, [name], date(2024, 3, 10)), $Task(2, "soon", 3, [name], date(2024, 3, 16)), $Task(3, "whenever", 3, [name])]
    assert module.digest(tasks, TODAY).splitlines() == [
        f"# {name}: 3 tasks", "", "## Overdue (1)", f"- [ ] late !urgent due:2024-03-10 +{name}", "",
        "## This week (1)", f"- [ ] soon !urgent due:2024-03-16 +{name}", "", "## No date (1)", f"- [ ] whenever !urgent +{name}"]
#@test
def test_due_groups_follow_the_view():
    for name in $unit_names[:3]:
        module = view(name)
        tasks = [$Task(1, "a", 3, [name], date(2024, 3, 20)), $Task(2, "b", 3, [name], TODAY),
                 $Task(3, "c", 3, [name], date(2024, 3, 1), done=True), $Task(4, "d", 3, ["zzz"], TODAY), $Task(5, "e", 3, [name], date(2024, 3, 17))]
        groups = {group: [t.id for t in found] for group, found in module.due_groups(tasks, TODAY).items()}
        expected = {"today": [2], "this week": [5], "later": [1], **({"done": [3]} if module.SHOW_DONE else {})}
        assert groups == expected and list(groups) == [g for g in ("today", "this week", "later", "done") if g in expected]
        assert module.digest(tasks[3:4], TODAY).splitlines() == [f"# {name}: 0 tasks", "", "Nothing here."]
#@test
def test_a_digest_imports_back():
    name = $unit_names[1]
    module = view(name)
    tasks = [$Task(i, f"task {i}", 3, [name, "x"], date(2024, 3, 10 + i)) for i in range(1, 6)]
    items = import_tasks(module.digest(tasks, TODAY), "md")
    assert sorted(item["title"] for item in items) == [f"task {i}" for i in range(1, 6)]
    assert all(item["tags"] == [name, "x"] and item["priority"] == 3 and not item["done"] for item in items)
    assert sorted(item["due"] for item in items) == [t.due for t in tasks]
#@test
def test_view_digest_and_why_commands(tmp_path, capsys):
    name = $unit_names[-1]
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
    module = view($unit_names[0])
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
    first, count = $unit_names[0], len($unit_names)
    assert run(tmp_path, "views", "--check") == 0
    assert capsys.readouterr().out == f"{count} views checked: no problems\n"
    with monkeypatch.context() as patched:
        patched.setattr(view(first), "SORT", "colour")
        assert run(tmp_path, "views", "--check") == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{first}: SORT must be one of") and lines[1:] == [f"{count} views checked: 1 problem"]
    assert run(tmp_path, "views", "--commands") == 0
    lines, last = capsys.readouterr().out.splitlines(), max($unit_names)
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
'''

KIND = ProjectKind(
    name="cli",
    description="a command-line task manager with subcommands (argparse): storage, filters, formatting, config, views",
    packages=("todokit", "taskbox", "jotlist", "tasktrack", "dolist", "chorelog", "taskpad"),
    names={
        "Task": ("Task", "Todo", "TodoItem", "Chore"),
        "TaskStore": ("TaskStore", "TodoList", "TaskFile", "Tasklist"),
        "Error": ("TodoError", "TaskError", "ToolError"),
        "find": ("find", "get_task", "task_by_id", "fetch"),
        "parse_date": ("parse_date", "read_date", "date_from_text", "to_date"),
        "build_parser": ("build_parser", "make_parser", "create_parser", "argument_parser"),
    },
    constants={"env_prefix": ("TODO", "TASKS", "TT", "DOIT"), "default_file": ("tasks.json", "todo.json", ".tasks.json"),
               "config_name": (".todorc", ".tasksrc", ".taskconfig"), "ellipsis": ("…", "~", "»"),
               "title_width": (28, 32, 40), "list_limit": (20, 25, 50), "max_title": (80, 100, 120),
               "minor": (1, 3, 6, 8)},
    files={"$pkg/__init__.py": INIT, "$pkg/__main__.py": MAIN, "$pkg/errors.py": ERRORS, "$pkg/dates.py": DATES,
           "$pkg/model.py": MODEL, "$pkg/files.py": FILES, "$pkg/store.py": STORE, "$pkg/filters.py": FILTERS, "$pkg/formatting.py": FORMATTING,
           "$pkg/config.py": CONFIG, "$pkg/exchange.py": EXCHANGE, "$pkg/report.py": REPORT,
           "$pkg/commands.py": COMMANDS, "$pkg/cli.py": CLI, "$pkg/views/__init__.py": VIEWS_INDEX,
           "README.md": README, "pyproject.toml": PYPROJECT},
    units=Units(dir="$pkg/views", template=UNIT, index="$pkg/views/__init__.py", count=(14, 25),
                names=("work", "home", "errands", "garden", "reading", "shopping", "calls", "office", "travel", "health",
                       "finance", "school", "family", "projects", "ideas", "inbox", "someday", "waiting", "chores",
                       "music", "fitness", "kitchen", "garage", "bills", "admin", "writing", "research", "review",
                       "meetings", "hobby", "pets", "car", "repairs", "study", "clients", "team", "friends", "events",
                       "planning", "outings"),
                values={"sort": ("priority", "due", "id", "title"), "limit": (3, 5, 8, 10),
                        "min_priority": (0, 0, 1, 2), "show_done": (True, False, False)}),
    tests=TESTS,
    bugs=(
        BugSite("truncate", "off_by_one", "$pkg/formatting.py",
                "Long titles break the table layout. With `-o title_width=12` a long title takes 13 characters "
                "instead of 12 and pushes every column after it one to the right; `formatting.truncate('abcdef', 5)` "
                "gives 6 characters back, not 5."),
        BugSite("relative", "wrong_branch", "$pkg/dates.py",
                "`list --relative` and `show` get the direction of due dates wrong: a task due three days from now "
                "says '3 days ago', and one that was due four days ago says 'in 4 days'. Today, tomorrow and "
                "yesterday are fine."),
        BugSite("group_default", "mutable_default", "$pkg/report.py",
                "`stats --by tag` counts keep growing when I run it more than once in the same process (we call "
                "`main()` from a script for several lists): the second run reports every tag twice as often, and "
                "tasks from the first list show up in the second list's counts."),
        BugSite("import_due", "wrong_key", "$pkg/exchange.py",
                "Importing a CSV loses every due date. `export --output tasks.csv` writes the due dates fine, but "
                "`import tasks.csv` into another list gives tasks with no due date at all (titles, priorities and "
                "tags survive)."),
        BugSite("empty_table", "edge_case", "$pkg/formatting.py",
                "`list` crashes with a traceback (`ValueError: max() arg is an empty sequence`) when there is "
                "nothing to show: on a brand new task file, or when no task matches the filter. It should just "
                "say there are no tasks."),
        BugSite("config_set", "swapped_args", "$pkg/commands.py",
                "`config set` does not work at all: `config set limit 10` fails with \"unknown setting '10'\", "
                "and `config set relative yes` complains about a setting called 'yes'. `config get` and `-o` work."),
    ),
    features=(
        Feature("recur", ("$pkg/dates.py", "$pkg/model.py", "$pkg/store.py", "$pkg/commands.py"),
                "Please add recurring tasks. `add TITLE --every INTERVAL` (INTERVAL: `3d`, `2w`, a plain number of "
                "days, `daily`, `weekly` or `fortnightly`; at least one day, anything else is a usage error that "
                "mentions the interval) makes a task that comes back: when `done` finishes it, a new task with the "
                "same title, priority, tags, note and interval is added, due INTERVAL after the old due date (after "
                "today if it had none), moved on by whole intervals until it is not in the past, and `done` prints "
                "`Next: #ID due YYYY-MM-DD`. The interval is kept in the task file as `every` (days; left out for "
                "tasks that do not recur) and `show` prints it as `repeats:  every N days`. For scripts: "
                "`dates.parse_interval(text)` -> days, a `$Task.every` field (None by default), "
                "`$Task.next_occurrence(new_id, today)` and `$TaskStore.renew(task, today)` (adds and returns the "
                "next occurrence, None for a task that does not recur)."),
    ),
    renames=(
        Rename("parse_date", "parse_date", "function", "$pkg.dates"),
        Rename("TaskStore", "TaskStore", "class", "$pkg.store"),
        Rename("find", "find", "method", "$pkg.store", owner="TaskStore"),
    ),
    mutation_areas={"dates": "$pkg/dates.py", "filters": "$pkg/filters.py", "formatting": "$pkg/formatting.py"},
)
