"""Open episodes held by the service: create, step, close, by id; the front ends (the HTTP episode
API, streamable-HTTP MCP) share one `EpisodeHost`, so one cap and one idle TTL cover them all.

- The cap is a reservation taken before the episode is built (building may start a sandbox) and
  given back if building fails: a refused or failed open leaves nothing behind.
- An episode idle for `idle_ttl_s` (no step running, none for that long) is closed by `reap()`,
  which the service calls periodically; a client that vanished frees its sandbox within the TTL.
- Each episode keeps a journal of the actions it took. A step that ends the episode without a
  verdict because the environment failed (a sandbox or worker that died: `info["aborted"]` or
  `info["infra_error"]`) is retried once on a fresh episode rebuilt from the label with the
  journal replayed (tasks are deterministic, so the replay restores the state the model saw).
  The episode's own retries (the terminal session's) come first; this generalises them to every
  episode. What the service process itself holds is memory: if it dies, its open episodes are
  gone (their ids answer 404) and their sandboxes die with it; a client rebuilds one by opening
  the same label with its past actions as `replay` (the same journal, replayed on its side).
- Steps of one episode never overlap (a second one is refused, `EpisodeBusy`); steps of
  different episodes run at once, each in a thread of the caller's choosing (they block).
"""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.env import Episode, Step
from ..core.errors import UserError
from ..core.task import Label

MAX_REPLAY_ACTIONS = 256  # a client's `replay` journal, at most
HOST_REPLAYS = 1  # fresh episodes tried for one step whose environment failed
FINISHED_KEPT = 4096  # verdicts of closed episodes kept for the operator (GET /episodes/{id})


class EpisodeFull(Exception):
    """The cap on open episodes is reached (HTTP 503)."""


class UnknownEpisode(KeyError):
    """No open episode has this id (never opened, closed, reaped, or the service restarted)."""

    def __str__(self) -> str:
        return (f"no open episode {self.args[0]!r} (closed, idle past the TTL, or the service restarted: "
                "open it again, with your past actions as `replay`)")


class EpisodeBusy(Exception):
    """A step of this episode is already running (HTTP 409)."""


class BadAction(ValueError):
    """An action this episode cannot take (HTTP 400), e.g. tool calls sent to a text episode."""


def check_action(episode: Episode, action: Any) -> Any:
    """The action as the episode's `step` takes it: text for any episode; for a tool episode also an
    OpenAI assistant message or a list of `tool_calls` entries (objects). Anything else: BadAction."""
    from ..tools.episode import ToolEpisode
    from ..tools.schema import ToolCall

    if isinstance(action, str):
        return action
    if not isinstance(episode, ToolEpisode):
        raise BadAction("this environment takes text turns: send `action` as a string")
    if isinstance(action, dict):
        calls = action.get("tool_calls")
        if calls is not None and not (isinstance(calls, list) and all(isinstance(c, dict) for c in calls)):
            raise BadAction("`tool_calls` must be a list of objects ({\"function\": {\"name\", \"arguments\"}})")
        if not isinstance(action.get("content") or "", str):
            raise BadAction("`content` must be a string")
        return action
    if isinstance(action, list) and all(isinstance(c, (dict, ToolCall)) for c in action):
        return action
    raise BadAction("`action` is text, an OpenAI assistant message ({\"content\", \"tool_calls\"}) "
                    "or a list of tool_calls entries")


def env_failed(step: Step) -> bool:
    """The episode ended without a verdict through no fault of the model (its environment failed)."""
    info = step.info or {}
    return (step.done and step.verdict is not None and step.verdict.error is not None
            and not info.get("closed") and bool(info.get("aborted") or info.get("infra_error")))


def result_view(result: Any) -> dict[str, Any]:
    return {"name": result.name, "call_id": result.call_id, "content": result.content, "is_error": result.is_error,
            "images": [base64.b64encode(png).decode("ascii") for png in result.images]}


# What of a verdict's details an acting client sees. The rest (failed hidden tests with their inputs and
# expected values, a part's reference features) would let a client that reopens the seed pass it
# without the work (red team: 1.0 on a terminal session by a lookup table of the leaked cases).
CLIENT_DETAILS = ("tools", "episode")


def client_verdict(verdict: Any) -> dict[str, Any] | None:
    """A verdict as the acting client (the model's harness, an MCP client) may see it: its reward,
    pass, error, and the tool counts; never what it was compared against."""
    if verdict is None:
        return None
    v = verdict.to_dict() if hasattr(verdict, "to_dict") else dict(verdict)
    details = v.get("details") or {}
    out = {"reward": v.get("reward"), "passed": v.get("passed"), "error": v.get("error"),
           "details": {k: details[k] for k in CLIENT_DETAILS if k in details}}
    return json.loads(json.dumps(out, default=str))


