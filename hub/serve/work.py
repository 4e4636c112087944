"""One sample's work (verify a response against its label) and its outcome.

`verify_one` is what every backend runs, in a thread here or in a Ray actor elsewhere: it
never raises; every failure becomes an outcome of a defined kind.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import UserError

Kind = Literal["ok", "no_verdict", "timeout", "bad_label"]


@dataclass
class Outcome:
    kind: Kind
    reward: float
    passed: bool = False
    error: str | None = None
    verify_s: float = 0.0
    attempts: int = 1
    worker: str = ""  # where it ran (thread name or Ray node id), for logs

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reward": self.reward, "passed": self.passed, "error": self.error,
                "verify_s": self.verify_s, "worker": self.worker}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Outcome":
        return cls(kind=d["kind"], reward=d["reward"], passed=d["passed"], error=d["error"],
                   verify_s=d["verify_s"], worker=d.get("worker", ""))


class WorkerLost(Exception):
    """The process or node running a sample went away; the sample may run again elsewhere."""


@dataclass(eq=False)
class WorkItem:
    """One sample waiting for, or under, verification."""

    request_id: str
    index: int
    env: str
    verifier: str
    label: str
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


def verify_one(catalog: Any, label: str, response: str, worker: str = "") -> Outcome:
    """Grade one response. Never raises: a bad label, a crash, a sandbox failure each get a kind."""
    start = time.perf_counter()
    try:
        verdict = catalog.verify(label, response)
    except UserError as exc:  # index out of range, unknown environment...
        return Outcome("bad_label", 0.0, error=str(exc), verify_s=time.perf_counter() - start, worker=worker)
    except Exception as exc:  # catalog.verify does not raise for model output: this is ours
        return Outcome("no_verdict", 0.0, error=f"internal error: {type(exc).__name__}: {exc}",
                       verify_s=time.perf_counter() - start, worker=worker)
    elapsed = time.perf_counter() - start
    if verdict.error:
        return Outcome("no_verdict", 0.0, error=verdict.error, verify_s=elapsed, worker=worker)
    return Outcome("ok", verdict.reward, passed=bool(verdict.passed), verify_s=elapsed, worker=worker)


def load_catalog(registry: str | None, plugin_modules: list[str] = ()) -> Any:
    """The catalog for `registry`, with the installed plugins plus `plugin_modules` (import paths)."""
    import importlib

    from ..catalog import Catalog
    from ..plugins import collect

    if not plugin_modules:
        return Catalog.load(registry)
    extra = []
    for name in plugin_modules:
        try:
            extra.append((name.rsplit(".", 1)[-1], importlib.import_module(name)))
        except ImportError as exc:
            raise UserError(f"plugin module {name!r} cannot be imported: {exc}") from None
    return Catalog.load(registry, plugins=collect(extra_plugins=extra))
