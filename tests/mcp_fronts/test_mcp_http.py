"""Streamable-HTTP MCP in `rlhub serve`: one session per episode, driven by the SDK's own client."""

from __future__ import annotations

import time

import anyio
import pytest
import requests
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from .helpers import TOOL_ENVS, check_ended, play_reference, reference_calls, verdict_of

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "raw", "version": "0"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def open_raw(server, env_id="arith/guess-tools-v1", seed=3) -> requests.Response:
    """An initialize POST that opens a session, and nothing after it (a client that vanishes)."""
    return requests.post(f"{server.url}/mcp/{env_id}/{seed}", json=INITIALIZE, headers=HEADERS, timeout=30)


def episodes(server) -> dict:
    return requests.get(f"{server.url}/episodes", timeout=30).json()


@pytest.mark.parametrize("env_id,seed", TOOL_ENVS)
def test_an_episode_over_streamable_http_to_its_verdict(service, default_catalog, env_id, seed):
    server = service()
    calls = reference_calls(default_catalog, env_id, seed)

    async def main():
        async with streamable_http_client(f"{server.url}/mcp/{env_id}/{seed}") as (r, w, *_):
            async with ClientSession(r, w) as session:
                init = await session.initialize()
                assert init.instructions == default_catalog.task(default_catalog.get(env_id).label(seed)).prompt_text()
                assert episodes(server)["by_front"] == {"mcp": 1}
                result = await play_reference(session, calls)
                return await check_ended(session, calls, result)

    verdict = anyio.run(main)
    state = episodes(server)
    assert state["open"] == 0 and state["counts"]["closed"] == 1  # the client's exit deleted the session
    # the operator reads the verdict by the session's id, which is the episode's
    closed = [e for e in server.call(lambda: list(server.service.episodes._finished.values()))]
    assert len(closed) == 1 and closed[0]["verdict"]["reward"] == verdict["reward"] == 1.0
    described = requests.get(f"{server.url}/episodes/{closed[0]['id']}", timeout=30).json()
    assert described["verdict"]["passed"] is True and described["front"] == "mcp"


def test_wrong_calls_are_error_results_that_say_what_was_wrong(service, default_catalog):
    server = service()
    answer = int(default_catalog.task(default_catalog.get("arith/guess-tools-v1").label(3)).hidden["answer"])

    async def main():
        async with streamable_http_client(f"{server.url}/mcp/arith/guess-tools-v1/3") as (r, w, *_):
            async with ClientSession(r, w) as session:
                await session.initialize()
                unknown = await session.call_tool("rm_rf", {"path": "/"})
                assert unknown.is_error and "there is no tool 'rm_rf'" in unknown.content[0].text
                assert "guess" in unknown.content[0].text  # ... and which tools there are
                mistyped = await session.call_tool("guess", {"number": "seventeen"})
                assert mistyped.is_error and "number" in mistyped.content[0].text
                missing = await session.call_tool("guess", {})
                assert missing.is_error and "required" in missing.content[0].text
                extra = await session.call_tool("guess", {"number": 1, "and_also": "ls"})
                assert extra.is_error and "unknown argument" in extra.content[0].text
                wrong = await session.call_tool("guess", {"number": answer - 1 if answer > 1 else answer + 1})
                assert not wrong.is_error and verdict_of(wrong) is None
                right = await session.call_tool("guess", {"number": answer})
                verdict = verdict_of(right)
                # the wrong calls were turns of their own, counted in the verdict's details
                assert verdict["passed"] and verdict["details"]["tools"]["errors"] == {"unknown_tool": 1, "bad_arguments": 3}
                after = await session.call_tool("guess", {"number": answer})
                assert after.is_error and "has ended" in after.content[0].text

    anyio.run(main)


def test_sessions_past_the_cap_get_503_and_vanished_clients_are_freed_within_the_ttl(service):
    server = service(episode_cap=3, episode_ttl_s=0.4)
    opened = [open_raw(server) for _ in range(3)]
    assert [r.status_code for r in opened] == [200] * 3
    sessions = {r.headers["mcp-session-id"] for r in opened}
    assert len(sessions) == 3 and episodes(server)["open"] == 3
    refused = open_raw(server)
    assert refused.status_code == 503 and "cap" in refused.json()["error"]["message"]
    assert episodes(server)["open"] == 3  # the refused one left nothing behind
    deadline = time.monotonic() + 10
    while episodes(server)["open"] and time.monotonic() < deadline:  # none of them calls again: the TTL frees them
        time.sleep(0.1)
    state = episodes(server)
    assert state["open"] == 0 and state["counts"]["expired"] == 3
    assert server.call(lambda: server.service.mcp.open_sessions) == 0
    gone = requests.post(f"{server.url}/mcp/arith/guess-tools-v1/3", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                         headers={**HEADERS, "mcp-session-id": opened[0].headers["mcp-session-id"]}, timeout=30)
    assert gone.status_code == 404
    assert open_raw(server).status_code == 200  # room again


def test_openings_that_fail_leave_nothing_behind(service):
    server = service()
    assert open_raw(server, "arith/no-such-env-v1").status_code == 404
    text_env = open_raw(server, "arith/guess-v1")
    assert text_env.status_code == 400 and "not a tool environment" in text_env.json()["error"]["message"]
    not_initialize = requests.post(f"{server.url}/mcp/arith/guess-tools-v1/3", headers=HEADERS, timeout=30,
                                   json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert not_initialize.status_code >= 400
    modern = requests.post(f"{server.url}/mcp/arith/guess-tools-v1/3", json=INITIALIZE, timeout=30,
                           headers={**HEADERS, "mcp-protocol-version": "2026-07-28"})
    assert modern.status_code == 400 and "session per episode" in modern.json()["error"]["message"]
    rebinding = requests.post(f"{server.url}/mcp/arith/guess-tools-v1/3", json=INITIALIZE, timeout=30,
                              headers={**HEADERS, "Host": "evil.example:80"})
    assert rebinding.status_code == 421
    state = episodes(server)
    assert state["open"] == 0 and state["building"] == 0
    assert server.call(lambda: server.service.mcp.open_sessions) == 0
