"""`rlhub export`: a trajectories file written by a real `rlhub eval` run (against the local
OpenAI-compatible server of tests/evaluation/openai_stub.py) out as SFT and DPO datasets, loaded
back with `datasets`; and the files that are not trajectories."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from aiohttp import web
from openai_stub import OpenAIStub

from hub.cli import main
from hub.config.catalog import Catalog

REPO = Path(__file__).resolve().parents[2]
REGISTRY = str(REPO / "registry.yaml")
ADD, MUL = '{"env": "arith/add-v1", "seed": 3}', '{"env": "arith/mul-v1", "seed": 5}'
GUESS, TOOLS = '{"env": "arith/guess-v1", "seed": 11}', '{"env": "arith/guess-tools-v1", "seed": 5}'


@pytest.fixture(scope="module")
def traj(tmp_path_factory):
    """Two attempts per task, played one after the other: the first attempt of each task is the
    good one (guess: wrong, then right), the second bad (add, guess: wrong; tools: HTTP 400 = no
    verdict; mul: right again)."""
    cat = Catalog.load(REGISTRY)
    tasks = {label: cat.task(label) for label in (ADD, MUL, GUESS, TOOLS)}
    by_prompt = {t.prompt_text(): (label, t) for label, t in tasks.items()}
    attempt: dict[str, int] = {}
    target = int(tasks[TOOLS].hidden["answer"])

    def reply(messages):
        label, task = by_prompt[messages[0]["content"]]
        if len(messages) == 1:
            attempt[label] = attempt.get(label, -1) + 1
        good, turn = attempt[label] == 0, sum(m["role"] == "assistant" for m in messages)
        if label == TOOLS:
            if not good:
                return web.json_response({"error": {"message": "overloaded"}}, status=400)
            number = target if turn else target + 1
            return {"content": None, "tool_calls": [{"id": f"c{turn}", "type": "function", "function": {
                "name": "guess", "arguments": json.dumps({"number": number})}}]}
        wrong = cat.get(task.env_id).env.wrong_responses(task)[0]
        if label == MUL or (label == ADD and good):
            return task.reference
        if label == GUESS and good and turn == 1:
            return task.reference
        return wrong

    tmp = tmp_path_factory.mktemp("export")
    prompts, out = tmp / "prompts.jsonl", tmp / "traj.jsonl"
    prompts.write_text("".join(json.dumps({"input": tasks[l].prompt, "label": l}) + "\n" for l in tasks))
    with OpenAIStub(reply) as stub:
        assert main(["eval", "--registry", REGISTRY, "--base-url", stub.url, "--model", stub.model, "--prompts",
                     str(prompts), "--n", "0", "--attempts", "2", "--temperature", "1", "--concurrency", "1",
                     "--max-no-verdict", "0.5", "--out", str(out), "--json"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["label"], r["passed"], bool(r["error"])) for r in records] == [
        (ADD, True, False), (ADD, False, False), (MUL, True, False), (MUL, True, False),
        (GUESS, True, False), (GUESS, False, False), (TOOLS, True, False), (TOOLS, False, True)]
    return cat, out, records


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["export", *argv])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def test_sft_keeps_the_passing_trajectories_whole_with_their_labels(traj, tmp_path, capsys):
    cat, path, records = traj
    rc, out, _ = _run(capsys, str(path), "--registry", REGISTRY, "--format", "sft", "--out", str(tmp_path / "sft"))
    assert rc == 0
    assert out.strip() == (f"wrote 5 sft rows (trajectories) of 4 environments from 8 trajectories to {tmp_path / 'sft'} "
                           "(a dataset saved to disk (datasets.load_from_disk)); skipped: failed: 2; no verdict: 1")
    ds = datasets.load_from_disk(str(tmp_path / "sft"))
    assert sorted(ds["label"]) == sorted([ADD, MUL, MUL, GUESS, TOOLS]) and all(ds["passed"]) and ds["reward"] == [1.0] * 5
    rows = {row["label"]: row for row in ds}
    for label, row in rows.items():  # the prompt is what the model was sent; messages = prompt + completion
        rec = next(r for r in records if r["label"] == label and r["passed"])
        assert [m["content"] for m in row["prompt"]] == [m["content"] for m in rec["prompt"]]
        assert row["messages"] == row["prompt"] + row["completion"] and row["env"] == json.loads(label)["env"]
    add = rows[ADD]["completion"]
    assert [(m["role"], m["content"]) for m in add] == [("assistant", cat.task(ADD).reference)]
    # the multi-turn episode: every turn, the environment's hint between them as a user message
    guess = rows[GUESS]["completion"]
    rec = next(r for r in records if r["label"] == GUESS and r["passed"])
    assert [m["role"] for m in guess] == ["assistant", "user", "assistant"] and rows[GUESS]["turns"] == 2
    assert guess[0]["content"] == rec["turns"][0]["action"] and guess[1]["content"] == rec["turns"][0]["observation"]
    assert guess[1]["content"].startswith("No: the number is") and guess[2]["content"] == cat.task(GUESS).reference
    # the tool episode: calls, their results as tool messages, and the tools' schemas from the registry
    tools = rows[TOOLS]
    assert [m["role"] for m in tools["completion"]] == ["assistant", "tool", "assistant"]
    first, result, last = tools["completion"]
    target = int(cat.task(TOOLS).hidden["answer"])
    assert first["content"] is None and json.loads(first["tool_calls"][0]["function"]["arguments"]) == {"number": target + 1}
    assert result == {"role": "tool", "content": f"no: the number is lower than {target + 1}", "tool_calls": None,
                      "tool_call_id": "c0", "name": "guess"}
    assert json.loads(last["tool_calls"][0]["function"]["arguments"]) == {"number": target}
    assert tools["tools"] == cat.tools(TOOLS) and rows[ADD]["tools"] is None


def test_dpo_pairs_a_passing_and_a_failing_trajectory_of_one_task(traj, tmp_path, capsys):
    cat, path, records = traj
    out = tmp_path / "pairs.parquet"
    rc, text, _ = _run(capsys, str(path), "--registry", REGISTRY, "--format", "dpo", "--out", str(out), "--json")
    assert rc == 0
    summary = json.loads(text)
    assert summary["rows"] == 2 and summary["written_as"] == "parquet" and summary["skipped"] == {
        "no verdict": 1, "tasks without a failing trajectory": 2}  # mul: both passed; tools: the other has no verdict
    ds = datasets.load_dataset("parquet", data_files=str(out), split="train")
    rows = {row["label"]: row for row in ds}
    assert set(rows) == {ADD, GUESS}
    for label, row in rows.items():
        good, bad = (next(r for r in records if r["label"] == label and r["passed"] is p) for p in (True, False))
        assert (row["chosen_reward"], row["rejected_reward"]) == (good["reward"], bad["reward"]) == (1.0, 0.0)
        assert [m["content"] for m in row["chosen"] if m["role"] == "assistant"] == [t["action"] for t in good["turns"]]
        assert [m["content"] for m in row["rejected"] if m["role"] == "assistant"] == [t["action"] for t in bad["turns"]]
        assert [m["content"] for m in row["prompt"]] == [m["content"] for m in good["prompt"]]
    assert len(rows[GUESS]["rejected"]) == 2 * cat.get("arith/guess-v1").max_turns - 1  # its every turn, to the last


def test_min_reward_select_and_a_jsonl_file(traj, tmp_path, capsys):
    cat, path, records = traj
    # as a verifier with partial credit would have graded it: one passing trajectory below 0.9
    lower = tmp_path / "lower.jsonl"
    lower.write_text("".join(json.dumps({**r, "reward": 0.8} if r["label"] == MUL and r["passed"] else r) + "\n"
                             for r in records[:4]))
    out = tmp_path / "sft.jsonl"
    rc, text, _ = _run(capsys, str(lower), "--format", "sft", "--min-reward", "0.9", "--select", "arith/*", "--out", str(out),
                       "--json")
    assert rc == 0 and json.loads(text)["skipped"] == {"below --min-reward": 2, "failed": 1}
    ds = datasets.load_dataset("json", data_files=str(out), split="train")
    assert ds["label"] == [ADD] and ds[0]["completion"][0]["content"] == cat.task(ADD).reference
    rc, text, _ = _run(capsys, str(path), "--format", "sft", "--select", "arith/guess*", "--out", str(tmp_path / "g"), "--json")
    assert rc == 0 and json.loads(text)["environments"] == ["arith/guess-tools-v1", "arith/guess-v1"] \
        and json.loads(text)["skipped"]["not selected"] == 4


@pytest.mark.parametrize("content, message", [
    ('{"input": "hi", "label": "{\\"env\\": \\"arith/add-v1\\", \\"seed\\": 1}"}\n',  # a prompt file
     "{path}:1: expected a trajectory written by `rlhub eval --out`"),
    ("not json at all\n", "{path}:1: not JSON; expected a trajectory written by `rlhub eval --out`"),
    ('{"label": "x", "turns": [], "reward": 1, "passed": true, "error": null}\n',
     "{path}:1: bad label 'x'"),
    ('{"label": "x", "turns": "x", "reward": 0, "passed": false}\n', "{path}:1: 'turns' must be a list of turns"),
    ('{"label": "{\\"env\\": \\"a/b-v1\\", \\"seed\\": 1}", "turns": [{"action": "1"}], "reward": "high", "passed": true}\n',
     "{path}:1: 'reward' must be a number, got 'high'"),
    ("", "the trajectories file holds no trajectories: nothing to export"),
])
def test_a_file_that_is_not_trajectories_is_one_line_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "in.jsonl"
    path.write_text(content)
    rc, out, err = _run(capsys, str(path), "--format", "sft", "--out", str(tmp_path / "o"))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("rlhub: error: " + message.format(path=path)), err
    assert not (tmp_path / "o").exists()


def test_an_empty_selection_and_nothing_to_export_say_so(traj, tmp_path, capsys):
    path = traj[1]
    rc, _, err = _run(capsys, str(path), "--format", "dpo", "--select", "cad/*", "--out", str(tmp_path / "o"))
    assert rc == 2 and "--select 'cad/*' matches none of the 8 trajectories' environments (arith/add-v1" in err
    rc, _, err = _run(capsys, str(path), "--format", "dpo", "--select", "arith/mul-v1", "--out", str(tmp_path / "o"))
    assert rc == 2 and "nothing to export as dpo: none of its 8 trajectories gives a task with both a passing and a " \
                       "failing trajectory (not selected: 6; tasks without a failing trajectory: 1)" in err
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    rc, _, err = _run(capsys, str(path), "--format", "sft", "--out", str(tmp_path / "busy"))
    assert rc == 2 and "holds other files than a saved dataset" in err and not (tmp_path / "o").exists()
