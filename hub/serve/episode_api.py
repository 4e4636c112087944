"""The HTTP episode API (the OpenEnv / NeMo Gym shape), next to the reward protocol:

    POST   /episodes                {"label": ..., "replay": [actions]?}
                                    -> 201 {"id", "label", "observation", "tools", "max_turns"}
    POST   /episodes/{id}/step      {"action": text | OpenAI assistant message | [tool_calls entries]}
                                    -> {"observation", "tool_results", "notes", "done", "reward",
                                        "passed", "verdict", "info"}
    GET    /episodes/{id}           the episode's summary (its verdict, also after it was closed)
    DELETE /episodes/{id}           -> {"closed": true}
    GET    /episodes                the host's state (open, cap, counts)

Errors: 400 a malformed body or an action the episode cannot take, 404 an unknown label or
episode id, 409 a step while another of the same episode runs, 503 (Retry-After) at the cap on
open episodes or while draining. A call the model got wrong is not an HTTP error: it is a tool
result with `is_error` (the model reads it). Steps run in a thread pool of their own, so a slow
sandbox never stalls the event loop or the reward protocol.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from ..core.errors import UnknownEnvironment, UserError
from .episodes import BadAction, EpisodeBusy, EpisodeFull, UnknownEpisode, parse_label_arg, step_view

MAX_STEP_BODY = 16 * 2**20


def _error(status: int, message: str, **headers: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=headers or None)


async def _json_body(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_STEP_BODY:
        raise BadAction(f"the body is larger than {MAX_STEP_BODY} bytes")
    raw = await request.read()
    try:
        body = json.loads(raw) if raw.strip() else {}
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadAction(f"the body is not JSON: {exc}") from None
    except RecursionError:  # a body nested thousands deep (red team: it was a 500)
        raise BadAction("the body is nested too deeply to read") from None
    if not isinstance(body, dict):
        raise BadAction("the body must be a JSON object")
    return body


class EpisodeAPI:
    def __init__(self, service: Any) -> None:
        self.service = service

    @property
    def host(self):
        return self.service.episodes

    async def _run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.service.episode_pool, fn, *args)

    async def _guard(self, coro) -> web.Response:
        try:
            return await coro
        except EpisodeFull as exc:
            return _error(503, str(exc), **{"Retry-After": "1"})
        except UnknownEpisode as exc:
            return _error(404, str(exc))
        except EpisodeBusy as exc:
            return _error(409, str(exc))
        except BadAction as exc:
            self.host._count("errors")
            return _error(400, str(exc))
        except UserError as exc:
            self.host._count("errors")
            return _error(404 if isinstance(exc, UnknownEnvironment) else 400, str(exc))

    async def create(self, request: web.Request) -> web.Response:
        async def go() -> web.Response:
            if self.service.draining:
                return _error(503, "service is shutting down; retry against another replica", **{"Retry-After": "5"})
            body = await _json_body(request)
            label = parse_label_arg(body.get("label"))
            replay = body.get("replay") or []
            if not isinstance(replay, list):
                raise BadAction("`replay` is a list of actions")
            hosted = await self._run(lambda: self.host.open(label, front="http", replay=replay))
            out = {"id": hosted.id, "label": hosted.label.to_json(), "observation": hosted.observation,
                   "tools": hosted.tools, "max_turns": hosted.episode.max_turns}
            if hosted.final is not None:
                out["final"] = step_view(hosted.final)
            return web.json_response(out, status=201)

        return await self._guard(go())

    async def step(self, request: web.Request) -> web.Response:
        async def go() -> web.Response:
            episode_id = request.match_info["id"]
            body = await _json_body(request)
            if "action" not in body:
                raise BadAction('send {"action": text | assistant message | [tool_calls entries]}')
            step = await self._run(self.host.step, episode_id, body["action"], "http")
            return web.json_response(step_view(step), dumps=lambda o: json.dumps(o, default=str))

        return await self._guard(go())

    async def describe(self, request: web.Request) -> web.Response:
        return await self._guard(self._describe(request.match_info["id"]))

    async def _describe(self, episode_id: str) -> web.Response:
        return web.json_response(self.host.describe(episode_id), dumps=lambda o: json.dumps(o, default=str))

    async def close(self, request: web.Request) -> web.Response:
        episode_id = request.match_info["id"]
        closed = await self._run(self.host.close, episode_id)
        if not closed:
            return _error(404, str(UnknownEpisode(episode_id)))
        return web.json_response({"closed": True, "id": episode_id})

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self.host.state())


def add_routes(app: web.Application, service: Any) -> None:
    api = EpisodeAPI(service)
    app.router.add_post("/episodes", api.create)
    app.router.add_get("/episodes", api.state)
    app.router.add_post("/episodes/{id}/step", api.step)
    app.router.add_get("/episodes/{id}", api.describe)
    app.router.add_delete("/episodes/{id}", api.close)
