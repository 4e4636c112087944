"""Tasks in and out of other formats: JSON (a list of task objects), CSV (a row a task, a header
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
