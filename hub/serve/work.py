"""One sample's work item, and how backends verify it.

`verify_one` (from hub.rewards, shared with the reward file) is what every backend runs, in a
thread here or in a Ray actor elsewhere: it never raises; every failure becomes an outcome of a
defined kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import UserError
from ..core.task import Label
from ..rewards import Outcome, verify_one  # noqa: F401  (the serve modules' names for them)


class WorkerLost(Exception):
    """The process or node running a sample went away; the sample may run again elsewhere."""


@dataclass(eq=False)
class WorkItem:
    """One sample waiting for, or under, verification."""

    request_id: str
    index: int
    env: str
    verifier: str
    label: Label
    response: str
    estimate_s: float
    deadline: float  # event-loop time by which the request must be answered
    future: Any  # asyncio.Future[Outcome], resolved once
    enqueued_at: float = 0.0
    key: float = 0.0  # scheduling key: smaller runs first
    long: bool = False
    cancelled: bool = False
    attempts: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    span: Any = None  # the sample's span (hub.tracing), parent of its queueing, worker and verification
    queue_span: Any = None  # open while it waits in the queue


def load_catalog(registry: str | None, plugin_modules: list[str] = ()) -> Any:
    """The catalog for `registry`, with the installed plugins plus `plugin_modules` (import paths)."""
    import importlib

    from ..config.catalog import Catalog
    from ..plugins.manager import collect

    if not plugin_modules:
        return Catalog.load(registry)
    extra = []
    for name in plugin_modules:
        try:
            extra.append((name.rsplit(".", 1)[-1], importlib.import_module(name)))
        except ImportError as exc:
            raise UserError(f"plugin module {name!r} cannot be imported: {exc}") from None
    return Catalog.load(registry, plugins=collect(extra_plugins=extra))
