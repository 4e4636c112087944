"""The HTTP episode API of the service (create, step, close), over real HTTP on a loopback port."""

from __future__ import annotations

import json
import time

import pytest
import requests

from hub.serve import synthetic

GUESS = {"env": "arith/guess-tools-v1", "seed": 3}


def answer_of(server, label=GUESS) -> int:
    return int(server.catalog.task(json.dumps(label)).hidden["answer"])


def create(server, label=GUESS, **extra) -> requests.Response:
    return requests.post(f"{server.url}/episodes", json={"label": label, **extra}, timeout=30)


def step(server, episode_id, action) -> requests.Response:
    return requests.post(f"{server.url}/episodes/{episode_id}/step", json={"action": action}, timeout=30)


def state(server) -> dict:
    return requests.get(f"{server.url}/episodes", timeout=30).json()


def test_an_episode_in_each_action_form_to_its_verdict_then_closed(serve):
    server = serve()
    answer = answer_of(server)
    made = create(server)
    assert made.status_code == 201
    body = made.json()
    assert body["observation"].startswith("I am thinking of a whole number")
    assert [t["function"]["name"] for t in body["tools"]] == ["guess"] and body["max_turns"] == 8
    eid = body["id"]
    # an OpenAI assistant message with tool_calls
    low = step(server, eid, {"role": "assistant", "content": "",
                             "tool_calls": [{"id": "c1", "type": "function",
                                             "function": {"name": "guess", "arguments": json.dumps({"number": 0})}}]}).json()
    assert low["done"] is False and low["tool_results"][0]["call_id"] == "c1"
    assert "higher" in low["tool_results"][0]["content"] and low["reward"] is None
    # a list of tool_calls entries, one wrong: an error result the model reads, not an HTTP error
    both = step(server, eid, [{"function": {"name": "guess", "arguments": {"number": "x"}}},
                              {"function": {"name": "guess", "arguments": {"number": 1000}}}]).json()
    assert [r["is_error"] for r in both["tool_results"]] == [True, False] and "lower" in both["tool_results"][1]["content"]
    # raw text in the run's tool-call format (hermes)
    text = f'<tool_call>\n{{"name": "guess", "arguments": {{"number": {answer}}}}}\n</tool_call>'
    final = step(server, eid, text).json()
    assert final["done"] is True and final["reward"] == 1.0 and final["passed"] is True
    assert final["verdict"]["details"]["tools"]["errors"] == {"bad_arguments": 1}
    after = step(server, eid, text).json()  # a call after the end: answered with an error, not run
    assert after["tool_results"][0]["is_error"] and "has ended" in after["tool_results"][0]["content"]
    assert requests.delete(f"{server.url}/episodes/{eid}", timeout=30).json() == {"closed": True, "id": eid}
    assert state(server)["open"] == 0
    kept = requests.get(f"{server.url}/episodes/{eid}", timeout=30).json()  # the verdict outlives the episode
    assert kept["open"] is False and kept["verdict"]["reward"] == 1.0 and kept["steps"] == 4
    metrics = requests.get(f"{server.url}/metrics", timeout=30).text
    assert "rlhub_serve_episodes_open 0.0" in metrics
    assert 'rlhub_serve_episode_events_total{event="steps"} 4.0' in metrics
    assert 'rlhub_serve_episode_events_total{event="tool_errors"} 2.0' in metrics  # the bad call, the late one


def test_bad_requests_are_refused_with_what_was_wrong(serve):
    server = serve()
    assert create(server, {"env": "arith/no-such-v1", "seed": 0}).status_code == 404
    assert create(server, "not json").status_code == 400
    assert create(server, 7).status_code == 400
    assert requests.post(f"{server.url}/episodes", data=b"{", timeout=30).status_code == 400
    missing = step(server, "0" * 32, "hi")
    assert missing.status_code == 404 and "no open episode" in missing.json()["error"]
    eid = create(server).json()["id"]
    assert requests.post(f"{server.url}/episodes/{eid}/step", json={"act": 1}, timeout=30).status_code == 400
    assert step(server, eid, 42).status_code == 400
    assert step(server, eid, {"tool_calls": "guess"}).status_code == 400
    assert step(server, eid, ["guess"]).status_code == 400
    text_eid = create(server, {"env": "arith/guess-v1", "seed": 3}).json()["id"]
    refused = step(server, text_eid, {"tool_calls": []})
    assert refused.status_code == 400 and "text turns" in refused.json()["error"]
    assert step(server, text_eid, "50").json()["done"] is False  # text turns work on a text episode
    assert requests.delete(f"{server.url}/episodes/{'f' * 32}", timeout=30).status_code == 404
    assert state(server)["open"] == 2


