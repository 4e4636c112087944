"""`rlhub eval` against a loopback OpenAI-compatible server that replays scripted answers, and
`rlhub rescore` of what it wrote."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from openrlhf_harness import REPO

from hub.config.catalog import Catalog
from hub.cli import main


def _labels() -> list[str]:
    # The server tells tasks apart by prompt: take two guessing tasks whose prompts differ.
    cat = Catalog.load(REPO / "registry.yaml")
    first = cat.task('{"env": "arith/guess-v1", "seed": 11}').prompt_text()
    other = next(s for s in range(12, 100) if cat.task({"env": "arith/guess-v1", "seed": s}).prompt_text() != first)
    return ['{"env": "arith/add-v1", "seed": 3}', '{"env": "arith/mul-v1", "seed": 5}',
            '{"env": "arith/guess-v1", "seed": 11}', json.dumps({"env": "arith/guess-v1", "seed": other})]


LABELS = _labels()


class ReplayServer(ThreadingHTTPServer):
    """/v1/chat/completions: the n-th assistant turn for a task gets script[first user message][n]."""

    def __init__(self, script: dict[str, list[str]]):
        super().__init__(("127.0.0.1", 0), ReplayHandler)
        self.script = script
        self.requests: list[dict] = []


class ReplayHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        if self.path != "/v1/chat/completions":
            self.send_error(404)
            return
        msgs = body["messages"]
        answers = self.server.script[msgs[0]["content"]]
        turn = sum(m["role"] == "assistant" for m in msgs)
        text = answers[min(turn, len(answers) - 1)]
        payload = json.dumps({"id": "r", "object": "chat.completion", "created": 0, "model": body["model"],
                              "choices": [{"index": 0, "finish_reason": "stop",
                                           "message": {"role": "assistant", "content": text}}],
                              "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def scripted(tmp_path):
    cat = Catalog.load(REPO / "registry.yaml")
    script, expected = {}, {}
    for i, label in enumerate(LABELS):
        task = cat.task(label)
        wrong = cat.get(task.env_id).env.wrong_responses(task)[0]
        # add: wrong; mul: right; guess 11: wrong then right; guess 12: always wrong
        answers = [[wrong], [task.reference], [wrong, task.reference], [wrong]][i]
        script[task.prompt_text()] = answers
        expected[label] = answers
    server = ReplayServer(script)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"input": cat.task(l).prompt, "label": l}) + "\n" for l in LABELS))
    yield cat, server, expected, prompts
    server.shutdown()


def test_eval_plays_single_and_multi_turn_episodes(scripted, tmp_path, capsys):
    cat, server, expected, prompts = scripted
    out = tmp_path / "traj.jsonl"
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    rc = main(["eval", "--registry", str(REPO / "registry.yaml"), "--base-url", url, "--model", "m",
               "--prompts", str(prompts), "--n", "0", "--concurrency", "3", "--out", str(out), "--json"])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    records = {r["label"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(records) == set(LABELS)
    max_turns = cat.get("arith/guess-v1").max_turns
    for label, answers in expected.items():
        rec = records[label]
        actions = [t["action"] for t in rec["turns"]]
        # Replay the same actions through the environment: the recorded verdict must be its verdict.
        ep = cat.episode(label)
        ep.reset()
        for a in actions:
            step = ep.step(a)
        assert step.done and rec["reward"] == step.verdict.reward and rec["passed"] == step.verdict.passed
        assert rec["error"] is None and rec["verifier"]["name"] == "exact_match"
    assert len(records[LABELS[2]]["turns"]) == 2 and records[LABELS[2]]["passed"]
    assert len(records[LABELS[3]]["turns"]) == max_turns and not records[LABELS[3]]["passed"]
    # The second request of a multi-turn episode carried the environment's hint as a user turn.
    follow_up = [r for r in server.requests if len(r["messages"]) == 3]
    assert follow_up and all(r["messages"][2]["content"].startswith("No: the number is") for r in follow_up)
    rows = {r["env"]: r for r in summary}
    assert rows["all"]["n"] == 4 and rows["all"]["pass_rate"] == 0.5
    assert rows["arith/guess-v1"]["n"] == 2 and rows["arith/guess-v1"]["reward"] == 0.5


def test_rescore_recovers_true_verdicts_from_a_tampered_file(scripted, tmp_path, capsys):
    cat, server, expected, prompts = scripted
    out = tmp_path / "traj.jsonl"
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    assert main(["eval", "--base-url", url, "--model", "m", "--prompts", str(prompts), "--n", "0",
                 "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    original = [json.loads(l) for l in out.read_text().splitlines()]
    # As if an old, buggy verifier had passed everything.
    out.write_text("".join(json.dumps({**r, "reward": 1.0, "passed": True}) + "\n" for r in original))
    rescored_path = tmp_path / "again.jsonl"
    assert main(["rescore", str(out), "--out", str(rescored_path), "--json"]) == 0
    summary = {r["env"]: r for r in json.loads(capsys.readouterr().out)["summary"]}
    again = {r["label"]: r for r in map(json.loads, rescored_path.read_text().splitlines())}
    for r in original:
        assert again[r["label"]]["reward"] == r["reward"] and again[r["label"]]["previous"]["reward"] == 1.0
    assert summary["all"]["changed"] == sum(r["reward"] != 1.0 for r in original) == 2


def test_eval_unreachable_endpoint_records_errors(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    rc = main(["eval", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--n", "2", "--out", str(out), "--json"])
    assert rc == 0
    recs = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(recs) == 2 and all(r["error"] and r["reward"] == 0.0 for r in recs)


def test_rescore_bad_file_names_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"label": "x", "turns": []}\nnot json\n')
    assert main(["rescore", str(bad)]) == 2
    assert f"{bad}:2" in capsys.readouterr().err