def step_view(step: Step) -> dict[str, Any]:
    """A step as JSON: what the HTTP API answers (images as base64 PNG; the verdict as the client sees it)."""
    verdict = client_verdict(step.verdict)
    return {"observation": step.observation, "done": step.done,
            "tool_results": [result_view(r) for r in step.tool_results], "notes": list(step.notes),
            "reward": verdict["reward"] if verdict else None, "passed": verdict["passed"] if verdict else None,
            "verdict": verdict, "info": json.loads(json.dumps(step.info or {}, default=str))}


@dataclass(eq=False)
class Hosted:
    id: str
    label: Label
    episode: Episode
    observation: str
    tools: list[dict[str, Any]]
    front: str  # "http" or "mcp": who opened it
    last_used: float
    journal: list[Any] = field(default_factory=list)
    steps: int = 0
    final: Step | None = None
    busy: threading.Lock = field(default_factory=threading.Lock)
    on_close: list[Callable[[], None]] = field(default_factory=list)  # e.g. end the MCP session that owns it

    def summary(self) -> dict[str, Any]:
        verdict = client_verdict(self.final.verdict) if self.final is not None else None
        return {"id": self.id, "label": self.label.to_json(), "front": self.front, "steps": self.steps,
                "done": self.final is not None, "verdict": verdict}