def test_the_cap_answers_503_and_closing_frees_every_slot(serve):
    server = serve(episode_cap=4)
    ids = [create(server).json()["id"] for _ in range(4)]
    over = create(server)
    assert over.status_code == 503 and over.headers["Retry-After"] and "cap" in over.json()["error"]
    assert state(server)["open"] == 4 and state(server)["building"] == 0
    for eid in ids:
        assert requests.delete(f"{server.url}/episodes/{eid}", timeout=30).status_code == 200
    assert state(server)["open"] == 0
    assert create(server).status_code == 201


def test_an_idle_episode_is_closed_after_the_ttl(serve):
    server = serve(episode_ttl_s=0.3)
    eid = create(server).json()["id"]
    deadline = time.monotonic() + 10
    while state(server)["open"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert state(server)["counts"].get("expired") == 1
    assert step(server, eid, "x").status_code == 404
    assert requests.get(f"{server.url}/episodes/{eid}", timeout=30).json()["ended"] == "expired"


def test_a_step_whose_worker_died_is_replayed_on_a_fresh_episode(serve):
    server = serve()
    label = {"env": "synthetic/flaky-guess-tools-v1", "seed": 5}
    answer = answer_of(server, label)
    eid = create(server, label).json()["id"]
    first = step(server, eid, [{"function": {"name": "guess", "arguments": {"number": answer + 1}}}]).json()
    assert "lower" in first["tool_results"][0]["content"]
    synthetic.FLAKY_FAULTS["left"] = 1  # the next call dies as a sandbox worker would
    try:
        second = step(server, eid, [{"function": {"name": "guess", "arguments": {"number": answer}}}]).json()
    finally:
        synthetic.FLAKY_FAULTS["left"] = 0
    # the journal (the first guess) was replayed on a fresh episode, then the call ran again
    assert second["done"] is True and second["passed"] is True and second["verdict"].get("error") is None
    assert second["verdict"]["details"]["episode"]["turns"] == 2
    assert state(server)["counts"]["replays"] == 1


def test_a_worker_that_keeps_dying_ends_the_episode_without_a_verdict(serve):
    server = serve()
    label = {"env": "synthetic/flaky-guess-tools-v1", "seed": 5}
    eid = create(server, label).json()["id"]
    synthetic.FLAKY_FAULTS["left"] = 5
    try:
        out = step(server, eid, [{"function": {"name": "guess", "arguments": {"number": 1}}}]).json()
    finally:
        synthetic.FLAKY_FAULTS["left"] = 0
    assert out["done"] is True and out["reward"] == 0.0 and "sandbox worker died" in out["verdict"]["error"]


def test_a_lost_episode_is_rebuilt_from_its_actions(serve):
    """What a client does when the service restarted (its episode ids answer 404): open the same
    label with its past actions as `replay`; the deterministic task gives back the same state."""
    server = serve()
    answer = answer_of(server)
    calls = [[{"function": {"name": "guess", "arguments": {"number": answer + 1}}}]]
    rebuilt = create(server, replay=calls).json()
    final = step(server, rebuilt["id"], [{"function": {"name": "guess", "arguments": {"number": answer}}}]).json()
    assert final["passed"] is True and final["verdict"]["details"]["episode"]["turns"] == 2


def test_what_the_red_team_found_is_closed(serve):
    """A verdict shows its client the reward and the tool counts, never the hidden tests' cases (a
    client that reopened the seed passed it by a lookup table of them); an MCP session's episode is
    not stepped over the HTTP API; a body nested thousands deep is a 400, not a 500."""
    from hub import Label
    from hub.serve.episodes import EpisodeHost, UnknownEpisode
    from hub.tools import ToolCall

    server = serve()
    eid = create(server).json()["id"]
    ended = step(server, eid, [{"function": {"name": "guess", "arguments": {"number": n}}} for n in (0,) * 8]).json()
    assert ended["done"] and ended["reward"] == 0.0
    assert set(ended["verdict"]["details"]) <= {"tools", "episode"}, ended["verdict"]["details"]  # no 'extracted', no cases
    kept = requests.get(f"{server.url}/episodes/{eid}", timeout=30).json()
    assert set(kept["verdict"]["details"]) <= {"tools", "episode"}
    deep = requests.post(f"{server.url}/episodes", data="[" * 100_000 + "]" * 100_000, timeout=30)
    assert deep.status_code == 400 and "nested" in deep.json()["error"]

    host = EpisodeHost(server.catalog, cap=2)
    hosted = host.open(Label.parse(json.dumps(GUESS)), front="mcp")
    try:
        with pytest.raises(UnknownEpisode):
            host.step(hosted.id, [ToolCall("guess", {"number": 1})], "http")
    finally:
        host.close(hosted.id)


def test_the_reward_protocol_refuses_a_tool_environment_as_one_response(serve):
    server = serve()
    label = json.dumps(GUESS)
    answer = answer_of(server)
    got = requests.post(server.url, json={"query": [str(answer)], "prompts": [""], "labels": [label]}, timeout=30).json()
    assert got["rewards"] == [0.0] and got["extra_logs"]["rlhub/bad_label"] == [1.0]
