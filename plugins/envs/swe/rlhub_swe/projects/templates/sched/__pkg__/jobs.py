"""Jobs: what the scheduler runs, and the states a job goes through."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

WAITING, RUNNING, DONE, FAILED, EXPIRED, CANCELLED = "waiting", "running", "done", "failed", "expired", "cancelled"
FINAL = (DONE, FAILED, EXPIRED, CANCELLED)
DEFAULT_PRIORITY = __default_priority__  # lower numbers run first
DEFAULT_POLICY = "default"


@dataclass
class __Job__:
    """One piece of work: `action()` is called when the job runs (an exception is a failed attempt).

    `priority`: among the jobs that are due, lower runs first; `run_at`: when it is due next;
    `deadline`: the time after which it is given up instead of run or retried (None: never)."""

    name: str
    action: Callable[[], Any] | None = None
    policy: str = DEFAULT_POLICY
    priority: int = DEFAULT_PRIORITY
    run_at: float = 0.0
    deadline: float | None = None
    payload: Any = None
    id: str = ""
    due_at: float | None = None          # when it was first due (waits are measured from here)
    attempts: int = 0
    state: str = WAITING
    error: str = ""
    result: Any = None
    finished_at: float | None = None
    admitted: bool = False               # let through by a shaping limiter, waiting for its turn
    history: list[tuple[float, str]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.state in FINAL

    def overdue(self, now: float) -> bool:
        """Past its deadline at `now` (a job due exactly at its deadline still runs)."""
        return self.deadline is not None and now > self.deadline

    def note(self, when: float, event: str) -> None:
        self.history.append((when, event))

    def times(self, prefix: str) -> list[float]:
        """When the events starting with `prefix` happened ('attempt', 'throttled', ...)."""
        return [when for when, event in self.history if event.startswith(prefix)]

    def describe(self) -> str:
        deadline = "" if self.deadline is None else f", deadline {self.deadline:g}"
        return (f"{self.id or self.name} [{self.policy}, priority {self.priority}] {self.state}, "
                f"due {self.run_at:g}{deadline}, {self.attempts} attempt(s)")
