"""Evals that support decisions: stratified draws, 95 % intervals, no-verdict samples kept out of
the means, pass@k, tool episodes played through an endpoint's tool calls, and run comparisons.
`rlhub eval` runs against a local OpenAI-compatible server (tests/evaluation/openai_stub.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from aiohttp import web
from openai_stub import OpenAIStub

from hub.cli import main
from hub.config.catalog import Catalog
from hub.evaluation.stats import compare, mean_interval, pass_at_k, stratified_labels, welch, wilson

REPO = Path(__file__).resolve().parents[2]
REGISTRY = str(REPO / "registry.yaml")


@pytest.fixture(scope="module")
def cat():
    return Catalog.load(REGISTRY)


def test_intervals_and_pass_at_k_match_their_textbook_values():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)  # the rule of three's better cousin
    lo, hi = wilson(7, 10)
    assert (lo, hi) == (pytest.approx(0.3968, abs=1e-4), pytest.approx(0.8922, abs=1e-4))
    assert wilson(0, 0) == (None, None) and mean_interval([]) == (None, None, None)
    mean, lo, hi = mean_interval([0.2, 0.4, 0.6, 0.8])  # t(0.975, 3) = 3.1824, sd = 0.2582
    assert mean == pytest.approx(0.5) and (lo, hi) == (pytest.approx(0.0892, abs=1e-3), pytest.approx(0.9108, abs=1e-3))
    assert mean_interval([0.0, 1.0, 1.0, 1.0])[1:] == (0.0, 1.0)  # rewards live in [0, 1]: so does the interval
    assert pass_at_k(5, 1, 1) == pytest.approx(0.2) and pass_at_k(5, 1, 5) == 1.0 and pass_at_k(5, 0, 3) == 0.0
    assert pass_at_k(10, 3, 2) == pytest.approx(1 - math.comb(7, 2) / math.comb(10, 2))
    d, lo, hi = welch([0.0] * 20, [1.0] * 10 + [0.0] * 10)
    assert d == 0.5 and 0 < lo < 0.5 < hi


def test_draws_are_per_environment_and_leave_examples_out(cat):
    labels = stratified_labels(cat, 3, seed=0, select="arith/*")
    envs = [json.loads(l)["env"] for l in labels]
    assert sorted(set(envs)) == sorted(e.id for e in cat.select("arith/*")) and all(envs.count(e) == 3 for e in set(envs))
    assert len(set(labels)) == len(labels)  # distinct tasks
    assert stratified_labels(cat, 3, seed=0, select="arith/*") == labels  # same seed, same draw
    spread = [json.loads(l)["env"] for l in stratified_labels(cat, 0, seed=0, n=10)]
    domains = [e.split("/")[0] for e in spread]
    assert "arith" not in domains and len(set(spread)) == 10  # examples out; ten environments, not one ten times
    assert max(domains.count(d) for d in set(domains)) - min(domains.count(d) for d in set(domains)) <= 1
    tools = stratified_labels(cat, 1, seed=0, tag="tools")
    assert tools and all("tools" in cat.get(json.loads(l)["env"]).tags for l in tools)


def test_no_verdict_stays_out_of_the_means_and_pass_at_k_is_reported(cat, tmp_path, capsys):
    """add-v1: right on 7 of 10 tasks, mul-v1: the endpoint answers HTTP 500; three attempts each."""
    labels = stratified_labels(cat, 10, seed=0, select="arith/add-v1")
    right = {cat.task(l).prompt_text(): cat.task(l).reference for l in labels[:7]}

    def reply(messages):
        prompt = messages[0]["content"]
        if "*" in prompt:
            return web.json_response({"error": {"message": "boom"}}, status=500)
        return right.get(prompt, "-1")

    out = tmp_path / "t.jsonl"
    with OpenAIStub(reply) as stub:
        rc = main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model, "--select", "arith/[am][du]*-v1",
                   "--per-env", "10", "--attempts", "3", "--temperature", "0.5", "--max-no-verdict", "1", "--out", str(out), "--json"])
    assert rc == 0
    rows = {r["env"]: r for r in json.loads(capsys.readouterr().out)["summary"]}
    add, mul, total = rows["arith/add-v1"], rows["arith/mul-v1"], rows["all"]
    assert add["n"] == 30 and add["judged"] == 30 and add["reward"] == pytest.approx(0.7) and add["pass@3"] == pytest.approx(0.7)
    assert add["pass_ci"][0] < 0.7 < add["pass_ci"][1]
    assert mul["judged"] == 0 and mul["reward"] is None and mul["no_verdict"] == 30 and mul["no_verdict_rate"] == 1.0
    assert total["reward"] == pytest.approx(0.7)  # the 500s are not zeros in the headline
    assert total["no_verdict"] == 30 and rows["arith/*"]["n"] == 60


def test_a_tool_episode_is_played_through_the_endpoints_tool_calls(cat, tmp_path):
    label = '{"env": "arith/guess-tools-v1", "seed": 5}'
    target = int(cat.task(label).hidden["answer"])
    prompts = tmp_path / "p.jsonl"
    prompts.write_text(json.dumps({"input": cat.task(label).prompt, "label": label}) + "\n")

    def reply(messages):
        tried = sum(m["role"] == "tool" for m in messages)
        guess = target if tried else target + 1
        return {"content": None, "tool_calls": [{"id": f"c{tried}", "type": "function",
                                                 "function": {"name": "guess", "arguments": json.dumps({"number": guess})}}]}

    out = tmp_path / "t.jsonl"
    with OpenAIStub(reply) as stub:
        assert main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model,
                     "--prompts", str(prompts), "--out", str(out), "--json"]) == 0
    rec = json.loads(out.read_text())
    assert rec["passed"] and rec["reward"] == 1.0 and len(rec["turns"]) == 2
    assert stub.requests[0]["tools"][0]["function"]["name"] == "guess"
    second = stub.requests[1]["messages"]
    assert second[1]["tool_calls"][0]["function"]["name"] == "guess"
    assert second[2] == {"role": "tool", "name": "guess", "content": f"no: the number is lower than {target + 1}",
                         "tool_call_id": "c0"}
    # rescore replays the recorded tool calls
    assert main(["rescore", str(out), "--registry", REGISTRY, "--json"]) == 0


def test_compare_says_what_changed_and_what_it_cannot_compare(tmp_path, capsys):
    def rec(env, reward, error=None):
        return {"label": json.dumps({"env": env, "seed": 0}), "env": env, "turns": [], "reward": reward,
                "passed": reward == 1.0, "error": error}

    a = [rec("x/a-v1", 0.0) for _ in range(20)] + [rec("x/b-v1", 1.0)] * 5 + [rec("x/only-a-v1", 1.0)]
    b = [rec("x/a-v1", 1.0) for _ in range(15)] + [rec("x/a-v1", 0.0)] * 5 + [rec("x/b-v1", 1.0)] * 4 + [rec("x/b-v1", 0, "500")]
    rows = {r["env"]: r for r in compare(a, b)["rows"]}
    assert rows["x/a-v1"]["delta"] == 0.75 and rows["x/a-v1"]["significant"]
    assert rows["x/b-v1"]["delta"] == 0.0 and not rows["x/b-v1"]["significant"] and rows["x/b-v1"]["n_b"] == 4
    pa, pb = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    pa.write_text("".join(json.dumps(r) + "\n" for r in a))
    pb.write_text("".join(json.dumps(r) + "\n" for r in b))
    assert main(["eval", "--compare", str(pa), str(pb)]) == 0
    text = capsys.readouterr().out
    assert "x/a-v1" in text and "+0.750" in text and "yes" in text and f"only in {pa}" in text and "x/only-a-v1" in text
