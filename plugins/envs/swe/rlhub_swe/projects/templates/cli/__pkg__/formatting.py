"""Text for the terminal: cells cut to a width, aligned columns, task tables, one task in
detail, progress bars and plurals."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from . import dates
from .errors import UsageError
from .model import priority_name

ELLIPSIS = "__ellipsis__"
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
    "title": Column("title", "Title", width=__title_width__),
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
