"""`rlhub train --dry-run` on the default registry: text, chat and image prompts in one dataset
that OpenRLHF's own loaders read, in JSONL and Parquet."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import yaml
from openrlhf_harness import REPO

from hub.cli import main


def dry_run(tmp_path, capsys, *flags, rc=0, **run):
    path = tmp_path / "run.yaml"
    run = {"name": "default", "model": "some/model", "registry": str(REPO / "registry.yaml"),
           "output_dir": str(tmp_path / "runs"), **run}
    path.write_text(yaml.safe_dump({k: v for k, v in run.items() if v is not None}))
    got = main(["train", str(path), "--dry-run", "--json", *flags])
    out = capsys.readouterr()
    assert got == rc, out.err
    return json.loads(out.out), out.err


def flag(argv, name):
    return argv[argv.index(name) + 1]


def openrlhf_reads(path, tokenizer):
    """The rows as OpenRLHF 0.11 loads them: its dataset blending, then its PromptDataset with
    the chat template applied (the run's --data.* settings)."""
    from openrlhf.datasets.prompts_dataset import PromptDataset
    from openrlhf.datasets.utils import blending_datasets

    data = SimpleNamespace(input_key="input", label_key="label", apply_chat_template=True, image_key="images")
    strategy = SimpleNamespace(args=SimpleNamespace(data=data), print=lambda *a, **k: None, is_rank_0=lambda: True)
    return PromptDataset(blending_datasets(str(path), None, strategy), tokenizer, strategy)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_mixed_text_chat_and_image_prompts_make_one_dataset_openrlhf_reads(tmp_path, capsys, tokenizer, fmt):
    from openrlhf.utils.vlm_utils import load_images

    summary, err = dry_run(tmp_path, capsys, mixture={"train_prompts": 64, "eval_prompts": 8, "format": fmt})
    argv = summary["argv"]
    assert "--data.apply_chat_template" in argv and flag(argv, "--data.image_key") == "images"
    train = openrlhf_reads(flag(argv, "--data.prompt_dataset"), tokenizer)
    held = openrlhf_reads(flag(argv, "--eval.dataset"), tokenizer)
    assert len(train) == 64 and len(held) == 8
    domains = {source.split("/")[0] for source in train.datasources}
    assert {"terminal", "docqa", "cad"} <= domains  # text, long-document and CAD prompts side by side
    with_images = [i for i, imgs in enumerate(train.images) if imgs]
    assert with_images, "the default mixture has image prompts (CAD drawings, document pages)"
    assert int(flag(argv, "--data.max_images_per_prompt")) == max(len(train.images[i]) for i in with_images)
    assert "vision-language model" in err  # the run says what image prompts ask of the model
    for i in with_images:
        pictures = load_images(train.images[i])  # OpenRLHF's own loader: real PNG files
        assert len(pictures) == len(train.images[i]) and all(p.size[0] >= 100 for p in pictures)
    from hub.config.catalog import Catalog
    from hub.trainers.openrlhf.launch import offers_tools

    catalog = Catalog.load(REPO / "registry.yaml")
    for i, prompt in enumerate(train.prompts):
        # a tool environment's prompt carries its tools in a system turn (no tokenizer of the model here)
        tools = offers_tools(catalog.get(train.datasources[i]).env)
        assert prompt.startswith("<|im_start|>system\n" if tools else "<|im_start|>user\n"), train.datasources[i]
        assert prompt.endswith("<|im_start|>assistant\n") and ("# Tools" in prompt) == tools
        assert json.loads(train.labels[i])["env"] == train.datasources[i]
    assert not set(train.labels) & set(held.labels)


def test_dry_run_with_default_settings_on_the_default_registry(tmp_path, capsys, monkeypatch):
    """What a new user runs first: nothing but a name and a model (10,000 training prompts), no
    registry named anywhere and no ./registry.yaml: the installed plugins' registries, as every verb.
    With --preflight: the lengths it chose, and vLLM (not installed here) reported missing."""
    monkeypatch.chdir(tmp_path)
    summary, err = dry_run(tmp_path, capsys, "--preflight", rc=1, registry=None)
    assert "rlhub: registry: the installed plugins' registries (rlhub (core)" in err
    assert summary["registry"].startswith("the installed plugins' registries") and "RLHUB_REGISTRY" not in summary["env"]
    lengths = summary["lengths"]
    chosen = flag(summary["argv"], "--data.max_len")
    assert int(chosen) == lengths["max_len"] >= lengths["need"]["max"] > lengths["prompt_tokens"]["max"] > 40_000
    assert lengths["lines"][0].startswith(f"--data.max_len {chosen}, --rollout.max_new_tokens 1024: covers the longest")
    assert lengths["sampled"] < lengths["rows"] == 10_256 and lengths["per_env"] == 8  # a sample, not every row
    vllm = next(c for c in summary["preflight"] if c["component"] == "vllm")
    assert vllm["state"] == "missing" and vllm["fails"] and vllm["fix"] == "pip install 'vllm==0.29.0'"
    assert "preflight: missing here: vllm" in err
    assert summary["splits"] == {"train": 10_000, "eval": 256} and summary["validated"]
    assert summary["mode"] == "agent"  # the default registry has multi-turn environments
    files = summary["files"]
    assert files["train"].startswith(summary["run_dir"]) and "10000 prompts" in files["train"]
    rows = [json.loads(line) for line in open(flag(summary["argv"], "--data.prompt_dataset"))]
    assert len(rows) == 10_000 and all(isinstance(r["input"], list) and isinstance(r["images"], list) for r in rows)
    assert all(all(isinstance(m["content"], str) for m in r["input"]) for r in rows)
    images = [path for r in rows for path in r["images"]]
    assert images and all(path.startswith(files["images"]) for path in images)
    assert sum(r["input"][-1]["content"].count("<image>") for r in rows) == len(images)
