"""The task file: every task of one list as JSON, read when a command starts and written back
(atomically: a temporary file renamed over the old one) after a change. Ids are never reused."""

from __future__ import annotations

import json
from datetime import date

from .errors import __Error__, NotFound, StoreError
from .files import read_text, write_text
from .model import __Task__, check_title, parse_priority

FORMAT_VERSION = 1


class __TaskStore__:
    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self.tasks: list[__Task__] = []
        self.next_id = 1

    @classmethod
    def open(cls, path: str) -> "__TaskStore__":
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
                tasks.append(__Task__.from_dict(item))
            except KeyError as exc:
                raise StoreError(f"{where}: task {number} has no {exc.args[0]!r}") from None
            except (TypeError, ValueError, __Error__) as exc:
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
            created: date | None = None) -> __Task__:
        """A new task with the next id (checked: title, priority, tags)."""
        task = __Task__(self.next_id, check_title(title), parse_priority(priority), [], due, created=created, note=note)
        task.add_tags(tags)
        return self.insert(task)

    def insert(self, task: __Task__) -> __Task__:
        self.next_id = max(self.next_id, task.id) + 1
        self.tasks.append(task)
        return task

    def __find__(self, task_id: int) -> __Task__:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise NotFound(task_id)

    def remove(self, task_id: int) -> __Task__:
        task = self.__find__(task_id)
        self.tasks.remove(task)
        return task

    def complete(self, task_id: int, on: date) -> __Task__:
        task = self.__find__(task_id)
        task.complete(on)
        return task

    def reopen(self, task_id: int) -> __Task__:
        task = self.__find__(task_id)
        task.reopen()
        return task
#@if:without.recur
#@else

    def renew(self, task: __Task__, today: date) -> __Task__ | None:
        """After a recurring task is done: its next occurrence, added to the list (None if it does not recur)."""
        if not task.every:
            return None
        return self.insert(task.next_occurrence(self.next_id, today))
#@end

    def import_items(self, items: list[dict], today: date | None = None) -> list[__Task__]:
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
    def open_tasks(self) -> list[__Task__]:
        return [t for t in self.tasks if not t.done]

    def tags(self) -> list[str]:
        """Every tag in use, sorted."""
        return sorted({tag for task in self.tasks for tag in task.tags})

    def __len__(self) -> int:
        return len(self.tasks)
