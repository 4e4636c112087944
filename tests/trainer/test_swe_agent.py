"""Repository-scale sessions (`swe/*`, rlhub-swe) through OpenRLHF's own multi-turn loop: a scripted
policy explores, reproduces the bug, patches and submits, and the reward that comes out is the
verdict; `rlhub train --dry-run` on the default registry with `swe/*` added makes a dataset
OpenRLHF reads and an agent file that plays those sessions."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os

import pytest
import yaml
from openrlhf_harness import REPO, ScriptedEngine, sampling_params

from hub.cli import main
from hub.config.catalog import Catalog

pytest.importorskip("rlhub_swe", reason="needs rlhub-swe: pip install -e plugins/envs/swe")

from rlhub_swe import scripted
from rlhub_swe.projects.kinds import NAMES, kind
from rlhub_swe.tasks import build

MAX_LENGTH = 1_000_000  # tokens (bytes, with this tokenizer): a repository's worth of observations


@pytest.fixture
def swe_registry(tmp_path, monkeypatch):
    """The default registry with `swe/*` added (dataset paths made absolute), as the agent's registry."""
    data = yaml.safe_load((REPO / "registry.yaml").read_text())
    for entry in data["environments"]:
        source = entry.get("dataset") or {}
        if source.get("path") and not os.path.isabs(source["path"]):
            source["path"] = str(REPO / source["path"])
    data["environments"].append({"id": "swe/*", "weight": 1.0, "tags": ["swe"]})
    path = tmp_path / "registry.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    monkeypatch.setenv("RLHUB_REGISTRY", str(path))
    return path


def scripted_fix(cat: Catalog, label: dict) -> list[str]:
    """A policy's turns for a bug session (rlhub_swe.scripted): look around, reproduce the issue with
    a test of its own, apply the fix as a diff and re-run, submit."""
    return scripted.turns(build(cat.get(label["env"]).env.params(label["seed"])))


def load_agent_executor(path):
    """What OpenRLHF's vLLM actor does with --train.agent_func_path."""
    from openrlhf.utils.agent import AgentExecutorBase

    spec = importlib.util.spec_from_file_location("agent_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert issubclass(module.AgentExecutor, AgentExecutorBase)
    return module.AgentExecutor()


def play(executor, tokenizer, prompt: str, label: dict, turns: list[str]):
    engine = ScriptedEngine(tokenizer, {prompt: turns})
    templated = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], tokenize=False,
                                              add_generation_prompt=True)
    out = asyncio.run(executor.execute(templated, json.dumps(label), sampling_params(), MAX_LENGTH, tokenizer, engine))
    return out, engine


def test_openrlhf_agent_plays_a_swe_session_to_full_reward(swe_registry, tokenizer):
    cat = Catalog.load(swe_registry)
    env = f"swe/{NAMES[0]}-bug-{kind(NAMES[0]).bugs[0].cls.replace('_', '-')}-session-v1"
    label = {"env": env, "seed": 5}
    task = cat.task(label)
    turns = scripted_fix(cat, label)
    out, engine = play(load_agent_executor(REPO / "trainer" / "agent_func.py"), tokenizer, task.prompt_text(), label, turns)
    assert out["reward"] == 1.0 and out["extra_logs"]["rlhub/passed"] == 1.0
    assert out["extra_logs"]["rlhub/turns"] == 4.0 and len(out["action_ranges"]) == 4
    assert engine.calls == [t + "<|im_end|>" for t in turns]
    transcript = tokenizer.decode(out["observation_tokens"], skip_special_tokens=False)
    # what the sandbox said came back to the model as user turns, in order
    assert transcript.index("1 failed") < transcript.index("patch -p1 < (your diff)") < transcript.index("1 passed")
    assert "graded: every hidden test passed" not in transcript  # the verdict is the reward, not a turn
    assert transcript.count("<|im_start|>user\n") == 4  # the prompt and three observations
    # the same turns played on the episode directly earn the same verdict
    episode = cat.episode(label)
    episode.reset()
    for turn in turns:
        step = episode.step(turn)
    assert step.done and step.verdict.reward == out["reward"]


def test_openrlhf_agent_swe_session_that_changes_nothing_earns_zero(swe_registry, tokenizer):
    cat = Catalog.load(swe_registry)
    label = {"env": f"swe/{NAMES[0]}-feature-session-v1", "seed": 2}
    task = cat.task(label)
    out, _ = play(load_agent_executor(REPO / "trainer" / "agent_func.py"), tokenizer, task.prompt_text(), label,
                  ["```bash\npython -m pytest -q\n```", "Looks fine to me.\nSUBMIT"])
    assert out["reward"] == 0.0 and out["extra_logs"]["rlhub/passed"] == 0.0 and out["extra_logs"]["rlhub/turns"] == 2.0
    assert out["extra_logs"]["rlhub/no_verdict"] == 0.0  # a verdict of 0, not a missing one


def test_dry_run_with_swe_in_the_default_registry(swe_registry, tmp_path, capsys, tokenizer):
    """`rlhub train --dry-run` samples swe prompts beside the others (single-turn diffs, whole
    repositories and sessions), OpenRLHF reads the dataset, and the run's own agent file plays a
    swe session from it."""
    from types import SimpleNamespace

    from openrlhf.datasets.prompts_dataset import PromptDataset
    from openrlhf.datasets.utils import blending_datasets

    run = tmp_path / "run.yaml"
    run.write_text(yaml.safe_dump({"name": "swe", "model": "some/model", "registry": str(swe_registry),
                                   "output_dir": str(tmp_path / "runs"), "turn_format": "chatml",
                                   "mixture": {"train_prompts": 64, "eval_prompts": 8}}))
    assert main(["train", str(run), "--dry-run", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    argv = summary["argv"]
    assert summary["mode"] == "agent" and summary["validated"]
    train_path = argv[argv.index("--data.prompt_dataset") + 1]
    with open(train_path) as f:
        rows = [json.loads(line) for line in f]
    swe = [r for r in rows if r["datasource"].startswith("swe/")]
    assert len(swe) >= 5 and {"terminal", "cad", "docqa"} <= {r["datasource"].split("/")[0] for r in rows}
    cat = Catalog.load(swe_registry)
    for row in swe:
        task = cat.task(row["label"])
        assert row["input"][-1] == {"role": "user", "content": task.prompt_text()} and row["images"] == []
        if row["tools"]:  # a tool session: its tools as the system turn (no tokenizer at hand to render them)
            assert row["input"][0]["role"] == "system" and '"name": "view"' in row["input"][0]["content"]
        else:
            assert len(row["input"]) == 1
    data = SimpleNamespace(input_key="input", label_key="label", apply_chat_template=True, image_key="images")
    strategy = SimpleNamespace(args=SimpleNamespace(data=data), print=lambda *a, **k: None, is_rank_0=lambda: True)
    dataset = PromptDataset(blending_datasets(train_path, None, strategy), tokenizer, strategy)
    assert len(dataset) == 64 and sum(s.startswith("swe/") for s in dataset.datasources) == len(swe)

    session = next(r for r in swe if "-bug-" in r["datasource"] and r["datasource"].endswith("-session-v1"))
    label = json.loads(session["label"])
    agent_file = argv[argv.index("--train.agent_func_path") + 1]
    out, _ = play(load_agent_executor(agent_file), tokenizer, session["input"][0]["content"], label, scripted_fix(cat, label))
    assert out["reward"] == 1.0 and out["extra_logs"]["rlhub/passed"] == 1.0
