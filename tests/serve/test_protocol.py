"""The OpenRLHF protocol: same answers as the reward-function path, malformed input, bad labels."""

from __future__ import annotations

import json
import math

import pytest
import requests

from hub.rewards import RewardPolicy, score_batch

from .helpers import batch, label, metric, post, queue_state, reference

ARITH = [("arith/add-v1", 1), ("arith/mul-v1", 2), ("arith/sub-v1", 3), ("arith/sum-list-v1", 4)]


def test_rewards_match_the_reward_function_path(serve):
    server = serve()
    good = batch(server, ARITH)
    bad = batch(server, ARITH, correct=False)
    body = {k: good[k] + bad[k] for k in good}
    body["labels"].append(label("nowhere/missing-v1", 0))  # unknown environment
    body["query"].append("x")
    body["prompts"].append("")
    for path in ("/", "/get_reward"):
        r = post(server, body, path=path)
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["rewards"] == [1.0] * 4 + [0.0] * 5
        assert out["scores"][:8] == out["rewards"][:8] and math.isnan(out["scores"][8])  # NaN: a filter drops it
        assert out["extra_logs"]["rlhub/substituted"] == [0.0] * 8 + [1.0]
        assert out["extra_logs"]["rlhub/passed"] == [1.0] * 4 + [0.0] * 5
        assert out["extra_logs"]["rlhub/bad_label"] == [0.0] * 8 + [1.0]
        assert "nowhere/missing-v1" in out["errors"][8] and out["errors"][:8] == [None] * 8
        assert r.headers["X-Request-Id"] == out["request_id"]
        same = score_batch(server.catalog, body["query"], body["prompts"], body["labels"], RewardPolicy())
        assert out["rewards"] == same["rewards"]
        for key, values in same["extra_logs"].items():
            assert out["extra_logs"][key] == values, key


def test_labels_as_objects_and_missing_prompts_are_accepted(serve):
    server = serve()
    answer = reference(server, "arith/add-v1", 7)
    r = post(server, {"query": [answer, answer + "1"], "labels": [{"env": "arith/add-v1", "seed": 7}] * 2})
    assert r.status_code == 200
    assert r.json()["rewards"] == [1.0, 0.0]


@pytest.mark.parametrize("body, expected", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe\x00", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (json.dumps({"prompts": [], "labels": []}), "lacks 'query'"),
    (json.dumps({"query": ["a"], "prompts": ["p"]}), "lacks 'labels'"),
    (json.dumps({"query": "a", "prompts": ["p"], "labels": ["l"]}), "'query' must be a list"),
    (json.dumps({"query": [1], "prompts": ["p"], "labels": ["l"]}), "'query[0]' must be a string"),
    (json.dumps({"query": ["a", "b"], "prompts": ["p"], "labels": ["l"]}), "same length, got 2, 1, 1"),
    (json.dumps({"query": ["a"], "prompts": ["p"], "labels": ["l"], "extra": 1}), "unexpected key(s) ['extra']"),
])
def test_malformed_request_is_400_with_a_clear_error(serve, body, expected):
    server = serve()
    r = post(server, body)
    assert r.status_code == 400
    assert expected in r.json()["error"]
    assert metric(server, "rlhub_serve_requests_total", outcome="bad_request") == 1
    # the service is unharmed
    ok = post(server, batch(server, ARITH[:1]))
    assert ok.status_code == 200 and ok.json()["rewards"] == [1.0]


@pytest.mark.parametrize("bad", ["not json", '{"env": 3, "seed": 1}', '{"env": "arith/add-v1"}',
                                 '{"env": "arith/add-v1", "seed": -1}', '{"env": "arith/ad-v1", "seed": 1}', 17, None])
def test_bad_labels_get_a_defined_reward_and_flag(serve, bad):
    server = serve()
    r = post(server, {"query": ["1", reference(server, "arith/add-v1", 1)], "prompts": ["", ""],
                      "labels": [bad, label("arith/add-v1", 1)]})
    assert r.status_code == 200
    out = r.json()
    assert out["rewards"] == [0.0, 1.0]
    assert out["extra_logs"]["rlhub/bad_label"] == [1.0, 0.0]
    assert out["errors"][0]


def test_empty_batch_is_answered(serve):
    server = serve()
    r = post(server, {"query": [], "prompts": [], "labels": []})
    assert r.status_code == 200 and r.json()["rewards"] == []


def test_body_over_the_size_limit_is_413(serve):
    server = serve(max_body_mb=0.01)
    r = post(server, {"query": ["x" * 20_000], "prompts": [""], "labels": [label("arith/add-v1", 0)]})
    assert r.status_code == 413
    assert "too large" in r.json()["error"]


def test_wrong_method_and_path(serve):
    server = serve()
    assert requests.get(server.url + "/get_reward", timeout=5).status_code == 405
    assert requests.post(server.url + "/nope", data="{}", timeout=5).status_code == 404
    assert queue_state(server)["requests"]["accepted"] == 0
