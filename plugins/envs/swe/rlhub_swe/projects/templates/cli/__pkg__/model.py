"""A task: its title, priority, tags, due date and state, and its plain-data form (the task file's)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from .dates import from_iso
from .errors import UsageError

PRIORITIES = ("low", "normal", "high", "urgent")
MAX_TITLE = __max_title__
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
class __Task__:
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
    def from_dict(cls, data: dict) -> "__Task__":
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
                   # note=str(data.get("note", "")))
#@else
                   note=str(data.get("note", "")), every=_every(data.get("every")))
#@end
#@if:without.recur
#@else

    def next_occurrence(self, new_id: int, today: date) -> "__Task__":
        """The next task of a recurring one: same title, priority, tags, note and interval, due
        `every` days after this one was due (after today if it had no due date), moved on by
        whole intervals until it is not in the past."""
        due = (self.due or today) + timedelta(days=self.every)
        while due < today:
            due += timedelta(days=self.every)
        return __Task__(new_id, self.title, self.priority, list(self.tags), due, created=today, note=self.note,
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
