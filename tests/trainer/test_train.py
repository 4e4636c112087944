"""`rlhub train RUN.yaml`: datasets, reward/agent files, and the command OpenRLHF's parser accepts."""

from __future__ import annotations

import asyncio
import json

import pytest
import yaml
from openrlhf_harness import REPO, ScriptedEngine, sampling_params

from hub.config.catalog import Catalog
from hub.cli import main


def write_run(tmp_path, **overrides):
    run = {"name": "t", "model": "some/model", "gpus": 2, "registry": str(REPO / "registry.yaml"),
           "mixture": {"train_prompts": 40, "eval_prompts": 10, "select": "arith/add-v1"}, "output_dir": str(tmp_path / "runs")}
    run.update(overrides)
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(run))
    return path


def dry_run(path, capsys):
    rc = main(["train", str(path), "--dry-run", "--json"])
    captured = capsys.readouterr()
    return rc, (json.loads(captured.out) if rc == 0 else captured.err)


def test_dry_run_writes_a_held_out_split_and_a_working_reward_file(tmp_path, capsys, tokenizer):
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    rc, summary = dry_run(write_run(tmp_path), capsys)
    assert rc == 0 and summary["mode"] == "file" and summary["validated"]
    argv = summary["argv"]
    reward_file = argv[argv.index("--reward.remote_url") + 1]
    assert argv[argv.index("--algo.advantage.estimator") + 1] == "group_norm"
    train = [json.loads(l) for l in open(argv[argv.index("--data.prompt_dataset") + 1])]
    held = [json.loads(l) for l in open(argv[argv.index("--eval.dataset") + 1])]
    assert len(train) == 40 and len(held) == 10
    assert not {r["label"] for r in train} & {r["label"] for r in held}
    assert all(r["datasource"] == "arith/add-v1" for r in train)
    # The run's own reward file, loaded by OpenRLHF, grades the run's own prompts.
    cat = Catalog.load(REPO / "registry.yaml")
    executor = SingleTurnAgentExecutor(remote_rm_url=reward_file)
    for row in train[:3]:
        task = cat.task(row["label"])
        assert row["input"] == [{"role": "user", "content": task.prompt}] and row["images"] == []
        engine = ScriptedEngine(tokenizer, {task.prompt: [task.reference]})
        prompt = tokenizer.apply_chat_template(row["input"], tokenize=False, add_generation_prompt=True)
        out = asyncio.run(executor.execute(prompt, row["label"], sampling_params(32), 2048, tokenizer, engine))
        assert out["reward"] == [1.0]


def test_multi_turn_mixture_gets_the_agent_file_and_reinforce_preset(tmp_path, capsys):
    run = write_run(tmp_path, mixture={"train_prompts": 20, "eval_prompts": 0, "format": "parquet", "select": "arith/*"},
                    algorithm={"preset": "reinforce_baseline", "n_samples_per_prompt": 4}, turn_format="llama3")
    rc, summary = dry_run(run, capsys)
    assert rc == 0 and summary["mode"] == "agent"
    argv = summary["argv"]
    assert argv[argv.index("--algo.advantage.estimator") + 1] == "reinforce_baseline"
    assert "--algo.dynamic_filtering_enable" in argv and "--eval.dataset" not in argv
    assert argv[argv.index("--data.prompt_dataset") + 1].endswith("train.parquet")
    agent = open(argv[argv.index("--train.agent_func_path") + 1]).read()
    assert "<|eot_id|>" in agent and "class AgentExecutor(RlhubAgentExecutor)" in agent


@pytest.mark.parametrize("overrides, message", [
    ({"openrlhf": {"rollout.n_samples_per_prompt": 1}}, "OpenRLHF's checks reject the command: group_norm requires"),
    ({"openrlhf": {"remote_rm_url": "x"}}, "unrecognized arguments: --remote_rm_url"),
    ({"algorithm": {"presett": "grpo"}}, "run.yaml:2: algorithm.presett: unknown field"),
    ({"algorithm": {"preset": "ppo"}}, "algorithm.preset: Input should be 'grpo' or 'reinforce_baseline'"),
    ({"rewards": "file", "mixture": {"select": "arith/guess-v1", "train_prompts": 5, "eval_prompts": 0}},
     "multi-turn environments (arith/guess-v1"),
])
def test_bad_runs_are_rejected_with_the_reason(tmp_path, capsys, overrides, message):
    path = write_run(tmp_path, **overrides)
    rc, err = dry_run(path, capsys)
    assert rc == 2 and message in err
    if "algorithm." in message:
        assert str(path) in err  # which file


def test_missing_model_names_file_and_field(tmp_path, capsys):
    path = tmp_path / "run.yaml"
    path.write_text("name: x\n")
    rc, err = dry_run(path, capsys)
    assert rc == 2 and f"{path}:1: model: required field is missing" in err


def test_a_registry_by_pinned_url_is_what_the_runs_reward_file_fetches_on_each_node(tmp_path, capsys, monkeypatch):
    import subprocess
    import sys

    from hub.assets.push import push

    src = tmp_path / "mine" / "registry.yaml"
    src.parent.mkdir()
    src.write_text("environments:\n  - id: arith/add-v1\n")
    [out] = push([str(src)], str(tmp_path / "store"))
    monkeypatch.setenv("RLHUB_ASSET_CACHE", str(tmp_path / "here"))
    rc, summary = dry_run(write_run(tmp_path, registry=out["pin"]), capsys)
    assert rc == 0, summary
    argv = summary["argv"]
    reward_file = argv[argv.index("--reward.remote_url") + 1]
    row = json.loads(open(argv[argv.index("--data.prompt_dataset") + 1]).readline())
    answer = Catalog.load(out["pin"]).task(row["label"]).reference
    # Another node: an empty asset cache, the file OpenRLHF loads, nothing else.
    code = ("import importlib.util, sys, json; spec = importlib.util.spec_from_file_location('r', sys.argv[1]); "
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
            "print(json.dumps(m.reward_func([sys.argv[3], 'no'], ['', ''], [sys.argv[2]] * 2)['rewards']))")
    env = {**__import__("os").environ, "RLHUB_ASSET_CACHE": str(tmp_path / "node2")}
    env.pop("RLHUB_REGISTRY", None)
    done = subprocess.run([sys.executable, "-c", code, reward_file, row["label"], answer], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [1.0, 0.0]
    assert any((tmp_path / "node2").rglob("*")) and out["pin"] in open(reward_file).read()