class EpisodeHost:
    def __init__(self, catalog: Any, cap: int = 64, idle_ttl_s: float = 600.0, clock: Callable[[], float] = time.monotonic,
                 metrics: Any = None) -> None:
        self.catalog = catalog
        self.cap = cap
        self.idle_ttl_s = idle_ttl_s
        self.clock = clock
        self.metrics = metrics  # ServeMetrics or None
        self._lock = threading.Lock()
        self._open: dict[str, Hosted] = {}
        self._reserved = 0  # slots taken by opens still building their episode
        self._finished: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.counts: Counter[str] = Counter()
        self._count_lock = threading.Lock()  # counts change in many threads, some holding _lock

    # -- life cycle ----------------------------------------------------------------------------
    @property
    def open_count(self) -> int:
        with self._lock:
            return len(self._open) + self._reserved

    def _build(self, label: Label) -> tuple[Episode, str]:
        episode = self.catalog.episode(label)
        try:
            return episode, episode.reset()
        except BaseException:
            episode.close()
            raise

    def open(self, label: Label | str | dict, front: str = "http", replay: list[Any] | None = None) -> Hosted:
        """A new episode of `label` (UserError for a bad label, EpisodeFull at the cap). `replay`:
        actions to take first (a client rebuilding an episode the service lost)."""
        label = label if isinstance(label, Label) else Label.parse(label)
        replay = list(replay or [])
        if len(replay) > MAX_REPLAY_ACTIONS:
            raise BadAction(f"`replay` holds {len(replay)} actions; at most {MAX_REPLAY_ACTIONS}")
        self.catalog.get(label.env)  # an unknown environment is refused before a slot is taken
        with self._lock:
            if len(self._open) + self._reserved >= self.cap:
                self._count("refused_full")
                raise EpisodeFull(f"{self.cap} episodes are open (the cap): close some, or retry later")
            self._reserved += 1
        try:
            episode, observation = self._build(label)
            try:
                tools = episode.tool_schemas() if hasattr(episode, "tool_schemas") else []
                hosted = Hosted(id=uuid.uuid4().hex, label=label, episode=episode, observation=observation,
                                tools=tools, front=front, last_used=self.clock())
                for action in replay:
                    step = episode.step(check_action(episode, action))
                    hosted.journal.append(action)
                    hosted.steps += 1
                    if step.done:
                        hosted.final = step
                        break
            except BaseException:
                episode.close()
                raise
        except BaseException:
            with self._lock:
                self._reserved -= 1
            raise
        with self._lock:
            self._reserved -= 1
            self._open[hosted.id] = hosted
        self._count("opened")
        self._gauge()
        return hosted

    def get(self, episode_id: str) -> Hosted:
        with self._lock:
            hosted = self._open.get(episode_id)
        if hosted is None:
            raise UnknownEpisode(episode_id)
        return hosted

    def describe(self, episode_id: str) -> dict[str, Any]:
        """An open episode's summary, or a closed one's (its verdict), for the operator."""
        with self._lock:
            hosted = self._open.get(episode_id)
            if hosted is None and episode_id in self._finished:
                return self._finished[episode_id]
        if hosted is None:
            raise UnknownEpisode(episode_id)
        return {**hosted.summary(), "open": True}

    def step(self, episode_id: str, action: Any, front: str | None = None) -> Step:
        hosted = self.get(episode_id)
        if front is not None and hosted.front != front:  # an MCP session's episode is stepped over MCP only
            raise UnknownEpisode(episode_id)
        if not hosted.busy.acquire(blocking=False):
            self._count("busy")
            raise EpisodeBusy(f"a step of episode {episode_id} is running: send the next one after its answer")
        try:
            if episode_id not in self._open:  # closed (reaped) while this step waited
                raise UnknownEpisode(episode_id)
            action = check_action(hosted.episode, action)
            if hosted.final is not None and not hasattr(hosted.episode, "toolbox"):
                return hosted.final  # a text episode that ended answers with its end (a tool one errs each call)
            step = hosted.episode.step(action)
            replays = 0
            while env_failed(step) and replays < HOST_REPLAYS and hosted.final is None:
                replays += 1
                self._count("replays")
                step = self._replayed(hosted, action) or step
            if not step.done:
                hosted.journal.append(action)
            hosted.steps += 1
            self._count("steps")
            if step.done and hosted.final is None:
                hosted.final = step
                self._count("env_failed" if env_failed(step) else "finished")
            self._count_tool_errors(step)
            return step
        finally:
            hosted.last_used = self.clock()
            hosted.busy.release()

    def _replayed(self, hosted: Hosted, action: Any) -> Step | None:
        """The step taken again on a fresh episode with the journal replayed; None if that fails too."""
        try:
            episode, _ = self._build(hosted.label)
        except Exception:  # noqa: BLE001 - the environment still fails: the first answer stands
            return None
        try:
            for past in hosted.journal:
                if episode.step(past).done:
                    raise RuntimeError("the replayed journal ended the episode early")
            step = episode.step(action)
        except Exception:  # noqa: BLE001
            episode.close()
            return None
        old, hosted.episode = hosted.episode, episode
        old.close()
        return step

    def close(self, episode_id: str, why: str = "closed") -> bool:
        with self._lock:
            hosted = self._open.pop(episode_id, None)
            if hosted is not None:
                self._finished[episode_id] = {**hosted.summary(), "open": False, "ended": why}
                while len(self._finished) > FINISHED_KEPT:
                    self._finished.popitem(last=False)
        if hosted is None:
            return False
        try:
            hosted.episode.close()  # thread-safe for sandboxed episodes: kills a step still running
        finally:
            self._count(why)
            self._gauge()
            for callback in hosted.on_close:
                try:
                    callback()
                except Exception:  # noqa: BLE001 - a front end's cleanup must not keep the episode open
                    pass
        return True

    def reap(self) -> list[str]:
        """Close the episodes idle past the TTL (none with a step running); their ids."""
        now = self.clock()
        with self._lock:
            idle = [h.id for h in self._open.values() if now - h.last_used > self.idle_ttl_s and not h.busy.locked()]
        return [i for i in idle if self.close(i, why="expired")]

    def close_all(self, why: str = "shutdown") -> None:
        with self._lock:
            ids = list(self._open)
        for i in ids:
            self.close(i, why=why)

    def state(self) -> dict[str, Any]:
        with self._lock:
            fronts = Counter(h.front for h in self._open.values())
            return {"open": len(self._open), "building": self._reserved, "cap": self.cap,
                    "idle_ttl_s": self.idle_ttl_s, "by_front": dict(fronts), "counts": self._counts()}

    # -- metrics -------------------------------------------------------------------------------
    def _counts(self) -> dict[str, int]:
        with self._count_lock:
            return dict(self.counts)

    def _count(self, event: str, n: int = 1) -> None:
        with self._count_lock:
            self.counts[event] += n
        if self.metrics is not None:
            self.metrics.episode_events.labels(event).inc(n)

    def _count_tool_errors(self, step: Step) -> None:
        errors = sum(r.is_error for r in step.tool_results)
        if errors:
            self._count("tool_errors", errors)

    def _gauge(self) -> None:
        if self.metrics is not None:
            self.metrics.episodes_open.set(self.open_count)


def parse_label_arg(value: Any) -> Label:
    """A label from a request: its JSON text or object; UserError saying what is wrong."""
    if not isinstance(value, (str, dict)):
        raise UserError('`label` is the task\'s label: {"env": "arith/guess-tools-v1", "seed": 3} (or its JSON text)')
    return Label.parse(value)
