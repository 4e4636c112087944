"""`rlhub eval` against a local OpenAI-compatible server (a tiny aiohttp app) that replays scripted
answers, and against a dead endpoint; `rlhub rescore` of what it wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openai_stub import OpenAIStub, dead_url

from hub.cli import main
from hub.config.catalog import Catalog

REPO = Path(__file__).resolve().parents[2]
REGISTRY = str(REPO / "registry.yaml")


def _labels() -> list[str]:
    # The server tells tasks apart by prompt: take two guessing tasks whose prompts differ.
    cat = Catalog.load(REGISTRY)
    first = cat.task('{"env": "arith/guess-v1", "seed": 11}').prompt_text()
    other = next(s for s in range(12, 100) if cat.task({"env": "arith/guess-v1", "seed": s}).prompt_text() != first)
    return ['{"env": "arith/add-v1", "seed": 3}', '{"env": "arith/mul-v1", "seed": 5}',
            '{"env": "arith/guess-v1", "seed": 11}', json.dumps({"env": "arith/guess-v1", "seed": other})]


LABELS = _labels()


def replaying(script: dict[str, list]):
    """The n-th assistant turn for a task gets script[first user message][n] (the last one repeats)."""
    def reply(messages: list[dict]):
        answers = script[messages[0]["content"]]
        turn = sum(m["role"] == "assistant" for m in messages)
        return answers[min(turn, len(answers) - 1)]

    return reply


@pytest.fixture
def scripted(tmp_path):
    cat = Catalog.load(REGISTRY)
    script, expected = {}, {}
    for i, label in enumerate(LABELS):
        task = cat.task(label)
        wrong = cat.get(task.env_id).env.wrong_responses(task)[0]
        # add: wrong and cut at max tokens; mul: right; guess 11: wrong then right; guess 12: always wrong
        answers = [[(wrong, "length")], [task.reference], [wrong, task.reference], [wrong]][i]
        script[task.prompt_text()] = answers
        expected[label] = answers
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"input": cat.task(l).prompt, "label": l}) + "\n" for l in LABELS))
    with OpenAIStub(replaying(script)) as stub:
        yield cat, stub, expected, prompts


def test_eval_plays_single_and_multi_turn_episodes(scripted, tmp_path, capsys):
    cat, stub, expected, prompts = scripted
    out = tmp_path / "traj.jsonl"
    rc = main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model,
               "--prompts", str(prompts), "--n", "0", "--concurrency", "3", "--out", str(out), "--json"])
    assert rc == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["registry"] == REGISTRY and f"rlhub: registry: {REGISTRY}" in captured.err
    records = {r["label"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(records) == set(LABELS)
    max_turns = cat.get("arith/guess-v1").max_turns
    for label in expected:
        rec = records[label]
        actions = [t["action"] for t in rec["turns"]]
        # Replay the same actions through the environment: the recorded verdict must be its verdict.
        ep = cat.episode(label)
        ep.reset()
        for a in actions:
            step = ep.step(a)
        assert step.done and rec["reward"] == step.verdict.reward and rec["passed"] == step.verdict.passed
        assert rec["error"] is None and rec["verifier"]["name"] == "exact_match"
        assert rec["tokens"] == sum(len(a.split()) for a in actions)
    assert len(records[LABELS[2]]["turns"]) == 2 and records[LABELS[2]]["passed"]
    assert len(records[LABELS[3]]["turns"]) == max_turns and not records[LABELS[3]]["passed"]
    # The second request of a multi-turn episode carried the environment's hint as a user turn.
    follow_up = [r for r in stub.requests if len(r["messages"]) == 3]
    assert follow_up and all(r["messages"][2]["content"].startswith("No: the number is") for r in follow_up)
    rows = {r["env"]: r for r in result["summary"]}
    assert rows["all"]["n"] == 4 and rows["all"]["pass_rate"] == 0.5
    assert rows["arith/guess-v1"]["n"] == 2 and rows["arith/guess-v1"]["reward"] == 0.5
    assert rows["arith/add-v1"]["truncated"] == 1.0 and rows["all"]["truncated"] == 0.25
    assert rows["arith/add-v1"]["reasons"] == [["truncated (max tokens)", 1]]
    assert rows["arith/guess-v1"]["reasons"] == [["wrong answer", 1]]
    assert rows["all"]["tokens"] == sum(r["tokens"] for r in records.values()) / 4


def test_eval_prints_a_table_worth_reading(scripted, tmp_path, capsys):
    cat, stub, expected, prompts = scripted
    out = tmp_path / "traj.jsonl"
    assert main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model,
                 "--prompts", str(prompts), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    header, *rows = text.splitlines()
    for column in ("ENV", "REWARD", "PASS", "NO VERDICT", "TOKENS", "TRUNCATED", "TOP FAILURE REASONS"):
        assert column in header
    add = next(r for r in rows if r.startswith("arith/add-v1"))
    assert "100.0%" in add and "truncated (max tokens) (1)" in add
    assert any(r.startswith("all ") and "50.0%" in r for r in rows)


def test_rescore_recovers_true_verdicts_from_a_tampered_file(scripted, tmp_path, capsys):
    cat, stub, expected, prompts = scripted
    out = tmp_path / "traj.jsonl"
    assert main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model, "--prompts", str(prompts),
                 "--n", "0", "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    original = [json.loads(l) for l in out.read_text().splitlines()]
    # As if an old, buggy verifier had passed everything.
    out.write_text("".join(json.dumps({**r, "reward": 1.0, "passed": True}) + "\n" for r in original))
    rescored_path = tmp_path / "again.jsonl"
    assert main(["rescore", str(out), "--registry", REGISTRY, "--out", str(rescored_path), "--json"]) == 0
    summary = {r["env"]: r for r in json.loads(capsys.readouterr().out)["summary"]}
    again = {r["label"]: r for r in map(json.loads, rescored_path.read_text().splitlines())}
    for r in original:
        assert again[r["label"]]["reward"] == r["reward"] and again[r["label"]]["previous"]["reward"] == 1.0
    assert summary["all"]["changed"] == sum(r["reward"] != 1.0 for r in original) == 2


def test_a_dead_endpoint_is_one_line_and_no_work(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    url = dead_url()
    rc = main(["eval", "--registry", REGISTRY, "--base-url", url, "--model", "m", "-n", "2", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and not out.exists()
    assert err[-1].startswith(f"rlhub: error: cannot reach the model endpoint {url}: ") and "Connect" in err[-1]
    assert "is the server running" in err[-1] and not any("Traceback" in line for line in err)


def test_a_model_the_endpoint_does_not_serve_is_named(tmp_path, capsys):
    with OpenAIStub(lambda m: "1", model="qwen-0.5b") as stub:
        rc = main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", "qwen-05b", "-n", "2",
                   "--out", str(tmp_path / "t.jsonl")])
    err = capsys.readouterr().err
    assert rc == 2 and "does not serve model 'qwen-05b'; did you mean 'qwen-0.5b'?" in err and not stub.requests


def test_an_endpoint_failing_mid_run_makes_the_run_fail(tmp_path, capsys):
    # Every chat request fails (HTTP 500, retried, then recorded): all samples lack a verdict.
    def broken(messages):
        raise RuntimeError("model crashed")

    out = tmp_path / "t.jsonl"
    with OpenAIStub(broken) as stub:
        rc = main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model, "-n", "3",
                   "--select", "arith/add-v1", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 3, err
    assert err[-1].startswith("rlhub: error: 3 of 3 samples (100%) got no verdict, more than --max-no-verdict 10%: "
                              "no verdict: InternalServerError (3)")
    assert len(out.read_text().splitlines()) == 3


@pytest.mark.parametrize("args, message", [
    (["-n", "0"], "--n must be a positive number of tasks, got 0: nothing to evaluate"),
    (["-n", "-1"], "--n must be 0 or more"),
    (["--max-no-verdict", "2"], "--max-no-verdict is a share of the samples"),
])
def test_no_work_to_do_is_exit_2(tmp_path, capsys, args, message):
    rc = main(["eval", "--registry", REGISTRY, "--base-url", dead_url(), "--model", "m", "--out", str(tmp_path / "t.jsonl"),
               *args])
    assert rc == 2 and message in capsys.readouterr().err


def test_rescore_bad_file_names_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"label": "x", "turns": []}\nnot json\n')
    assert main(["rescore", str(bad)]) == 2
    assert f"{bad}:2" in capsys.readouterr().err
